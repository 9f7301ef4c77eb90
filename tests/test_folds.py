"""Every fold construction of cvsuite.methods.folds: a partition, the document's draw order, one check."""

import numpy as np
import pytest
from sklearn.model_selection import KFold, StratifiedKFold

from cvsuite.methods.folds import (
    canonical_partition,
    check_fold_count,
    chunked_folds,
    consecutive_folds,
    fold_of,
    fold_size_range,
    largest_round_robin_fold,
    leave_one_out_folds,
    legacy_shuffled_kfold,
    positional_folds,
    shuffled_partition,
    stratified_dealt_folds,
    stratified_kfold,
    stratified_round_robin_folds,
    training_sizes,
)

LABELS = np.repeat([0, 1, 2, 3], [20, 20, 20, 20])


def is_partition(folds, n):
    return sorted(np.concatenate(folds).tolist()) == list(range(n))


@pytest.mark.parametrize("k", [1, 0, 26])
def test_every_construction_refuses_a_fold_count_outside_2_to_n(k):
    labels = np.repeat([0, 1], [13, 12])
    for build in (
        lambda: consecutive_folds(25, k),
        lambda: shuffled_partition(25, k, seed=0),
        lambda: chunked_folds(np.arange(25), k),
        lambda: positional_folds(25, k),
        lambda: stratified_round_robin_folds(labels, k, np.random.default_rng(0)),
        lambda: stratified_dealt_folds(labels, k, np.random.default_rng(0)),
    ):
        with pytest.raises(ValueError, match="between 2 and n = 25"):
            build()


@pytest.mark.parametrize("n, k", [(25, 2), (25, 3), (25, 5), (80, 10), (7, 7)])
def test_consecutive_folds_are_scikit_learns_unshuffled_kfold(n, k):
    theirs = [test for _, test in KFold(k).split(np.zeros((n, 1)))]
    assert [f.tolist() for f in consecutive_folds(n, k)] == [f.tolist() for f in theirs]


def test_shuffled_partition_cuts_the_listings_permutation_into_chunks():
    # "Regularization and Cross-Validation", From scratch: rng.permutation(25), np.array_split(idx, K)
    folds = shuffled_partition(25, 3, seed=4)
    order = np.random.default_rng(4).permutation(25)
    assert np.concatenate(folds).tolist() == order.tolist()
    assert [len(f) for f in folds] == [9, 8, 8]


def test_stratified_round_robin_folds_match_stratified_kfold_class_counts():
    # The document's scikit-learn cross-check: per-class counts per fold as StratifiedKFold's.
    folds = stratified_round_robin_folds(LABELS, 5, np.random.default_rng(0))
    theirs = [test for _, test in StratifiedKFold(5, shuffle=True, random_state=0).split(np.zeros((80, 1)), LABELS)]
    assert is_partition(folds, 80)
    for ours, sk in zip(folds, theirs):
        assert np.bincount(LABELS[ours], minlength=4).tolist() == np.bincount(LABELS[sk], minlength=4).tolist()


@pytest.mark.parametrize("n_folds", [2, 3, 5, 7])
def test_no_round_robin_fold_is_larger_than_its_bound_and_some_reach_it(n_folds):
    labels = np.repeat([0, 1, 2], [7, 9, 4])
    bound = largest_round_robin_fold(labels, n_folds)
    sizes = [
        len(f)
        for seed in range(200)
        for f in stratified_round_robin_folds(labels, n_folds, np.random.default_rng(seed))
    ]
    assert max(sizes) == bound


def test_stratified_round_robin_folds_draw_a_permutation_then_a_first_fold_per_class():
    rng = np.random.default_rng(9)
    folds = stratified_round_robin_folds(LABELS, 5, rng)
    replay = np.random.default_rng(9)
    fold_ids = fold_of(folds, 80)
    for c in range(4):
        members = np.flatnonzero(LABELS == c)[replay.permutation(20)]
        first = replay.integers(5)
        assert fold_ids[members].tolist() == [(i + first) % 5 for i in range(20)]
    assert rng.bit_generator.state == replay.bit_generator.state


def test_stratified_dealt_folds_keep_sizes_and_class_counts_within_one():
    labels = np.repeat([0, 1], [23, 17])
    folds = stratified_dealt_folds(labels, 10, np.random.default_rng(3))
    assert is_partition(folds, 40)
    sizes = [len(f) for f in folds]
    assert max(sizes) - min(sizes) <= 1
    for c in (0, 1):
        counts = [int((labels[f] == c).sum()) for f in folds]
        assert max(counts) - min(counts) <= 1


def test_positional_folds_assign_observations_by_position():
    # "Estimating Out-of-Sample Error", Step 2: {1,5,9}, {2,6,10}, {3,7,11}, {4,8,12} (1-based).
    assert [(f + 1).tolist() for f in positional_folds(12, 4)] == [[1, 5, 9], [2, 6, 10], [3, 7, 11], [4, 8, 12]]


def test_leave_one_out_holds_out_each_item_alone():
    assert [f.tolist() for f in leave_one_out_folds(4)] == [[0], [1], [2], [3]]
    with pytest.raises(ValueError, match="between 2 and n = 1"):
        leave_one_out_folds(1)


