import numpy as np
import pytest
from scipy.stats import norm

from cvsuite.data.two_class_gaussian import linear_rule_error, simulate_dataset


def test_dataset_is_one_standard_normal_draw_with_class_one_shifted_on_its_first_features():
    data = simulate_dataset(np.random.default_rng(5), 4, 7, 3, 2.0)
    expected = np.random.default_rng(5).standard_normal((8, 7))
    expected[4:, :3] += 2.0
    assert np.array_equal(data.x, expected)
    assert data.y.tolist() == [0] * 4 + [1] * 4
    assert data.class_means.tolist() == [[0.0] * 7, [2.0, 2.0, 2.0, 0.0, 0.0, 0.0, 0.0]]


def test_null_data_is_the_unshifted_draw():
    data = simulate_dataset(np.random.default_rng(6), 5, 7, 0, 0.0)
    assert np.array_equal(data.x, np.random.default_rng(6).standard_normal((10, 7)))
    assert not data.class_means.any()


def test_simulation_refuses_more_signal_features_than_features():
    with pytest.raises(ValueError, match="more signal features"):
        simulate_dataset(np.random.default_rng(0), 4, 5, 6, 1.0)


def test_linear_rule_error_is_the_normal_tail_and_half_for_a_constant_rule():
    means = np.array([[0.0, 0.0], [2.0, 0.0]])
    w, b = np.array([-1.0, 0.0]), 1.0  # boundary at x1 = 1, halfway between the means
    assert linear_rule_error(w, b, means) == pytest.approx(norm.cdf(-1.0))
    assert linear_rule_error(np.zeros(2), 3.0, means) == 0.5


def test_linear_rule_error_matches_a_large_test_sample():
    rng = np.random.default_rng(9)
    means = np.array([[0.0, 0.0, 0.0], [0.8, 0.3, 0.0]])
    w, b = np.array([-1.0, -0.5, 0.2]), 0.3
    y = rng.integers(0, 2, 200_000)
    x = means[y] + rng.standard_normal((len(y), 3))
    empirical = np.mean(np.where(x @ w + b >= 0, 0, 1) != y)
    assert linear_rule_error(w, b, means) == pytest.approx(empirical, abs=0.005)
