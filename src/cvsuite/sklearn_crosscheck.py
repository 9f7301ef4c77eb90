"""The scikit-learn cross-check at the end of "Cross-Validation", section Example.

Our stratified folds against ``StratifiedKFold`` (per-class counts per fold), unshuffled ``KFold``
against consecutive blocks, and our pooled K-fold accuracy against ``cross_val_score`` with
``KNeighborsClassifier`` on the same folds.
"""

from __future__ import annotations

import numpy as np

from cvsuite.knn import held_out_predictions_literal, squared_distances


def sklearn_crosscheck(features: np.ndarray, labels: np.ndarray, folds: list[np.ndarray], k: int, seed: int) -> dict:
    """Compare our folds and K-fold accuracy with scikit-learn's on the same images."""
    from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
    from sklearn.neighbors import KNeighborsClassifier

    n, n_folds = len(labels), len(folds)
    n_classes = int(labels.max()) + 1
    theirs = [test for _, test in StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(features, labels)]
    same_counts = all(
        np.array_equal(np.bincount(labels[a], minlength=n_classes), np.bincount(labels[b], minlength=n_classes))
        for a, b in zip(folds, theirs)
    )
    blocks = all(np.array_equal(test, block) for (_, test), block in zip(KFold(n_folds).split(features), np.array_split(np.arange(n), n_folds)))
    splits = [(np.setdiff1d(np.arange(n), test), test) for test in folds]
    sklearn_accuracy = float(cross_val_score(KNeighborsClassifier(k), features, labels, cv=splits).mean())
    distances = squared_distances(features, features)[None]
    tested, predictions = held_out_predictions_literal(distances, labels, np.arange(n), folds, [k], n_classes)
    ours = float((predictions[0, :, 0] == labels[tested]).mean())
    return {
        "folds": n_folds,
        "per_class_counts_match_stratified_kfold": same_counts,
        "unshuffled_kfold_is_consecutive_blocks": blocks,
        "ours_accuracy": ours,
        "sklearn_accuracy": sklearn_accuracy,
        "accuracies_agree": bool(abs(ours - sklearn_accuracy) < 1e-12),
    }
