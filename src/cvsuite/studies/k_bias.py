"""How the bias of K-fold cross-validation depends on K ("Regularization and Cross-Validation" §8.2.4).

A degree-d least-squares polynomial, its risk on fresh test points when fitted on all N points
(the truth), and Equation 8.13's estimate averaged over many random partitions for each K.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, mean_squared_error, polynomial_design
from cvsuite.methods.folds import canonical_partition, chunked_folds, shuffled_partition, training_sizes
from cvsuite.methods.least_squares_cv import shuffle_permutations
from cvsuite.methods.monte_carlo import standard_error


def least_squares_risk(x_fit, y_fit, x_eval, y_eval, degree: int, half_width: float) -> float:
    """Fit a degree-d polynomial by least squares on one set, return its risk on another."""
    theta = np.linalg.lstsq(polynomial_design(x_fit, degree, half_width), y_fit, rcond=None)[0]
    return mean_squared_error(y_eval, polynomial_design(x_eval, degree, half_width) @ theta)


class HeldOutRisks:
    """R(f^(k), V^(k)) for any fold V of one sample: the least-squares fit to the other points, scored on V.

    A fold's risk depends on the fold alone (its training set is the rest of the sample), so each
    is computed once: every leave-one-out shuffle cuts the same N folds, which S shuffles would
    otherwise fit S times over. Folds are given sorted (as ``canonical_partition`` leaves them),
    so a risk does not depend on the order the fold's points were dealt in.
    """

    def __init__(self, x, y, degree: int, half_width: float, test: tuple | None = None):
        # One design for all points: its rows are computed independently (np.vander), so a fold's
        # rows are bit for bit the design of the fold's points; and a mask, not setdiff1d, for the rest.
        self.design = polynomial_design(x, degree, half_width)
        self.y = y
        # The test points (x, y), if given: each fold model's true risk is kept beside its fold risk, from
        # the test design's moments (mean y^2, X'y / n, X'X / n): a fold's risk then costs p^2, not n p.
        self.test = None
        if test is not None:
            design, y_test = polynomial_design(test[0], degree, half_width), test[1]
            n_test = len(y_test)
            self.test = (float(y_test @ y_test) / n_test, design.T @ y_test / n_test, design.T @ design / n_test)
        self._risks: dict[bytes, float] = {}
        self._tested: dict[bytes, float] = {}

    def of_fold(self, fold: np.ndarray) -> float:
        """The risk on this fold (sorted indices) of the fit to every other point."""
        key = fold.tobytes()
        risk = self._risks.get(key)
        if risk is None:
            train = np.ones(len(self.y), dtype=bool)
            train[fold] = False
            theta = np.linalg.lstsq(self.design[train], self.y[train], rcond=None)[0]
            risk = self._risks[key] = mean_squared_error(self.y[fold], self.design[fold] @ theta)
            if self.test is not None:
                yy, xy, xx = self.test
                self._tested[key] = float(yy - 2 * theta @ xy + theta @ xx @ theta)
        return risk

    def of_partition(self, folds: list[np.ndarray]) -> np.ndarray:
        """The risk of each fold of the partition in canonical form (see ``canonical_partition``)."""
        return self.of_folds(canonical_partition(folds))

    def of_folds(self, folds: list[np.ndarray]) -> np.ndarray:
        """The risk of each of these folds (sorted indices), in their order."""
        return np.array([self.of_fold(fold) for fold in folds])

    def tested_of_folds(self, folds: list[np.ndarray]) -> np.ndarray:
        """The true risk (on the test points given) of each of these folds' models, in their order."""
        for fold in folds:
            self.of_fold(fold)  # fits the fold's model if it was not yet fitted
        return np.array([self._tested[fold.tobytes()] for fold in folds])


def cv_fold_risks(x, y, folds: list[np.ndarray], degree: int, half_width: float) -> np.ndarray:
    """The risk R(f^(k), V^(k)) of each fold's model on its own fold (the terms of Equation 8.13).

    The partition is taken in canonical form (see ``canonical_partition``), training points in
    index order, so the result depends on the partition alone.
    """
    return HeldOutRisks(x, y, degree, half_width).of_partition(folds)


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


