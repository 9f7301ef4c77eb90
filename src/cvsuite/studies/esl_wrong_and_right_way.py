"""Screening predictors before or inside cross-validation: ESL §7.10.2, re-simulated.

Hastie, Tibshirani and Friedman (2009), §7.10.2 "The Wrong and Right Way to Do Cross-validation":
on N samples in two equal classes and p standard Gaussian predictors independent of the labels,
screen the m predictors most correlated with the labels, classify by 1-nearest neighbour on them,
and estimate the error by K-fold cross-validation. The wrong way screens once on all N samples and
cross-validates only the classifier; the right way repeats the screening inside every fold on the
training samples alone. Figure 7.10 is the histogram of the selected predictors' correlations with
the labels computed on a held-out fold. Cited by "Cross-Validation" (Pitfalls, 'Selecting before
cross-validating') and "Estimating Out-of-Sample Error" ('Variable selection on the full dataset
...').

Everything here is vectorised: correlations for many row subsets at once by matrix products, and
1-nearest neighbour by squared-distance matrices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import cv_error_expectations, expectation_row, mean_and_se
from cvsuite.data.null_predictors import balanced_labels, dataset_rng, null_predictors
from cvsuite.methods.folds import fold_of, fold_size_range, permutation_folds

SELECTIONS = ("signed", "absolute")
PROCEDURES = ("wrong_way", "right_way")


@dataclass(frozen=True)
class Setting:
    """The choices ESL §7.10.2 leaves open: selection rule, fold construction, number of folds."""

    selection: str
    stratified: bool
    folds: int


def label_moments(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per sample, the terms every correlation sum is made of: x, x^2 and x*y side by side (n x 3p)."""
    return np.hstack([x, x * x, x * y[:, None]])


def correlations_from_sums(size: np.ndarray, sums: np.ndarray, sum_y: np.ndarray, sum_yy: np.ndarray) -> np.ndarray:
    """Pearson correlations of p predictors with the labels from subset sums.

    ``sums`` is r x 3p (the column sums of ``label_moments`` over r subsets), ``size``, ``sum_y``
    and ``sum_yy`` are r x 1. A subset whose labels are all one class has no correlation: NaN.
    """
    p = sums.shape[1] // 3
    sum_x, sum_xx, sum_xy = sums[:, :p], sums[:, p : 2 * p], sums[:, 2 * p :]
    cov = sum_xy - sum_x * sum_y / size
    var_x = sum_xx - sum_x**2 / size
    var_y = sum_yy - sum_y**2 / size
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = cov / np.sqrt(var_x * var_y)
    # A single-class subset has var_y = 0 up to rounding: make it NaN, never a huge number.
    corr[(var_y <= 1e-12 * np.maximum(size, 1)).ravel()] = np.nan
    return corr


def subset_label_correlations(x: np.ndarray, y: np.ndarray, subsets: np.ndarray) -> np.ndarray:
    """Pearson correlation of every predictor with the labels, over each of several row subsets.

    ``subsets`` is an r x n 0/1 matrix, one row per subset of the n samples; the result is r x p.
    The sums are one matrix product of the subsets with ``label_moments``, shared by all subsets
    and predictors. A subset whose labels are all one class has a row of NaN.
    """
    w = np.asarray(subsets, dtype=float)
    return correlations_from_sums(w.sum(axis=1, keepdims=True), w @ label_moments(x, y), w @ y[:, None],
                                  w @ (y * y)[:, None])


def top_predictors(correlations: np.ndarray, count: int, selection: str) -> np.ndarray:
    """The ``count`` predictors of highest correlation, best first.

    ``signed`` reads the book's "highest correlation with the class labels" literally (largest
    positive correlations); ``absolute`` ranks by |correlation|, as many screening codes do. A
    partial sort finds the set (ties, of probability zero with Gaussian predictors, are settled by
    ``numpy.argpartition``); within it the order is by score, then index.
    """
    if selection not in SELECTIONS:
        raise ValueError(f"selection must be one of {', '.join(SELECTIONS)}, got '{selection}'")
    p = correlations.shape[-1]
    if not 1 <= count <= p:
        raise ValueError(f"cannot select {count} of {p} predictors")
    score = np.abs(correlations) if selection == "absolute" else correlations
    chosen = np.argpartition(-score, count - 1)[:count] if count < p else np.arange(p)
    return chosen[np.lexsort((chosen, -score[chosen]))]


