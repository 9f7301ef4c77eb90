"""Shared cases of the twelve-point tests: the worked example's design, test tables, and brute force.

"Brute force" here refits each least-squares polynomial with numpy's own ``polyfit``, independently
of the quadratic forms the library computes the statistics with.
"""

from __future__ import annotations

import numpy as np

from cvsuite.methods.fold_statistics import Convention, Design, statistic_values
from cvsuite.methods.printed_targets import PrintedTargets

DESIGN = Design.of(12, 1, 5, 4)
X = DESIGN.x
MSE = Convention()  # mean squared fold errors, CV the mean of folds, s.d. ddof 1, training RSS / n
NAMES = (
    "line_training_error",
    "polynomial_training_error",
    "line_cv",
    "polynomial_cv",
    "polynomial_fold_4",
    "polynomial_fold_3",
    "polynomial_fold_sd",
    "line_fold_sd",
    "training_error_gain",
    "cv_difference",
    "polynomial_cv_over_training",
    "polynomial_cv_over_line_cv",
)
# The table recover_twelve_points recovers from the document's printed figures (results/recover_twelve_points/
# recovered_table.csv); not given in the document.
RECOVERED_Y = np.array([2.1, 3.9, 6.3, 7.8, 10.4, 11.7, 14.3, 15.8, 18.4, 19.6, 22.3, 23.9])


def noisy_table(seed: int, decimals: int | None = None) -> np.ndarray:
    """y = 2x + 0.3 e at x = 1..12, optionally rounded."""
    y = 2 * X + 0.3 * np.random.default_rng(seed).standard_normal(len(X))
    return np.round(y, decimals) if decimals is not None else y


def printed_from(y, decimals: int = 4, convention: Convention = MSE) -> PrintedTargets:
    """The statistics of a known table written as a document would print them."""
    values = statistic_values(y[None, :], NAMES, DESIGN, convention)[0]
    return PrintedTargets.of({n: f"{v:.{decimals}f}" for n, v in zip(NAMES, values)})


def refit(x_fit, y_fit, degree: int, x_eval) -> np.ndarray:
    """numpy's least-squares polynomial through (x_fit, y_fit), evaluated at x_eval."""
    coef = np.polynomial.polynomial.polyfit(x_fit, y_fit, degree)
    return np.polynomial.polynomial.polyval(x_eval, coef)


def brute_force_sums_of_squares(y, degree: int) -> tuple[float, list[float]]:
    """The training residual sum of squares and each fold's held-out one, by refitting."""
    everything = np.arange(len(y))
    training = float(np.sum((y - refit(X, y, degree, X)) ** 2))
    held_out = []
    for fold in DESIGN.folds:
        train = np.setdiff1d(everything, fold)
        held_out.append(float(np.sum((y[fold] - refit(X[train], y[train], degree, X[fold])) ** 2)))
    return training, held_out
