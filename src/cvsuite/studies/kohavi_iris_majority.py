"""The majority-class predictor under cross-validation: Kohavi's (1995) failure of leave-one-out.

"Cross-Validation", Variants (leave-one-out), citing Kohavi (1995, IJCAI): a majority-class
predictor on Iris (50 instances in each of three classes) scores 0% under leave-one-out, because
deleting an instance always makes its class the minority, and every fold reports the same 0%.

The predictor ignores the features: trained on a set of labels it predicts the most frequent one.
When two or three classes tie for the majority, a tie-breaking rule picks one (``TIE_BREAKS``).
On exactly balanced data the rule cannot move an accuracy: the classes tied for the training
majority are exactly the classes least represented in the held-out fold, so whichever is
predicted, it scores the same number of hits (``test_tie_breaking_moves_no_accuracy_on_balanced_data``
pins this; on unbalanced data it can, which a second test pins).
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import numpy as np
import pandas as pd

from cvsuite.methods.folds import leave_one_out_folds, shuffled_partition, stratified_dealt_folds

TIE_BREAKS = ("lowest_label", "highest_label", "random")


def label_of_most(counts: np.ndarray, tie_break: str, rng: np.random.Generator | None = None) -> int:
    """The label with the largest count; ties settled by ``tie_break``.

    ``lowest_label`` is numpy's argmax (the first maximum), the rule of the document's ``knn``
    ("ties -> lowest label"); ``highest_label`` the last maximum; ``random`` one uniform draw
    ``rng.choice(tied)``, made only when there is a tie (so the stream advances once per tied fold).
    """
    tied = np.flatnonzero(counts == counts.max())
    if tie_break == "lowest_label":
        return int(tied[0])
    if tie_break == "highest_label":
        return int(tied[-1])
    if tie_break == "random":
        if rng is None:
            raise ValueError("tie_break 'random' needs a random generator")
        return int(tied[0]) if len(tied) == 1 else int(rng.choice(tied))
    raise ValueError(f"tie_break must be one of {', '.join(TIE_BREAKS)}, got '{tie_break}'")


def majority_fold_results(
    labels: np.ndarray, folds: list[np.ndarray], n_classes: int, tie_break: str, rng: np.random.Generator | None = None
) -> pd.DataFrame:
    """One row per fold: its size, the class the majority predictor trained without it predicts, hits.

    The training labels of a fold are all labels but the fold's, so their counts are the totals
    minus the fold's counts. Folds are taken in the order given; with ``random`` tie-breaking
    the draws follow that order.
    """
    sizes, predicted, hits, tied = _fold_hits(labels, folds, n_classes, tie_break, rng)
    return pd.DataFrame({"fold": np.arange(len(folds)), "fold_size": sizes, "predicted_class": predicted,
                         "hits": hits, "accuracy_percent": 100.0 * hits / sizes, "tied_classes": tied})


def _fold_hits(labels, folds, n_classes, tie_break, rng):
    """Sizes, predictions, hits and number of tied classes of every fold, all folds at once.

    Row f of ``held_out`` counts fold f's labels; the training counts are the totals minus it.
    Ties are settled row by row in fold order, so ``random`` draws in the order documented above.
    """
    sizes = np.array([len(fold) for fold in folds])
    fold_of = np.repeat(np.arange(len(folds)), sizes)
    members = np.concatenate(folds)
    held_out = np.bincount(fold_of * n_classes + labels[members], minlength=len(folds) * n_classes).reshape(len(folds), n_classes)
    remaining = np.bincount(labels, minlength=n_classes)[None, :] - held_out
    is_max = remaining == remaining.max(axis=1, keepdims=True)
    tied = is_max.sum(axis=1)
    if tie_break == "lowest_label":
        predicted = is_max.argmax(axis=1)
    elif tie_break == "highest_label":
        predicted = n_classes - 1 - is_max[:, ::-1].argmax(axis=1)
    else:
        predicted = np.array([label_of_most(row, tie_break, rng) for row in remaining])
    hits = held_out[np.arange(len(folds)), predicted]
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


def run_summary(sizes: np.ndarray, hits: np.ndarray) -> dict:
    """The cross-validated accuracy of one partition (pooled hits) and the spread of its fold scores."""
    accuracy = 100.0 * hits / sizes
    return {
        "hits": int(hits.sum()),
        "accuracy_percent": 100.0 * hits.sum() / sizes.sum(),
        "fold_sd_percent": spread(accuracy),
        "fold_range_percent": float(accuracy.max() - accuracy.min()),
    }


def spread(values, ddof: int = 0) -> float:
    """The standard deviation, and exactly 0.0 when all values are equal.

    The mean of equal floats need not equal them in the last bit, so numpy's s.d. of identical
    values can come out 1e-15; "every fold reports the same" deserves a true zero.
    """
    values = np.asarray(values, dtype=float)
    return 0.0 if values.max() == values.min() else float(values.std(ddof=ddof))


def majority_cv_study(
    labels: np.ndarray, n_classes: int, n_folds: int, partitions: int, first_seed: int, tie_break: str, tie_seed: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Leave-one-out, stratified K-fold and shuffled (unstratified) K-fold for the majority predictor.

    Partition r of the stratified protocol is ``stratified_dealt_folds(labels, K, default_rng(first_seed + r))``,
    of the shuffled protocol ``shuffled_partition(n, K, first_seed + r)``; leave-one-out has one
    partition. With ``random`` tie-breaking one generator ``default_rng(tie_seed)`` serves all
    protocols in the order leave-one-out, stratified, shuffled, partition by partition, fold by fold.

    Returns (runs, folds): one row per protocol and partition (its pooled hits and accuracy, the
    s.d. and range of its fold scores, how many of its folds left a tie for the training
    majority), and one row per fold of each protocol's first partition (``tied_classes`` is the
    number of classes tied for the majority of that fold's training set).
    """
    rng = np.random.default_rng(tie_seed)
    n = len(labels)
    plans = [
        ("leave-one-out", "leave-one-out", n, lambda r: leave_one_out_folds(n), 1),
        ("stratified", f"stratified {n_folds}-fold", n_folds, lambda r: stratified_dealt_folds(labels, n_folds, np.random.default_rng(first_seed + r)), partitions),
        ("shuffled", f"shuffled {n_folds}-fold", n_folds, lambda r: shuffled_partition(n, n_folds, first_seed + r), partitions),
    ]
    runs, first_folds = [], []
    for scheme, protocol, k, partition_of, count in plans:
        for r in range(count):
            sizes, predicted, hits, tied = _fold_hits(labels, partition_of(r), n_classes, tie_break, rng)
            runs.append({"scheme": scheme, "protocol": protocol, "tie_break": tie_break, "n_folds": k, "partition": r,
                         **run_summary(sizes, hits), "tied_folds": int(np.sum(tied > 1))})
            if r == 0:
                first_folds.append(pd.DataFrame({
                    "protocol": protocol, "tie_break": tie_break, "partition": r, "fold": np.arange(len(sizes)),
                    "fold_size": sizes, "predicted_class": predicted, "hits": hits,
                    "accuracy_percent": 100.0 * hits / sizes, "tied_classes": tied}))
    return pd.DataFrame(runs), pd.concat(first_folds, ignore_index=True)


