import numpy as np
import pytest

from cvsuite.methods.stumps import Stump, fit_stump, restricted_orders, sorted_orders, split_errors

RNG = np.random.default_rng(4)
X = RNG.standard_normal((12, 7))
Y = np.repeat([0.0, 1.0], 6)


def test_split_errors_match_counting_every_split_by_hand():
    errors = split_errors(Y, sorted_orders(X))
    for j in range(X.shape[1]):
        ranked = Y[np.argsort(X[:, j], kind="stable")]
        for s in range(len(Y) - 1):
            left, right = ranked[: s + 1], ranked[s + 1 :]
            assert errors[j, s, 0] == (left == 1).sum() + (right == 0).sum()
            assert errors[j, s, 1] == (left == 0).sum() + (right == 1).sum()


def test_a_subsets_orders_are_read_off_the_full_orders():
    keep = np.ones(12, dtype=bool)
    keep[[1, 5, 9]] = False
    kept = np.flatnonzero(keep)
    direct = kept[np.argsort(X[kept].T, axis=1, kind="stable")]
    assert (restricted_orders(sorted_orders(X), keep) == direct).all()


def test_the_best_stump_has_the_fewest_errors_of_any_split_counted_by_hand():
    best = min(
        ((y_left != Y[order][: s + 1]).sum() + (1 - y_left != Y[order][s + 1 :]).sum())
        for order in (np.argsort(X[:, j]) for j in range(X.shape[1]))
        for s in range(len(Y) - 1)
        for y_left in (0.0, 1.0)
    )
    stump = fit_stump(X, Y)
    assert stump.training_errors == best
    assert (stump.predict(X) != Y).sum() == best


def test_a_separating_predictor_is_found_with_zero_errors_and_a_midpoint_threshold():
    x = RNG.standard_normal((12, 5))
    x[:, 3] = np.where(Y == 1, 2.0, -2.0) + RNG.uniform(-0.5, 0.5, 12)
    stump = fit_stump(x, Y)
    assert (stump.predictor, stump.training_errors) == (3, 0)
    assert (stump.predict(x) == Y).all()
    assert stump.threshold == pytest.approx(0.5 * (x[Y == 0, 3].max() + x[Y == 1, 3].min()))


def test_ties_go_to_the_lowest_predictor():
    x = np.repeat(RNG.standard_normal((12, 1)), 3, axis=1)
    assert fit_stump(x, Y).predictor == 0


def test_restricting_the_candidates_keeps_the_predictors_own_index():
    assert fit_stump(X, Y, predictors=[4]).predictor == 4


def test_a_stump_predicts_its_right_class_above_the_threshold_from_its_own_predictor():
    stump = Stump(predictor=1, threshold=0.5, right_class=0.0, training_errors=0)
    x = np.array([[9.0, 0.4], [-9.0, 0.6], [0.0, 0.5]])
    assert stump.predict(x).tolist() == [1.0, 0.0, 1.0]  # the threshold itself goes left
    assert stump.predict_from_values(np.array([0.4, 0.6])).tolist() == [1.0, 0.0]
