"""k-nearest-neighbour classification on blurred pixels ("Cross-Validation", section Example).

Distances are squared Euclidean distances between blurred, flattened images; a test image takes
the majority label of its k nearest training images, ties going to the lowest label.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.ndimage import gaussian_filter

from cvsuite.methods.folds import fold_of


def blurred_features(images: np.ndarray, sigma: float) -> np.ndarray:
    """Blur each image with a Gaussian of s.d. ``sigma`` pixels (none for 0), flatten to rows.

    One ``gaussian_filter`` call on the whole stack with sigma (0, s, s) gives bit-identical
    results to one call per image, without the per-call overhead.
    """
    stack = gaussian_filter(images, (0, sigma, sigma)) if sigma else images
    return stack.reshape(len(images), -1)


def squared_distances(test: np.ndarray, train: np.ndarray) -> np.ndarray:
    """||a||^2 - 2 a.b + ||b||^2 for every test row a and training row b.

    The expansion (rather than exact differences) is the document's arithmetic; keeping it keeps
    the neighbour order, and so every prediction, identical. Doubling the small product instead
    of the large test matrix gives the same bits (scaling by 2 is exact) without an 8 MB temporary.
    """
    distances = test @ train.T
    distances *= 2
    # In place, but the same two operations in the same order: (||a||^2 - 2 a.b) + ||b||^2.
    np.subtract(row_squared_norms(test)[:, None], distances, out=distances)
    distances += row_squared_norms(train)[None]
    return distances


def row_squared_norms(rows: np.ndarray, block: int = 256) -> np.ndarray:
    """``(rows**2).sum(1)`` of float rows, bit for bit: each row is summed alone, so doing it a block
    of rows at a time changes no sum and keeps the squares in cache instead of an array as large
    as ``rows``."""
    norms = np.empty(len(rows), dtype=rows.dtype)
    for start in range(0, len(rows), block):
        norms[start : start + block] = (rows[start : start + block] ** 2).sum(1)
    return norms


def majority_votes(neighbour_labels: np.ndarray, ks, n_classes: int) -> np.ndarray:
    """Predictions for each k from labels of the nearest neighbours, nearest first.

    ``neighbour_labels`` has shape (..., k_max); the result (..., len(ks)). Ties go to the lowest
    label, as ``np.bincount(votes).argmax()`` does.
    """
    # One class at a time, running vote counts over the neighbours for all rows at once, in the
    # smallest integer type that holds k_max votes; a later class wins only with strictly more
    # votes, which is argmax's tie rule.
    nearest_first = np.moveaxis(neighbour_labels, -1, 0)
    picks = np.asarray(ks) - 1
    count_type = np.min_scalar_type(max(ks))
    winner = np.zeros((len(picks),) + nearest_first.shape[1:], dtype=np.intp)
    most = np.cumsum(nearest_first == 0, axis=0, dtype=count_type)[picks]
    for label in range(1, n_classes):
        votes = np.cumsum(nearest_first == label, axis=0, dtype=count_type)[picks]
        np.copyto(winner, label, where=votes > most)
        np.maximum(most, votes, out=most)
    return np.moveaxis(winner, 0, -1)


def predict_all_k(distances: np.ndarray, train_labels: np.ndarray, ks, n_classes: int) -> np.ndarray:
    """Predictions of every test row for each k, from a test-by-train distance matrix.

    Neighbours are ranked by ``np.argsort(distances, axis=1)``, the document's call, so exact
    ties are broken as the document breaks them.
    """
    nearest = np.argsort(distances, axis=1)[:, : max(ks)]
    return majority_votes(train_labels[nearest], ks, n_classes)


def has_row_ties(distances: np.ndarray) -> bool:
    """True when some row of a square distance matrix has two equal off-diagonal entries."""
    n = distances.shape[-1]
    off_diagonal = distances[..., ~np.eye(n, dtype=bool)].reshape(*distances.shape[:-1], n - 1)
    ordered = np.sort(off_diagonal, axis=-1)
    return bool((np.diff(ordered, axis=-1) == 0).any())


@dataclass(frozen=True)
class HeldOutTask:
    """What a cross-validation of the kNN classifier predicts, whatever the distances.

    ``universe`` and the ``folds`` hold image indices; each fold's images are predicted from the
    rest of the universe (the folds need not cover it: a holdout is one fold). ``labels`` are the
    labels of all images, ``ks`` the numbers of neighbours, ``n_classes`` the number of labels.
    """

    labels: np.ndarray
    universe: np.ndarray
    folds: list[np.ndarray]
    ks: tuple[int, ...]
    n_classes: int

    def tested(self) -> np.ndarray:
        """The predicted images, folds concatenated: the order of the predictions' second axis."""
        return np.concatenate(self.folds)


