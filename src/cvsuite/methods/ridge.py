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


def ridge_coefficient_path(
    design: np.ndarray, y: np.ndarray, lambdas: np.ndarray, penalised: np.ndarray | None = None
) -> np.ndarray:
    """``ridge_coefficients`` for each lambda, one row each, bit for bit.

    ``penalised`` (a boolean per column, default all) leaves the other columns out of the penalty:
    lam ||theta||^2 over the penalised coefficients only, as an unpenalised intercept is.

    X^T X / N and X^T y / N do not depend on lambda, so they are formed once; the systems of every
    lambda > 0 are solved as one stack (``numpy.linalg.solve`` runs LAPACK's gesv on each matrix of
    a stack as on a single one), and lambda = 0 by ``lstsq`` as in ``ridge_coefficients``.
    """
    lambdas = np.asarray(lambdas, dtype=float)
    if (lambdas < 0).any():
        raise ValueError(f"lambda must be non-negative, got {lambdas[lambdas < 0][0]}")
    n, m = design.shape
    thetas = np.empty((len(lambdas), m))
    positive = lambdas > 0
    if positive.any():
        gram, moments = design.T @ design / n, design.T @ y / n
        penalty = np.eye(m) if penalised is None else np.diag(np.asarray(penalised, dtype=float))
        systems = gram + lambdas[positive, None, None] * penalty
        thetas[positive] = np.linalg.solve(systems, moments[:, None])[..., 0]
    if not positive.all():
        thetas[~positive] = np.linalg.lstsq(design, y, rcond=None)[0]
    return thetas


def ridge_path(
    train_design: np.ndarray,
    y_train: np.ndarray,
    test_design: np.ndarray,
    y_test: np.ndarray,
    lambdas: np.ndarray,
    penalised: np.ndarray | None = None,
) -> pd.DataFrame:
    """Training risk, expected risk (on the test points) and ||theta|| for each lambda (§8.2.3);
    ``penalised`` as in ``ridge_coefficient_path``."""
    thetas = ridge_coefficient_path(train_design, y_train, lambdas, penalised)
    # A stack of matrix-vector products, one BLAS gemv per lambda as ``design @ theta`` does; one
    # matrix product with all thetas at once would sum in another order and move the last bits.
    train_fits = (train_design @ thetas[:, :, None])[..., 0]
    test_fits = (test_design @ thetas[:, :, None])[..., 0]
    return pd.DataFrame(
        {
            "lambda": [float(lam) for lam in lambdas],
            "train_risk": [mean_squared_error(y_train, fit) for fit in train_fits],
            "expected_risk": [mean_squared_error(y_test, fit) for fit in test_fits],
            "theta_norm": [float(np.linalg.norm(theta)) for theta in thetas],
        }
    )
