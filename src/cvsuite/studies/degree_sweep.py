"""Training and expected risk of least-squares polynomials of growing degree.

"Regularization and Cross-Validation" quotes page 802's sweep without printing it: the ratio of
expected to training risk reaching 862 at degree 15, and ||theta|| growing from 11.83 at the best
degree to 81,050 at degree 15. This module recomputes that sweep on the same data, and what the
printed norm is under the common least-squares solvers. Statistics only: the registry's judges
decide what they say about the sentences.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.sine import mean_squared_error, polynomial_design


def degree_sweep(x, y, x_test, y_test, degrees, half_width: float) -> pd.DataFrame:
    """One row per degree: training risk, expected risk, their ratio and ||theta|| (lstsq fits)."""
    rows = []
    for degree in degrees:
        train_design = polynomial_design(x, degree, half_width)
        theta = np.linalg.lstsq(train_design, y, rcond=None)[0]
        train = mean_squared_error(y, train_design @ theta)
        expected = mean_squared_error(y_test, polynomial_design(x_test, degree, half_width) @ theta)
        rows.append(
            {
                "degree": int(degree),
                "n_parameters": int(degree) + 1,
                "train_risk": train,
                "expected_risk": expected,
                "expected_over_train": expected / train,
                "theta_norm": float(np.linalg.norm(theta)),
            }
        )
    return pd.DataFrame(rows)


def degree_sweep_summary(sweep: pd.DataFrame) -> pd.DataFrame:
    """The best degree (least expected risk) and its norm, against the highest degree swept: page
    802's sweep as "Regularization and Cross-Validation" recalls it (862, 11.83, 81,050), and how
    many times the best degree's norm the highest degree's is ("growing from 11.83 ... to 81,050")."""
    best = sweep.loc[sweep["expected_risk"].idxmin()]
    top = sweep.loc[sweep["degree"].idxmax()]
    return pd.DataFrame(
        [
            {
                "best_degree": int(best["degree"]),
                "best_expected_risk": best["expected_risk"],
                "best_theta_norm": best["theta_norm"],
                "max_degree": int(top["degree"]),
                "max_degree_expected_over_train": top["expected_over_train"],
                "max_degree_theta_norm": top["theta_norm"],
                "theta_norm_growth": top["theta_norm"] / best["theta_norm"],
            }
        ]
    )


def least_squares_solvers(x, y, degree: int, half_width: float) -> pd.DataFrame:
    """||theta|| of one least-squares fit by the common solvers, to show what a printed norm is.

    Page 802's "81,050" at degree 15: the design is ill-conditioned (condition number about 1.5
    million), so the solvers that never form X^T X (LAPACK's SVD-based gelsd, which numpy's lstsq
    and the listing use; QR with column pivoting, gelsy; Householder QR; the SVD pseudo-inverse)
    agree to many digits, while the normal equations lose about half of them.
    """
    import scipy.linalg

    design = polynomial_design(x, degree, half_width)
    q, r = np.linalg.qr(design)
    u, s, vt = np.linalg.svd(design, full_matrices=False)
    solutions = {
        "numpy.linalg.lstsq (LAPACK gelsd, SVD; the listing's)": np.linalg.lstsq(design, y, rcond=None)[0],
        "scipy.linalg.lstsq gelsy (QR with column pivoting)": scipy.linalg.lstsq(design, y, lapack_driver="gelsy")[0],
        "Householder QR, then a triangular solve": scipy.linalg.solve_triangular(r, q.T @ y),
        "SVD pseudo-inverse": vt.T @ ((u.T @ y) / s),
        "normal equations X^T X theta = X^T y (numpy.linalg.solve)": np.linalg.solve(design.T @ design, design.T @ y),
    }
    return pd.DataFrame(
        [
            {
                "degree": degree,
                "solver": name,
                "theta_norm": float(np.linalg.norm(theta)),
                "train_risk": mean_squared_error(y, design @ theta),
                "condition_number": float(s[0] / s[-1]),
            }
            for name, theta in solutions.items()
        ]
    )
