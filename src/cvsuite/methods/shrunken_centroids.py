"""Nearest shrunken centroids for two classes, vectorised over folds and over the threshold grid.

The classifier of Tibshirani, Hastie, Narasimhan and Chu (2002, PNAS 99:6567), as the R package
pamr computes it with its defaults, which Varma and Simon (2006) tuned by 10-fold cross-validation
("Cross-Validation", Evidence and Impact):

- pooled within-class standard deviation ``s_j`` (denominator n - 2), plus the offset ``s0`` =
  the median of the ``s_j`` (pamr's ``offset.percent = 50``);
- standardised centroid differences ``d_kj = (mean_kj - mean_j) / (m_k (s_j + s0))`` with
  ``m_k = sqrt(1/n_k - 1/n)``;
- soft thresholding ``d'_kj = sign(d_kj) (|d_kj| - t)_+``; shrunken centroids ``m_k d'_kj`` in
  units of ``s_j + s0`` about the overall mean;
- a test point x, standardised to ``z_j = (x_j - mean_j) / (s_j + s0)``, goes to the class with
  the larger ``z . c_k - |c_k|^2 / 2 + log prior_k``; ties go to the first class (class 0), as in
  pamr's ``softmax``;
- the threshold grid: ``n_thresholds`` values equally spaced from 0 to ``max |d_kj|`` of the data
  the procedure is trained on (pamr.train's default grid, 30 values, reused in every CV fold).

With two classes ``|d_0j| = |d_1j|`` and the signs are opposite, so one vector ``d = d_0``
describes both centroids: ``c_0 = m_0 d'`` and ``c_1 = -m_1 d'``. The discriminant difference is

    score(z; t) = (m_0 + m_1) z . d'(t) - (m_0^2 - m_1^2) |d'(t)|^2 / 2 + log(prior_0 / prior_1)

and class 0 is predicted when ``score >= 0``. Every function here evaluates that score for all
thresholds at once: each gene falls in the bucket of thresholds it survives, and the sums over the
survivors of every threshold are tail sums of bucket totals (``threshold_scores``), so no
(threshold x gene) array is built.
Labels are 0 and 1 throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CentroidFits:
    """What F nearest-shrunken-centroid fits need for prediction, one row per fit.

    ``overall``, ``scale`` and ``d`` are (F, p): the overall mean, ``s_j + s0`` and the
    standardised class-0 difference ``d_0j``; ``m`` is (F, 2): ``m_0`` and ``m_1``.
    """

    overall: np.ndarray
    scale: np.ndarray
    d: np.ndarray
    m: np.ndarray


def fit_centroids(
    x: np.ndarray,
    y: np.ndarray,
    train: np.ndarray,
    x_squared: np.ndarray | None = None,
    totals: list | None = None,
) -> CentroidFits:
    """Fit one unshrunken model per row of the boolean mask ``train`` (F, n), all by array ops.

    Each fold leaves out few samples, so its class sums and sums of squares are the whole data's
    less those of the left-out rows; the rest is elementwise on (F, p) arrays. ``totals``, if the
    caller has them, are ``class_totals(x, y, x_squared)``.
    """
    train = np.atleast_2d(np.asarray(train, dtype=bool))
    if x_squared is None:
        x_squared = x * x
    if totals is None:
        totals = class_totals(x, y, x_squared)
    counts = np.stack([(train & (y == k)).sum(axis=1) for k in (0, 1)], axis=1).astype(float)  # (F, 2)
    if (counts < 2).any():
        raise ValueError("each class needs at least two training points for a pooled standard deviation")
    sums, squares = [], []
    for k in (0, 1):
        in_class = y == k
        left_out = _left_out_rows(~train & in_class)
        sums.append(_less_rows(totals[k][0], x, left_out))
        squares.append(_less_rows(totals[k][1], x_squared, left_out))
    n = counts.sum(axis=1)
    means = [sums[k] / counts[:, k, None] for k in (0, 1)]
    overall = np.divide(np.add(sums[0], sums[1]), n[:, None])
    # The within-class sums of squares, in place. (They were summed from 0, and 0 + v differs
    # from v only at v = -0, which squares less products never are.)
    for k in (0, 1):
        np.subtract(squares[k], np.multiply(sums[k], means[k], out=sums[k]), out=squares[k])
    within = np.add(squares[0], squares[1], out=squares[0])
    # Rounding can leave a tiny negative sum of squares for a constant gene; it is zero.
    sd = np.sqrt(np.divide(np.maximum(within, 0.0, out=within), (n - 2)[:, None], out=within), out=within)
    scale = sd + _row_medians(sd)
    m = np.sqrt(1.0 / counts - 1.0 / n[:, None])
    d = np.divide(np.subtract(means[0], overall, out=means[0]), m[:, :1] * scale, out=means[0])
    return CentroidFits(overall=overall, scale=scale, d=d, m=m)


def class_totals(x: np.ndarray, y: np.ndarray, x_squared: np.ndarray) -> list:
    """Per class k, the sums of its rows of ``x`` and of ``x_squared``: what every fit on the data
    starts from, summed once for the fit on all of it, its folds and its leave-one-out fits."""
    totals = []
    for k in (0, 1):
        rows = _rows_marked(y == k)
        totals.append((x[rows].sum(axis=0), x_squared[rows].sum(axis=0)))
    return totals


def _rows_marked(mask: np.ndarray):
    """The rows ``mask`` marks, as a slice where they run consecutively (each class of the
    simulated data does): summed in place rather than copied first, in the same order."""
    rows = np.flatnonzero(mask)
    if len(rows) and rows[-1] - rows[0] + 1 == len(rows):
        return slice(int(rows[0]), int(rows[-1]) + 1)
    return rows


def _left_out_rows(left_out: np.ndarray) -> np.ndarray:
    """The columns marked in each row of ``left_out`` (F, n), in order, padded with -1: (F, w)."""
    width = int(left_out.sum(axis=1).max(initial=0))
    out = np.full((len(left_out), width), -1)
    rows, columns = np.nonzero(left_out)
    out[rows, np.cumsum(left_out, axis=1)[rows, columns] - 1] = columns
    return out


def _less_rows(total: np.ndarray, x: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``total`` less the sum of ``x``'s rows in each row of ``rows`` (-1 for none): (F, p).

    The rows are summed first, in order, then subtracted, as ``total - x[rows].sum(axis=0)``
    does; padding adds nothing.
    """
    if rows.shape[1] == 0:
        return np.repeat(total[None], len(rows), axis=0)
    taken = x[rows[:, 0]]
    taken[rows[:, 0] < 0] = 0.0
    for column in rows.T[1:]:
        padding = column < 0
        np.add(taken, x[column], out=taken, where=~padding[:, None] if padding.any() else True)
    return np.subtract(total, taken, out=taken)