@dataclass(frozen=True)
class ShuffleRuns:
    """Equation 8.13 on every shuffle of one K: each shuffle's partition and its K fold risks.

    Shuffle s is ``shuffled_partition(N, K, first_seed + s)``: for one s every K cuts the same
    permutation, so two K's estimates are paired by shuffle.
    """

    k: int
    partitions: list[list[np.ndarray]]
    fold_risks: list[np.ndarray]
    tested_risks: list[np.ndarray] | None = None  # each fold model's true risk, where test points were given

    @property
    def estimates(self) -> np.ndarray:
        """The estimate of each shuffle: the mean of its fold risks."""
        return np.array([risks.mean() for risks in self.fold_risks])


@dataclass(frozen=True)
class ShufflePartitions:
    """Every shuffle's partition for one K, and the distinct folds of their canonical forms.

    Shuffle s cuts ``shuffled_partition(N, K, first_seed + s)``; its canonical partition
    (``canonical_partition``) is ``folds[index[s]]``. Leave-one-out's shuffles all cut the same N
    folds, and at every K a fold's risk is fitted once however many shuffles cut it.
    """

    partitions: list[list[np.ndarray]]  # as dealt
    folds: list[np.ndarray]  # the distinct folds, each sorted
    index: np.ndarray  # (shuffles, K)


@cache
def shuffle_partitions(n: int, k: int, first_seed: int, shuffles: int) -> ShufflePartitions:
    """The ``ShufflePartitions`` of N points into K folds over ``shuffles`` seeds from ``first_seed``.

    They depend on these four numbers alone, not on the sample, so a process that scores many
    samples of one size (a shard of fresh samples) draws and sorts them once: kept for the life of the
    process, and shared, so read, never written.
    """
    permutations = shuffle_permutations(n, range(first_seed, first_seed + shuffles))
    partitions = [chunked_folds(order, k) for order in permutations]
    folds, positions, index = [], {}, np.empty((shuffles, k), dtype=int)
    for s, partition in enumerate(partitions):
        for j, fold in enumerate(canonical_partition(partition)):
            key = fold.tobytes()
            if key not in positions:
                positions[key] = len(folds)
                folds.append(fold)
            index[s, j] = positions[key]
    return ShufflePartitions(partitions, folds, index)


def shuffle_runs(samples: SineSamples, settings: KBiasSettings, fold_models: bool = False) -> list[ShuffleRuns]:
    """The fold risks of every shuffle, for each K of the settings; with ``fold_models``, also each
    fold model's true risk on the test points (the book's source (1) of error, fold by fold)."""
    n = len(samples.y)
    test = (samples.x_test, samples.y_test) if fold_models else None
    held_out = HeldOutRisks(samples.x, samples.y, settings.degree, samples.half_width, test)
    runs = []
    for k in settings.fold_counts:
        plan = shuffle_partitions(n, int(k), settings.first_seed, settings.shuffles)
        risks = list(held_out.of_folds(plan.folds)[plan.index])
        tested = list(held_out.tested_of_folds(plan.folds)[plan.index]) if fold_models else None
        runs.append(ShuffleRuns(int(k), plan.partitions, risks, tested))
    return runs


def error_sources_of_runs(runs: list[ShuffleRuns], truth: float) -> pd.DataFrame:
    """The two sources of error the book names in Equation 8.13, per K, on runs with fold models.

    ``training_effect``: the mean over shuffles of the fold models' mean true risk minus the truth
    (source (1): each fold model trains on fewer points); ``validation_effect``: the mean over
    shuffles of the estimate minus the fold models' mean true risk (source (2): each is scored on
    its few held-out points). They add up to the bias.
    """
    rows = []
    for run in runs:
        models = np.array([t.mean() for t in run.tested_risks])
        rows.append(
            {
                "K": run.k,
                "truth": truth,
                "cv_estimate": float(run.estimates.mean()),
                "fold_models_risk": float(models.mean()),
                "training_effect": float(models.mean() - truth),
                "validation_effect": float((run.estimates - models).mean()),
            }
        )
    return pd.DataFrame(rows)