def nearest_neighbour_labels(train_x: np.ndarray, train_y: np.ndarray, query_x: np.ndarray) -> np.ndarray:
    """1-nearest-neighbour class of each query row (Euclidean distance; ties to the lower index).

    The squared distance |q|^2 - 2 q.t + |t|^2 is ranked without its |q|^2 term, which is the same
    for every training row: one matrix product per call.
    """
    ranking = (train_x * train_x).sum(axis=1)[None, :] - 2.0 * query_x @ train_x.T
    return train_y[np.argmin(ranking, axis=1)]


def screened_cross_validation(
    x: np.ndarray, y: np.ndarray, folds: np.ndarray, selected: int, selection: str, moments: np.ndarray | None = None
) -> dict[str, dict[str, np.ndarray]]:
    """Both ways of §7.10.2 on one dataset, with the same folds.

    Returns, for "wrong_way" and "right_way": ``errors`` (0/1 per sample: the CV prediction of
    sample i comes from the model of its own fold), and ``heldout_correlations`` (K x selected: on
    each held-out fold, the correlation of the labels with the predictors that fold's model uses,
    Figure 7.10). With ``absolute`` selection a correlation is signed by the direction in which the
    predictor was selected, so that a leak shows as a positive mean in either rule. ``moments``,
    ``label_moments(x, y)``, may be passed in when several fold settings share one dataset.
    """
    n_folds = int(folds.max()) + 1
    held_out = (folds[None, :] == np.arange(n_folds)[:, None]).astype(float)
    # Training sums are the totals less the held-out fold's: one K-row product serves every fold,
    # for the training correlations that screen and the held-out ones of Figure 7.10.
    moments = label_moments(x, y) if moments is None else moments
    total, total_y, total_yy = moments.sum(axis=0), y.sum(), (y * y).sum()
    everyone = correlations_from_sums(np.array([[len(y)]]), total[None, :], np.array([[total_y]]), np.array([[total_yy]]))[0]
    fold_size, fold_sums = held_out.sum(axis=1, keepdims=True), held_out @ moments
    fold_y, fold_yy = held_out @ y[:, None], held_out @ (y * y)[:, None]
    training = correlations_from_sums(len(y) - fold_size, total - fold_sums, total_y - fold_y, total_yy - fold_yy)
    validation = correlations_from_sums(fold_size, fold_sums, fold_y, fold_yy)

    full_choice = top_predictors(everyone, selected, selection)
    fold_choices = [top_predictors(training[k], selected, selection) for k in range(n_folds)]

    result = {}
    for procedure in PROCEDURES:
        errors = np.zeros(len(y), dtype=int)
        heldout = np.empty((n_folds, selected))
        for k in range(n_folds):
            choice = full_choice if procedure == "wrong_way" else fold_choices[k]
            screened_on = everyone if procedure == "wrong_way" else training[k]
            test, train = folds == k, folds != k
            predicted = nearest_neighbour_labels(x[np.ix_(train, choice)], y[train], x[np.ix_(test, choice)])
            errors[test] = predicted != y[test]
            direction = np.sign(screened_on[choice]) if selection == "absolute" else 1.0
            heldout[k] = validation[k, choice] * direction
        result[procedure] = {"errors": errors, "heldout_correlations": heldout}
    return result


