"""Decision stumps: the single split of a single predictor of least training misclassification.

The classifier of Hastie, Tibshirani and Friedman (2009), ESL §7.10.3 "Does Cross-Validation
Really Work?", for two classes labelled 0.0 and 1.0. Every split of every predictor is scored at
once from cumulative label counts in sorted order, and one sort of each predictor serves every
subset of the samples (``restricted_orders``), so cross-validating a stump needs no new sort.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Stump:
    """x[predictor] > threshold predicts ``right_class``, otherwise 1 - right_class."""

    predictor: int
    threshold: float
    right_class: float
    training_errors: int

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The class of each row of the samples x predictors matrix ``x``."""
        return self.predict_from_values(x[:, self.predictor])

    def predict_from_values(self, values: np.ndarray) -> np.ndarray:
        """The class of samples whose value of the stump's predictor is ``values`` (the only one it reads)."""
        return np.where(values > self.threshold, self.right_class, 1.0 - self.right_class)


def sorted_orders(x: np.ndarray) -> np.ndarray:
    """For each predictor (row), the sample indices in increasing order of its values: p x n."""
    return np.argsort(x.T, axis=1, kind="stable")


def restricted_orders(orders: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """The orders of a subset of samples, read off the full orders: dropping samples keeps the order
    of the rest, so a fold's training orders need no new sort. ``keep`` is a boolean mask of samples."""
    mask = keep[orders]
    return orders[mask].reshape(orders.shape[0], int(keep.sum()))


def split_errors(y: np.ndarray, orders: np.ndarray) -> np.ndarray:
    """Training errors of every split of every predictor: a p x (n - 1) x 2 array.

    ``orders`` (p x n, sample indices into ``y``) lists each predictor's samples in increasing order.
    Split s puts the s + 1 smallest on the left. Orientation 0 predicts class 0 on the left and
    class 1 on the right; orientation 1 the reverse. Only real splits are counted (at least one
    sample on each side). Counts come from cumulative sums of the labels in sorted order.
    """
    n = orders.shape[1]
    labels = y[orders]
    ones_left = np.cumsum(labels, axis=1)[:, :-1]
    left = np.arange(1, n)[None, :]
    zeros_right = (n - labels[0].sum()) - (left - ones_left)
    left0_right1 = ones_left + zeros_right
    return np.stack([left0_right1, n - left0_right1], axis=-1)


def stump_from_orders(x: np.ndarray, y: np.ndarray, orders: np.ndarray, candidates: np.ndarray) -> Stump:
    """The stump of least training error among the predictors ``candidates``, whose sample orders
    (over the training samples only) are the rows of ``orders``.

    Ties are broken by the first candidate, then the leftmost split, then orientation 0 (the
    predictors are exchangeable, and reflecting x maps leftmost to rightmost, so the rule biases
    nothing). The threshold is the midpoint between the two sorted values the split falls between.
    """
    errors = split_errors(y, orders)
    # C order of (predictor, split, orientation): argmin's first minimum is the tie rule above.
    best = int(np.argmin(errors))
    row, rest = divmod(best, errors.shape[1] * 2)
    split, orientation = divmod(rest, 2)
    predictor = int(candidates[row])
    threshold = 0.5 * (x[orders[row, split], predictor] + x[orders[row, split + 1], predictor])
    return Stump(predictor, float(threshold), 1.0 - orientation, int(errors.reshape(-1)[best]))


def fit_stump(x: np.ndarray, y: np.ndarray, predictors=None) -> Stump:
    """The stump of least training error on (x, y), over all predictors or only over ``predictors``."""
    candidates = np.arange(x.shape[1]) if predictors is None else np.asarray(predictors, dtype=int)
    return stump_from_orders(x, y, sorted_orders(x[:, candidates]), candidates)
