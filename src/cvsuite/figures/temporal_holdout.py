"""The figure of study temporal_holdout ("Estimating Out-of-Sample Error", Random folds against a
temporal holdout, on daily sales)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.error_bars import error_bars


def random_folds_against_temporal_holdout(
    example: pd.DataFrame,
    by_phi: pd.DataFrame,
    by_radius: pd.DataFrame,
    verdict: pd.Series,
    *,
    n_cuts: int,
    decision_standard_errors: float,
) -> Figure:
    """An example stretch of sales, the three errors against phi, and random folds against the radius.

    ``verdict`` is the verdict table's row; it gives the main phi, K and the horizon. Error bars are
    ``decision_standard_errors`` Monte Carlo SEs; ``n_cuts`` is the number of temporal-holdout cuts.
    """
    z = decision_standard_errors
    phi_main, n_folds, horizon_days = verdict["ar_coefficient"], verdict["folds"], verdict["horizon_days"]
    fig, (ex_ax, phi_ax, rad_ax) = style.subplots(1, 3, figsize=(16, 4.8), layout="constrained")

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
    ex_ax.axvline(cut, color=style.REFERENCE, linestyle=":", linewidth=1)
    ex_ax.set(
        xlabel="day",
        ylabel="sales (units per day)",
        title=f"Series 1, φ = {phi_main}: random folds fill gaps;\nthe holdout forecasts from day {cut} on",
    )
    ex_ax.legend(fontsize=8, loc="lower left")

    phi = by_phi["ar_coefficient"]
    for name, colour, label in (
        ("random_folds", style.TRAIN, f"random {n_folds}-fold CV"),
        ("temporal_holdout", style.EXPECTED, f"temporal holdout ({n_cuts} cuts)"),
        ("next_period", "black", f"truly next {horizon_days} days"),
    ):
        error_bars(phi_ax, phi, by_phi, f"{name}_mse", z=z, color=colour, label=label)
    phi_ax.plot(
        phi, by_phi["forecast_floor_mse"], "--", color=style.REFERENCE, label="least error any forecast can reach"
    )
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
    phi_ax.legend(fontsize=8)

    radii = by_radius[by_radius["ar_coefficient"] == phi_main]
    radius = radii["exclusion_radius_days"]
    error_bars(
        rad_ax, radius, radii, "random_folds_mse", z=z, color=style.TRAIN, label="random folds, nearby days withheld"
    )
    for value, se, colour, label in (
        (verdict["temporal_holdout_mse"], verdict["temporal_holdout_mse_se"], style.EXPECTED, "temporal holdout"),
        (verdict["next_period_mse"], verdict["next_period_mse_se"], "black", "truly next period"),
    ):
        rad_ax.axhline(value, color=colour, linestyle="--", linewidth=1, label=f"{label} ({value:.1f} ± {se:.1f})")
    rad_ax.set(
        xlabel="days withheld each side of a held-out day",
        ylabel="mean squared error (units²)",
        title=f"φ = {phi_main}: withholding {int(verdict['widest_exclusion_radius_days'])} days each side\n"
        f"closes {verdict['gap_closed_widest_radius_percent']:.0f}% of the gap",
    )
    rad_ax.set_xticks(radii["exclusion_radius_days"])
    rad_ax.legend(fontsize=8, loc="lower right")

    why = (
        "because they learn each held-out day from its neighbours"
        if verdict["random_folds_learn_from_neighbouring_days"]
        else "and the neighbouring days do not explain it"
    )
    fig.suptitle(
        f"Random folds report {verdict['random_below_temporal_percent']:.0f}% less error than a temporal holdout "
        f"{why} ({int(verdict['series'])} series; bars ±{z:g} MC SE)"
    )
    return fig
