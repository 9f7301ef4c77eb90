"""Fold constructions: the ways the suite partitions n items into K disjoint validation folds.

Every construction returns the same thing, a list of K integer index arrays that together cover
0..n-1 exactly once (a holdout is the first of them), and checks its arguments the same way
(``check_fold_count``). Where a study needs the fold of each item instead, ``fold_of`` turns the
list around. The draw order of each construction is part of the specification of the document
that uses it, and is written in its docstring.
"""

from __future__ import annotations

import numpy as np


def check_fold_count(n: int, n_folds: int) -> None:
    """Refuse a fold count that cannot partition n items: K must lie between 2 and n."""
    if not 2 <= n_folds <= n:
        raise ValueError(f"the number of folds must be between 2 and n = {n}, got {n_folds}")


def consecutive_folds(n: int, n_folds: int) -> list[np.ndarray]:
    """0..n-1 cut into K consecutive blocks, the first n mod K one item longer.

    ``numpy.array_split`` of ``arange(n)``: what scikit-learn's ``KFold`` without shuffling gives,
    and the fold sizes of every construction below that cuts a permutation into chunks.
    """
    check_fold_count(n, n_folds)
    return np.array_split(np.arange(n), n_folds)


def chunked_folds(order: np.ndarray, n_folds: int) -> list[np.ndarray]:
    """A given permutation of 0..n-1 cut into K consecutive near-equal chunks (``array_split``).

    Folds "assigned at random" in ESL §7.10.2 step 1 and in the studies of "Estimating Out-of-Sample
    Error": the caller draws the permutation, so the draw stays in its own documented order.
    """
    order = np.asarray(order)
    check_fold_count(len(order), n_folds)
    return np.array_split(order, n_folds)


def shuffled_partition(n: int, n_folds: int, seed: int) -> list[np.ndarray]:
    """Shuffle 0..n-1 and cut it into K consecutive chunks of near-equal size.

    As in "Regularization and Cross-Validation", From scratch (``kfold``): one
    ``default_rng(seed).permutation(n)``, split by ``numpy.array_split`` so that the first
    n mod K folds hold one item more.
    """
    check_fold_count(n, n_folds)
    return chunked_folds(np.random.default_rng(seed).permutation(n), n_folds)


def legacy_shuffled_kfold(n: int, n_folds: int, seed: int) -> list[np.ndarray]:
    """The folds of scikit-learn's ``KFold(n_folds, shuffle=True, random_state=seed)`` on n items.

    Draw order: one ``numpy.random.RandomState(seed).permutation(n)`` (the legacy MT19937 stream
    that scikit-learn's ``check_random_state`` seeds; it shuffles ``arange(n)`` in place, which
    ``permutation`` does too), cut into K consecutive chunks, the first n mod K one item larger.
    Each fold is returned sorted. The legacy stream, not ``default_rng``, because the gallery
    example being reproduced draws its folds from it.
    """
    check_fold_count(n, n_folds)
    order = np.random.RandomState(seed).permutation(n)
    return [np.sort(chunk) for chunk in np.array_split(order, n_folds)]


