"""cvsuite.methods.folds: the constructions the shape-image and gallery studies use, against their sources."""

import numpy as np
import pytest
from sklearn.model_selection import KFold

from cvsuite.methods.folds import legacy_shuffled_kfold, stratified_round_robin_folds


def test_stratified_folds_balance_classes_and_partition():
    labels = np.repeat(np.arange(4), 16)
    folds = stratified_round_robin_folds(labels, 5, np.random.default_rng(0))
    assert sorted(np.concatenate(folds).tolist()) == list(range(64))
    for fold in folds:
        counts = np.bincount(labels[fold], minlength=4)
        assert counts.max() - counts.min() <= 1


def test_stratified_folds_draw_one_permutation_and_one_offset_per_class():
    labels = np.repeat(np.arange(3), 5)
    rng, twin = np.random.default_rng(4), np.random.default_rng(4)
    stratified_round_robin_folds(labels, 2, rng)
    for _ in range(3):
        twin.permutation(5)
        twin.integers(2)
    assert rng.random() == twin.random()


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
