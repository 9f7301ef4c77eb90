"""The majority-class predictor under cross-validation: Kohavi's (1995) failure of leave-one-out.

"Cross-Validation", Variants (leave-one-out), citing Kohavi (1995, IJCAI): a majority-class
predictor on Iris (50 instances in each of three classes) scores 0% under leave-one-out, because
deleting an instance always makes its class the minority, and every fold reports the same 0%.

The predictor and its exact expectations are ``cvsuite.methods.majority_class``. When two or three
classes tie for the training majority, a tie-breaking rule picks one; the study runs every rule.
On exactly balanced data the rule cannot move an accuracy: the classes tied for the training
majority are exactly the classes least represented in the held-out fold, so whichever is
predicted, it scores the same number of hits (``test_tie_breaking_moves_no_accuracy_on_balanced_data``
pins this; on unbalanced data it can, which a second test pins).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.folds import leave_one_out_folds, shuffled_partition, stratified_dealt_folds
from cvsuite.methods.majority_class import (
    expected_shuffled_kfold_accuracy,
    fold_class_counts,
    fold_table,
    hits_from_counts,
)
from cvsuite.methods.monte_carlo import standard_error


def run_summary(sizes: np.ndarray, hits: np.ndarray) -> dict:
    """The cross-validated accuracy of one partition (pooled hits) and the spread of its fold scores."""
    accuracy = 100.0 * hits / sizes
    return {
        "hits": int(hits.sum()),
        "accuracy_percent": 100.0 * hits.sum() / sizes.sum(),
        "fold_sd_percent": spread(accuracy),
        "fold_range_percent": float(accuracy.max() - accuracy.min()),
    }


def spread(values) -> float:
    """The standard deviation (ddof = 0), and exactly 0.0 when all values are equal.

    The mean of equal floats need not equal them in the last bit, so numpy's s.d. of identical
    values can come out 1e-15; "every fold reports the same" deserves a true zero.
    """
    values = np.asarray(values, dtype=float)
    return 0.0 if values.max() == values.min() else float(values.std())


def protocol_fold_counts(labels: np.ndarray, n_classes: int, *, n_folds: int, partitions: int, first_seed: int):
    """Each protocol's partitions, as the class counts its folds are scored from (``fold_class_counts``).

    One tuple (scheme, protocol, K, counts of each partition) per protocol, in the order leave-one-out,
    stratified K-fold, shuffled K-fold. Partition r of the stratified protocol is
    ``stratified_dealt_folds(labels, K, default_rng(first_seed + r))``, of the shuffled protocol
    ``shuffled_partition(n, K, first_seed + r)``; leave-one-out has one partition. No tie-breaking
    rule changes them, so every rule is scored on one set of counts.
    """
    n = len(labels)
    plans = [
        ("leave-one-out", "leave-one-out", n, lambda r: leave_one_out_folds(n), 1),
        (
            "stratified",
            f"stratified {n_folds}-fold",
            n_folds,
            lambda r: stratified_dealt_folds(labels, n_folds, np.random.default_rng(first_seed + r)),
            partitions,
        ),
        (
            "shuffled",
            f"shuffled {n_folds}-fold",
            n_folds,
            lambda r: shuffled_partition(n, n_folds, first_seed + r),
            partitions,
        ),
    ]
    return [
        (scheme, protocol, k, [fold_class_counts(labels, partition_of(r), n_classes) for r in range(count)])
        for scheme, protocol, k, partition_of, count in plans
    ]


def majority_cv_study(
    labels: np.ndarray,
    n_classes: int,
    *,
    n_folds: int,
    partitions: int,
    first_seed: int,
    tie_break: str,
    tie_seed: int,
    protocols: list | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Leave-one-out, stratified K-fold and shuffled (unstratified) K-fold for the majority predictor.

    The partitions are those of ``protocol_fold_counts`` (``protocols``, if already counted). With
    ``random`` tie-breaking one generator ``default_rng(tie_seed)`` serves all protocols in the
    order leave-one-out, stratified, shuffled, partition by partition, fold by fold.

    Returns (runs, folds): one row per protocol and partition (its pooled hits and accuracy, the
    s.d. and range of its fold scores, how many of its folds left a tie for the training
    majority), and one row per fold of each protocol's first partition (``tied_classes`` is the
    number of classes tied for the majority of that fold's training set).
    """
    if protocols is None:
        protocols = protocol_fold_counts(
            labels, n_classes, n_folds=n_folds, partitions=partitions, first_seed=first_seed
        )
    rng = np.random.default_rng(tie_seed)
    runs, first_folds = [], []
    for scheme, protocol, k, counts in protocols:
        for r, partition_counts in enumerate(counts):
            sizes, predicted, hits, tied = hits_from_counts(*partition_counts, tie_break, rng)
            runs.append(
                {
                    "scheme": scheme,
                    "protocol": protocol,
                    "tie_break": tie_break,
                    "n_folds": k,
                    "partition": r,
                    **run_summary(sizes, hits),
                    "tied_folds": int(np.sum(tied > 1)),
                }
            )
            if r == 0:
                folds = fold_table(sizes, predicted, hits, tied)
                for position, (column, value) in enumerate(
                    (("protocol", protocol), ("tie_break", tie_break), ("partition", r))
                ):
                    folds.insert(position, column, value)
                first_folds.append(folds)
    return pd.DataFrame(runs), pd.concat(first_folds, ignore_index=True)