def stratified_kfold(labels: np.ndarray, n_folds: int, random_state: int | None = None) -> list[np.ndarray]:
    """The held-out indices of scikit-learn's ``StratifiedKFold`` on these labels, fold by fold.

    ``random_state=None``: ``StratifiedKFold(n_folds)``, unshuffled, what
    ``cross_val_score(classifier, X, y, cv=n_folds)`` uses for a classifier; an integer:
    ``StratifiedKFold(n_folds, shuffle=True, random_state=random_state)``.

    Its algorithm (scikit-learn 1.7 to 1.9, pinned by tests/test_folds.py against the splitter
    itself), written out because importing scikit-learn costs a study a second: the classes in
    order of first appearance; per fold, the class counts a round robin over the sorted labels
    deals it; each class's fold numbers in blocks, in the order of its members, shuffled per class
    by ``RandomState(random_state).shuffle`` when shuffling.
    """
    check_fold_count(len(labels), n_folds)
    labels = np.asarray(labels)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    encoded = np.argsort(np.argsort(first))[inverse]  # classes numbered by first appearance
    n_classes = len(first)
    dealt = np.sort(encoded)
    allocation = np.array([np.bincount(dealt[i::n_folds], minlength=n_classes) for i in range(n_folds)])
    rng = np.random.RandomState(random_state) if random_state is not None else None
    test_folds = np.empty(len(labels), dtype="i")
    for k in range(n_classes):
        folds_for_class = np.arange(n_folds).repeat(allocation[:, k])
        if rng is not None:
            rng.shuffle(folds_for_class)
        test_folds[encoded == k] = folds_for_class
    return [np.flatnonzero(test_folds == i) for i in range(n_folds)]


