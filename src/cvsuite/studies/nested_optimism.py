"""Part 2 of the shape-image study: the winner's CV score, the nested estimate and the truth.

"Cross-Validation", section Example (Part 2): the means, the optimism and the nested error over the
datasets; plus how optimism grows with the number of candidates ("Estimating Out-of-Sample Error":
"the gap grows with the number of candidates tried").
"""

from __future__ import annotations

import pandas as pd

from cvsuite.methods.monte_carlo import standard_error
from cvsuite.studies.document_claims import claims_table


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
                "optimism_mean_se": standard_error(rows["optimism"]),
                "optimism_points": 100 * rows["optimism"].mean(),
                "optimism_positive": int((rows["non_nested_score"] > rows["true_accuracy"]).sum()),
                "nested_error_mean": rows["nested_error"].mean(),
                "nested_error_mean_se": standard_error(rows["nested_error"]),
                "nested_error_positive": int((rows["nested_estimate"] > rows["true_accuracy"]).sum()),
                "nested_error_within_2se": bool(
                    abs(rows["nested_error"].mean()) <= 2 * standard_error(rows["nested_error"])
                ),
            }
        ]
    )


def candidate_growth(selection: pd.DataFrame) -> pd.DataFrame:
    """Optimism and nested error for each candidate-set size, with Monte Carlo standard errors: "the
    gap grows with the number of candidates tried" ("Estimating Out-of-Sample Error", Why selecting
    on a score biases it)."""
    return pd.concat(
        [selection_summary(selection, n) for n in sorted(selection["n_candidates"].unique())], ignore_index=True
    )


def growth_findings(selection: pd.DataFrame) -> pd.DataFrame:
    """Does the winner's optimism grow from the smallest candidate set to the largest?

    Paired over datasets (the same datasets, folds and fresh images serve every candidate set), the
    gain is significant when it exceeds two Monte Carlo standard errors of the paired difference.
    """
    sizes = sorted(selection["n_candidates"].unique())
    by_size = selection.pivot(index="dataset", columns="n_candidates", values="optimism")
    gain = by_size[sizes[-1]] - by_size[sizes[0]]
    nested = selection.groupby("n_candidates")["nested_error"]
    within = all(abs(errors.mean()) <= 2 * standard_error(errors) for _, errors in nested)
    return pd.DataFrame(
        [
            {
                "smallest_set": sizes[0],
                "largest_set": sizes[-1],
                "optimism_gain": gain.mean(),
                "optimism_gain_se": standard_error(gain),
                "optimism_grows_with_candidates": bool(gain.mean() > 2 * standard_error(gain)),
                "nested_error_within_2se_for_every_set": bool(within),
            }
        ]
    )


def selection_claims(summary: pd.DataFrame) -> pd.DataFrame:
    """ "Cross-Validation"'s words about Part 2, on the document's candidate set (``selection_summary``).

    "the maximum of 42 noisy estimates is biased upward" (and Pitfalls: "The selected
    configuration's score is the maximum of many noisy estimates and is biased upward"): the mean
    optimism (winner's CV score - its true accuracy) exceeds two of its Monte Carlo standard errors.
    """
    row = summary.iloc[0]
    z = row["optimism_mean"] / row["optimism_mean_se"]
    return claims_table(
        [
            (
                "winner_biased_upward",
                bool(z > 2),
                float(z),
                "mean of winner's CV score - its true accuracy over the datasets > 2 Monte Carlo SE; value: in SE",
            ),
            (
                # "Estimating Out-of-Sample Error" says the best of 40 scores "sits below what the
                # chosen feature set would score on fresh data": the opposite sign, tested the same way.
                "winner_score_sits_below_fresh",
                bool(z < -2),
                float(z),
                "mean of winner's CV score - its true accuracy over the datasets < -2 Monte Carlo SE; value: in SE",
            ),
        ]
    )