def held_out_predictions(ranking: np.ndarray, task: HeldOutTask) -> tuple[np.ndarray, np.ndarray]:
    """Predict every image of every fold from the rest of the universe, for each blur and each k.

    ``ranking`` is ``np.argsort(distances, axis=-1)`` of the all-by-all distances, shape
    (n_blurs, n, n), sorted once per dataset. Returns the tested image indices
    (``task.tested()``) and predictions of shape (n_blurs, n_tested, len(ks)).

    Each tested image takes, in its row's order, the first k images of its training set (the
    universe minus its fold). That gives the neighbours the document's per-fold ``argsort`` of the
    sub-matrix gives, unless a row holds two equal distances: check with ``has_row_ties`` and use
    ``held_out_predictions_literal`` then.
    """
    return held_out_predictions_of_tasks(ranking, [task])[0]


def held_out_predictions_of_tasks(ranking: np.ndarray, tasks: list[HeldOutTask]) -> list[tuple[np.ndarray, np.ndarray]]:
    """``held_out_predictions`` of each task, computed together; the tasks share labels, ks and classes.

    A tested image's predictions depend only on its own training set, so stacking the tested
    images of several tasks changes no prediction and pays the per-call costs once.
    """
    first = tasks[0]
    if any(
        t.ks != first.ks or t.n_classes != first.n_classes or not np.array_equal(t.labels, first.labels) for t in tasks
    ):
        raise ValueError("tasks computed together must share their labels, ks and number of classes")
    n = ranking.shape[-1]
    tested = [t.tested() for t in tasks]
    training = np.concatenate([training_mask(t, n) for t in tasks])
    nearest = nearest_training_images(ranking, np.concatenate(tested), training, max(first.ks))
    predictions = majority_votes(first.labels[nearest], first.ks, first.n_classes)
    ends = np.cumsum([len(t) for t in tested])[:-1]
    return list(zip(tested, np.split(predictions, ends, axis=1)))


def training_mask(task: HeldOutTask, n: int) -> np.ndarray:
    """Which of the n images train the model of each tested image: (n_tested, n), True inside the
    universe and outside the tested image's fold."""
    inside = np.zeros(n, dtype=bool)
    inside[task.universe] = True
    image_fold = fold_of(task.folds, n)
    own_fold = np.repeat(np.arange(len(task.folds)), [len(f) for f in task.folds])
    return inside[None, :] & (image_fold[None, :] != own_fold[:, None])


def nearest_training_images(ranking: np.ndarray, tested: np.ndarray, training: np.ndarray, k_max: int) -> np.ndarray:
    """The k_max nearest training images of each tested image, nearest first: (n_blurs, n_tested, k_max).

    ``training[i]`` marks the training images of ``tested[i]``. They are the first marked images in
    the tested image's ranking row; a row leaving out e images has them within its first k_max + e,
    so only that many columns are read.
    """
    n = training.shape[1]
    left_out = n - training.sum(axis=1).min()
    order = ranking[:, tested, : min(n, k_max + left_out)]
    usable = training.ravel().take(order + n * np.arange(len(tested))[:, None])  # training[i, order[b, i, j]]
    rank = np.cumsum(usable, axis=-1, dtype=np.int32)
    if rank[..., -1].min() < k_max:
        raise ValueError(f"a fold leaves fewer than k = {k_max} training images")
    nearest = order.ravel().compress((usable & (rank <= k_max)).ravel())
    return nearest.reshape(ranking.shape[0], len(tested), k_max)


def held_out_predictions_literal(distances: np.ndarray, task: HeldOutTask) -> tuple[np.ndarray, np.ndarray]:
    """``held_out_predictions`` the document's way: one ``argsort`` per fold of its sub-matrix.

    Slower; exact also when distances tie. ``distances`` has shape (n_blurs, n, n).
    """
    tested = task.tested()
    predictions = np.empty((distances.shape[0], len(tested), len(task.ks)), dtype=np.int64)
    start = 0
    for fold in task.folds:
        train = np.setdiff1d(task.universe, fold)
        for b, blur_distances in enumerate(distances):
            block = predict_all_k(blur_distances[np.ix_(fold, train)], task.labels[train], task.ks, task.n_classes)
            predictions[b, start : start + len(fold)] = block
        start += len(fold)
    return tested, predictions