def stratified_round_robin_folds(labels: np.ndarray, n_folds: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Shuffle each class, then deal its items round-robin to the folds from a random first fold.

    As in "Cross-Validation", section Example (``stratified_folds``). Draw order, classes in
    increasing label order: a permutation of the class's items, then one integer in [0, K) for
    the fold that receives its first item. Returns K arrays of item indices, each sorted.
    """
    check_fold_count(len(labels), n_folds)
    fold_ids = np.empty(len(labels), dtype=np.int64)
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        dealt = members[rng.permutation(len(members))]
        fold_ids[dealt] = (np.arange(len(dealt)) + rng.integers(n_folds)) % n_folds
    return [np.flatnonzero(fold_ids == f) for f in range(n_folds)]


def largest_round_robin_fold(labels: np.ndarray, n_folds: int) -> int:
    """The most items a fold of ``stratified_round_robin_folds`` can hold, whatever its draws: a
    class of m items deals at most ceil(m / K) of them to one fold."""
    return int(sum(-(-np.count_nonzero(labels == label) // n_folds) for label in np.unique(labels)))


def stratified_dealt_folds(labels: np.ndarray, n_folds: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Folds with the class proportions of the whole set as nearly as they go (pamr's balanced folds).

    Draw order: for each class in increasing label order, one ``rng.permutation`` of its items;
    the concatenated permuted items are dealt to folds 0, 1, ..., K-1, 0, 1, ... continuing across
    classes, so fold sizes differ by at most one. Returns K arrays of item indices, each sorted.
    Unlike ``stratified_round_robin_folds`` no random first fold is drawn.
    """
    check_fold_count(len(labels), n_folds)
    dealt = np.concatenate([rng.permutation(np.flatnonzero(labels == c)) for c in np.unique(labels)])
    return dealt_folds(dealt, n_folds)


def class_dealt_folds(order: np.ndarray, labels: np.ndarray, n_folds: int) -> list[np.ndarray]:
    """Stratified folds cut from one given permutation: class by class, dealt in turn.

    The items of class 0 in permutation order, then those of class 1 (and so on), dealt to folds 0,
    1, ..., K-1, 0, ... in turn, so every fold holds its share of each class. Reads the same
    permutation as ``chunked_folds``, so the two constructions are compared on one random draw.
    """
    order = np.asarray(order)
    check_fold_count(len(labels), n_folds)
    if sorted(order.tolist()) != list(range(len(labels))):
        raise ValueError("order must be a permutation of the item indices")
    return dealt_folds(np.concatenate([order[labels[order] == c] for c in np.unique(labels)]), n_folds)


def permutation_folds(order: np.ndarray, labels: np.ndarray, n_folds: int, stratified: bool) -> list[np.ndarray]:
    """ESL's folds from one permutation: ``chunked_folds`` at random, or ``class_dealt_folds`` stratified.

    Unstratified is ESL §7.10.2 step 1, "Divide the samples into K cross-validation folds (groups) at
    random", so a fold's class counts vary; both read the same permutation.
    """
    return class_dealt_folds(order, labels, n_folds) if stratified else chunked_folds(order, n_folds)


def dealt_folds(dealt: np.ndarray, n_folds: int) -> list[np.ndarray]:
    """Items dealt to folds 0, 1, ..., K-1, 0, 1, ... in the order given; each fold sorted."""
    fold_ids = np.empty(len(dealt), dtype=np.int64)
    fold_ids[dealt] = np.arange(len(dealt)) % n_folds
    return [np.flatnonzero(fold_ids == f) for f in range(n_folds)]


def positional_folds(n: int, n_folds: int) -> list[np.ndarray]:
    """Fold j (0-based) holds items j, j + K, j + 2K, ...: each fold spans the whole range.

    "Estimating Out-of-Sample Error", worked example, Step 2: "Observations are assigned by
    position, {1,5,9}, {2,6,10}, {3,7,11}, {4,8,12}".
    """
    check_fold_count(n, n_folds)
    return [np.arange(j, n, n_folds) for j in range(n_folds)]


def leave_one_out_folds(n: int) -> list[np.ndarray]:
    """K = n: fold i holds item i alone. Draws nothing, so every "shuffle" is the same partition."""
    check_fold_count(n, n)
    return [np.array([i]) for i in range(n)]


def class_balanced_leave_one_out(labels: np.ndarray) -> list[np.ndarray]:
    """Leave one item of each class out: fold i holds the i-th item of every class (in index order).

    Every training set keeps the classes' proportions, so no held-out item's class is a minority
    among the items that predict it; leave-one-out (one item out) tips each class's count against
    the item held out (Kohavi, 1995, the Iris majority example of "Cross-Validation", Variants).
    Draws nothing; needs equal class counts. Within a class the items are exchangeable, so pairing
    them by index is as good as pairing them at random.
    """
    labels = np.asarray(labels)
    classes, counts = np.unique(labels, return_counts=True)
    if len(set(counts.tolist())) != 1 or counts[0] < 2:
        raise ValueError(f"class-balanced leave-one-out needs equal class counts of at least 2, got {counts.tolist()}")
    members = [np.flatnonzero(labels == c) for c in classes]
    return [np.array([m[i] for m in members]) for i in range(counts[0])]


def canonical_partition(folds: list[np.ndarray]) -> list[np.ndarray]:
    """The same partition written one way only: each fold sorted, folds ordered by first item.

    A cross-validation estimate is a function of the partition, not of the order its folds were
    dealt in. Computing it on the canonical form makes that exact in floating point too, so that
    every leave-one-out "shuffle" gives bit-identical estimates (the zero spread at K = N that
    "Regularization and Cross-Validation" §8.2.4 points out).
    """
    ordered = [np.sort(np.asarray(f)) for f in folds]
    return sorted(ordered, key=lambda f: int(f[0]))


def fold_of(folds: list[np.ndarray], n: int) -> np.ndarray:
    """The fold (0..K-1) of each of n items; -1 for an item in no fold."""
    ids = np.full(n, -1, dtype=int)
    for f, fold in enumerate(folds):
        ids[fold] = f
    return ids


def fold_size_range(n: int, n_folds: int) -> dict:
    """The smallest and largest held-out fold and training set of K-fold CV on n items.

    The sizes of ``consecutive_folds``, which every chunked construction shares.
    """
    sizes = np.array([len(fold) for fold in consecutive_folds(n, n_folds)])
    return {
        "samples": n,
        "folds": n_folds,
        "validation_size_min": int(sizes.min()),
        "validation_size_max": int(sizes.max()),
        "train_size_min": int(n - sizes.max()),
        "train_size_max": int(n - sizes.min()),
    }


def training_sizes(n: int, folds: list[np.ndarray]) -> np.ndarray:
    """The number of items each fold's model is trained on: n minus the fold's size."""
    return np.array([n - len(f) for f in folds])