def full_data_risk(samples: SineSamples, degree: int) -> float:
    """The truth Equation 8.13 estimates: the risk on the test points of the fit to all N points."""
    return least_squares_risk(samples.x, samples.y, samples.x_test, samples.y_test, degree, samples.half_width)


def response_variance(samples: SineSamples) -> float:
    """The variance of the response over the test points (ddof = 0): the risk of the best constant
    prediction, the scale against which a risk of 1 is everything there is to explain."""
    return float(np.var(samples.y_test))


def k_bias_table(samples: SineSamples, settings: KBiasSettings, runs: list[ShuffleRuns] | None = None) -> pd.DataFrame:
    """One row per K: truth, CV estimate (mean over shuffles), bias, standard error, spread: the table
    of "Regularization and Cross-Validation", "Cross-validation is biased upward, and at small K it
    is very biased" (its listing: Section 8.2.4, Equation 8.13).

    Shuffle s uses the partition of ``shuffled_partition(N, K, first_seed + s)``; the standard
    error (sigma / sqrt(K), the book's margin note) is that of the first shuffle's partition alone;
    the spread is the population s.d. (ddof = 0) of the per-shuffle estimates, as in the listing.
    ``cv_estimate_se`` is the standard error of the mean over shuffles (ddof 1), what a claim that the
    bias "is not noise" must be measured against. ``runs`` (from ``shuffle_runs``) saves redoing them.
    """
    n = len(samples.y)
    truth = full_data_risk(samples, settings.degree)
    spread_of_y = response_variance(samples)
    rows = []
    for run in runs if runs is not None else shuffle_runs(samples, settings):
        k, estimates, first = run.k, run.estimates, run.fold_risks[0]
        sizes = training_sizes(n, run.partitions[0])
        estimate = float(estimates.mean())
        se = standard_error(first)
        mean_se = standard_error(estimates)
        # Deviations from the first estimate, not from the mean: the same s.d. in exact arithmetic,
        # and exactly 0 when every shuffle gives the same estimate (a mean of equal floats need not
        # equal them, which would leave leave-one-out a spread of 1e-16).
        spread = float((estimates - estimates[0]).std())
        rows.append(
            {
                "K": k,
                "train_size_min": int(sizes.min()),
                "train_size_max": int(sizes.max()),
                # The largest held-out fold: what the smallest training set leaves for validation.
                "validation_size_max": int(n - sizes.min()),
                "n_parameters": settings.degree + 1,
                "truth": truth,
                "cv_estimate": estimate,
                "cv_estimate_se": mean_se,
                "bias": estimate - truth,
                # Over shuffles that all give one estimate the bias is exact: infinitely many s.e.
                "bias_over_se": (estimate - truth) / mean_se
                if mean_se > 0
                else math.copysign(math.inf, estimate - truth),
                "cv_over_truth": estimate / truth,
                # The other reading of "biased by a factor of 33": the bias, not the estimate, over the truth.
                "bias_over_truth": (estimate - truth) / truth,
                # A rival yardstick for "a bias of a few percent": the bias as a share of the
                # response's variance, the risk of predicting every point by the mean of y.
                "response_variance": spread_of_y,
                "bias_over_response_variance": (estimate - truth) / spread_of_y,
                "std_error": se,
                "spread_over_shuffles": spread,
                "spread_over_std_error": spread / se,
                # One least-squares fit per fold of the partition.
                "fits": len(first),
            }
        )
    return pd.DataFrame(rows)