def _row_medians(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=1, keepdims=True)`` by one partition: the upper middle value and the
    largest below it, averaged as np.median averages them."""
    half = a.shape[1] // 2
    part = np.partition(a, half, axis=1)
    upper = part[:, half : half + 1]
    if a.shape[1] % 2:
        return upper.copy()
    return (part[:, :half].max(axis=1, keepdims=True) + upper) / 2


def class_prior(y: np.ndarray, rule: str) -> np.ndarray:
    """The prior of the rule: pamr's default, the class proportions of ``y``, or equal."""
    if rule == "class_proportions":
        return np.bincount(y, minlength=2) / len(y)
    if rule == "equal":
        return np.array([0.5, 0.5])
    raise ValueError(f"prior must be 'class_proportions' or 'equal', got '{rule}'")


def threshold_grid(d: np.ndarray, n_thresholds: int) -> np.ndarray:
    """pamr.train's grid: ``n_thresholds`` values from 0 to max |d| (the last keeps no gene)."""
    if n_thresholds < 2:
        raise ValueError("the threshold grid needs at least two values")
    return np.linspace(0.0, float(np.max(np.abs(d))), n_thresholds)


def soft_threshold(d: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """``sign(d) (|d| - t)_+`` for every threshold: shape (T, p). The direct form, for checking."""
    thresholds = np.asarray(thresholds, dtype=float)[:, None]
    return np.sign(d) * np.maximum(np.abs(d) - thresholds, 0.0)


def survived_thresholds(a: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """For each |d| value, how many thresholds lie strictly below it (the thresholds it survives).

    On pamr's equally spaced grid from 0 this is ceil(|d| / step), repaired by one comparison
    where rounding put it one bucket off; any other ascending grid uses a binary search.
    """
    count = len(thresholds)
    step = thresholds[1] - thresholds[0] if count > 1 else 0.0
    if (
        count < 2
        or thresholds[0] != 0.0
        or not step > 0
        or not np.allclose(np.diff(thresholds), step, rtol=1e-9, atol=0.0)
    ):
        return np.searchsorted(thresholds, a, side="left")
    survived = np.minimum(np.ceil(a / step), count).astype(np.intp)
    survived -= (survived > 0) & (thresholds[np.maximum(survived - 1, 0)] >= a)
    survived += (survived < count) & (thresholds[np.minimum(survived, count - 1)] < a)
    return survived


def _bucket_index(survived: np.ndarray, count: int) -> np.ndarray:
    """Each entry's bucket (its row's block of ``count + 1``, then its survived count), flattened:
    what ``_survivor_sums`` and ``_survivor_counts`` bin by, shared by the sums over one array."""
    rows = len(survived)
    return (survived + (np.arange(rows) * (count + 1))[:, None]).ravel()


def _survivor_sums(weights: np.ndarray, index: np.ndarray, count: int) -> np.ndarray:
    """Row-wise sums of ``weights`` over the entries that survive each threshold: (rows, count).

    Entry j survives threshold k exactly when k < survived_j; the sums are tail sums of the
    per-bucket totals (``index`` from ``_bucket_index``), one bincount for all rows.
    """
    rows = len(weights)
    buckets = count + 1
    per_bucket = np.bincount(index, weights=weights.ravel(), minlength=rows * buckets).reshape(rows, buckets)
    return _survivor_tails(per_bucket)


def _survivor_tails(per_bucket: np.ndarray) -> np.ndarray:
    """Per row, the total of the buckets above each threshold's: column k sums buckets k+1 onward."""
    tails = np.cumsum(per_bucket[:, ::-1], axis=1)[:, ::-1]  # tails[:, v] = total of buckets >= v
    return tails[:, 1:]


def _survivor_counts(index: np.ndarray, rows: int, count: int) -> np.ndarray:
    """How many entries of each row survive each threshold: (rows, count), as floats.

    ``_survivor_sums`` of ones: sums of ones are exact integers, so counting gives the same values."""
    buckets = count + 1
    return _survivor_tails(np.bincount(index, minlength=rows * buckets).reshape(rows, buckets)).astype(float)


def threshold_scores(
    z: np.ndarray,
    d: np.ndarray,
    m: np.ndarray,
    log_prior_ratio: float,
    thresholds: np.ndarray,
    *,
    fit_of_row: np.ndarray | None = None,
) -> np.ndarray:
    """The discriminant difference score(z; t) of every test row of ``z`` (r, p) at every t: (r, T).

    ``z`` is already standardised by its fit's overall mean and scale. ``d`` (F, p) and ``m``
    (F, 2) describe F fits (or ``d`` (p,) and ``m`` (2,) one fit); row i is scored against fit
    ``fit_of_row[i]`` (default: fit 0). ``thresholds`` ascend. The sums over the genes surviving
    every threshold come from bucket totals (``_survivor_sums``): O(r p), no sort, no (T, p) array.
    """
    z = np.atleast_2d(z)
    fit_of_row = np.zeros(len(z), dtype=np.intp) if fit_of_row is None else np.asarray(fit_of_row)
    shrunk = _ShrunkenFits(np.atleast_2d(d), np.atleast_2d(m), thresholds)
    scores = np.empty((len(z), len(shrunk.thresholds)))
    for fit in np.unique(fit_of_row):
        rows = np.flatnonzero(fit_of_row == fit)
        scores[rows] = shrunk.scores(fit, z[rows], log_prior_ratio)
    return scores


class _ShrunkenFits:
    """F fits (``d`` (F, p), ``m`` (F, 2)) shrunk at every threshold: what scoring their test
    rows needs, formed once for all the fits."""

    def __init__(self, d: np.ndarray, m: np.ndarray, thresholds):
        self.m = m
        self.thresholds = np.asarray(thresholds, dtype=float)
        count = len(self.thresholds)
        self.sign = np.sign(d)
        self.a = np.abs(d)
        self.survived = survived_thresholds(self.a, self.thresholds)
        # Per fit: sum over survivors of (|d| - t)^2, the squared length of the shrunken centroid.
        a, index = self.a, _bucket_index(self.survived, count)
        quadratic = _survivor_sums(a * a, index, count) - 2.0 * self.thresholds * _survivor_sums(a, index, count)
        quadratic += _survivor_counts(index, len(a), count) * self.thresholds**2
        self.quadratic = quadratic

    def scores(self, fit: int, z: np.ndarray, log_prior_ratio: float) -> np.ndarray:
        """score(z; t) of the rows of ``z`` (r, p), all standardised by fit ``fit``: (r, T).

        One fit's rows at a time: the (r, p) arrays stay small, and each row's bucket totals are
        summed in the order of its genes, as for all rows at once."""
        count = len(self.thresholds)
        # Per row: z . d'(t) = sum over survivors of z sign(d) (|d| - t).
        signed = z * self.sign[fit]
        row_index = (self.survived[fit] + (np.arange(len(z)) * (count + 1))[:, None]).ravel()
        weighted = _survivor_sums(signed * self.a[fit], row_index, count)
        linear = weighted - self.thresholds * _survivor_sums(signed, row_index, count)
        m_0, m_1 = self.m[fit, :1], self.m[fit, 1:]
        return (m_0 + m_1) * linear - 0.5 * (m_0**2 - m_1**2) * self.quadratic[fit] + log_prior_ratio


def cv_errors(
    x: np.ndarray,
    y: np.ndarray,
    folds: list[np.ndarray],
    thresholds: np.ndarray,
    prior: np.ndarray,
    *,
    x_squared: np.ndarray | None = None,
    totals: list | None = None,
) -> np.ndarray:
    """The K-fold cross-validation error rate at every threshold (pamr.cv's ``error``), shape (T,).

    The thresholds and the prior are the procedure's, fixed before the folds are cut, as pamr.cv
    takes both from the fit on all the data it is given. All folds are fitted at once; each
    sample is standardised by, and scored against, the fit that left it out, fold by fold.
    """
    n = len(y)
    fold_of = np.empty(n, dtype=int)
    for f, fold in enumerate(folds):
        fold_of[fold] = f
    train = fold_of[None, :] != np.arange(len(folds))[:, None]
    fits = fit_centroids(x, y, train, x_squared, totals)
    shrunk = _ShrunkenFits(fits.d, fits.m, thresholds)
    log_prior_ratio = float(np.log(prior[0] / prior[1]))
    scores = np.empty((n, len(shrunk.thresholds)))
    for f, fold in enumerate(folds):
        z = (x[fold] - fits.overall[f]) / fits.scale[f]
        scores[fold] = shrunk.scores(f, z, log_prior_ratio)
    return ((scores < 0) != (y[:, None] == 1)).mean(axis=0)


def predict(fits: CentroidFits, row: int, x_test: np.ndarray, threshold: float, prior: np.ndarray) -> np.ndarray:
    """Class (0 or 1) of each row of ``x_test`` under fit ``row`` at one threshold."""
    z = (np.atleast_2d(x_test) - fits.overall[row]) / fits.scale[row]
    score = threshold_scores(z, fits.d[row], fits.m[row], float(np.log(prior[0] / prior[1])), np.array([threshold]))
    return (score[:, 0] < 0).astype(int)


def linear_rule(fits: CentroidFits, row: int, threshold: float, prior: np.ndarray) -> tuple[np.ndarray, float]:
    """The fit as a linear rule in the raw features: class 0 iff ``w . x + b >= 0``.

    The score is linear in x, so its error under a Gaussian class model is exact (see
    ``data.two_class_gaussian.linear_rule_error``).
    """
    shrunk = soft_threshold(fits.d[row], np.array([threshold]))[0]
    m0, m1 = fits.m[row]
    w = (m0 + m1) * shrunk / fits.scale[row]
    b = (
        -float(w @ fits.overall[row])
        - 0.5 * (m0**2 - m1**2) * float(shrunk @ shrunk)
        + float(np.log(prior[0] / prior[1]))
    )
    return w, b
