"""The verdict of temporal_holdout: what "Estimating Out-of-Sample Error" says about daily sales, as booleans.

The contrast "Random folds against a temporal holdout, on daily sales", the procedure block's "When the
observations are ordered in time", and the shop's "The drop from 87% is the part of the earlier figure
that came from knowing the future", each read on the summaries of ``cvsuite.studies.temporal_holdout``
at one AR coefficient, with Monte Carlo bounds.
"""

from __future__ import annotations

import pandas as pd

from cvsuite.studies.temporal_holdout import HoldoutDesign


def temporal_holdout_verdict(
    by_phi: pd.DataFrame,
    by_radius: pd.DataFrame,
    design: HoldoutDesign,
    ar_coefficient: float,
    *,
    decision_standard_errors: float,
    most_of_gap_percent: float,
    future_withheld: pd.DataFrame,
    scores_only_later: bool,
) -> pd.DataFrame:
    """The one-row verdict at phi = ``ar_coefficient``: each claim in words as a boolean, the effect
    sizes with MC SEs, a sentence; ``design`` gives K and the horizon it reports; ``future_withheld``
    is ``errors_with_future_withheld``; ``scores_only_later`` whether the temporal holdout's splits
    score only days after those they fit (``scores_only_later_days``).

    Claims ("Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily sales):
    - random_folds_look_better: the random-fold error lies below the temporal holdout's by more
      than ``decision_standard_errors`` MC SEs ("The lower error is not a better model ...").
    - they_estimate_different_quantities: the temporal holdout lies within that many SEs of the
      truly-next-period error and the random folds lie below it by more ("Both are correct
      procedures; they estimate different quantities").
    - random_folds_learn_from_neighbouring_days: withholding the days near each held-out day (the
      widest radius) closes more than ``most_of_gap_percent`` of the gap, lower bound included, and
      with independent noise (phi = 0) the gap is within that many SEs of 0 ("Random folds let a
      model learn from Tuesday and Thursday to predict Wednesday").
    - random_folds_below_forecast_floor: the random-fold error lies below the least error any
      forecast of the next period can reach by more than that many SEs (the floor that "no model
      clears"; what is below it came from held-out days' neighbours).
    - time_order_keeps_the_estimate_honest: the temporal holdout scores only days after those it
      fits, and (they_estimate_different_quantities) it tracks the next period's error while random
      folds, which score days earlier than some they fit, fall below it (the procedure block's "A
      fold must never contain an observation earlier than one used to fit it").
    - gap_is_knowing_the_future: denying random folds the future of each held-out day closes the
      whole gap to the temporal holdout, within that many SEs of 100% ("The drop from 87% is the part
      of the earlier figure that came from knowing the future", read on the daily-sales analogue).
    """
    z = decision_standard_errors
    main = by_phi[by_phi["ar_coefficient"] == ar_coefficient]
    independent = by_phi[by_phi["ar_coefficient"] == 0.0]
    if len(main) != 1 or len(independent) != 1:
        raise ValueError("the verdict needs the main AR coefficient and 0 (independent noise) among the simulated ones")
    main, independent = main.iloc[0], independent.iloc[0]
    radii = by_radius[by_radius["ar_coefficient"] == ar_coefficient].set_index("exclusion_radius_days")
    widest = radii.index.max()
    if widest <= 0:
        raise ValueError("the verdict needs at least one exclusion radius above 0")
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

    row["random_folds_look_better"] = bool(row["gap_mse"] > z * row["gap_mse_se"])
    temporal_matches = abs(row["temporal_over_next_period"] - 1) <= z * row["temporal_over_next_period_se"]
    random_below = 1 - row["random_over_next_period"] > z * row["random_over_next_period_se"]
    row["they_estimate_different_quantities"] = bool(temporal_matches and random_below)
    closes_most = (
        row["gap_closed_widest_radius_percent"] - z * row["gap_closed_widest_radius_percent_se"] > most_of_gap_percent
    )
    no_gap_independent = abs(row["gap_independent_noise_mse"]) <= z * row["gap_independent_noise_mse_se"]
    row["withholding_neighbours_closes_most_of_gap"] = bool(closes_most)
    row["no_gap_with_independent_noise"] = bool(no_gap_independent)
    row["random_folds_learn_from_neighbouring_days"] = bool(closes_most and no_gap_independent)
    row["random_folds_below_forecast_floor"] = bool(
        row["random_folds_mse"] + z * row["random_folds_mse_se"] < row["forecast_floor_mse"]
    )
    row["verdict"] = _temporal_sentence(row)
    future = future_withheld[future_withheld["ar_coefficient"] == ar_coefficient]
    if len(future) != 1:
        raise ValueError("the verdict needs the future-withheld random folds at the main AR coefficient")
    future = future.iloc[0]
    row["temporal_holdout_scores_only_later_days"] = bool(scores_only_later)
    row["time_order_keeps_the_estimate_honest"] = bool(scores_only_later and row["they_estimate_different_quantities"])
    row["future_withheld_days"] = int(future["future_withheld_days"])
    row["gap_closed_future_withheld_percent"] = future["gap_closed_percent"]
    row["gap_closed_future_withheld_percent_se"] = future["gap_closed_percent_se"]
    row["gap_is_knowing_the_future"] = bool(
        abs(future["gap_closed_percent"] - 100) <= z * future["gap_closed_percent_se"]
    )
    return pd.DataFrame([row])


def _temporal_sentence(r: dict) -> str:
    look = "look better" if r["random_folds_look_better"] else "do not look better"
    matches = "which matches" if r["they_estimate_different_quantities"] else "which does not match"
    floor = "lies below" if r["random_folds_below_forecast_floor"] else "does not lie below"
    if not r["random_folds_look_better"]:
        why = "so here random folds hold no advantage to explain"
    elif r["random_folds_learn_from_neighbouring_days"]:
        why = "so the lower error comes from filling gaps between neighbouring days, not from a better model"
    else:
        why = "so the neighbouring days do not account for the lower error"
    return (
        f"Random folds {look}: {r['folds']}-fold CV reports an MSE of "
        f"{r['random_folds_mse']:.1f} ± {r['random_folds_mse_se']:.1f}, "
        f"{r['random_below_temporal_percent']:.0f}% ± {r['random_below_temporal_percent_se']:.0f}% "
        f"below the temporal holdout's {r['temporal_holdout_mse']:.1f} ± {r['temporal_holdout_mse_se']:.1f}, "
        f"{matches} the error on the truly next {r['horizon_days']} days "
        f"({r['next_period_mse']:.1f} ± {r['next_period_mse_se']:.1f}), and {floor} the "
        f"{r['forecast_floor_mse']:.1f} that no forecast can beat; withholding the days within "
        f"{r['widest_exclusion_radius_days']} days of each held-out day closes "
        f"{r['gap_closed_widest_radius_percent']:.0f}% ± {r['gap_closed_widest_radius_percent_se']:.0f}% "
        f"of the gap, and with independent noise the gap is "
        f"{r['gap_independent_noise_mse']:.1f} ± {r['gap_independent_noise_mse_se']:.1f}, "
        f"{why}."
    )
