"""Fold constructions: ways to partition n items into K disjoint validation folds.

Each function returns a list of K integer index arrays that together cover 0..n-1 exactly once.
"""

from __future__ import annotations

import numpy as np


def shuffled_partition(n: int, n_folds: int, seed: int) -> list[np.ndarray]:
    """Shuffle 0..n-1 and cut it into K consecutive chunks of near-equal size.

    As in "Regularization and Cross-Validation", From scratch (``kfold``): one
    ``default_rng(seed).permutation(n)``, split by ``numpy.array_split`` so that the first
    n mod K folds hold one item more.
    """
    _check_fold_count(n, n_folds)
    order = np.random.default_rng(seed).permutation(n)
    return np.array_split(order, n_folds)


def canonical_partition(folds: list[np.ndarray]) -> list[np.ndarray]:
    """The same partition written one way only: each fold sorted, folds ordered by first item.

    A cross-validation estimate is a function of the partition, not of the order its folds were
    dealt in. Computing it on the canonical form makes that exact in floating point too, so that
    every leave-one-out "shuffle" gives bit-identical estimates (the zero spread at K = N that
    "Regularization and Cross-Validation" §8.2.4 points out).
    """
    ordered = [np.sort(np.asarray(f)) for f in folds]
    return sorted(ordered, key=lambda f: int(f[0]))


def training_sizes(n: int, folds: list[np.ndarray]) -> np.ndarray:
    """The number of items each fold's model is trained on: n minus the fold's size."""
    return np.array([n - len(f) for f in folds])


def _check_fold_count(n: int, n_folds: int) -> None:
    if not 2 <= n_folds <= n:
        raise ValueError(f"the number of folds must be between 2 and n = {n}, got {n_folds}")


def stratified_round_robin_folds(labels: np.ndarray, n_folds: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Shuffle each class, then deal its items round-robin to the folds from a random first fold.

    As in "Cross-Validation", section Example (``stratified_folds``). Draw order, classes in
    increasing label order: a permutation of the class's items, then one integer in [0, K) for
    the fold that receives its first item. Returns K arrays of item indices, each sorted.
    """
    _check_fold_count(len(labels), n_folds)
    fold_of = np.empty(len(labels), dtype=np.int64)
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        dealt = members[rng.permutation(len(members))]
        fold_of[dealt] = (np.arange(len(dealt)) + rng.integers(n_folds)) % n_folds
    return [np.flatnonzero(fold_of == f) for f in range(n_folds)]


def stratified_dealt_folds(labels: np.ndarray, n_folds: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Folds with the class proportions of the whole set as nearly as they go (pamr's balanced folds).

    Draw order: for each class in increasing label order, one ``rng.permutation`` of its items;
    the concatenated permuted items are dealt to folds 0, 1, ..., K-1, 0, 1, ... continuing across
    classes, so fold sizes differ by at most one. Returns K arrays of item indices, each sorted.
    Unlike ``stratified_round_robin_folds`` no random first fold is drawn.
    """
    _check_fold_count(len(labels), n_folds)
    dealt = np.concatenate([rng.permutation(np.flatnonzero(labels == c)) for c in np.unique(labels)])
    fold_of = np.empty(len(labels), dtype=np.int64)
    fold_of[dealt] = np.arange(len(dealt)) % n_folds
    return [np.flatnonzero(fold_of == f) for f in range(n_folds)]
