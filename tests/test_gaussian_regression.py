import numpy as np
import pytest

from cvsuite.data.gaussian_regression import RegressionDesign, nested_regression_samples, regression_sample, true_mse


def test_true_mse_matches_the_error_on_a_large_fresh_sample():
    rng = np.random.default_rng(4)
    b = np.array([0.5, 0.0, -0.3, 0.0])
    selected, w, c = np.array([0, 3]), np.array([0.4, 0.2]), 0.1
    X = rng.standard_normal((400_000, 4))
    y = X @ b + 0.7 * rng.standard_normal(400_000)
    fresh = np.mean((y - c - X[:, selected] @ w) ** 2)
    assert true_mse(c, selected, w, b, 0.7) == pytest.approx(fresh, rel=0.01)


def test_true_mse_by_hand():
    # 0.49 + 0.1^2 + (0.4 - 0.5)^2 + 0.3^2 + 0.2^2
    b = np.array([0.5, 0.0, -0.3, 0.0])
    assert true_mse(0.1, np.array([0, 3]), np.array([0.4, 0.2]), b, 0.7) == pytest.approx(
        0.49 + 0.01 + 0.01 + 0.09 + 0.04
    )


def test_sample_draws_the_predictors_row_by_row_then_the_noise():
    design = RegressionDesign(n_predictors=5, signal_predictors=2, signal_coefficient=0.8, noise_sd=1.5)
    X, y, b = regression_sample(10, design, np.random.default_rng(5))
    rng = np.random.default_rng(5)
    X_hand = rng.standard_normal(50).reshape(10, 5)
    noise = rng.standard_normal(10)
    assert np.array_equal(X, X_hand)
    assert b.tolist() == [0.8, 0.8, 0.0, 0.0, 0.0]
    assert y == pytest.approx(0.8 * (X_hand[:, 0] + X_hand[:, 1]) + 1.5 * noise)


def test_design_is_pure_noise_without_signal_predictors_or_coefficient():
    assert RegressionDesign(n_predictors=5, signal_predictors=0, signal_coefficient=0.8, noise_sd=1.0).pure_noise
    assert RegressionDesign(n_predictors=5, signal_predictors=3, signal_coefficient=0.0, noise_sd=1.0).pure_noise
    assert not RegressionDesign(n_predictors=5, signal_predictors=3, signal_coefficient=0.3, noise_sd=1.0).pure_noise


def test_design_refuses_more_signal_predictors_than_predictors():
    with pytest.raises(ValueError, match="between 0 and n_predictors = 3"):
        RegressionDesign(n_predictors=3, signal_predictors=4, signal_coefficient=1.0, noise_sd=1.0)


def test_nested_samples_are_each_sizes_own_sample_and_leave_its_generator_where_it_would_be():
    sizes = [7, 3, 12]  # in any order
    for design in (RegressionDesign(6, 0, 0.0, 1.3), RegressionDesign(6, 2, 0.8, 1.3)):
        nested = nested_regression_samples(sizes, design, np.random.default_rng(8))
        for n, (X, y, b, rng) in zip(sizes, nested):
            own = np.random.default_rng(8)
            X_own, y_own, b_own = regression_sample(n, design, own)
            assert np.array_equal(X, X_own) and np.array_equal(b, b_own)
            if design.pure_noise:
                assert np.array_equal(y, y_own)  # no product with b: every bit is the draw's
            np.testing.assert_allclose(y, y_own, rtol=1e-14)
            assert np.array_equal(rng.permutation(n), own.permutation(n))
