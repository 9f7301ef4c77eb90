"""Screening predictors by their correlation with two-class labels, and 1-nearest neighbour on them.

The classifier of Hastie, Tibshirani and Friedman (2009), ESL §7.10.2 "The Wrong and Right Way to
Do Cross-validation": keep the m predictors most correlated with the class labels, then classify by
1-nearest neighbour on those m. Everything is vectorised: the correlations of every predictor over
many row subsets (the folds and their training sets) come from one matrix product, and
1-nearest neighbour from one squared-distance matrix.
"""

from __future__ import annotations

import numpy as np

SELECTIONS = ("signed", "absolute")


def label_moments(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Per sample, the terms every correlation sum is made of: x, x^2 and x*y side by side (n x 3p)."""
    n, p = x.shape
    # Products written in place: np.hstack of the three would allocate and copy them twice.
    moments = np.empty((n, 3 * p), dtype=np.result_type(x, y))
    moments[:, :p] = x
    np.multiply(x, x, out=moments[:, p : 2 * p])
    np.multiply(x, y[:, None], out=moments[:, 2 * p :])
    return moments


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


def subset_label_correlations(
    x: np.ndarray, y: np.ndarray, subsets: np.ndarray, *, moments: np.ndarray | None = None
) -> np.ndarray:
    """Pearson correlation of every predictor with the labels, over each of several row subsets.

    ``subsets`` is an r x n 0/1 matrix, one row per subset of the n samples; the result is r x p.
    The sums are one matrix product of the subsets with ``label_moments``, shared by all subsets
    and predictors (``moments``, if the caller has them already). A subset whose labels are all
    one class has a row of NaN.
    """
    w = np.asarray(subsets, dtype=float)
    moments = label_moments(x, y) if moments is None else moments
    return correlations_from_sums(w.sum(axis=1, keepdims=True), w @ moments, w @ y[:, None], w @ (y * y)[:, None])


def top_predictors(correlations: np.ndarray, count: int, selection: str) -> np.ndarray:
    """The ``count`` predictors of highest correlation, best first.

    ``signed`` reads ESL's "highest correlation with the class labels" literally (largest
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
    for every training row: one matrix product per call. (``cvsuite.methods.knn`` keeps the |q|^2
    term, the arithmetic of the document it reproduces; the two can differ in the last bit.)
    """
    ranking = (train_x * train_x).sum(axis=1)[None, :] - 2.0 * query_x @ train_x.T
    return train_y[np.argmin(ranking, axis=1)]
