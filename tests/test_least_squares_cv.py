"""Batched K-fold least squares: the loop of the document's listing, many partitions at once."""

import numpy as np
import pytest

from cvsuite.data.sine import polynomial_design, sine_sample
from cvsuite.methods.folds import shuffled_partition
from cvsuite.methods.least_squares_cv import kfold_estimates, kfold_fold_risks, shuffle_permutations

X, Y = sine_sample(25, 3, 0.35, 3.0)
XT, YT = sine_sample(300, 99, 0.35, 3.0)
A, B = polynomial_design(X, 5, 3.0), polynomial_design(XT, 5, 3.0)


def listing_kfold(k, seed):
    """The listing's ``kfold``: lstsq on each fold of default_rng(seed).permutation cut by array_split."""
    held, tested = [], []
    for fold in shuffled_partition(25, k, seed):
        train = np.setdiff1d(np.arange(25), fold)
        theta = np.linalg.lstsq(A[train], Y[train], rcond=None)[0]
        held.append(np.mean((Y[fold] - A[fold] @ theta) ** 2))
        tested.append(np.mean((YT - B @ theta) ** 2))
    return np.array(held), np.array(tested)


def test_permutations_are_the_draws_of_shuffled_partition():
    rows = shuffle_permutations(25, [0, 7])
    assert (rows[1] == np.random.default_rng(7).permutation(25)).all()
    assert [f.tolist() for f in shuffled_partition(25, 5, 7)] == [c.tolist() for c in np.array_split(rows[1], 5)]


@pytest.mark.parametrize("k", [2, 3, 10])
def test_estimates_are_the_listings_loop(k):
    expected = [listing_kfold(k, seed)[0].mean() for seed in range(6)]
    np.testing.assert_allclose(kfold_estimates(A, Y, shuffle_permutations(25, range(6)), k), expected, rtol=1e-10)


def test_fold_risks_on_a_test_set_are_each_fold_models_risk_there():
    held, tested = kfold_fold_risks(A, Y, shuffle_permutations(25, [4]), 5, test=(B, YT))
    expected_held, expected_tested = listing_kfold(5, 4)
    np.testing.assert_allclose(held[0], expected_held, rtol=1e-10)
    np.testing.assert_allclose(tested[0], expected_tested, rtol=1e-10)


def test_a_training_set_smaller_than_the_design_is_refused():
    with pytest.raises(ValueError, match="cannot fit 13"):
        kfold_estimates(polynomial_design(X, 12, 3.0), Y, shuffle_permutations(25, [0]), 2)
