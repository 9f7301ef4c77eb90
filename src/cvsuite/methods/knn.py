"""k-nearest-neighbour classification on blurred pixels ("Cross-Validation", section Example).

Distances are squared Euclidean distances between blurred, flattened images; a test image takes
the majority label of its k nearest training images, ties going to the lowest label.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cvsuite.methods.folds import fold_of


def blurred_features(images: np.ndarray, sigma: float) -> np.ndarray:
    """Blur each image with a Gaussian of s.d. ``sigma`` pixels (none for 0), flatten to rows.

    One ``gaussian_filter`` call on the whole stack with sigma (0, s, s) gives bit-identical
    results to one call per image, without the per-call overhead.
    """
    # Imported here: the studies that gather the shape-image shards import this module's neighbours
    # but never blur, and should not pay for importing scipy.ndimage.
    from scipy.ndimage import gaussian_filter

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


def blur_matrix(size: int, sigma: float) -> np.ndarray:
    """The (size, size) matrix M of ``blurred_features`` along one image axis: a blurred image is
    M X M^T in exact arithmetic (``gaussian_filter1d`` of the identity's columns, with its boundary)."""
    from scipy.ndimage import gaussian_filter1d

    return gaussian_filter1d(np.eye(size), sigma, axis=0) if sigma else np.eye(size)


# Two keys of one row closer than this share of the row's scale may be ordered differently by the
# document's arithmetic: both sides are the exact distances within about 1e-13 of that scale (a
# dot product of 256 terms errs by at most 256 units of roundoff of |a| |b|), so a thousand times
# that is a safe margin and still rare (about one (dataset, blur) in 200 of the Example's).
TIE_MARGIN = 1e-10


def ranked_by_blurred_distance(test_images: np.ndarray, train_features: np.ndarray, sigma: float, places: int) -> tuple:
    """The training images in order of distance from each blurred test image, without blurring
    the test images; and whether the first ``places`` of every row are certainly the document's.

    ``test_images`` (m, s, s) unblurred; ``train_features`` (n, s*s) the blurred training images
    (``blurred_features``). With M the blur (``blur_matrix``), (M F M^T) . T = F . (M^T T M), so
    ||T||^2 - 2 F . (M^T T M) is the document's squared distance ``squared_distances(blurred F, T)``
    less ||M F M^T||^2, which is the same along a row and so does not change the row's order: one
    product of the unblurred test images with the n back-blurred training images replaces blurring
    4,000 images and forming their distances (the Example's largest cost).

    The two keys differ in their last bits, so where two of a row's first ``places`` + 1 keys lie
    within ``TIE_MARGIN`` of the row's scale the document's order is not known. Returns
    ``(ranking, certain)``: the ``argsort`` of the keys (m, n), and True when in every row each of
    the first ``places`` keys is further than that margin from the next, so that the first
    ``places`` columns are those of the document's ``argsort`` (callers fall back to the document's
    arithmetic when not).
    """
    m, size = test_images.shape[0], test_images.shape[-1]
    blur = blur_matrix(size, sigma)
    back_blurred = (blur.T @ train_features.reshape(-1, size, size) @ blur).reshape(len(train_features), -1)
    flat = test_images.reshape(m, -1)
    keys = flat @ back_blurred.T
    keys *= -2
    train_norms = row_squared_norms(train_features)
    keys += train_norms[None]
    ranking = np.argsort(keys, axis=1)
    leading = np.take_along_axis(keys, ranking[:, : places + 1], axis=1)
    # The row's scale: the largest squared norm among the terms of its distances (||M||_2 bounds
    # the blurred test image's norm by the unblurred one's).
    scale = np.linalg.norm(blur, 2) ** 2 * np.einsum("ij,ij->i", flat, flat) + train_norms.max()
    apart = np.diff(leading, axis=1) > TIE_MARGIN * scale[:, None]
    return ranking, bool(apart.all())


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


def fold_model_accuracies(
    ranking: np.ndarray,
    train_labels: np.ndarray,
    test_labels: np.ndarray,
    folds: list[np.ndarray],
    k: int,
    n_classes: int,
) -> np.ndarray:
    """The accuracy on the test rows of each model a cross-validation trains: the model of fold f
    is trained on every training image outside f. Returns one accuracy per fold.

    ``ranking`` is ``np.argsort`` of the test-by-train distances (n_test, n; only its first k + the
    largest fold columns are read). A model's neighbours of a test row are the first
    k images outside its fold in the row's order (those an ``argsort`` of the sub-matrix gives,
    unless two distances tie), so only the folds met among a row's first k neighbours change its
    prediction, and only where the fold's images among them are enough to overturn the vote: each
    such row is predicted again once per such fold, from its first k + (largest fold) neighbours,
    instead of once per model.
    """
    n = len(train_labels)
    width = k + max(len(f) for f in folds)
    if ranking.shape[1] < min(n, width):
        raise ValueError(f"the ranking has {ranking.shape[1]} columns; these folds need {min(n, width)}")
    if all(len(f) == 1 for f in folds) and sum(len(f) for f in folds) == n:
        return _leave_one_out_model_accuracies(ranking, train_labels, test_labels, folds, k, n_classes)
    fold = fold_of(folds, n)
    top = ranking[:, : min(n, width)]
    fold_ids, labels = fold[top], train_labels[top]
    full_counts = _counts(labels[:, :k], n_classes)
    full_hits = full_counts.argmax(axis=1) == test_labels
    # Each (row, fold) once: the folds met among the row's k nearest (images in no fold, -1, land
    # in a last column that is dropped) with how many of the k they hold.
    slots = len(folds) + 1
    cells = np.arange(len(test_labels))[:, None] * slots + np.where(fold_ids[:, :k] < 0, slots - 1, fold_ids[:, :k])
    held = np.bincount(cells.ravel(), minlength=len(test_labels) * slots).reshape(len(test_labels), slots)
    # Leaving out j of the k can take at most j votes from the winner and give at most j to another
    # label: a winner ahead of every other label by more than 2j keeps the row's prediction.
    if n_classes > 1:
        ordered = np.partition(full_counts, n_classes - 2, axis=1)
        margin = ordered[:, -1] - ordered[:, -2]
    else:
        margin = np.full(len(test_labels), k + 1)
    rows, left_out = np.nonzero((held[:, :-1] > 0) & (2 * held[:, :-1] >= margin[:, None]))
    usable = fold_ids[rows] != left_out[:, None]
    rank = np.cumsum(usable, axis=1, dtype=np.int16)
    if len(rows) and rank[:, -1].min() < k:
        raise ValueError(f"a fold leaves fewer than k = {k} training images")
    chosen = labels[rows].ravel().compress((usable & (rank <= k)).ravel()).reshape(len(rows), k)
    hits = _votes(chosen, n_classes) == test_labels[rows]
    lost = np.bincount(left_out, weights=full_hits[rows] - hits.astype(float), minlength=len(folds))
    return (full_hits.sum() - lost) / len(test_labels)


def _leave_one_out_model_accuracies(ranking, train_labels, test_labels, folds, k: int, n_classes: int) -> np.ndarray:
    """``fold_model_accuracies`` when each fold holds one image: leaving out one of a row's k nearest
    leaves the other k - 1 and the (k+1)-th, so its votes are the first k + 1's less the one left out
    (a majority vote counts labels; their order does not matter to it)."""
    top = ranking[:, : k + 1]
    labels = train_labels[top]
    full_hits = _votes(labels[:, :k], n_classes) == test_labels
    counts = _counts(labels, n_classes)
    rows = np.arange(len(test_labels))
    lost = np.zeros(len(train_labels))
    for place in range(k):
        without = counts.copy()
        without[rows, labels[:, place]] -= 1
        hits = without.argmax(axis=1) == test_labels
        np.add.at(lost, top[:, place], full_hits.astype(float) - hits)
    return (full_hits.sum() - lost[np.concatenate(folds)]) / len(test_labels)


def _counts(neighbour_labels: np.ndarray, n_classes: int) -> np.ndarray:
    """Votes per class of each row of neighbour labels: (rows, n_classes)."""
    rows = neighbour_labels.shape[0]
    slots = (np.arange(rows)[:, None] * n_classes + neighbour_labels).ravel()
    return np.bincount(slots, minlength=rows * n_classes).reshape(rows, n_classes)


def _votes(neighbour_labels: np.ndarray, n_classes: int) -> np.ndarray:
    """The majority label of each row of neighbour labels, ties to the lowest label (one k): a vote
    count per class (order within a row does not matter to it), then the first largest."""
    return _counts(neighbour_labels, n_classes).argmax(axis=1)


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