def protocol_estimates(runs: pd.DataFrame, class_counts) -> pd.DataFrame:
    """One row per protocol and tie-breaking rule: the estimate and every spread the study reports.

    - ``accuracy_percent``: mean over partitions of the pooled accuracy (from integer hit counts,
      so identical partitions give identical, exact numbers);
    - ``accuracy_percent_se``: its Monte Carlo standard error, s.d. over partitions (ddof = 1)
      over root R, 0 with one partition;
    - ``spread_over_partitions_percent``, ``accuracy_min_percent``, ``accuracy_max_percent``:
      s.d. (ddof = 0), least and largest of the per-partition estimates;
    - ``fold_sd_percent``, ``fold_range_percent``: mean over partitions of the within-partition
      s.d. (ddof = 0) and range (max - min) of the fold scores;
    - ``tied_folds_percent``: share of folds whose training set had a tie for the majority,
      i.e. where the tie-breaking rule decided the prediction;
    - ``expected_accuracy_percent``: the exact expectation over uniformly random partitions
      (leave-one-out and shuffled; empty for stratified, whose partitions are not uniform);
    - ``full_data_accuracy_percent``: accuracy, on data with the class proportions of the set,
      of the predictor trained on all of it (it predicts a class of maximal count, whatever the
      tie-break): the figure a majority baseline "should" score, 1/3 on Iris.
    """
    counts = np.asarray(class_counts)
    n = int(counts.sum())
    rows = []
    for (scheme, protocol, tie_break), group in runs.groupby(["scheme", "protocol", "tie_break"], sort=False):
        estimates = group["accuracy_percent"].to_numpy()
        r = len(estimates)
        k = int(group["n_folds"].iloc[0])
        sizes = [len(chunk) for chunk in np.array_split(np.arange(n), k)]
        expected = np.nan if scheme == "stratified" else 100.0 * expected_shuffled_kfold_accuracy(counts, k, tie_break)
        rows.append({
            "scheme": scheme,
            "protocol": protocol,
            "tie_break": tie_break,
            "n_folds": k,
            "fold_size_min": min(sizes),
            "fold_size_max": max(sizes),
            "partitions": r,
            "accuracy_percent": 100.0 * group["hits"].mean() / n,
            "accuracy_percent_se": spread(estimates, ddof=1) / np.sqrt(r) if r > 1 else 0.0,
            "spread_over_partitions_percent": spread(estimates),
            "accuracy_min_percent": float(estimates.min()),
            "accuracy_max_percent": float(estimates.max()),
            "fold_sd_percent": float(group["fold_sd_percent"].mean()),
            "fold_range_percent": float(group["fold_range_percent"].mean()),
            "tied_folds_percent": 100.0 * group["tied_folds"].sum() / (r * k),
            "expected_accuracy_percent": expected,
            "full_data_accuracy_percent": 100.0 * counts.max() / n,
        })
    return pd.DataFrame(rows)


def class_count_summary(labels: np.ndarray, class_names) -> pd.DataFrame:
    """The size of the data set and of its classes ("50 instances in each of three classes")."""
    counts = np.bincount(labels, minlength=len(class_names))
    return pd.DataFrame([{"n_instances": len(labels), "n_classes": len(class_names),
                          "min_class_count": int(counts.min()), "max_class_count": int(counts.max()),
                          **{f"count_{name}": int(c) for name, c in zip(class_names, counts)}}])
