"""Bias, variance and their sum against flexibility: "Estimating Out-of-Sample Error", its decomposition.

"Flexibility moves the first two in opposite directions. A more flexible model follows the true f
more closely, lowering bias, and responds more to the particular sample it was given, raising
variance. Their sum therefore has a minimum at some intermediate flexibility ... The minimum's
location depends on n: more data lowers variance at a given flexibility, so the optimum moves toward
more flexible models as the sample grows." And: "A straight line fitted to genuinely curved data
misses the same way in every sample, however many observations each contains"; "A rigid model has
high bias and low variance; a flexible one has the reverse"; "training error keeps falling".

The document names no data for these sentences; the test bed is the curved regression of
"Regularization and Cross-Validation" (sin(1.4 x) + 0.3 x plus Gaussian noise, x uniform), fitted by
least-squares polynomials of growing degree (flexibility) on samples of several sizes. Bias and
variance are what the decomposition defines, over training sets: at each x of a grid over the range,
the mean prediction over samples against f(x) (squared, less its Monte Carlo part, so unbiased) and
the variance of the predictions, both averaged over the grid; the expected error adds the noise
variance. A degree near the sample size is sometimes nearly singular on a random design, so its
means have heavy tails: the table keeps them as measured.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.sine import polynomial_design, sine_signal


@dataclass(frozen=True)
class BiasVarianceSettings:
    """Sample sizes, degrees, samples per size, grid points, seed; noise and range as sine_data."""

    sample_sizes: tuple[int, ...]
    degrees: tuple[int, ...]
    samples: int
    grid_points: int
    seed: int
    noise: float
    half_width: float

    @classmethod
    def from_config(cls, block: dict, sine_data: dict) -> BiasVarianceSettings:
        return cls(
            tuple(block["sample_sizes"]),
            tuple(range(block["min_degree"], block["max_degree"] + 1)),
            block["samples"],
            block["grid_points"],
            block["seed"],
            sine_data["noise"],
            sine_data["half_width"],
        )


def decomposition(s: BiasVarianceSettings) -> pd.DataFrame:
    """One row per sample size and degree: squared bias, variance, their sum with the noise variance
    (the expected error), and the expected training error, each with its Monte Carlo standard error.

    Draw order from ``default_rng(seed)``: for each sample size in order, ``samples`` samples, each n
    uniform x then n standard normals (scaled by the noise), as the companion document's ``make``
    draws one. Every degree is fitted to the same samples.
    """
    rng = np.random.default_rng(s.seed)
    grid = np.linspace(-s.half_width, s.half_width, s.grid_points)
    truth = sine_signal(grid)
    rows = []
    for n in s.sample_sizes:
        predictions = np.empty((len(s.degrees), s.samples, len(grid)))
        training = np.empty((len(s.degrees), s.samples))
        for sample in range(s.samples):
            x = rng.uniform(-s.half_width, s.half_width, n)
            y = sine_signal(x) + s.noise * rng.standard_normal(n)
            for i, degree in enumerate(s.degrees):
                design = polynomial_design(x, degree, s.half_width)
                theta = np.linalg.lstsq(design, y, rcond=None)[0]
                predictions[i, sample] = polynomial_design(grid, degree, s.half_width) @ theta
                training[i, sample] = np.mean((y - design @ theta) ** 2)
        for i, degree in enumerate(s.degrees):
            rows.append({"n": n, "degree": degree, **_moments(predictions[i], truth, training[i], s.noise)})
    return pd.DataFrame(rows)


def _moments(predictions: np.ndarray, truth: np.ndarray, training: np.ndarray, noise: float) -> dict:
    """Squared bias (unbiased: the mean prediction's own Monte Carlo variance taken out), variance,
    expected error and expected training error from one degree's predictions (samples x grid)."""
    samples = len(predictions)
    mean = predictions.mean(axis=0)
    variance_at_x = predictions.var(axis=0, ddof=1)
    bias2 = float(np.mean((mean - truth) ** 2 - variance_at_x / samples))
    # Per-sample contributions, for standard errors: each sample's squared distance from the mean curve.
    spread = ((predictions - mean) ** 2).mean(axis=1)
    variance = float(variance_at_x.mean())
    variance_se = float(spread.std(ddof=1) / np.sqrt(samples))
    return {
        "bias_squared": bias2,
        "variance": variance,
        "variance_se": variance_se,
        "noise_variance": noise**2,
        "expected_error": bias2 + variance + noise**2,
        "expected_error_se": variance_se,  # the variance's, which dominates: the bias's s.e. is of order 1/samples
        "training_error": float(training.mean()),
        "training_error_se": float(training.std(ddof=1) / np.sqrt(samples)),
    }


def optima(table: pd.DataFrame) -> pd.DataFrame:
    """Per sample size: the degree of least expected error, and where it lies in the degree range."""
    rows = []
    for n, block in table.groupby("n", sort=True):
        best = block.loc[block["expected_error"].idxmin()]
        rows.append(
            {
                "n": int(n),
                "best_degree": int(best["degree"]),
                "best_expected_error": float(best["expected_error"]),
                "min_degree": int(block["degree"].min()),
                "max_degree": int(block["degree"].max()),
                "interior": bool(block["degree"].min() < best["degree"] < block["degree"].max()),
            }
        )
    return pd.DataFrame(rows)


def bias_variance_claims(table: pd.DataFrame, best: pd.DataFrame) -> list[tuple[str, bool, float, str]]:
    """The decomposition's sentences as (claim, holds, value, reading), at every sample size."""
    by_n = {n: block.set_index("degree") for n, block in table.groupby("n", sort=True)}
    sizes = sorted(by_n)
    rigid, flexible = min(table["degree"]), max(table["degree"])
    line = 1 if 1 in set(table["degree"]) else rigid
    falls = [b.loc[flexible, "bias_squared"] < b.loc[rigid, "bias_squared"] for b in by_n.values()]
    rises = [b.loc[flexible, "variance"] > b.loc[rigid, "variance"] for b in by_n.values()]
    steps_up = [int((np.diff(b["variance"].to_numpy()) < 0).sum()) for b in by_n.values()]
    training = [bool(np.all(np.diff(b["training_error"].to_numpy()) < 0)) for b in by_n.values()]
    lower = [bool((by_n[big]["variance"] < by_n[small]["variance"]).all()) for small, big in zip(sizes[:-1], sizes[1:])]
    optimum = best.set_index("n")["best_degree"]
    line_bias = [by_n[n].loc[line, "bias_squared"] for n in sizes]
    return [
        (
            "flexibility_lowers_bias",
            all(falls),
            float(max(b.loc[flexible, "bias_squared"] / b.loc[rigid, "bias_squared"] for b in by_n.values())),
            f"at every sample size the squared bias of the most flexible fit (degree {flexible}) is below the most "
            f"rigid's (degree {rigid}); value: the largest ratio",
        ),
        (
            "flexibility_raises_variance",
            all(rises),
            float(sum(steps_up)),
            "at every sample size the variance of the most flexible fit is above the most rigid's; value: the steps "
            "of one degree where the variance falls instead (all sizes)",
        ),
        (
            "rigid_and_flexible_reverse_bias_and_variance",
            all(falls) and all(rises),
            float(len(falls)),
            f"at every sample size the most rigid fit (degree {rigid}) has the higher squared bias and the lower "
            f"variance, the most flexible (degree {flexible}) the reverse; value: sizes",
        ),
        (
            "sum_has_interior_minimum",
            bool(best["interior"].all()),
            float(optimum.iloc[0]),
            "at every sample size the expected error (squared bias + variance + noise) is least at a degree strictly "
            "between the lowest and the highest; value: the best degree at the smallest size",
        ),
        (
            "optimum_moves_to_more_flexible_with_n",
            bool(np.all(np.diff(optimum.to_numpy()) >= 0) and optimum.iloc[-1] > optimum.iloc[0]),
            float(optimum.iloc[-1]),
            "the best degree never falls as the sample grows and is higher at the largest size than at the smallest; "
            "value: the best degree at the largest size",
        ),
        (
            "more_data_lowers_variance",
            all(lower),
            float(len(lower)),
            "at every degree the variance is lower at each larger sample size; value: the size steps compared",
        ),
        (
            "line_misses_the_same_way_at_every_n",
            bool(max(line_bias) < 1.1 * min(line_bias)),
            float(max(line_bias) / min(line_bias)),
            f"the straight line's squared bias (degree {line}) is the same at every sample size, within 10%; "
            "value: the largest over the smallest",
        ),
        (
            "training_error_keeps_falling",
            all(training),
            float(len(training)),
            "at every sample size the expected training error falls at every step of degree; value: sizes",
        ),
    ]
