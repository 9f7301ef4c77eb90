"""How the bias of K-fold cross-validation depends on K ("Regularization and Cross-Validation" §8.2.4).

A degree-d least-squares polynomial, its risk on fresh test points when fitted on all N points
(the truth), and Equation 8.13's estimate averaged over many random partitions for each K.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, mean_squared_error, polynomial_design
from cvsuite.methods.folds import canonical_partition, shuffled_partition, training_sizes
from cvsuite.methods.monte_carlo import standard_error


def least_squares_risk(x_fit, y_fit, x_eval, y_eval, degree: int, half_width: float) -> float:
    """Fit a degree-d polynomial by least squares on one set, return its risk on another."""
    theta = np.linalg.lstsq(polynomial_design(x_fit, degree, half_width), y_fit, rcond=None)[0]
    return mean_squared_error(y_eval, polynomial_design(x_eval, degree, half_width) @ theta)


def cv_fold_risks(x, y, folds: list[np.ndarray], degree: int, half_width: float) -> np.ndarray:
    """The risk R(f^(k), V^(k)) of each fold's model on its own fold (the terms of Equation 8.13).

    The partition is taken in canonical form (see ``canonical_partition``), training points in
    index order, so the result depends on the partition alone.
    """
    folds = canonical_partition(folds)
    everything = np.arange(len(y))
    risks = []
    for fold in folds:
        train = np.setdiff1d(everything, fold)
        risks.append(least_squares_risk(x[train], y[train], x[fold], y[fold], degree, half_width))
    return np.array(risks)


@dataclass(frozen=True)
class KBiasSettings:
    """The K-bias table's settings: the polynomial degree, the values of K, the shuffles per K and
    the seed of the first ("Regularization and Cross-Validation", From scratch: 5, (2, 3, 5, 10, 25),
    40, 0)."""

    degree: int
    fold_counts: tuple[int, ...]
    shuffles: int
    first_seed: int

    @classmethod
    def from_block(cls, block: dict, shuffles: int | None = None) -> KBiasSettings:
        """From the config block k_bias; ``shuffles`` overrides its count (the robustness study's)."""
        count = block["shuffles"] if shuffles is None else shuffles
        return cls(block["degree"], tuple(block["folds"]), count, block["first_seed"])


def k_bias_table(samples: SineSamples, settings: KBiasSettings) -> pd.DataFrame:
    """One row per K: truth, CV estimate (mean over shuffles), bias, standard error, spread.

    Shuffle s uses the partition of ``shuffled_partition(N, K, first_seed + s)``; the standard
    error (sigma / sqrt(K), the book's margin note) is that of the first shuffle's partition alone;
    the spread is the population s.d. (ddof = 0) of the per-shuffle estimates, as in the listing.
    ``cv_estimate_se`` is the standard error of the mean over shuffles (ddof 1), what a claim that the
    bias "is not noise" must be measured against.
    """
    x, y, x_test, y_test, half_width = samples.x, samples.y, samples.x_test, samples.y_test, samples.half_width
    degree, shuffles, first_seed = settings.degree, settings.shuffles, settings.first_seed
    n = len(y)
    truth = least_squares_risk(x, y, x_test, y_test, degree, half_width)
    rows = []
    for k in settings.fold_counts:
        partitions = [shuffled_partition(n, k, first_seed + s) for s in range(shuffles)]
        estimates = np.array([cv_fold_risks(x, y, p, degree, half_width).mean() for p in partitions])
        first = cv_fold_risks(x, y, partitions[0], degree, half_width)
        sizes = training_sizes(n, partitions[0])
        estimate = float(estimates.mean())
        se = standard_error(first)
        mean_se = standard_error(estimates)
        # Deviations from the first estimate, not from the mean: the same s.d. in exact arithmetic,
        # and exactly 0 when every shuffle gives the same estimate (a mean of equal floats need not
        # equal them, which would leave leave-one-out a spread of 1e-16).
        spread = float((estimates - estimates[0]).std())
        rows.append(
            {
                "K": int(k),
                "train_size_min": int(sizes.min()),
                "train_size_max": int(sizes.max()),
                "n_parameters": degree + 1,
                "truth": truth,
                "cv_estimate": estimate,
                "cv_estimate_se": mean_se,
                "bias": estimate - truth,
                # Over shuffles that all give one estimate the bias is exact: infinitely many s.e.
                "bias_over_se": (estimate - truth) / mean_se
                if mean_se > 0
                else math.copysign(math.inf, estimate - truth),
                "cv_over_truth": estimate / truth,
                "std_error": se,
                "spread_over_shuffles": spread,
                "spread_over_std_error": spread / se,
                "fits": int(k),
            }
        )
    return pd.DataFrame(rows)


def std_error_range(table: pd.DataFrame, min_folds: int) -> pd.DataFrame:
    """The smallest and largest standard error over K >= min_folds ("between 0.028 and 0.041")."""
    chosen = table[table["K"] >= min_folds]["std_error"]
    return pd.DataFrame([{"min_folds": min_folds, "std_error_min": chosen.min(), "std_error_max": chosen.max()}])


def partition_grid(n: int, n_folds: int, seed: int) -> pd.DataFrame:
    """The book's Figure 8.4 as a table: for each run k, each point's role (validation or training).

    The partition is ``shuffled_partition(n, K, seed)`` in canonical form, so run k validates the
    k-th fold by first point. Refused unless every point is validated exactly once.
    """
    folds = canonical_partition(shuffled_partition(n, n_folds, seed))
    grid = pd.DataFrame(
        [
            {"run": run + 1, "point": int(i) + 1, "role": "validation" if i in set(fold.tolist()) else "training"}
            for run, fold in enumerate(folds)
            for i in range(n)
        ]
    )
    validated = grid[grid["role"] == "validation"].groupby("point").size()
    if not (len(validated) == n and (validated == 1).all()):
        raise RuntimeError("partition grid: some point is not validated exactly once")
    return grid
