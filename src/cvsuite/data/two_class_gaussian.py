"""Two Gaussian classes with identity covariance, differing in the mean of a few features.

The microarray-like population of the Varma and Simon (2006) re-simulation ("Cross-Validation",
Evidence and Impact): n0 = n1 samples of p independent standard normal features; class 1 has its
first few features shifted (none for the null data, whose true error is 50% for any classifier).
Because the population is known, the true error of a linear rule is a normal tail probability
(``linear_rule_error``), not an estimate on a test sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Dataset:
    """A simulated training set and the class means that define its population."""

    x: np.ndarray
    y: np.ndarray
    class_means: np.ndarray  # (2, p)


def simulate_dataset(
    rng: np.random.Generator, per_class: int, n_features: int, signal_features: int, signal_shift: float
) -> Dataset:
    """``per_class`` samples of each class, class 1 shifted on its first ``signal_features``
    features by ``signal_shift`` (no shift: the null data).

    Draw order: one ``rng.standard_normal((2 * per_class, n_features))``, rows of class 0 first;
    the shift is then added to the class-1 rows. Labels are 0 and 1, not drawn.
    """
    if signal_features > n_features:
        raise ValueError("there cannot be more signal features than features")
    x = rng.standard_normal((2 * per_class, n_features))
    y = np.repeat([0, 1], per_class)
    means = np.zeros((2, n_features))
    means[1, :signal_features] = signal_shift
    # Only the shifted features change: adding 0 leaves a normal draw as it is.
    x[y == 1, :signal_features] += signal_shift
    return Dataset(x=x, y=y, class_means=means)


def linear_rule_error(w: np.ndarray, b: float, class_means: np.ndarray) -> float:
    """Exact error of 'class 0 iff w . x + b >= 0' when x ~ N(mean_k, I) and P(class) = 1/2.

    The classes are taken as equally likely, as in the balanced designs. A constant rule (w = 0)
    is wrong on exactly one class: error 1/2.
    """
    length = float(np.linalg.norm(w))
    if length == 0.0:
        return 0.5
    # ndtr is the standard normal CDF that scipy.stats.norm.cdf evaluates, without importing
    # scipy.stats (the slowest of scipy's imports, in every simulation job); imported here, as the
    # study that gathers the shards imports this module but never computes an error.
    from scipy.special import ndtr

    margin = (class_means @ w + b) / length
    return 0.5 * (float(ndtr(-margin[0])) + float(ndtr(margin[1])))