def simulate_wrong_and_right_way(
    samples: int, predictors: int, selected: int, datasets: int, seed: int, settings: list[Setting],
    test_points: int = 0,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Re-simulate §7.10.2 under each setting, on the same datasets.

    Draw order of dataset d, from ``default_rng([seed, d])``: the samples x predictors matrix of
    standard Gaussians; one permutation of the samples, from which every setting cuts its folds
    (``cvsuite.methods.folds.permutation_folds``); then, if ``test_points`` > 0, a test_points x selected matrix of
    standard Gaussians: fresh samples' values of the predictors the final model of ``settings[0]``
    uses (screened on all samples; the other predictors cannot move a 1-nearest-neighbour
    prediction, so they are not drawn), with balanced labels.

    Returns a per-dataset table, one row per dataset and setting (``setting`` indexes
    ``settings``): CV errors of both ways in percent, the mean held-out correlation of each way, the
    number of held-out folds of one class only (which have no correlation) and, for settings[0], the
    final model's error on the fresh samples; and the held-out correlations of settings[0], an
    array datasets x 2 x K x selected, [:, 0] the wrong way and [:, 1] the right way.
    """
    y = balanced_labels(samples)
    rows, correlations = [], []
    for d in range(datasets):
        rng = dataset_rng(seed, d)
        x = null_predictors(rng, samples, predictors)
        order = rng.permutation(samples)
        moments = label_moments(x, y)
        for i, setting in enumerate(settings):
            folds = fold_of(permutation_folds(order, y, setting.folds, setting.stratified), samples)
            ways = screened_cross_validation(x, y, folds, selected, setting.selection, moments)
            row = {"dataset": d, "setting": i, "selection": setting.selection, "stratified": setting.stratified,
                   "folds": setting.folds}
            for procedure in PROCEDURES:
                row[f"{procedure}_cv_error_percent"] = 100.0 * ways[procedure]["errors"].mean()
            for procedure in PROCEDURES:
                row[f"{procedure}_heldout_correlation"] = _mean_of_defined(ways[procedure]["heldout_correlations"])
            row["single_class_folds"] = int(np.isnan(ways["wrong_way"]["heldout_correlations"][:, 0]).sum())
            if i == 0:
                correlations.append([ways[p]["heldout_correlations"] for p in PROCEDURES])
                if test_points:
                    row["true_error_percent"] = 100.0 * final_model_test_error(x, y, selected, setting.selection, rng, test_points)
            rows.append(row)
    return pd.DataFrame(rows), np.array(correlations)


def _mean_of_defined(values: np.ndarray) -> float:
    """Mean of the non-NaN values; NaN if there are none (leave-one-out folds have no correlation)."""
    defined = values[~np.isnan(values)]
    return float(defined.mean()) if defined.size else float("nan")


def final_model_test_error(
    x: np.ndarray, y: np.ndarray, selected: int, selection: str, rng: np.random.Generator, test_points: int
) -> float:
    """Error rate, on fresh samples, of the model both ways report: screened and fitted on all samples.

    Its expected value is exactly 1/2 whatever the model, since fresh labels are independent of
    fresh predictors and the classes are equal; the estimate checks that nothing leaks.
    """
    choice = top_predictors(subset_label_correlations(x, y, np.ones((1, len(y))))[0], selected, selection)
    fresh_x = rng.standard_normal((test_points, selected))
    fresh_y = balanced_labels(test_points)
    return float((nearest_neighbour_labels(x[:, choice], y, fresh_x) != fresh_y).mean())


def summarise_procedures(per_dataset: pd.DataFrame) -> pd.DataFrame:
    """One row per way: mean CV error over the datasets given, its Monte Carlo SE and spread, and
    the same for the held-out correlation (per dataset, the mean over folds and predictors)."""
    rows = []
    for procedure in PROCEDURES:
        errors = per_dataset[f"{procedure}_cv_error_percent"]
        error, error_se = mean_and_se(errors)
        corr, corr_se = mean_and_se(per_dataset[f"{procedure}_heldout_correlation"])
        rows.append({"procedure": procedure, "datasets": len(per_dataset), "cv_error_percent": error,
                     "cv_error_percent_se": error_se, "cv_error_sd_percent": float(errors.std(ddof=1)),
                     "heldout_correlation": corr, "heldout_correlation_se": corr_se})
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
        add(f"{procedure}_mean_heldout_correlation", "correlation", "mean over the selected predictors of one held-out fold",
            int(defined.size), mean, se, float(defined.std(ddof=1)))
    return pd.DataFrame(rows)


def correlation_histogram(correlations: np.ndarray, bins: int) -> pd.DataFrame:
    """Histogram over [-1, 1] of all held-out correlations of each way, as shares in percent."""
    edges = np.linspace(-1.0, 1.0, bins + 1)
    rows = []
    for i, procedure in enumerate(PROCEDURES):
        values = correlations[:, i].ravel()
        values = values[~np.isnan(values)]
        counts, _ = np.histogram(values, bins=edges)
        for lower, upper, count in zip(edges[:-1], edges[1:], counts):
            rows.append({"procedure": procedure, "bin_lower": lower, "bin_upper": upper, "count": int(count),
                         "share_percent": 100.0 * count / values.size})
    return pd.DataFrame(rows)


def fold_sizes(samples: int, n_folds: int) -> pd.DataFrame:
    """Sizes of the held-out folds and training sets of K-fold CV on N samples (array_split sizes)."""
    return pd.DataFrame([fold_size_range(samples, n_folds)])


def setting_summary(per_dataset: pd.DataFrame, settings: list[Setting], design_datasets: int) -> pd.DataFrame:
    """The choices the book leaves open: both ways' CV error and held-out correlation under each
    setting, over the first ``design_datasets`` datasets and over all of them (same datasets)."""
    rows = []
    for i, setting in enumerate(settings):
        runs = per_dataset[per_dataset["setting"] == i]
        for label, chosen in (("book_design", runs[runs["dataset"] < design_datasets]), ("all", runs)):
            row = {"setting": i, "selection": setting.selection, "stratified": setting.stratified,
                   "folds": setting.folds, "datasets_used": label, "datasets": len(chosen)}
            summary = summarise_procedures(chosen).set_index("procedure")
            for procedure in PROCEDURES:
                for column in ("cv_error_percent", "cv_error_percent_se", "heldout_correlation", "heldout_correlation_se"):
                    row[f"{procedure}_{column}"] = summary.loc[procedure, column]
            rows.append(row)
    return pd.DataFrame(rows)


def claim_verdicts(per_dataset: pd.DataFrame, standard_errors: float, respectable_error_percent: float) -> pd.DataFrame:
    """The documents' qualitative claims as True/False, each with the numbers that decide it.

    k = ``standard_errors`` Monte Carlo SEs draw every line between 'far from' and 'within':
    - noise_gives_respectable_score: the wrong way's CV error is at most the respectable level and
      lies more than k SE below the true 50%;
    - selection_before_cv_leaks: the wrong way's held-out correlation lies more than k SE above 0
      and its CV error more than k SE (of the paired, per-dataset difference) below the right way's;
    - selection_inside_folds_not_optimistic: the right way's CV error is not more than k SE below 50%;
    - right_way_within_mc_error_of_truth: the right way's CV error is within k SE of 50%.
    """
    summary = summarise_procedures(per_dataset).set_index("procedure")
    wrong, right = summary.loc["wrong_way"], summary.loc["right_way"]
    gap, gap_se = mean_and_se(per_dataset["right_way_cv_error_percent"] - per_dataset["wrong_way_cv_error_percent"])
    k = standard_errors
    z_wrong = (wrong["cv_error_percent"] - 50.0) / wrong["cv_error_percent_se"]
    z_right = (right["cv_error_percent"] - 50.0) / right["cv_error_percent_se"]
    rows = [
        ("noise_gives_respectable_score", wrong["cv_error_percent"] <= respectable_error_percent and z_wrong < -k,
         f"wrong-way CV error <= {respectable_error_percent:g}% and more than {k:g} SE below 50%",
         wrong["cv_error_percent"], z_wrong),
        ("selection_before_cv_leaks",
         wrong["heldout_correlation"] > k * wrong["heldout_correlation_se"] and gap > k * gap_se,
         f"wrong-way held-out correlation more than {k:g} SE above 0, and CV error more than {k:g} SE "
         "(paired) below the right way's; value: the gap in points",
         gap, gap / gap_se),
        ("selection_inside_folds_not_optimistic", z_right >= -k,
         f"right-way CV error not more than {k:g} SE below 50%", right["cv_error_percent"], z_right),
        ("right_way_within_mc_error_of_truth", abs(z_right) <= k,
         f"right-way CV error within {k:g} SE of 50%", right["cv_error_percent"], z_right),
    ]
    return pd.DataFrame([{"claim": c, "verdict": str(bool(v)), "criterion": crit, "datasets": len(per_dataset),
                          "value": float(val), "standard_errors": float(z)} for c, v, crit, val, z in rows])