def shuffle_summary(runs: list[ShuffleRuns], truth: float, n: int) -> pd.DataFrame:
    """What the mean over shuffles is made of, per K (§8.2.4's "This is not noise" and its relatives).

    Per K: how many shuffles read above the truth; their median and largest estimate; the share
    of the mean that the largest shuffle supplies (its estimate / shuffles over the mean) and the
    mean without it; each shuffle's own standard error sigma / sqrt(K) (the median, how many are
    smaller than the first shuffle's, the share below the spread over shuffles); the per-fold
    s.d. sigma (first shuffle, and median); how many distinct partitions the shuffles drew; how
    many training sizes one partition has; the fall of the estimate to the next K with its
    standard error, paired by shuffle (shuffle s cuts one permutation for every K); the binomial
    standard error of the share of shuffles whose own standard error is below the spread; and how
    many (shuffle, point) pairs are not validated exactly once (Equation 8.13 validates each once);
    and the largest gap between a shuffle's standard error and sigma / sqrt(K) recomputed from that
    shuffle's own fold scores alone.
    """
    rows = []
    for i, run in enumerate(runs):
        k, estimates = run.k, run.estimates
        largest = int(np.argmax(estimates))
        own_se = np.array([standard_error(r) for r in run.fold_risks])
        # sigma / sqrt(K) written out from each partition's own K fold scores, nothing else: the
        # identity "sigma / sqrt(K) measures variation across folds within one partition" names.
        own_folds = np.array(
            [math.sqrt(((r - r.mean()) ** 2).sum() / (k - 1) / k) for r in map(np.asarray, run.fold_risks)]
        )
        spread = float((estimates - estimates[0]).std())
        partitions = {tuple(tuple(f.tolist()) for f in canonical_partition(p)) for p in run.partitions}
        paired = i + 1 < len(runs) and len(runs[i + 1].fold_risks) == len(run.fold_risks)
        falls = estimates - runs[i + 1].estimates if paired else np.array([np.nan])
        below = float((own_se < spread).mean())
        validated = [np.bincount(np.concatenate(p), minlength=n) for p in run.partitions]
        rows.append(
            {
                "K": k,
                "shuffles": len(estimates),
                "shuffles_above_truth": int((estimates > truth).sum()),
                "shuffle_median": float(np.median(estimates)),
                "median_over_truth": float(np.median(estimates)) / truth,
                "shuffle_max": float(estimates[largest]),
                "largest_shuffle_share_of_estimate": float(estimates[largest] / len(estimates) / estimates.mean()),
                "cv_estimate_without_largest": float(np.delete(estimates, largest).mean())
                if len(estimates) > 1
                else np.nan,
                "median_std_error": float(np.median(own_se)),
                "shuffles_with_smaller_std_error": int((own_se < own_se[0]).sum()),
                "std_errors_below_spread_share": below,
                "spread_over_median_std_error": spread / float(np.median(own_se)),
                "fold_sd": standard_error(run.fold_risks[0]) * math.sqrt(k),
                "median_fold_sd": float(np.median(own_se)) * math.sqrt(k),
                "distinct_partitions": len(partitions),
                "distinct_training_sizes": len(set(training_sizes(n, run.partitions[0]).tolist())),
                "fall_to_next_k": float(falls.mean()),
                "fall_to_next_k_se": standard_error(falls),
                "std_errors_below_spread_share_se": math.sqrt(below * (1 - below) / len(estimates)),
                "points_not_validated_once": int(sum(int((v != 1).sum()) for v in validated)),
                "std_error_own_folds_gap": float(np.abs(own_se - own_folds).max()),
            }
        )
    return pd.DataFrame(rows)


def std_error_range(table: pd.DataFrame, min_folds: int) -> pd.DataFrame:
    """The smallest and largest standard error over K >= min_folds, and their ratio: "roughly flat,
    between 0.028 and 0.041 for K >= 5" ("Regularization and Cross-Validation", Reading the plot)."""
    chosen = table[table["K"] >= min_folds]["std_error"]
    low, high = chosen.min(), chosen.max()
    return pd.DataFrame(
        [{"min_folds": min_folds, "std_error_min": low, "std_error_max": high, "std_error_max_over_min": high / low}]
    )


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
