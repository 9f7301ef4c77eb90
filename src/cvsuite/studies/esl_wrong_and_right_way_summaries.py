"""The summaries of the ESL §7.10.2 re-simulation, read from its per-dataset results: each way's
CV error and held-out correlation, the statistics the book prints with the standard error of each
comparison, the held-out correlations of Figure 7.10, and the open choices with the paired gap
between the two ways under each. Statistics only: the registry's records decide what they say
about the documents' sentences.

The simulation itself is ``cvsuite.studies.esl_wrong_and_right_way``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.folds import fold_size_range
from cvsuite.methods.monte_carlo import cv_error_expectations, expectation_row, mean_and_se, ratio_and_se
from cvsuite.studies.esl_wrong_and_right_way import PROCEDURES, Setting

# The true error of any classifier on these data: the labels are independent of the predictors and
# the two classes equal ("The true (test) error rate of any classifier is 50%"). A fact of the design.
CHANCE_ERROR_PERCENT = 50.0

# The registry rows of the figures the book prints, by name: the held-out correlations are placed
# among ours (``correlation_draws``), and all four are drawn as the figures' published references.
PUBLISHED = {
    "wrong_way": "esl.7102.wrong-way-cv-error",
    "true_error": "esl.7102.true-error",
    "wrong_correlation": "esl.7102.fig710.wrong-way-correlation",
    "right_correlation": "esl.7102.fig710.right-way-correlation",
}


def book_reading_runs(per_dataset: pd.DataFrame, book_datasets: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The runs of setting 0 (the book's reading) over every dataset, and over the book's first
    ``book_datasets`` datasets only (its design: the summary and the figures)."""
    runs = per_dataset[per_dataset["setting"] == 0].reset_index(drop=True)
    return runs, runs[runs["dataset"] < book_datasets]


def summarise_procedures(per_dataset: pd.DataFrame) -> pd.DataFrame:
    """One row per way: mean CV error over the datasets given, its Monte Carlo SE and spread, and
    the same for the held-out correlation (per dataset, the mean over folds and predictors)."""
    rows = []
    for procedure in PROCEDURES:
        errors = per_dataset[f"{procedure}_cv_error_percent"]
        error, error_se = mean_and_se(errors)
        corr, corr_se = mean_and_se(per_dataset[f"{procedure}_heldout_correlation"])
        rows.append(
            {
                "procedure": procedure,
                "datasets": len(per_dataset),
                "cv_error_percent": error,
                "cv_error_percent_se": error_se,
                "cv_error_sd_percent": float(errors.std(ddof=1)),
                "heldout_correlation": corr,
                "heldout_correlation_se": corr_se,
            }
        )
    return pd.DataFrame(rows)


def one_fold_means(correlations: np.ndarray) -> np.ndarray:
    """Per dataset, way and fold, the mean held-out correlation of the selected predictors: the
    statistic of the book's Figure 7.10, which shows one fold. datasets x 2 x K, NaN where undefined."""
    with np.errstate(invalid="ignore"):
        counts = (~np.isnan(correlations)).sum(axis=3)
        sums = np.nansum(correlations, axis=3)
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)


def published_statistics(per_dataset: pd.DataFrame, correlations: np.ndarray, design_datasets: int) -> pd.DataFrame:
    """The statistics ESL §7.10.2 prints, estimated from every dataset, with the SE of a comparison.

    Each row: ``expected``, our estimate of the statistic's expected value, with ``mc_se`` its
    Monte Carlo SE; ``design_sd``, the standard deviation of the statistic as the book computed it
    (a mean over ``design_datasets`` datasets, or the mean over one held-out fold, or 0 for an exact
    population value); and ``expected_se`` = sqrt(mc_se^2 + design_sd^2), the standard error of the
    gap between a printed value of the statistic and ``expected``.
    """
    rows = cv_error_expectations(per_dataset, PROCEDURES, design_datasets)

    def add(*fields):
        rows.append(expectation_row(*fields))

    folds = one_fold_means(correlations)
    for i, procedure in enumerate(PROCEDURES):
        one_fold = folds[:, i]
        mean, se = mean_and_se(np.nanmean(one_fold, axis=1))
        defined = one_fold[~np.isnan(one_fold)]
        add(
            f"{procedure}_mean_heldout_correlation",
            "correlation",
            "mean over the selected predictors of one held-out fold",
            int(defined.size),
            mean,
            se,
            float(defined.std(ddof=1)),
        )
    return pd.DataFrame(rows)


