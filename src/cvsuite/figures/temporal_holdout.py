"""The figure of study temporal_holdout ("Estimating Out-of-Sample Error", Random folds against a
temporal holdout, on daily sales)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style

# The truly next period, which the holdout tracks: wide and pale under the holdout's curve.
NEXT_PERIOD = {"color": style.TRUTH, "linewidth": 3.0, "alpha": 0.5, "mfc": "white"}


def random_folds_against_temporal_holdout(
    example: pd.DataFrame, by_phi: pd.DataFrame, by_radius: pd.DataFrame, verdict: pd.Series, *, n_cuts: int
) -> Figure:
    """An example stretch of sales (top), the three errors against phi and random folds against
    the radius (bottom).

    ``verdict`` is the verdict table's row; it gives the main phi, K and the horizon. ``n_cuts``
    is the number of temporal-holdout cuts. The truly-next-period error, which the holdout tracks,
    is drawn wide and pale under the holdout's so that neither hides the other.
    """
    phi_main, n_folds, horizon_days = verdict["ar_coefficient"], verdict["folds"], verdict["horizon_days"]
    fig, axes = style.subplots(2, 2, figsize=(10.5, 9.5))
    gs = axes[0, 0].get_gridspec()
    for ax in axes[0]:
        ax.remove()
    ex_ax, phi_ax, rad_ax = fig.add_subplot(gs[0, :]), axes[1, 0], axes[1, 1]

    cut = int(example["last_cut_day"].iloc[0])
    stretch = example[(example["day"] >= cut - 35) & (example["day"] < cut + horizon_days)]
    ex_ax.plot(stretch["day"], stretch["sales"], "-", color="black", linewidth=1, label="sales")
    ex_ax.plot(
        stretch["day"],
        stretch["random_fold_prediction"],
        "o",
        color=style.TRAIN,
        markersize=3,
        label="random folds: prediction when held out",
    )
    ex_ax.plot(
        stretch["day"],
        stretch["temporal_holdout_prediction"],
        "-",
        color=style.EXPECTED,
        label=f"temporal holdout: fitted before day {cut}",
    )
    style.reference_line(ex_ax, cut, f"day {cut}: the holdout's cut", vertical=True)
    ex_ax.set(
        xlabel="day",
        ylabel="sales (units per day)",
        title=f"Series 1, φ = {phi_main}: random folds fill gaps; the holdout forecasts from day {cut} on",
    )
    style.integer_axis(ex_ax, "x")

    phi = by_phi["ar_coefficient"]
    curves = (
        ("next_period", -0.01, "o-", NEXT_PERIOD, f"truly next {horizon_days} days"),
        ("random_folds", 0.0, "o-", {"color": style.TRAIN}, f"random {n_folds}-fold CV"),
        ("temporal_holdout", 0.01, "s-", {"color": style.EXPECTED}, f"temporal holdout ({n_cuts} cuts)"),
    )
    for name, shift, fmt, how, label in curves:
        # Shifted a little sideways (display only): the holdout's and the next period's bars coincide.
        mse, se = by_phi[f"{name}_mse"], by_phi[f"{name}_mse_se"]
        style.error_bars(phi_ax, phi + shift, mse, se, fmt=fmt, label=label, **how)
    floor = "least error any forecast can reach"
    phi_ax.plot(phi, by_phi["forecast_floor_mse"], **style.LINES["reference"], label=floor)
    at_zero = (
        "no gap at φ = 0"
        if verdict["no_gap_with_independent_noise"]
        else f"a gap of {verdict['gap_independent_noise_mse']:.1f} at φ = 0"
    )
    phi_ax.set(
        xlabel="AR(1) coefficient φ of the noise",
        ylabel="mean squared error (units²)",
        title=f"{at_zero.capitalize()}; at φ = {phi_main}\nrandom folds are "
        f"{verdict['random_below_temporal_percent']:.0f}% lower than the holdout",
    )

    radii = by_radius[by_radius["ar_coefficient"] == phi_main]
    radius = radii["exclusion_radius_days"]
    style.error_bars(
        rad_ax,
        radius,
        radii["random_folds_mse"],
        radii["random_folds_mse_se"],
        color=style.TRAIN,
        label="random folds, nearby days withheld",
    )
    for value, se, how, label in (
        (verdict["next_period_mse"], verdict["next_period_mse_se"], NEXT_PERIOD, "truly next period"),
        (verdict["temporal_holdout_mse"], verdict["temporal_holdout_mse_se"], {"color": style.EXPECTED}, "holdout"),
    ):
        line = {"linestyle": "--", "linewidth": 1.2, **{k: v for k, v in how.items() if k != "mfc"}}
        rad_ax.axhline(value, **line, label=f"φ = {phi_main}, {label}: {value:.1f} (s.e. {se:.1f})")
    rad_ax.set(
        xlabel="days withheld each side of a held-out day",
        ylabel="mean squared error (units²)",
        title=f"φ = {phi_main}: withholding {int(verdict['widest_exclusion_radius_days'])} days each side\n"
        f"closes {verdict['gap_closed_widest_radius_percent']:.0f}% of the gap",
    )
    top = max(verdict["next_period_mse"], verdict["temporal_holdout_mse"], radii["random_folds_mse"].max())
    rad_ax.set_ylim(top=1.08 * top)  # the two reference lines clear of the frame
    rad_ax.set_xticks(radii["exclusion_radius_days"])
    style.integer_axis(rad_ax, "x")
    style.figure_legend(fig, axes=[ex_ax, phi_ax, rad_ax])

    why = (
        "because they learn each held-out day from its neighbours"
        if verdict["random_folds_learn_from_neighbouring_days"]
        else "and the neighbouring days do not explain it"
    )
    fig.suptitle(
        f"Random folds report {verdict['random_below_temporal_percent']:.0f}% less error than a temporal holdout\n"
        f"{why} ({int(verdict['series'])} series)"
    )
    return fig
