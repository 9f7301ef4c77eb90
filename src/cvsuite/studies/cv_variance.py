"""The variance of a cross-validation estimate, measured on the shape-image study.

"Cross-Validation", The choice of K and the variance of the estimate: Kohavi's binomial
idealisation, Var ~ a(1 - a)/n whatever K; Bengio and Grandvalet's (2004) decomposition of
Var[CV] into the variance sigma^2 of one held-out error, the covariance omega of two errors in the
same fold and gamma of two in different folds,

    Var[CV] = sigma^2 / n + (m - 1)/n omega + (n - m)/n gamma,   m = n / K;

and the naive standard error (fold scores taken as independent), which "Regularization and
Cross-Validation" defines as sigma/sqrt(K) of the fold scores.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import fold_of, leave_one_out_folds, stratified_round_robin_folds
from cvsuite.methods.knn import HeldOutTask, blurred_features, held_out_predictions, squared_distances
from cvsuite.methods.monte_carlo import ratio_and_se, standard_error


def dataset_error_moments(
    seed: int, design: ShapeImageDesign, per_class: int, *, sigma: float, k: int, fold_counts
) -> pd.DataFrame:
    """``dataset_error_rows`` as a table."""
    return pd.DataFrame(dataset_error_rows(seed, design, per_class, sigma=sigma, k=k, fold_counts=fold_counts))


def dataset_error_rows(
    seed: int, design: ShapeImageDesign, per_class: int, *, sigma: float, k: int, fold_counts
) -> list[dict]:
    """One dataset's held-out 0/1 errors for each K, reduced to sums that pool across datasets: one
    row per K (a shard makes one table of all its datasets' rows).

    Draw order from ``default_rng(seed)``: ``per_class`` labelled images of each class as in the
    document's Example, then one stratified partition for each K in ``fold_counts`` (K equal to
    the number of images is leave-one-out and draws nothing). Per K: the sum of errors S1, the
    sums of products of two different errors in the same fold and in different folds, the fold
    size m, the CV accuracy, and the naive standard error of the fold accuracies (sample s.d. /
    sqrt(K), ``standard_error``).
    """
    rng = np.random.default_rng(seed)
    x, y = draw_shape_images(per_class, rng, design)
    n_classes = len(design.masks())
    features = blurred_features(x, sigma)
    ranking = np.argsort(squared_distances(features, features)[None], axis=-1)
    n = len(y)
    rows = []
    for n_folds in fold_counts:
        folds = leave_one_out_folds(n) if n_folds == n else stratified_round_robin_folds(y, n_folds, rng)
        tested, predictions = held_out_predictions(ranking, HeldOutTask(y, np.arange(n), folds, (k,), n_classes))
        errors = np.zeros(n)
        errors[tested] = predictions[0, :, 0] != y[tested]
        # Counts of 0/1 errors are whole numbers, exact whichever way they are summed.
        sizes = np.array([len(f) for f in folds])
        fold_errors = np.bincount(fold_of(folds, n), weights=errors, minlength=len(folds))
        same = float((fold_errors**2).sum() - errors.sum())  # sum over ordered pairs i != j in one fold
        total_pairs = float(errors.sum() ** 2 - errors.sum())
        fold_accuracy = 1 - fold_errors / sizes
        rows.append(
            {
                "dataset": seed,
                "K": int(n_folds),
                "n": n,
                "fold_size": n / n_folds,
                "error_sum": float(errors.sum()),
                "same_fold_products": same,
                "other_fold_products": total_pairs - same,
                "cv_accuracy": 1 - errors.mean(),
                "naive_std_error": standard_error(fold_accuracy),
            }
        )
    return rows


def variance_decomposition(moments: pd.DataFrame) -> pd.DataFrame:
    """Per K: Var[CV] over datasets, Kohavi's a(1-a)/n, sigma^2, omega, gamma (with their Monte
    Carlo standard errors, to test them against 0) and their identity.

    Moments are taken about the mean error over all datasets and images, with population (1/M)
    averages over the M datasets, so the identity holds exactly up to rounding; each is a Monte Carlo
    estimate of the quantity over the distribution of datasets. The naive standard error is set
    against the true spread (the s.d. of the CV estimate over datasets): their ratio is the square
    root of mean(naive^2) / Var[CV], a ratio of two means over the datasets whose delta-method
    standard error (``ratio_and_se``) gives ``naive_over_true_sd_se``.
    """
    rows = []
    for n_folds, block in moments.groupby("K", sort=True):
        n, m, datasets = int(block["n"].iloc[0]), float(block["fold_size"].iloc[0]), len(block)
        mu = block["error_sum"].sum() / (n * datasets)
        s1 = block["error_sum"]
        sigma2 = float(np.mean(s1 - 2 * mu * s1 + n * mu**2) / n)  # errors are 0/1, so e^2 = e
        # omega and gamma are means over the datasets of one term per dataset (about the pooled mean
        # mu): their standard errors are the terms' (mu's own noise, of order 1/datasets, left out).
        same = block["same_fold_products"] - 2 * mu * (m - 1) * s1 + n * (m - 1) * mu**2
        other = block["other_fold_products"] - 2 * mu * (n - m) * s1 + n * (n - m) * mu**2
        omega = float(np.mean(same) / (n * (m - 1))) if m > 1 else np.nan
        omega_se = standard_error(same / (n * (m - 1))) if m > 1 else np.nan
        gamma = float(np.mean(other) / (n * (n - m)))
        gamma_se = standard_error(other / (n * (n - m)))
        cv_error = 1 - block["cv_accuracy"]
        variance = float(np.mean((cv_error - mu) ** 2))
        identity = sigma2 / n + ((m - 1) / n * omega if m > 1 else 0.0) + (n - m) / n * gamma
        squared_dev = (cv_error - mu) ** 2
        accuracy = 1 - mu
        squared_ratio, squared_ratio_se = ratio_and_se(block["naive_std_error"] ** 2, squared_dev)
        rows.append(
            {
                "K": int(n_folds),
                "datasets": datasets,
                "fold_size": m,
                "mean_cv_accuracy": accuracy,
                "cv_variance": variance,
                "cv_variance_se": standard_error(squared_dev),
                "cv_sd": float(np.sqrt(variance)),
                "binomial_variance": accuracy * (1 - accuracy) / n,
                "variance_over_binomial": variance / (accuracy * (1 - accuracy) / n),
                "sigma2": sigma2,
                "omega": omega,
                "omega_se": omega_se,
                "gamma": gamma,
                "gamma_se": gamma_se,
                "decomposition": identity,
                "identity_gap": abs(identity - variance),
                "naive_std_error_rms": float(np.sqrt(np.mean(block["naive_std_error"] ** 2))),
                "naive_over_true_sd_se": squared_ratio_se / (2 * np.sqrt(squared_ratio)),
            }
        )
    table = pd.DataFrame(rows)
    table.insert(len(table.columns) - 1, "naive_over_true_sd", table["naive_std_error_rms"] / table["cv_sd"])
    # What the naive sigma^2 / n (the n errors taken as independent) leaves out: Var[CV] less it, the
    # covariance terms of the decomposition; its standard error is Var[CV]'s (sigma^2's is far smaller).
    table["naive_variance_gap"] = table["cv_variance"] - table["binomial_variance"]
    table["naive_variance_gap_se"] = table["cv_variance_se"]
    return table


def variance_differences(moments: pd.DataFrame) -> pd.DataFrame:
    """Var[CV] at each pair of K, differenced dataset by dataset.

    Every K is run on the same datasets, so the difference of two variances is the mean over
    datasets of (e_K1 - mean e_K1)^2 - (e_K2 - mean e_K2)^2, where e is the CV error; its standard
    error is that of a paired mean (``standard_error``), smaller than the two variances' s.e.s
    combined as if independent. Moments about each K's mean error, as ``variance_decomposition``.
    """
    errors = 1 - moments.pivot(index="dataset", columns="K", values="cv_accuracy")
    squared = (errors - errors.mean()) ** 2
    ks = list(errors.columns)
    rows = []
    for i, a in enumerate(ks):
        for b in ks[i + 1 :]:
            difference = squared[b] - squared[a]
            se = standard_error(difference)
            rows.append(
                {
                    "K": int(b),
                    "versus": int(a),
                    "variance_difference": float(difference.mean()),
                    "variance_difference_se": se,
                    "difference_over_se": float(difference.mean() / se),
                }
            )
    return pd.DataFrame(rows)
