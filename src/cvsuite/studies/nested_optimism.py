"""Part 2 of the shape-image study: the winner's CV score, the nested estimate and the truth.

"Cross-Validation", section Example (Part 2): the means, the optimism and the nested error over the
datasets; plus how optimism grows with the number of candidates ("Estimating Out-of-Sample Error":
"the gap grows with the number of candidates tried"), and how the CV ranking of the candidates holds
against their true accuracies, beside the winner's value ("The ranking is comparatively robust").
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import standard_error


def selection_summary(selection: pd.DataFrame, n_candidates: int) -> pd.DataFrame:
    """Part 2's printed block for one candidate set: means, optimism and nested error, with counts;
    the datasets on which the nested estimate is too high less those on which it is too low ("it is
    as often too high as too low"); and the inner best score less the nested estimate, paired by
    dataset ("Estimating Out-of-Sample Error": the outer estimate "will be larger than the inner best
    score", in error, so lower in accuracy)."""
    rows = selection[selection["n_candidates"] == n_candidates]
    inner_best_minus_nested = rows["non_nested_score"] - rows["nested_estimate"]
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
                "nested_error_negative": int((rows["nested_estimate"] < rows["true_accuracy"]).sum()),
                "nested_error_positive_minus_negative": int(
                    (rows["nested_estimate"] > rows["true_accuracy"]).sum()
                    - (rows["nested_estimate"] < rows["true_accuracy"]).sum()
                ),
                "inner_best_minus_nested": inner_best_minus_nested.mean(),
                "inner_best_minus_nested_se": standard_error(inner_best_minus_nested),
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


def optimism_growth(selection: pd.DataFrame) -> pd.DataFrame:
    """How much the winner's optimism grows from the smallest candidate set to the largest.

    Paired over datasets (the same datasets, folds and fresh images serve every candidate set): the
    mean gain and its Monte Carlo standard error.
    """
    sizes = sorted(selection["n_candidates"].unique())
    by_size = selection.pivot(index="dataset", columns="n_candidates", values="optimism")
    gain = by_size[sizes[-1]] - by_size[sizes[0]]
    return pd.DataFrame(
        [
            {
                "smallest_set": sizes[0],
                "largest_set": sizes[-1],
                "optimism_gain": gain.mean(),
                "optimism_gain_se": standard_error(gain),
            }
        ]
    )


RANKING_BOOTSTRAP = (200, 0)  # resamples of datasets and seed for the s.e. of the shared share of the errors


def ranking_robustness(scores: pd.DataFrame) -> pd.DataFrame:
    """ "The ranking is comparatively robust: shared fold noise affects all candidates together. The
    winner's value is not, because selecting the minimum selects partly for favourable noise."
    ("Estimating Out-of-Sample Error", Contrasts), on every candidate's selection CV score and true
    accuracy (the step's ``candidate_scores``: the document's datasets).

    Per dataset, the ranking's cost is the regret (the best candidate's true accuracy minus the
    winner's) and the value's error the optimism (the winner's score minus its true accuracy); the
    ranking is the more robust where the optimism exceeds the regret, paired over datasets. The fold
    noise is shared where the candidates' errors (score - true accuracy) move together over datasets:
    the share of their variance that is common to every candidate of a dataset (the variance of the
    dataset's mean error over the mean of the candidates' variances), with a bootstrap s.e. Beside
    them: how the scores track the truths (their correlation over the candidates, per dataset) and
    what the pick gains in truth (the winner's true accuracy over the candidates' mean), each
    averaged over the datasets with its standard error.
    """
    if scores.empty:
        return pd.DataFrame(columns=RANKING_COLUMNS)
    errors = scores.assign(error=scores["cv_score"] - scores["true_accuracy"]).pivot(
        index="dataset", columns=["sigma", "k"], values="error"
    )
    rows = []
    for _, block in scores.groupby("dataset", sort=True):
        winner = int(np.argmax(block["cv_score"].to_numpy()))  # the first best, as the selection takes it
        truth = block["true_accuracy"].to_numpy()
        rows.append(
            (
                truth.max() - truth[winner],
                block["cv_score"].to_numpy()[winner] - truth[winner],
                np.corrcoef(block["cv_score"], truth)[0, 1],
                truth[winner] - truth.mean(),
            )
        )
    regret, optimism, correlation, pick_gain = (np.array(column) for column in zip(*rows))
    draws, seed = RANKING_BOOTSTRAP
    rng = np.random.default_rng(seed)
    resampled = [_shared_share(errors.iloc[rng.integers(0, len(errors), len(errors))]) for _ in range(draws)]
    return pd.DataFrame(
        [
            {
                "datasets": len(regret),
                "candidates": errors.shape[1],
                "mean_regret": regret.mean(),
                "mean_regret_se": standard_error(regret),
                "mean_optimism": optimism.mean(),
                "mean_optimism_se": standard_error(optimism),
                "optimism_minus_regret": (optimism - regret).mean(),
                "optimism_minus_regret_se": standard_error(optimism - regret),
                "mean_score_truth_correlation": correlation.mean(),
                "mean_score_truth_correlation_se": standard_error(correlation),
                "winner_truth_over_mean_candidate": pick_gain.mean(),
                "winner_truth_over_mean_candidate_se": standard_error(pick_gain),
                "shared_error_share": _shared_share(errors),
                "shared_error_share_se": float(np.std(resampled, ddof=1)),
            }
        ]
    )


RANKING_COLUMNS = [
    "datasets",
    "candidates",
    "mean_regret",
    "mean_regret_se",
    "mean_optimism",
    "mean_optimism_se",
    "optimism_minus_regret",
    "optimism_minus_regret_se",
    "mean_score_truth_correlation",
    "mean_score_truth_correlation_se",
    "winner_truth_over_mean_candidate",
    "winner_truth_over_mean_candidate_se",
    "shared_error_share",
    "shared_error_share_se",
]


def _shared_share(errors: pd.DataFrame) -> float:
    """The share of the candidates' error variance over datasets that their per-dataset mean carries."""
    spread = errors.var(ddof=1).mean()
    return float(errors.mean(axis=1).var(ddof=1) / spread) if spread > 0 else float("nan")
