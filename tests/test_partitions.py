import itertools

import numpy as np
import pytest

from cvsuite.methods.partitions import equal_partitions, group_index, mean_over_groups, partition_count


def _brute_force_partitions(n, k):
    """Every assignment of n items to k labelled groups of n/k, with the labels forgotten."""
    size = n // k
    found = set()
    for labels in itertools.product(range(k), repeat=n):
        if all(labels.count(g) == size for g in range(k)):
            found.add(frozenset(frozenset(i for i in range(n) if labels[i] == g) for g in range(k)))
    return found


@pytest.mark.parametrize("n, k", [(6, 3), (6, 2), (8, 4), (4, 1), (5, 5)])
def test_every_equal_partition_appears_once(n, k):
    partitions = equal_partitions(n, k)
    as_sets = {frozenset(frozenset(g.tolist()) for g in p) for p in partitions}
    assert len(as_sets) == len(partitions) == partition_count(n, k)
    assert as_sets == _brute_force_partitions(n, k)


def test_twelve_in_four_folds_of_three_are_15400_written_one_way():
    partitions = equal_partitions(12, 4)
    assert partitions.shape == (15400, 4, 3)  # 12! / (3!^4 4!)
    assert (np.diff(partitions, axis=-1) > 0).all()  # each group sorted
    assert (np.diff(partitions[:, :, 0], axis=-1) > 0).all()  # groups ordered by their first item
    assert partitions[0].tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10, 11]]


def test_group_index_points_at_each_partitions_own_groups():
    partitions = equal_partitions(9, 3)
    groups, where = group_index(partitions, 9)
    assert len(groups) == 84  # C(9, 3)
    assert np.array_equal(groups[where], partitions)


def test_unequal_groups_are_refused():
    with pytest.raises(ValueError, match="do not split into 5 groups of equal size"):
        equal_partitions(12, 5)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 7, 8, 12])
def test_the_mean_over_a_partitions_groups_is_numpys_mean_bit_for_bit(k):
    rng = np.random.default_rng(k)
    values = rng.standard_normal((30, 50)) ** 2 * rng.uniform(0.01, 100, (30, 50))
    where = rng.integers(0, 50, (400, k))
    assert np.array_equal(mean_over_groups(values, where), values[:, where].mean(axis=2))
