"""The majority-class predictor: it ignores the features and predicts the most frequent training label.

The baseline of Kohavi (1995, IJCAI), cited by "Cross-Validation", Variants (leave-one-out). When
two or three classes tie for the majority, a tie-breaking rule picks one (``TIE_BREAKS``). Its
cross-validated hits need no model: a fold's training counts are the totals less the fold's own,
so every fold of a partition is scored from one table of class counts. Its exact expected accuracy
on a uniformly random fold is a finite sum over the fold's class compositions.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pandas as pd

TIE_BREAKS = ("lowest_label", "highest_label", "random")


def label_of_most(counts: np.ndarray, tie_break: str, rng: np.random.Generator | None = None) -> int:
    """The label with the largest count; ties settled by ``tie_break``.

    ``lowest_label`` is numpy's argmax (the first maximum), the rule of the document's ``knn``
    ("ties -> lowest label"); ``highest_label`` the last maximum; ``random`` one uniform draw
    ``rng.choice(tied)``, made only when there is a tie (so the stream advances once per tied fold).
    """
    check_tie_break(tie_break, rng)
    tied = np.flatnonzero(counts == counts.max())
    if tie_break == "lowest_label":
        return int(tied[0])
    if tie_break == "highest_label":
        return int(tied[-1])
    return int(tied[0]) if len(tied) == 1 else int(rng.choice(tied))


def check_tie_break(tie_break: str, rng: np.random.Generator | None) -> None:
    """Refuse a rule not in ``TIE_BREAKS``, and ``random`` without a generator."""
    if tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, got '{tie_break}'")
    if tie_break == "random" and rng is None:
        raise ValueError("tie_break 'random' needs a random generator")


def majority_fold_results(
    labels: np.ndarray, folds: list[np.ndarray], n_classes: int, tie_break: str, rng: np.random.Generator | None = None
) -> pd.DataFrame:
    """One row per fold: its size, the class the majority predictor trained without it predicts, hits.

    The training labels of a fold are all labels but the fold's, so their counts are the totals
    minus the fold's counts. Folds are taken in the order given; with ``random`` tie-breaking
    the draws follow that order.
    """
    return fold_table(*fold_hits(labels, folds, n_classes, tie_break, rng))


def fold_table(sizes: np.ndarray, predicted: np.ndarray, hits: np.ndarray, tied: np.ndarray) -> pd.DataFrame:
    """``fold_hits`` as a table, one row per fold, with each fold's accuracy in percent."""
    return pd.DataFrame(
        {
            "fold": np.arange(len(sizes)),
            "fold_size": sizes,
            "predicted_class": predicted,
            "hits": hits,
            "accuracy_percent": 100.0 * hits / sizes,
            "tied_classes": tied,
        }
    )


def fold_hits(
    labels: np.ndarray, folds: list[np.ndarray], n_classes: int, tie_break: str, rng: np.random.Generator | None = None
):
    """Sizes, predictions, hits and number of tied classes of every fold, all folds at once.

    Ties are settled row by row in fold order, so ``random`` draws in the order documented above.
    """
    return hits_from_counts(*fold_class_counts(labels, folds, n_classes), tie_break, rng)


def fold_class_counts(labels: np.ndarray, folds: list[np.ndarray], n_classes: int):
    """Each fold's size, its class counts (``held_out``, folds x classes) and its training set's.

    Row f of ``held_out`` counts fold f's labels; the training counts are the totals minus it.
    What ``fold_hits`` reads of a partition: none of it depends on the tie-breaking rule, so a
    study that runs every rule on the same partitions counts them once.
    """
    sizes = np.array([len(fold) for fold in folds])
    fold_of = np.repeat(np.arange(len(folds)), sizes)
    members = np.concatenate(folds)
    held_out = np.bincount(fold_of * n_classes + labels[members], minlength=len(folds) * n_classes).reshape(
        len(folds), n_classes
    )
    remaining = np.bincount(labels, minlength=n_classes)[None, :] - held_out
    return sizes, held_out, remaining


def hits_from_counts(
    sizes: np.ndarray,
    held_out: np.ndarray,
    remaining: np.ndarray,
    tie_break: str,
    rng: np.random.Generator | None = None,
):
    """``fold_hits`` from ``fold_class_counts``."""
    # Checked here as well as in label_of_most: with no tied fold, no row reaches it.
    check_tie_break(tie_break, rng)
    is_max = remaining == remaining.max(axis=1, keepdims=True)
    tied = is_max.sum(axis=1)
    if tie_break == "highest_label":
        predicted = remaining.shape[1] - 1 - is_max[:, ::-1].argmax(axis=1)
    else:
        predicted = is_max.argmax(axis=1)
    if tie_break == "random":
        # Only a tie draws, one draw per tied fold in fold order, as ``label_of_most`` does:
        # its rng.choice(tied) is rng.integers(0, len(tied)), drawn here for every tied fold at once
        # (the same stream), then read as the position among the fold's tied classes.
        rows = np.flatnonzero(tied > 1)
        if rows.size:
            position = rng.integers(0, tied[rows])
            predicted[rows] = np.argmax(np.cumsum(is_max[rows], axis=1) > position[:, None], axis=1)
    hits = held_out[np.arange(len(sizes)), predicted]
    return sizes, predicted, hits, tied


def expected_fold_accuracy(class_counts, fold_size: int, tie_break: str) -> float:
    """Exact expected accuracy on one fold of ``fold_size`` items drawn without replacement.

    The held-out class counts t follow the multivariate hypergeometric law; the predictor trained
    on the rest predicts the majority of (counts - t) and scores t[predicted] hits. For ``random``
    tie-breaking the hits are averaged over the tied classes. Enumerates every composition of
    the fold in exact rational arithmetic; only the result is rounded to a float.
    """
    counts = [int(c) for c in class_counts]
    total = math.comb(sum(counts), fold_size)
    expected_hits = Fraction(0)
    for held_out in product(*(range(min(c, fold_size) + 1) for c in counts)):
        if sum(held_out) != fold_size:
            continue
        ways = math.prod(math.comb(c, t) for c, t in zip(counts, held_out))
        remaining = np.array(counts) - np.array(held_out)
        tied = np.flatnonzero(remaining == remaining.max())
        if tie_break == "lowest_label":
            hits = held_out[tied[0]]
        elif tie_break == "highest_label":
            hits = held_out[tied[-1]]
        elif tie_break == "random":
            hits = Fraction(sum(held_out[c] for c in tied), len(tied))
        else:
            raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, got '{tie_break}'")
        expected_hits += ways * hits
    return float(expected_hits / (total * fold_size))


def expected_shuffled_kfold_accuracy(class_counts, n_folds: int, tie_break: str) -> float:
    """Exact expectation of the pooled K-fold accuracy over uniformly random partitions.

    Each fold of a random partition is marginally a uniform random subset of its size (the sizes
    of ``shuffled_partition``), so by linearity the expected pooled accuracy is the size-weighted
    mean of ``expected_fold_accuracy``.
    """
    n = int(sum(class_counts))
    sizes = [len(chunk) for chunk in np.array_split(np.arange(n), n_folds)]
    return sum(size * expected_fold_accuracy(class_counts, size, tie_break) for size in sizes) / n
