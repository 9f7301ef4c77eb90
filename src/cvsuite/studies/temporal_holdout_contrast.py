"""The contrast of temporal_holdout at its main AR coefficient, as one row of statistics.

"Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily sales, with the
procedure block's "When the observations are ordered in time" and the shop's "The drop from 87% is
the part of the earlier figure that came from knowing the future": what random folds and the
temporal holdout report against the error on the truly next days and the floor no forecast clears,
how much of the gap between them each exclusion radius closes, and how much withholding only each
held-out day's future closes, read from the summaries of ``cvsuite.studies.temporal_holdout`` with
their Monte Carlo SEs. Statistics only: the registry's records decide what they say.
"""

from __future__ import annotations

import pandas as pd

from cvsuite.studies.temporal_holdout import HoldoutDesign


def temporal_holdout_contrast(
    by_phi: pd.DataFrame,
    by_radius: pd.DataFrame,
    design: HoldoutDesign,
    ar_coefficient: float,
    *,
    future_withheld: pd.DataFrame,
    scored_days_before_a_fitted_day: int,
    bias_shares: dict,
) -> pd.DataFrame:
    """The one-row contrast at phi = ``ar_coefficient``, the effect sizes with MC SEs.

    ``design`` gives K and the horizon it reports; ``future_withheld`` is
    ``errors_with_future_withheld``; ``scored_days_before_a_fitted_day`` counts the temporal
    holdout's scored days that come before a day fitted in the same split
    (``scored_days_before_a_fitted_day``: 0 when it keeps the time order).

    Beside the errors, gaps and ratios of ``errors_by_ar_coefficient`` at that phi: the gap with
    independent noise (phi = 0), the share of the gap closed at the first and the widest exclusion
    radius (in percent and, for the widest, as a share), the random-fold error minus the least error
    any forecast of the next period can reach (its SE the random folds': the floor is exact), the
    share closed when only the days after each held-out day are withheld, the count above, and
    ``bias_shares`` (``cvsuite.studies.temporal_holdout.bias_shares``).
    """
    main = by_phi[by_phi["ar_coefficient"] == ar_coefficient]
    independent = by_phi[by_phi["ar_coefficient"] == 0.0]
    if len(main) != 1 or len(independent) != 1:
        raise ValueError(
            "the contrast needs the main AR coefficient and 0 (independent noise) among the simulated ones"
        )
    main, independent = main.iloc[0], independent.iloc[0]
    radii = by_radius[by_radius["ar_coefficient"] == ar_coefficient].set_index("exclusion_radius_days")
    widest = radii.index.max()
    if widest <= 0:
        raise ValueError("the contrast needs at least one exclusion radius above 0")
    first = radii.loc[radii.index[radii.index > 0].min()]

    row = {
        "ar_coefficient": float(ar_coefficient),
        "folds": int(design.n_folds),
        "horizon_days": int(design.horizon_days),
        "series": int(main["series"]),
    }
    for name in (
        "random_folds_mse",
        "temporal_holdout_mse",
        "next_period_mse",
        "random_below_temporal_percent",
        "random_over_next_period",
        "temporal_over_next_period",
    ):
        row[name], row[f"{name}_se"] = main[name], main[f"{name}_se"]
    row["gap_mse"], row["gap_mse_se"] = main["gap_mse"], main["gap_mse_se"]
    row["gap_independent_noise_mse"] = independent["gap_mse"]
    row["gap_independent_noise_mse_se"] = independent["gap_mse_se"]
    row["first_exclusion_radius_days"] = int(first.name)
    row["gap_closed_first_radius_percent"] = first["gap_closed_percent"]
    row["gap_closed_first_radius_percent_se"] = first["gap_closed_percent_se"]
    row["widest_exclusion_radius_days"] = int(widest)
    row["gap_closed_widest_radius_percent"] = radii.loc[widest, "gap_closed_percent"]
    row["gap_closed_widest_radius_percent_se"] = radii.loc[widest, "gap_closed_percent_se"]
    row["forecast_floor_mse"] = main["forecast_floor_mse"]
    row["noise_variance"] = main["noise_variance"]
    future = future_withheld[future_withheld["ar_coefficient"] == ar_coefficient]
    if len(future) != 1:
        raise ValueError("the contrast needs the future-withheld random folds at the main AR coefficient")
    future = future.iloc[0]
    row["future_withheld_days"] = int(future["future_withheld_days"])
    row["gap_closed_future_withheld_percent"] = future["gap_closed_percent"]
    row["gap_closed_future_withheld_percent_se"] = future["gap_closed_percent_se"]
    row["gap_closed_widest_radius_share"] = row["gap_closed_widest_radius_percent"] / 100
    row["random_folds_minus_forecast_floor_mse"] = row["random_folds_mse"] - row["forecast_floor_mse"]
    row["random_folds_minus_forecast_floor_mse_se"] = row["random_folds_mse_se"]
    row["temporal_scored_days_before_a_fitted_day"] = int(scored_days_before_a_fitted_day)
    row.update(bias_shares)
    return pd.DataFrame([row])
