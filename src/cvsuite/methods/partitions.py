"""Every partition of n items into K unlabelled groups of equal size: re-partitioning a CV comparison.

"Estimating Out-of-Sample Error" concludes that its ranking "is not an artefact of which observations
landed in which fold". The direct test scores the same observations under every other assignment to
folds of the same sizes; for twelve observations in four folds of three there are 15,400 of them, few
enough to enumerate rather than sample.
"""

from __future__ import annotations

import itertools
import math

import numpy as np


def partition_count(n: int, n_folds: int) -> int:
    """n! / ((n/K)!^K K!): the number of partitions of n items into K unlabelled groups of n/K."""
    size = _group_size(n, n_folds)
    return math.factorial(n) // (math.factorial(size) ** n_folds * math.factorial(n_folds))


def equal_partitions(n: int, n_folds: int) -> np.ndarray:
    """Every partition of items 0..n-1 into ``n_folds`` groups of n / n_folds: shape (P, K, n / K).

    Written one way only (as ``cvsuite.methods.folds.canonical_partition`` would): each group sorted,
    groups ordered by their first item. Built group by group: the smallest unplaced item opens the
    next group with each choice of companions among the unplaced ones, in lexicographic order, so
    the first partition is the consecutive one. Every partial partition at a step has the same number
    of unplaced items, so each step is one array operation over all of them.
    """
    size = _group_size(n, n_folds)
    groups = np.zeros((1, 0, size), dtype=np.intp)
    remaining = np.arange(n, dtype=np.intp)[None, :]
    for _ in range(n_folds):
        r = remaining.shape[1]
        choices = list(itertools.combinations(range(1, r), size - 1))
        companions = np.array(choices, dtype=np.intp).reshape(len(choices), size - 1)
        chosen = np.concatenate([np.zeros((len(companions), 1), dtype=np.intp), companions], axis=1)  # (C, size)
        keep = np.array([np.setdiff1d(np.arange(r), c) for c in chosen], dtype=np.intp).reshape(len(chosen), -1)
        new_group = remaining[:, chosen]  # (S, C, size)
        groups = np.concatenate([np.repeat(groups, len(chosen), axis=0), new_group.reshape(-1, 1, size)], axis=1)
        remaining = remaining[:, keep].reshape(len(remaining) * len(chosen), r - size)
    return groups


def group_index(partitions: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct groups of ``partitions`` (G, size), in lexicographic order, and for each partition
    the index of each of its groups among them (P, K)."""
    size = partitions.shape[-1]
    groups = np.array(list(itertools.combinations(range(n), size)), dtype=np.intp)
    lookup = np.full(1 << n, -1, dtype=np.intp)
    lookup[(1 << groups).sum(axis=1)] = np.arange(len(groups))
    return groups, lookup[(1 << partitions).sum(axis=-1)]


def mean_over_groups(values: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``values[:, where].mean(axis=2)``: per row of ``values`` (one value per group), the mean over
    each partition's groups (``where``, from ``group_index``), shape (rows, partitions).

    Bit for bit: numpy sums fewer than eight terms left to right, then divides by their count, and so
    does this, one group column at a time rather than through a (rows, partitions, K) copy, which
    cost three times as much. With eight groups or more numpy sums pairwise, and its own mean is used.
    """
    k = where.shape[1]
    if k >= 8:
        return values[:, where].mean(axis=2)
    total = values[:, where[:, 0]]
    for j in range(1, k):
        total += values[:, where[:, j]]
    total /= k
    return total


def _group_size(n: int, n_folds: int) -> int:
    if n_folds < 1 or n % n_folds:
        raise ValueError(f"{n} items do not split into {n_folds} groups of equal size")
    return n // n_folds
