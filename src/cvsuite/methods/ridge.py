"""Regularised least squares, Equation 8.12 of "Regularization and Cross-Validation" (§8.2.3)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.sine import mean_squared_error


def ridge_coefficients(design: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """argmin over theta of (1/N)||y - X theta||^2 + lam ||theta||^2 (Equation 8.12).

    lam = 0 is the unregularised problem, solved as the document does by minimum-norm least
    squares (``numpy.linalg.lstsq``) because X^T X is numerically singular at degree 12; lam > 0
    solves the normal equations (X^T X / N + lam I) theta = X^T y / N.
    """
    if lam < 0:
        raise ValueError(f"lambda must be non-negative, got {lam}")
    if lam == 0:
        return np.linalg.lstsq(design, y, rcond=None)[0]
    n, m = design.shape
    return np.linalg.solve(design.T @ design / n + lam * np.eye(m), design.T @ y / n)


def ridge_path(
    train_design: np.ndarray,
    y_train: np.ndarray,
    test_design: np.ndarray,
    y_test: np.ndarray,
    lambdas: np.ndarray,
) -> pd.DataFrame:
    """Training risk, expected risk (on the test points) and ||theta|| for each lambda (§8.2.3)."""
    rows = []
    for lam in lambdas:
        theta = ridge_coefficients(train_design, y_train, float(lam))
        rows.append(
            {
                "lambda": float(lam),
                "train_risk": mean_squared_error(y_train, train_design @ theta),
                "expected_risk": mean_squared_error(y_test, test_design @ theta),
                "theta_norm": float(np.linalg.norm(theta)),
            }
        )
    return pd.DataFrame(rows)