def majority_study(
    labels: np.ndarray, class_names, tie_breaks, *, n_folds: int, partitions: int, first_seed: int, tie_seed: int
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """``majority_cv_study`` under each rule of ``tie_breaks`` in turn, each from its own
    ``default_rng(tie_seed)``, on the same partitions; returns (estimates, runs, folds), the folds
    with their predicted class's name from ``class_names``."""
    protocols = protocol_fold_counts(
        labels, len(class_names), n_folds=n_folds, partitions=partitions, first_seed=first_seed
    )
    runs, folds = [], []
    for tie_break in tie_breaks:
        r, f = majority_cv_study(
            labels,
            len(class_names),
            n_folds=n_folds,
            partitions=partitions,
            first_seed=first_seed,
            tie_break=tie_break,
            tie_seed=tie_seed,
            protocols=protocols,
        )
        runs.append(r)
        folds.append(f)
    runs, folds = pd.concat(runs, ignore_index=True), pd.concat(folds, ignore_index=True)
    folds["predicted_class_name"] = [class_names[c] for c in folds["predicted_class"]]
    return protocol_estimates(runs, np.bincount(labels, minlength=len(class_names))), runs, folds


def protocol_estimates(runs: pd.DataFrame, class_counts) -> pd.DataFrame:
    """One row per protocol and tie-breaking rule: the estimate and every spread the study reports.

    - ``accuracy_percent``: mean over partitions of the pooled accuracy (from integer hit counts,
      so identical partitions give identical, exact numbers);
    - ``accuracy_percent_se``: its Monte Carlo standard error (``standard_error``: s.d. over
      partitions, ddof = 1, over root R), exactly 0 when every partition agrees or there is one;
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
        rows.append(
            {
                "scheme": scheme,
                "protocol": protocol,
                "tie_break": tie_break,
                "n_folds": k,
                "fold_size_min": min(sizes),
                "fold_size_max": max(sizes),
                "partitions": r,
                "accuracy_percent": 100.0 * group["hits"].mean() / n,
                # exactly 0 when every partition agrees (leave-one-out has one), else the Monte Carlo SE
                "accuracy_percent_se": standard_error(estimates) if spread(estimates) > 0 else 0.0,
                "spread_over_partitions_percent": spread(estimates),
                "accuracy_min_percent": float(estimates.min()),
                "accuracy_max_percent": float(estimates.max()),
                "fold_sd_percent": float(group["fold_sd_percent"].mean()),
                "fold_range_percent": float(group["fold_range_percent"].mean()),
                "tied_folds_percent": 100.0 * group["tied_folds"].sum() / (r * k),
                "expected_accuracy_percent": expected,
                "full_data_accuracy_percent": 100.0 * counts.max() / n,
            }
        )
    return pd.DataFrame(rows)


def class_count_summary(labels: np.ndarray, class_names) -> pd.DataFrame:
    """The size of the data set and of its classes ("50 instances in each of three classes"), and the
    leave-one-out folds in which deleting the held-out instance does not leave its class strictly the
    least frequent in training (``loo_folds_not_leaving_minority``)."""
    counts = np.bincount(labels, minlength=len(class_names))
    return pd.DataFrame(
        [
            {
                "n_instances": len(labels),
                "n_classes": len(class_names),
                "min_class_count": int(counts.min()),
                "max_class_count": int(counts.max()),
                **{f"count_{name}": int(c) for name, c in zip(class_names, counts)},
                "loo_folds_not_leaving_minority": folds_not_leaving_minority(labels),
            }
        ]
    )


def folds_not_leaving_minority(labels: np.ndarray) -> int:
    """ "since deleting an instance always makes its class the minority", counted fold by fold: the
    leave-one-out folds in which the held-out instance's class does not have strictly fewer training
    instances than every other class (0 when deletion always makes it the minority)."""
    classes, counts = np.unique(labels, return_counts=True)
    not_minority = 0
    for held_out in labels:
        training = counts - (classes == held_out)
        others = training[classes != held_out]
        not_minority += int(not (others.size > 0 and training[classes == held_out][0] < others.min()))
    return not_minority
