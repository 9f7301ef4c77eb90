"""Equation 8.12, regularised least squares (cvsuite.methods.ridge)."""

import numpy as np
import pytest

from cvsuite.data.sine import polynomial_design, sine_sample
from cvsuite.methods.ridge import ridge_coefficients, ridge_path


def test_ridge_minimises_its_objective():
    rng = np.random.default_rng(1)
    design, y = rng.normal(size=(20, 4)), rng.normal(size=20)
    theta = ridge_coefficients(design, y, 0.3)

    def objective(t):
        return np.mean((y - design @ t) ** 2) + 0.3 * t @ t

    for _ in range(20):
        assert objective(theta) <= objective(theta + 1e-3 * rng.normal(size=4))


def test_negative_lambda_is_refused():
    with pytest.raises(ValueError, match="non-negative"):
        ridge_coefficients(np.eye(2), np.ones(2), -1.0)


def test_training_risk_rises_and_norm_falls_along_the_path():
    x, y = sine_sample(25, 3, 0.35, 3.0)
    xt, yt = sine_sample(500, 99, 0.35, 3.0)
    path = ridge_path(polynomial_design(x, 12, 3.0), y, polynomial_design(xt, 12, 3.0), yt, np.geomspace(1e-8, 10, 30))
    assert (np.diff(path["train_risk"]) >= -1e-12).all()
    assert (np.diff(path["theta_norm"]) <= 1e-9).all()


def test_zero_lambda_is_the_minimum_norm_least_squares_solution():
    rng = np.random.default_rng(2)
    design, y = rng.normal(size=(5, 8)), rng.normal(size=5)  # more parameters than points
    np.testing.assert_allclose(ridge_coefficients(design, y, 0.0), np.linalg.pinv(design) @ y, atol=1e-12)
