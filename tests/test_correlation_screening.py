import numpy as np
import pytest

from cvsuite.methods.correlation_screening import nearest_neighbour_labels, subset_label_correlations, top_predictors

RNG = np.random.default_rng(11)
X = RNG.standard_normal((20, 60))
Y = np.repeat([0.0, 1.0], 10)


def test_subset_correlations_match_numpy_corrcoef_on_each_subset():
    subsets = np.zeros((3, 20))
    subsets[0] = 1
    subsets[1, :12] = 1
    subsets[2, 4:18] = 1
    corr = subset_label_correlations(X, Y, subsets)
    for row, weights in zip(corr, subsets):
        rows = weights.astype(bool)
        expected = [np.corrcoef(X[rows, j], Y[rows])[0, 1] for j in range(X.shape[1])]
        np.testing.assert_allclose(row, expected, rtol=1e-10, atol=1e-12)


def test_a_subset_of_one_class_has_no_correlation():
    subsets = np.zeros((1, 20))
    subsets[0, :10] = 1  # the first ten samples are all class 0
    assert np.isnan(subset_label_correlations(X, Y, subsets)).all()


def test_signed_selection_takes_the_largest_and_absolute_the_most_extreme():
    corr = np.array([0.1, -0.9, 0.5, 0.3, -0.2])
    assert top_predictors(corr, 2, "signed").tolist() == [2, 3]
    assert top_predictors(corr, 2, "absolute").tolist() == [1, 2]


def test_selecting_every_predictor_orders_them_by_score():
    corr = np.array([0.1, -0.9, 0.5, 0.3, -0.2])
    assert top_predictors(corr, 5, "signed").tolist() == [2, 3, 0, 4, 1]


@pytest.mark.parametrize(
    "count, selection, message",
    [(0, "signed", "cannot select"), (6, "signed", "cannot select"), (2, "largest", "selection must be")],
)
def test_top_predictors_refuses_what_it_cannot_do(count, selection, message):
    with pytest.raises(ValueError, match=message):
        top_predictors(np.zeros(5), count, selection)


def test_nearest_neighbour_matches_brute_force_and_finds_an_identical_point():
    train, query = RNG.standard_normal((15, 4)), RNG.standard_normal((9, 4))
    labels = RNG.integers(0, 2, 15).astype(float)
    brute = [labels[np.argmin(((train - q) ** 2).sum(axis=1))] for q in query]
    assert nearest_neighbour_labels(train, labels, query).tolist() == brute
    assert nearest_neighbour_labels(train, labels, train[[3, 7]]).tolist() == labels[[3, 7]].tolist()
