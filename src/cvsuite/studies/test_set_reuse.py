"""Tuning against the test set: a test score that is looked at and acted on becomes training signal.

"Regularization and Cross-Validation", §8.2.3, The rule the book states as a warning: "Even knowing
only the performance of the predictor on the test set leaks information (Blum and Hardt, 2015).
Every time you look at a test score and change anything ... its estimate of R_true degrades. Do it
enough times and the test set is just a slow, expensive training set"; Pitfalls, Tuning against the
test set: "After enough rounds it estimates R_true no better than the training set does".
"Estimating Out-of-Sample Error", Applications, Competition leaderboards: "participants who submit
repeatedly are selecting on it"; Warning: "the minimum of forty draws sits well below their common
mean".

The documents print no numbers for these; every setting is this study's choice. Each data set has
labels independent of the features (pure noise), so every classifier's true accuracy is one half. A
tuning loop sees the test set only through its score: each round it fits a nearest-centroid
classifier on a random subset of the features to the training set, reads its test accuracy, and
keeps it if that beats the best so far, as a person adjusting a model to its test number does. At
each checkpoint the kept model's test accuracy and training accuracy are set against its accuracy on
fresh data. Statistics only: the registry's judges decide.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.integrate import quad
from scipy.special import ndtr

from cvsuite.methods.monte_carlo import mean_and_se


@dataclass(frozen=True)
class ReuseDesign:
    """Training, test and fresh set sizes, features, the features each round's model uses, and the
    rounds of the tuning loop."""

    train_size: int
    test_size: int
    fresh_size: int
    features: int
    subset: int
    rounds: int

    @classmethod
    def from_block(cls, block: dict) -> ReuseDesign:
        keys = ("train_size", "test_size", "fresh_size", "features", "subset", "rounds")
        return cls(*(block[k] for k in keys))


def centroid_accuracies(train_x, train_y, x, y, masks) -> np.ndarray:
    """Accuracy on (x, y) of the nearest-centroid classifier fitted to the training set on each row of
    ``masks`` (features used), all rounds at once: shape (rounds,)."""
    m0, m1 = train_x[train_y == 0].mean(axis=0), train_x[train_y == 1].mean(axis=0)
    direction = (m1 - m0) * masks  # rounds x features
    offsets = direction @ ((m1 + m0) / 2)
    predictions = (x @ direction.T - offsets) > 0  # points x rounds
    return (predictions == (y[:, None] == 1)).mean(axis=0)


def tuning_run(design: ReuseDesign, rng: np.random.Generator, checkpoints) -> dict[str, np.ndarray]:
    """One data set: at each checkpoint (a number of rounds), the kept model's test, training and
    fresh accuracy. Draw order: training, test and fresh features and labels, then the rounds'
    feature subsets."""
    sets = {}
    for name, size in (("train", design.train_size), ("test", design.test_size), ("fresh", design.fresh_size)):
        sets[name] = (rng.standard_normal((size, design.features)), rng.integers(0, 2, size))
    # Each round's subset: the features of its row's ``subset`` smallest uniforms.
    chosen = np.argsort(rng.random((design.rounds, design.features)), axis=1)[:, : design.subset]
    masks = np.zeros((design.rounds, design.features))
    np.put_along_axis(masks, chosen, 1.0, axis=1)
    train_x, train_y = sets["train"]
    test = centroid_accuracies(train_x, train_y, *sets["test"], masks)
    # The kept model after r rounds: the first best test score so far (ties keep the earlier one).
    record = np.maximum.accumulate(test)
    improved = np.flatnonzero(np.r_[True, record[1:] > record[:-1]])
    best = improved[np.searchsorted(improved, np.arange(design.rounds), side="right") - 1]
    kept = best[np.asarray(checkpoints) - 1]
    # Only the kept models are scored on the training and fresh sets.
    scored = {name: centroid_accuracies(train_x, train_y, *sets[name], masks[kept]) for name in ("train", "fresh")}
    return {"test": test[kept], **scored}


def simulate_test_set_reuse(design: ReuseDesign, checkpoints, datasets: int, first_seed: int) -> pd.DataFrame:
    """One row per data set and checkpoint: the kept model's test, training and fresh accuracy."""
    rows = []
    for s in range(datasets):
        run = tuning_run(design, np.random.default_rng(first_seed + s), checkpoints)
        for i, rounds in enumerate(checkpoints):
            rows.append(
                {
                    "dataset": s,
                    "rounds": int(rounds),
                    "test_accuracy": float(run["test"][i]),
                    "train_accuracy": float(run["train"][i]),
                    "fresh_accuracy": float(run["fresh"][i]),
                }
            )
    return pd.DataFrame(rows)


def reuse_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per checkpoint, over the data sets (paired): the test score's optimism (test less fresh
    accuracy), the training score's, the test's less the training's, the test optimism's growth
    since the first round, and the fresh accuracy, each with its standard error."""
    by = {r: block.sort_values("dataset") for r, block in runs.groupby("rounds")}
    first = by[min(by)]
    rows = []
    for rounds, block in sorted(by.items()):
        test_opt = block["test_accuracy"].to_numpy() - block["fresh_accuracy"].to_numpy()
        train_opt = block["train_accuracy"].to_numpy() - block["fresh_accuracy"].to_numpy()
        growth = test_opt - (first["test_accuracy"].to_numpy() - first["fresh_accuracy"].to_numpy())
        row = {"rounds": int(rounds), "datasets": len(block)}
        for name, values in (
            ("test_optimism", test_opt),
            ("train_optimism", train_opt),
            ("test_minus_train_optimism", test_opt - train_opt),
            ("test_optimism_growth", growth),
            ("fresh_accuracy", block["fresh_accuracy"].to_numpy()),
        ):
            row[name], row[f"{name}_se"] = mean_and_se(values)
        rows.append(row)
    return pd.DataFrame(rows)


def expected_minimum(draws: int) -> float:
    """E[min of ``draws`` independent standard normals], by quadrature of x n phi(x) (1 - Phi(x))^(n-1):
    where the least of many equally noisy estimates sits, in units of their s.d. from their mean."""
    density = lambda x: x * draws * _normal_density(x) * ndtr(-x) ** (draws - 1)  # noqa: E731
    return float(quad(density, -12, 12, limit=200)[0])


def _normal_density(x: float) -> float:
    """The standard normal density as scipy.stats.norm.pdf computes it, on a one-element array as
    it does (numpy's scalar exp can differ in the last bit); its survival function is ndtr(-x). The
    same values, without scipy.stats, whose import cost this job 0.9 s."""
    x = np.atleast_1d(np.asarray(x, dtype=float))
    return (np.exp(-(x**2) / 2.0) / np.sqrt(2 * np.pi))[0]


def minimum_of_draws(draws: int) -> pd.DataFrame:
    """ "Estimating Out-of-Sample Error", Warning: "the minimum of forty draws sits well below their
    common mean": the expected minimum of ``draws`` independent draws below their mean, in s.d.s,
    beside one draw's expected distance from it (sqrt(2 / pi)), the scale of 'well'."""
    below = -expected_minimum(draws)
    return pd.DataFrame(
        [
            {
                "draws": int(draws),
                "minimum_below_mean_sd": below,
                "mean_absolute_deviation_sd": float(np.sqrt(2 / np.pi)),
                "below_over_mean_absolute_deviation": below / float(np.sqrt(2 / np.pi)),
            }
        ]
    )