def printed_draw(statistic: str, values, printed: float) -> dict:
    """Where a figure the book read off one draw (one held-out fold of one dataset) falls among ours.

    The shares, in percent, of our draws of the same statistic below, equal to and above the
    printed value: the probability of a draw like the book's. A single draw has no expectation to
    be compared with at any power (its s.d. does not shrink with more simulation), so this is
    what the suite can say about it.
    """
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    return {
        "statistic": statistic,
        "printed": printed,
        "draws": int(values.size),
        "share_below_percent": 100.0 * float((values < printed).mean()),
        "share_equal_percent": 100.0 * float((values == printed).mean()),
        "share_above_percent": 100.0 * float((values > printed).mean()),
    }


def correlation_draws(correlations: np.ndarray, printed: dict[str, float]) -> pd.DataFrame:
    """Figure 7.10's one-fold mean held-out correlations (``one_fold_means``) against the printed ones.

    ``printed`` maps a procedure of PROCEDURES to the value the book prints for its one fold.
    """
    folds = one_fold_means(correlations)
    rows = [
        printed_draw(f"{procedure}_mean_heldout_correlation", folds[:, i].ravel(), printed[procedure])
        for i, procedure in enumerate(PROCEDURES)
        if procedure in printed
    ]
    return pd.DataFrame(rows)


def correlation_histogram(correlations: np.ndarray, bins: int) -> pd.DataFrame:
    """Histogram over [-1, 1] of all held-out correlations of each way, as shares in percent (ESL
    §7.10.2, Figure 7.10)."""
    edges = np.linspace(-1.0, 1.0, bins + 1)
    rows = []
    for i, procedure in enumerate(PROCEDURES):
        values = correlations[:, i].ravel()
        values = values[~np.isnan(values)]
        counts, _ = np.histogram(values, bins=edges)
        for lower, upper, count in zip(edges[:-1], edges[1:], counts):
            rows.append(
                {
                    "procedure": procedure,
                    "bin_lower": lower,
                    "bin_upper": upper,
                    "count": int(count),
                    "share_percent": 100.0 * count / values.size,
                }
            )
    return pd.DataFrame(rows)


def setting_summary(per_dataset: pd.DataFrame, settings: list[Setting], design_datasets: int) -> pd.DataFrame:
    """The choices the book leaves open: both ways' CV error and held-out correlation under each
    setting, over the first ``design_datasets`` datasets and over all of them (same datasets).

    Each row also holds the paired gap, the right way's CV error minus the wrong way's dataset by
    dataset (``right_minus_wrong_cv_error_points`` with its SE), the wrong way's CV error over
    chance's (``CHANCE_ERROR_PERCENT``), the scale on which a score reads as respectable or not, and
    the right way's optimism (chance minus its CV error) over the wrong way's, a ratio of means with
    its delta-method SE (``right_way_optimism_over_wrong_way``): near 0 when screening inside the
    folds removes the leak, whatever small bias of its own the right way has."""
    rows = []
    for i, setting in enumerate(settings):
        runs = per_dataset[per_dataset["setting"] == i]
        for label, chosen in (("book_design", runs[runs["dataset"] < design_datasets]), ("all", runs)):
            row = {
                "setting": i,
                "selection": setting.selection,
                "stratified": setting.stratified,
                "folds": setting.folds,
                "datasets_used": label,
                "datasets": len(chosen),
            }
            summary = summarise_procedures(chosen).set_index("procedure")
            for procedure in PROCEDURES:
                for column in (
                    "cv_error_percent",
                    "cv_error_percent_se",
                    "heldout_correlation",
                    "heldout_correlation_se",
                ):
                    row[f"{procedure}_{column}"] = summary.loc[procedure, column]
            row["right_minus_wrong_cv_error_points"], row["right_minus_wrong_cv_error_points_se"] = mean_and_se(
                chosen["right_way_cv_error_percent"] - chosen["wrong_way_cv_error_percent"]
            )
            row["wrong_way_cv_error_over_chance"] = summary.loc["wrong_way", "cv_error_percent"] / CHANCE_ERROR_PERCENT
            row["right_way_optimism_over_wrong_way"], row["right_way_optimism_over_wrong_way_se"] = ratio_and_se(
                CHANCE_ERROR_PERCENT - chosen["right_way_cv_error_percent"],
                CHANCE_ERROR_PERCENT - chosen["wrong_way_cv_error_percent"],
            )
            rows.append(row)
    return pd.DataFrame(rows)


def fold_sizes(samples: int, n_folds: int) -> pd.DataFrame:
    """Sizes of the held-out folds and training sets when the N samples are cut into K folds, as one
    row: the folds of ESL §7.10.2 step 1 ("Divide the samples into K cross-validation folds"), which
    §7.10.3 reuses. Both constructions of ``permutation_folds`` have these sizes."""
    return pd.DataFrame([fold_size_range(samples, n_folds)])
