"""Linear regression on independent standard Gaussian predictors, and the exact error of a fitted model.

The data of "Estimating Out-of-Sample Error", Scaling inside the fold loop against scaling before
it: x ~ N(0, I_p) and y = x . b + noise, with b nonzero on the first few predictors or nowhere
("predictors that are pure noise"). Because x ~ N(0, I), a fitted model's expected squared error on
fresh data has a closed form, so no test sample is needed.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class RegressionDesign:
    """``n_predictors`` predictors, of which the first ``signal_predictors`` carry
    ``signal_coefficient`` each; response noise of s.d. ``noise_sd``."""

    n_predictors: int
    signal_predictors: int
    signal_coefficient: float
    noise_sd: float

    def __post_init__(self) -> None:
        if not 0 <= self.signal_predictors <= self.n_predictors:
            raise ValueError(
                f"signal_predictors must lie between 0 and n_predictors = {self.n_predictors}, "
                f"got {self.signal_predictors}"
            )

    @property
    def pure_noise(self) -> bool:
        """True when no predictor carries signal: the response is noise alone."""
        return self.signal_predictors == 0 or self.signal_coefficient == 0

    def coefficients(self) -> np.ndarray:
        """The true coefficients b: ``signal_coefficient`` on the first ``signal_predictors``, 0 elsewhere."""
        b = np.zeros(self.n_predictors)
        b[: self.signal_predictors] = self.signal_coefficient
        return b


def regression_sample(
    n: int, design: RegressionDesign, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n observations: predictors x ~ N(0, I_p) and y = x . b + N(0, noise_sd^2).

    Draw order: the n x p predictors row by row, then the n noise values. Returns (X, y, b).
    """
    X = rng.standard_normal((n, design.n_predictors))
    b = design.coefficients()
    y = X @ b + design.noise_sd * rng.standard_normal(n)
    return X, y, b


def nested_regression_samples(
    sizes, design: RegressionDesign, rng: np.random.Generator
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.random.Generator]]:
    """``regression_sample(n, design, g)`` for each n of ``sizes`` (distinct), g a copy of ``rng``
    for each, with g as that sample leaves it: (X, y, b, g). ``rng`` is left after the largest.

    A generator draws its normals one after another however the calls split them, so the sample at
    n is the stream's first n p normals (the predictors, row by row) and its next n (the noise): a
    larger sample begins with a smaller one's draws. The stream is drawn once, up to the largest
    sample, and the generator copied where each smaller sample ends, rather than drawn again for each.
    """
    p, b = design.n_predictors, design.coefficients()
    stream = np.empty(max(sizes) * (p + 1))
    drawn, samples = 0, {}
    for n in sorted(sizes):
        end = n * (p + 1)
        rng.standard_normal(out=stream[drawn:end])
        drawn = end
        X = stream[: n * p].reshape(n, p)
        samples[n] = (X, X @ b + design.noise_sd * stream[n * p : end], b, copy.deepcopy(rng))
    return [samples[n] for n in sizes]


def true_mse(intercept: float, selected, weights, true_coefficients, noise_sd: float) -> float:
    """The exact expected squared error of c + x[selected] . w on a fresh (x, y) with x ~ N(0, I).

    noise_sd^2 + c^2 + ||w - b||^2, with w zero outside the selected predictors.
    """
    w = np.zeros_like(true_coefficients)
    w[selected] = weights
    return float(noise_sd**2 + intercept**2 + np.sum((w - true_coefficients) ** 2))
