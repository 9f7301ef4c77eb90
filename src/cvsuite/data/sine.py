"""The regression data of "Regularization and Cross-Validation" (§8.2.3 and §8.2.4).

Points x uniform on [-half_width, half_width], targets sin(1.4 x) + 0.3 x plus Gaussian noise,
and a polynomial design on x scaled into [-1, 1].
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def sine_signal(x: np.ndarray) -> np.ndarray:
    """The regression function, the targets without their noise: sin(1.4 x) + 0.3 x."""
    return np.sin(1.4 * x) + 0.3 * x


def sine_sample(n: int, seed: int, noise: float, half_width: float) -> tuple[np.ndarray, np.ndarray]:
    """Draw n sorted points and their noisy targets, as the document's "From scratch" listing does.

    Draw order from ``numpy.random.default_rng(seed)``: n uniforms for x (then sorted), then n
    standard normals for the noise, scaled by ``noise``.
    """
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-half_width, half_width, n))
    return x, sine_signal(x) + noise * rng.standard_normal(n)


def polynomial_design(x: np.ndarray, degree: int, half_width: float) -> np.ndarray:
    """Columns 1, u, u^2, ..., u^degree of u = x / half_width (the document's scaled Vandermonde)."""
    return np.vander(x / half_width, degree + 1, increasing=True)


def mean_squared_error(y: np.ndarray, prediction: np.ndarray) -> float:
    """The risk of §8.2: the mean of squared residuals."""
    squared = (y - prediction) ** 2
    # np.mean's own arithmetic (one pairwise add.reduce, then a division by the count) without its
    # Python dispatch, which cost more than the sum on the 170,000 short residual vectors of a shard.
    return float(np.add.reduce(squared, axis=None) / squared.size)


@dataclass(frozen=True)
class SineSamples:
    """A training sample, a test sample standing for the population, and the x scale of the design."""

    x: np.ndarray
    y: np.ndarray
    x_test: np.ndarray
    y_test: np.ndarray
    half_width: float

    def designs(self, degree: int) -> tuple[np.ndarray, np.ndarray]:
        """The polynomial designs of the training and the test points."""
        train = polynomial_design(self.x, degree, self.half_width)
        return train, polynomial_design(self.x_test, degree, self.half_width)


def train_and_test(
    *, train_size: int, train_seed: int, test_size: int, test_seed: int, noise: float, half_width: float
) -> SineSamples:
    """The listing's training sample ``make(25, seed=3)`` and test sample ``make(4000, seed=99)``.

    Keyword arguments as the config block sine_data names them.
    """
    x, y = sine_sample(train_size, train_seed, noise, half_width)
    x_test, y_test = sine_sample(test_size, test_seed, noise, half_width)
    return SineSamples(x, y, x_test, y_test, half_width)
