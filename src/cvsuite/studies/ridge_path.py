"""The degree-12 ridge path of "Regularization and Cross-Validation", §8.2.3, and its worked example.

The exchange rate the section prints (the grid's best lambda against the unregularised fit: 49%,
75%, 467x) and the "Worked example by hand": ridge on two points, theta(lambda) = 1 / (1 + lambda).
The ridge solve itself, Equation 8.12, is ``cvsuite.methods.ridge``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, mean_squared_error
from cvsuite.methods.ridge import ridge_coefficients, ridge_path


@dataclass(frozen=True)
class RidgeGrid:
    """The degree of the ridge fit and the log grid of lambdas it is traced on (np.geomspace)."""

    degree: int
    grid_start: float
    grid_stop: float
    grid_points: int

    @classmethod
    def from_block(cls, block: dict) -> RidgeGrid:
        """From the config block ridge_path."""
        return cls(block["degree"], block["grid_start"], block["grid_stop"], block["grid_points"])

    def lambdas(self) -> np.ndarray:
        return np.geomspace(self.grid_start, self.grid_stop, self.grid_points)


def grid_and_exchange(samples: SineSamples, grid: RidgeGrid) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The ridge path on the log grid, and its exchange rate against the unregularised fit (§8.2.3)."""
    train_design, test_design = samples.designs(grid.degree)
    path = ridge_path(train_design, samples.y, test_design, samples.y_test, grid.lambdas())
    unregularised = ridge_path(train_design, samples.y, test_design, samples.y_test, np.array([0.0])).iloc[0]
    return path, best_lambda_summary(unregularised, path)


def best_lambda_summary(unregularised: pd.Series, grid: pd.DataFrame) -> pd.DataFrame:
    """The exchange rate of §8.2.3: the grid's best lambda against the unregularised fit.

    The best lambda is the first grid point of least expected risk. Percentages and the shrink
    factor are in the units the document prints them (49 for "49%", 467 for "467x").
    """
    best = grid.loc[grid["expected_risk"].idxmin()]
    return pd.DataFrame(
        [
            {
                "unregularised_train_risk": unregularised["train_risk"],
                "unregularised_expected_risk": unregularised["expected_risk"],
                "unregularised_theta_norm": unregularised["theta_norm"],
                "best_lambda": best["lambda"],
                "best_lambda_orders_below_one": -np.log10(best["lambda"]),
                "best_train_risk": best["train_risk"],
                "best_expected_risk": best["expected_risk"],
                "best_theta_norm": best["theta_norm"],
                "train_risk_rise_percent": 100 * (best["train_risk"] / unregularised["train_risk"] - 1),
                "expected_risk_fall_percent": 100 * (1 - best["expected_risk"] / unregularised["expected_risk"]),
                "theta_norm_shrink_factor": unregularised["theta_norm"] / best["theta_norm"],
            }
        ]
    )


def worked_example_theta(lam: float, x: np.ndarray, y: np.ndarray) -> float:
    """Closed-form ridge coefficient of the no-intercept model f(x) = theta x.

    theta(lambda) = (x.y / N) / (x.x / N + lambda). On the document's "Worked example by hand"
    (x = (1, -1), y = (2, 0)) this is 1 / (1 + lambda), step 2; lambda = inf gives 0.
    """
    n = len(x)
    return float((x @ y / n) / (x @ x / n + lam))


def worked_example_train_risk(lam: float, x: np.ndarray, y: np.ndarray) -> float:
    """R_emp(lambda) = mean of (y - theta(lambda) x)^2.

    On the document's data, 2 - 2/(1 + lambda) + 1/(1 + lambda)^2, its step 3.
    """
    theta = worked_example_theta(lam, x, y)
    return mean_squared_error(y, theta * x)


def worked_example_table(x: np.ndarray, y: np.ndarray, lambdas: list[float]) -> pd.DataFrame:
    """The worked example's table, closed form beside a numerical ridge solve of the same data.

    The numerical column is left empty at lambda = inf, where there is nothing to solve.
    """
    design = x.reshape(-1, 1)
    rows = []
    for lam in lambdas:
        theta = worked_example_theta(lam, x, y)
        if np.isfinite(lam):
            solved = float(ridge_coefficients(design, y, lam)[0])
            solved_risk = mean_squared_error(y, solved * x)
        else:
            solved = solved_risk = np.nan
        rows.append(
            {
                "lambda": lam,
                "theta": theta,
                "theta_numerical": solved,
                "train_risk": worked_example_train_risk(lam, x, y),
                "train_risk_numerical": solved_risk,
                "theta_norm_squared": theta**2,
            }
        )
    return pd.DataFrame(rows)


def worked_example_exchange(table: pd.DataFrame, lam_from: float, lam_to: float) -> pd.DataFrame:
    """Step 4 of the worked example: what going from one lambda to another costs and buys."""
    a = table.set_index("lambda").loc[lam_from]
    b = table.set_index("lambda").loc[lam_to]
    return pd.DataFrame(
        [
            {
                "lambda_from": lam_from,
                "lambda_to": lam_to,
                "train_risk_cost": b["train_risk"] - a["train_risk"],
                "theta_norm_squared_reduction_percent": 100 * (1 - b["theta_norm_squared"] / a["theta_norm_squared"]),
                "theta_ratio": b["theta"] / a["theta"],
            }
        ]
    )


def checked_worked_example(x: np.ndarray, y: np.ndarray, lambdas: list[float]) -> pd.DataFrame:
    """``worked_example_table``, refused if the closed form and the ridge solve differ (by 1e-12)."""
    worked = worked_example_table(x, y, lambdas)
    finite = worked["theta_numerical"].notna()
    gap = np.abs(worked.loc[finite, "theta"] - worked.loc[finite, "theta_numerical"]).max()
    if not gap < 1e-12:
        raise RuntimeError(f"worked example: the closed form and the numerical ridge solve differ by {gap}")
    return worked