def test_canonical_partition_forgets_the_order_folds_were_dealt_in():
    folds = shuffled_partition(25, 5, seed=3)
    shuffled = [np.random.default_rng(1).permutation(f) for f in reversed(folds)]
    canonical = canonical_partition(shuffled)
    assert [f.tolist() for f in canonical] == [f.tolist() for f in canonical_partition(folds)]
    assert [int(f[0]) for f in canonical] == sorted(int(f.min()) for f in folds)
    assert all((np.diff(f) > 0).all() for f in canonical)


def test_fold_of_inverts_the_partition_and_marks_items_in_no_fold():
    assert fold_of([np.array([2, 0]), np.array([3])], 5).tolist() == [0, -1, 0, 1, -1]


def test_fold_sizes_and_training_sizes():
    assert fold_size_range(50, 5) == {
        "samples": 50,
        "folds": 5,
        "validation_size_min": 10,
        "validation_size_max": 10,
        "train_size_min": 40,
        "train_size_max": 40,
    }
    assert fold_size_range(25, 2)["validation_size_max"] == 13 and fold_size_range(25, 2)["train_size_min"] == 12
    assert sorted(training_sizes(25, shuffled_partition(25, 3, seed=0)).tolist()) == [16, 17, 17]


def test_check_fold_count_accepts_the_ends():
    check_fold_count(10, 2)
    check_fold_count(10, 10)


@pytest.mark.parametrize("random_state", [None, 3])
def test_stratified_kfold_is_scikit_learns_splitter(random_state):
    shuffle = random_state is not None
    theirs = StratifiedKFold(5, shuffle=shuffle, random_state=random_state).split(np.zeros((80, 1)), LABELS)
    ours = stratified_kfold(LABELS, 5, random_state)
    assert [f.tolist() for f in ours] == [test.tolist() for _, test in theirs]


def test_stratified_kfold_is_scikit_learns_splitter_on_any_labels():
    """Written out rather than imported (a second of import per study): the same folds as the
    splitter on unbalanced, unsorted and string labels, shuffled or not, for many seeds."""
    rng = np.random.default_rng(0)
    for trial in range(60):
        n_classes, n_folds = int(rng.integers(2, 6)), int(rng.integers(2, 6))
        counts = rng.integers(n_folds, 3 * n_folds + 4, n_classes)
        labels = rng.permutation(np.repeat(rng.permutation(n_classes) + 7 * (trial % 2), counts))
        if trial % 3 == 0:
            labels = np.array([f"class-{label}" for label in labels])
        for random_state in (None, trial, 2**31 - trial):
            theirs = StratifiedKFold(n_folds, shuffle=random_state is not None, random_state=random_state)
            expected = [test.tolist() for _, test in theirs.split(np.zeros((len(labels), 1)), labels)]
            assert [f.tolist() for f in stratified_kfold(labels, n_folds, random_state)] == expected


def test_stratified_folds_deal_each_shuffled_class_from_a_random_first_fold():
    # "Cross-Validation", Example (stratified_folds), by hand: class 0's items in permuted order go
    # to folds start, start + 1, ... (mod K); then class 1 likewise with its own draws.
    labels = np.array([0, 0, 0, 1, 1, 1, 1])
    twin = np.random.default_rng(11)
    expected = [[] for _ in range(3)]
    for members in (np.array([0, 1, 2]), np.array([3, 4, 5, 6])):
        dealt = members[twin.permutation(len(members))]
        start = twin.integers(3)
        for position, item in enumerate(dealt):
            expected[(position + start) % 3].append(int(item))
    folds = stratified_round_robin_folds(labels, 3, np.random.default_rng(11))
    assert [f.tolist() for f in folds] == [sorted(f) for f in expected]


@pytest.mark.parametrize("n, k, seed", [(150, 4, 0), (113, 4, 7), (10, 3, 2), (5, 5, 1)])
def test_legacy_shuffled_kfold_gives_scikit_learns_shuffled_kfold(n, k, seed):
    ours = legacy_shuffled_kfold(n, k, seed)
    theirs = [test for _, test in KFold(k, shuffle=True, random_state=seed).split(np.zeros(n))]
    assert [f.tolist() for f in ours] == [t.tolist() for t in theirs]


def test_legacy_shuffled_kfold_refuses_impossible_fold_counts():
    with pytest.raises(ValueError, match="between 2 and n = 4"):
        legacy_shuffled_kfold(4, 5, 0)


def test_class_balanced_leave_one_out_takes_one_item_of_each_class_per_fold():
    from cvsuite.methods.folds import class_balanced_leave_one_out

    labels = np.repeat([0, 1, 2], 4)
    folds = class_balanced_leave_one_out(labels)
    assert len(folds) == 4 and all(sorted(labels[f].tolist()) == [0, 1, 2] for f in folds)
    assert sorted(np.concatenate(folds).tolist()) == list(range(12))
    with pytest.raises(ValueError, match="equal class counts"):
        class_balanced_leave_one_out(np.array([0, 0, 1]))
