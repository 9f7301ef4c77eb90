"""The figure of study temporal_holdout ("Estimating Out-of-Sample Error", Random folds against a
temporal holdout, on daily sales)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs

# The truly next period, which the holdout tracks: wide and pale under the holdout's curve.
NEXT_PERIOD = {"color": style.TRUTH, "linewidth": 3.0, "alpha": 0.5, "mfc": "white"}
# The holdout's cut is a mark on the day axis, not a bound like the forecast floor: dash-dotted,
# so that the two grey reference marks are told apart in the legend.
CUT = {**style.LINES["reference"], "linestyle": "-."}
# Random folds denied only each held-out day's future: the same blue, an open diamond.
FUTURE_ONLY = {"color": style.TRAIN, "fmt": "D", "mfc": "white", "markersize": 7, "capsize": 3}


def random_folds_against_temporal_holdout(
    example: pd.DataFrame,
    by_phi: pd.DataFrame,
    by_radius: pd.DataFrame,
    future_withheld: pd.DataFrame,
    contrast: pd.Series,
    *,
    n_cuts: int,
) -> Figure:
    """An example stretch of sales (top), the three errors against phi and random folds against
    the radius (bottom).

    ``future_withheld`` is ``errors_with_future_withheld``: random folds denied only the days
    after each held-out day, drawn beside the two-sided radii (the record
    oos.shop.drop-is-knowing-the-future: the future alone closes only part of the gap).
    ``contrast`` is the contrast table's row; it gives the main phi, K and the horizon. ``n_cuts``
    is the number of temporal-holdout cuts. The truly-next-period error, which the holdout tracks,
    is drawn wide and pale under the holdout's so that neither hides the other; at the main phi
    the two are also written on the panel, one above and one below the lines.
    """
    phi_main, n_folds, horizon_days = contrast["ar_coefficient"], int(contrast["folds"]), int(contrast["horizon_days"])
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
    ex_ax.axvline(cut, **CUT, label=f"day {cut}: the holdout's cut")
    ex_ax.set(
        xlabel="day",
        ylabel="sales (units per day)",
        title=f"Series 0, φ = {phi_main}: random folds fill gaps; the holdout forecasts from day {cut} on",
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
        f"a gap of {contrast['gap_independent_noise_mse']:.1f} "
        f"(s.e. {contrast['gap_independent_noise_mse_se']:.1f}) at φ = 0"
    )
    phi_ax.set(
        xlabel="AR(1) coefficient φ of the noise",
        ylabel="mean squared error (units²)",
        title=f"{at_zero.capitalize()}; at φ = {phi_main}\nrandom folds are "
        f"{contrast['random_below_temporal_percent']:.0f}% lower than the holdout",
    )

    radii = by_radius[by_radius["ar_coefficient"] == phi_main]
    radius = radii["exclusion_radius_days"]
    style.error_bars(
        rad_ax,
        radius,
        radii["random_folds_mse"],
        radii["random_folds_mse_se"],
        color=style.TRAIN,
        label="random folds, days withheld on both sides",
    )
    future = future_withheld[future_withheld["ar_coefficient"] == phi_main].iloc[0]
    after_days = int(future["future_withheld_days"])
    style.error_bars(
        rad_ax,
        after_days,
        future["random_folds_mse"],
        future["random_folds_mse_se"],
        **FUTURE_ONLY,
        label=f"random folds, only the {after_days} days after withheld",
    )
    # The next period (65.0) and the holdout (64.8) lie on one another: the pale wide line shows
    # under the thin dashed one, and each is written on the panel, one above and one below.
    for value, se, how, label, side in (
        (contrast["next_period_mse"], contrast["next_period_mse_se"], "truth", f"truly next {horizon_days} days", 1),
        (contrast["temporal_holdout_mse"], contrast["temporal_holdout_mse_se"], "holdout", "temporal holdout", -1),
    ):
        line = (
            style.LINES["truth"] if how == "truth" else {"color": style.EXPECTED, "linestyle": "--", "linewidth": 1.4}
        )
        drawn = rad_ax.axhline(value, **line)
        style.explained(drawn, "written on the panel")
        rad_ax.annotate(
            f"{label}: {value:.1f} (s.e. {se:.1f})",
            xy=(0.02, value),
            xycoords=("axes fraction", "data"),
            xytext=(0, 5 * side),
            textcoords="offset points",
            va="bottom" if side > 0 else "top",
            color=line["color"] if how != "truth" else style.TRUTH,
            fontsize=style.SMALL_PT,
        )
    rad_ax.set(
        xlabel="days withheld beside each held-out day",
        ylabel="mean squared error (units²)",
        title=f"φ = {phi_main}: withholding {int(contrast['widest_exclusion_radius_days'])} days each side closes "
        f"{contrast['gap_closed_widest_radius_percent']:.0f}%\nof the gap; the {after_days} days after alone close "
        f"{contrast['gap_closed_future_withheld_percent']:.0f}%",
    )
    top = max(contrast["next_period_mse"], contrast["temporal_holdout_mse"], radii["random_folds_mse"].max())
    rad_ax.set_ylim(top=1.14 * top)  # room for the next period's words above its line
    rad_ax.set_xticks(radii["exclusion_radius_days"])
    style.integer_axis(rad_ax, "x")
    style.figure_legend(fig, axes=[ex_ax, phi_ax, rad_ax])

    fig.suptitle(
        f"Random folds report {contrast['random_below_temporal_percent']:.0f}% less error than a temporal holdout;\n"
        f"withholding the {int(contrast['widest_exclusion_radius_days'])} days on each side of a held-out day "
        f"closes {contrast['gap_closed_widest_radius_percent']:.0f}% of the gap ({int(contrast['series'])} series)"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    tables = inputs.tables
    figure = random_folds_against_temporal_holdout(
        tables["example_series"],
        tables["by_ar_coefficient"],
        tables["by_exclusion_radius"],
        tables["future_withheld"],
        tables["contrast"].iloc[0],
        n_cuts=len(inputs.config["temporal_holdout"]["cut_fractions"]),
    )
    return {"random_folds_against_temporal_holdout": figure}
