"""The penalty on an unstandardised design: "Regularization and Cross-Validation", Pitfalls,
Regularising an unstandardised design matrix.

"lambda ||theta||^2 treats every coefficient as comparable. Page 801 measured column spreads in
Table 8.2 differing by a factor of 297,010, which means the penalty would effectively delete some
features and ignore others." Two independent features, one spread that factor times the other's,
both carrying the response equally per unit of spread; ridge at one lambda against least squares:
how far each coefficient is shrunk, and how the fit moves when one column is merely rescaled (least
squares does not notice a change of units; the penalty does). Statistics only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.ridge import ridge_coefficients


def relative_change(fit: np.ndarray, other: np.ndarray) -> float:
    """||fit - other|| / ||fit||: how far a fit moves, as a share of its own size."""
    return float(np.linalg.norm(fit - other) / np.linalg.norm(fit))


def unstandardised_penalty(spread_ratio: float, observations: int, lam: float, noise: float, seed: int) -> pd.DataFrame:
    """One row: the small-spread column's ridge coefficient over its least-squares one (near 0:
    deleted); the large-spread column's over its least-squares one with the deleted column left out
    (near 1: the penalty ignores it); and the relative change of the fitted values when the small
    column is put on the large one's scale, under ridge and under least squares. The design is
    standard normals, centred and scaled to unit spread, column 0 divided by ``spread_ratio``; y is
    the sum of the two standardised columns plus ``noise`` times standard normals, from
    default_rng(seed)."""
    rng = np.random.default_rng(seed)
    standard = rng.standard_normal((observations, 2))
    standard = (standard - standard.mean(axis=0)) / standard.std(axis=0)
    y = standard.sum(axis=1) + noise * rng.standard_normal(observations)
    design = standard / np.array([spread_ratio, 1.0])
    ridge, ols = ridge_coefficients(design, y, lam), ridge_coefficients(design, y, 0.0)
    # The same fit with the small column put on the large one's scale: a change of units only.
    ridge_change = relative_change(design @ ridge, standard @ ridge_coefficients(standard, y, lam))
    ols_change = relative_change(design @ ols, standard @ ridge_coefficients(standard, y, 0.0))
    spreads = design.std(axis=0)
    return pd.DataFrame(
        [
            {
                "spread_ratio": float(spreads[1] / spreads[0]),
                "lambda": float(lam),
                "small_column_shrink": float(ridge[0] / ols[0]),
                "large_column_shrink": float(ridge[1] / ridge_coefficients(design[:, 1:], y, 0.0)[0]),
                "ridge_fit_change_on_rescale": ridge_change,
                "ols_fit_change_on_rescale": ols_change,
            }
        ]
    )
