"""What the document prints about the shape-image study, computed from the per-dataset rows.

"Cross-Validation", section Example: Part 1's table of estimators and the prose after it, and
Part 2's means, optimism and nested error; plus how optimism grows with the number of candidates
("Estimating Out-of-Sample Error": "the gap grows with the number of candidates tried").
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _mc_se(values: pd.Series) -> float:
    """Monte Carlo standard error of a mean over independent datasets."""
    return float(values.std(ddof=1) / np.sqrt(len(values))) if len(values) > 1 else float("nan")


def true_accuracy_range(estimates: pd.DataFrame) -> pd.DataFrame:
    """The range of the fixed classifier's true accuracy over datasets ("0.560-0.650")."""
    per_dataset = estimates.groupby("dataset", sort=True)["true_accuracy"].first()
    return pd.DataFrame([{"n_datasets": len(per_dataset), "true_accuracy_min": per_dataset.min(), "true_accuracy_max": per_dataset.max()}])


def estimator_summary(estimates: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per estimator: mean and sample s.d. (ddof = 1) of estimate - true, as the document prints.

    Adds the Monte Carlo standard error of the mean, and whether the mean is within two of them of
    zero ("none of the four estimators shows a bias that 40 datasets can distinguish from zero").
    """
    rows = []
    for name in order:
        errors = estimates.loc[estimates["estimator"] == name, "error"]
        mean, se = float(errors.mean()), _mc_se(errors)
        rows.append(
            {
                "estimator": name,
                "held_out_images": int(estimates.loc[estimates["estimator"] == name, "held_out_images"].iloc[0]),
                "n_datasets": len(errors),
                "mean_error": mean,
                "mean_error_se": se,
                "sd_error": float(errors.std(ddof=1)),
                "bias_distinguishable_from_zero": bool(abs(mean) > 2 * se),
            }
        )
    return pd.DataFrame(rows)


def repartition_summary(repartitions: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Range and sample s.d. of one dataset's estimates over repeated random partitions.

    Estimators with no repetitions (the chosen dataset outside the seeds run) get empty values.
    """
    rows = []
    for name in order:
        values = repartitions.loc[repartitions["estimator"] == name, "estimate"]
        empty = values.empty
        rows.append(
            {
                "estimator": name,
                "dataset": int(repartitions["dataset"].iloc[0]) if not empty else np.nan,
                "repetitions": len(values),
                "estimate_min": np.nan if empty else values.min(),
                "estimate_max": np.nan if empty else values.max(),
                "estimate_sd": np.nan if empty else float(values.std(ddof=1)),
                "range_points": np.nan if empty else 100 * (values.max() - values.min()),
            }
        )
    return pd.DataFrame(rows)


def spread_findings(summary: pd.DataFrame, repeated: pd.DataFrame, holdout: str, kfold: str) -> pd.DataFrame:
    """The prose after Part 1: how the spreads compare.

    "The holdout estimate ... its error varies about twice as much as that of 5-fold" (a ratio of
    s.d.s); "The partition-to-partition spread of 5-fold is smaller than its error across datasets".
    """
    sd = summary.set_index("estimator")["sd_error"]
    rep_sd = repeated.set_index("estimator")["estimate_sd"]
    return pd.DataFrame(
        [
            {
                "holdout_over_kfold_sd": sd[holdout] / sd[kfold],
                "kfold_partition_sd": rep_sd.get(kfold, np.nan),
                "kfold_dataset_sd": sd[kfold],
                "partition_spread_below_dataset_spread": bool(rep_sd.get(kfold, np.nan) < sd[kfold]),
                "no_estimator_bias_distinguishable": bool(not summary["bias_distinguishable_from_zero"].any()),
            }
        ]
    )


def selection_summary(selection: pd.DataFrame, n_candidates: int) -> pd.DataFrame:
    """Part 2's printed block for one candidate set: means, optimism and nested error, with counts."""
    rows = selection[selection["n_candidates"] == n_candidates]
    return pd.DataFrame(
        [
            {
                "n_candidates": n_candidates,
                "n_datasets": len(rows),
                "non_nested_mean": rows["non_nested_score"].mean(),
                "nested_mean": rows["nested_estimate"].mean(),
                "true_mean": rows["true_accuracy"].mean(),
                "optimism_mean": rows["optimism"].mean(),
                "optimism_mean_se": _mc_se(rows["optimism"]),
                "optimism_points": 100 * rows["optimism"].mean(),
                "optimism_positive": int((rows["non_nested_score"] > rows["true_accuracy"]).sum()),
                "nested_error_mean": rows["nested_error"].mean(),
                "nested_error_mean_se": _mc_se(rows["nested_error"]),
                "nested_error_positive": int((rows["nested_estimate"] > rows["true_accuracy"]).sum()),
                "nested_error_within_2se": bool(abs(rows["nested_error"].mean()) <= 2 * _mc_se(rows["nested_error"])),
            }
        ]
    )


def candidate_growth(selection: pd.DataFrame) -> pd.DataFrame:
    """Optimism and nested error for each candidate-set size, with Monte Carlo standard errors."""
    return pd.concat([selection_summary(selection, n) for n in sorted(selection["n_candidates"].unique())], ignore_index=True)


def growth_findings(selection: pd.DataFrame) -> pd.DataFrame:
    """Does the winner's optimism grow from the smallest candidate set to the largest?

    Paired over datasets (the same datasets, folds and fresh images serve every candidate set), the
    gain is significant when it exceeds two Monte Carlo standard errors of the paired difference.
    """
    sizes = sorted(selection["n_candidates"].unique())
    by_size = selection.pivot(index="dataset", columns="n_candidates", values="optimism")
    gain = by_size[sizes[-1]] - by_size[sizes[0]]
    nested = selection.groupby("n_candidates")["nested_error"]
    within = (nested.mean().abs() <= 2 * nested.std(ddof=1) / np.sqrt(nested.size())).all()
    return pd.DataFrame(
        [
            {
                "smallest_set": sizes[0],
                "largest_set": sizes[-1],
                "optimism_gain": gain.mean(),
                "optimism_gain_se": _mc_se(gain),
                "optimism_grows_with_candidates": bool(gain.mean() > 2 * _mc_se(gain)),
                "nested_error_within_2se_for_every_set": bool(within),
            }
        ]
    )
