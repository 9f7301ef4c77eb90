"""What the words about the ridge path and its worked example rest on, computed.

§8.2.3, Reading the plot, Pitfalls and the Recall card describe the degree-12 path in words ("At
lambda near zero it sits at the dotted line", "rises monotonically", "climbs again", "nearly
cancel", "a penalty term and a prior are equal"), and the "Worked example by hand" states algebra
(its Step 1 expansion, the closed form, Step 3's training risk, "not linear"). This module computes
the quantities those words name: the path below the listing's grid (``below_the_grid``), where each
grid point stands from the best lambda (``with_steps_from_best``), the penalty against a Gaussian
prior, how far the unregularised terms cancel and how close the grid's training risk comes to the
unregularised one (``with_mechanics``), and the worked example's printed algebra beside its solves
(``with_printed_algebra``, ``step1_expansion``), the penalty on the unit feature against an
unpenalised intercept (``intercept_penalty``) and what sets lambda's scale (``lambda_scale``).
Statistics only: the registry's judges decide
what they say about the sentences.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, mean_squared_error
from cvsuite.methods.ridge import ridge_coefficient_path, ridge_coefficients, ridge_path

STEP1_THETAS = np.linspace(-2, 3, 11)  # where Step 1's expansion is evaluated: either side of its minimum


def below_the_grid(samples: SineSamples, degree: int, grid_start: float, decades: int = 6) -> pd.DataFrame:
    """The ridge fit at grid_start and the decades below it, against the unregularised fit.

    "At lambda near zero it [the expected risk] sits at the dotted line, 0.670332": the curve's
    approach to the unregularised fit as lambda goes to 0. ``over_unregularised`` is the expected
    risk over the unregularised one and ``gap_to_unregularised`` that ratio less one (the gap as a
    share of the line); ``decades_below_start`` numbers the rows (0 at grid_start, the last the
    nearest to 0), so that a row is named exactly.
    """
    train_design, test_design = samples.designs(degree)
    lambdas = grid_start * 10.0 ** -np.arange(decades)
    path = ridge_path(train_design, samples.y, test_design, samples.y_test, lambdas)
    unregularised = ridge_path(train_design, samples.y, test_design, samples.y_test, np.array([0.0]))
    path["over_unregularised"] = path["expected_risk"] / unregularised["expected_risk"].iloc[0]
    path["gap_to_unregularised"] = path["over_unregularised"] - 1
    path["decades_below_start"] = np.arange(decades)
    return path[["decades_below_start", "lambda", "expected_risk", "over_unregularised", "gap_to_unregularised"]]


def with_steps_from_best(grid: pd.DataFrame) -> pd.DataFrame:
    """The grid with ``steps_from_best``: each lambda's grid steps from the best one (the first of
    least expected risk; negative before it), so that "past the optimum" names its rows."""
    best = int(np.argmin(grid["expected_risk"].to_numpy()))
    return grid.assign(steps_from_best=np.arange(len(grid)) - best)


def prior_mean(design: np.ndarray, y: np.ndarray, noise_sd: float, prior_sd: float) -> np.ndarray:
    """Posterior mean of theta for y ~ N(X theta, noise_sd^2 I), theta ~ N(0, prior_sd^2 I) (§8.3.2's view).

    Written in its N x N form, tau^2 X^T (tau^2 X X^T + sigma^2 I)^-1 y, so that it shares no
    linear algebra with the ridge solve it is compared with. A Gaussian posterior's mean is its mode.
    """
    gram = prior_sd**2 * design @ design.T + noise_sd**2 * np.eye(len(y))
    return prior_sd**2 * design.T @ np.linalg.solve(gram, y)


def penalty_prior_gap(design: np.ndarray, y: np.ndarray, lam: float, noise_sd: float) -> float:
    """Largest |ridge - posterior mean| over the coefficients, relative to the largest |ridge coefficient|,
    for the prior whose variance is noise_sd^2 / (N lam): the prior that makes the penalty the log prior."""
    ridge = ridge_coefficients(design, y, lam)
    bayes = prior_mean(design, y, noise_sd, noise_sd / np.sqrt(len(y) * lam))
    return float(np.abs(ridge - bayes).max() / np.abs(ridge).max())


def cancellation_ratio(design: np.ndarray, theta: np.ndarray) -> float:
    """max over the points of sum_j |theta_j phi_j(x)|, over max |f(x)|: how far the terms of a fit
    exceed the fit they add up to ("enormous coefficients that nearly cancel")."""
    terms = np.abs(design * theta)
    return float(terms.sum(axis=1).max() / np.abs(design @ theta).max())


def with_mechanics(
    summary: pd.DataFrame, grid: pd.DataFrame, train_design: np.ndarray, y: np.ndarray, noise_sd: float
) -> pd.DataFrame:
    """The exchange-rate summary with what the path's words rest on: at the best lambda, the ridge
    coefficients' relative gap to the posterior mean under the matching Gaussian prior
    (``penalty_prior_gap``); the unregularised fit's terms over the fit they add up to
    (``unregularised_cancellation_ratio``), and the same at the best lambda
    (``best_cancellation_ratio``: "make those expensive and the mechanism goes away"); and the grid's
    least training risk less the
    unregularised fit's (``least_train_risk_excess``: "the minimiser of the sum cannot beat the
    minimiser of the first part alone")."""
    row = summary.iloc[0]
    unregularised = ridge_coefficients(train_design, y, 0.0)
    return summary.assign(
        penalty_prior_gap=penalty_prior_gap(train_design, y, float(row["best_lambda"]), noise_sd),
        unregularised_cancellation_ratio=cancellation_ratio(train_design, unregularised),
        least_train_risk_excess=float(grid["train_risk"].min() - row["unregularised_train_risk"]),
        best_cancellation_ratio=cancellation_ratio(
            train_design, ridge_coefficients(train_design, y, float(row["best_lambda"]))
        ),
    )


def with_printed_algebra(worked: pd.DataFrame) -> pd.DataFrame:
    """The worked example's table with its printed algebra beside the solves.

    ``train_risk_step3``: Step 3's R_emp(lambda) = 2 - 2/(1 + lambda) + 1/(1 + lambda)^2, the
    document's formula for its data, to set beside ``train_risk_numerical``. ``theta_off_the_line``:
    theta less the straight line through the table's first two rows (lambda = 0 and 1 in the
    document's), at each finite lambda: "The shrinkage is not linear in lambda".
    """
    lam = worked["lambda"].to_numpy(dtype=float)
    (lam0, lam1), (theta0, theta1) = lam[:2], worked["theta"].to_numpy()[:2]
    with np.errstate(invalid="ignore"):  # the line at lambda = inf is not a number: left empty
        line = theta0 + (lam - lam0) * (theta1 - theta0) / (lam1 - lam0)
    return worked.assign(
        train_risk_step3=2 - 2 / (1 + lam) + 1 / (1 + lam) ** 2,
        theta_off_the_line=np.where(np.isfinite(lam), worked["theta"].to_numpy() - line, np.nan),
    )


def step1_expansion(x: np.ndarray, y: np.ndarray, thetas: np.ndarray = STEP1_THETAS) -> pd.DataFrame:
    """Step 1 of the worked example at several theta: the mean squared error of theta x on the data,
    beside the two expressions the document expands it into, (1/2)[4 - 4 theta + 2 theta^2] and
    2 - 2 theta + theta^2 (its data's), and the largest gap between any two of the three."""
    rows = []
    for theta in thetas:
        direct = mean_squared_error(y, theta * x)
        bracket = (4 - 4 * theta + 2 * theta**2) / 2
        expanded = 2 - 2 * theta + theta**2
        gap = max(abs(direct - bracket), abs(direct - expanded), abs(bracket - expanded))
        rows.append(
            {
                "theta": float(theta),
                "train_risk": direct,
                "bracket_form": bracket,
                "expanded_form": expanded,
                "largest_gap": gap,
            }
        )
    return pd.DataFrame(rows)


def intercept_penalty(samples: SineSamples, degree: int, lambdas) -> pd.DataFrame:
    """The listing's penalty on the unit feature against an unpenalised intercept, per lambda > 0:
    "exclude the intercept, which the unit-feature trick otherwise sweeps into the penalty"
    (Pitfalls: Regularising an unstandardised design matrix). Column 0 of the design is the unit
    feature; its coefficient with the whole vector penalised (the listing's Equation 8.12) and with
    column 0 left out of the penalty, their ratio, and both fits' expected risks."""
    train, test = samples.designs(degree)
    lambdas = np.array([lam for lam in lambdas if lam > 0], dtype=float)
    free = np.ones(train.shape[1], dtype=bool)
    free[0] = False
    listing = ridge_coefficient_path(train, samples.y, lambdas)
    unpenalised = ridge_coefficient_path(train, samples.y, lambdas, free)
    risks = ridge_path(train, samples.y, test, samples.y_test, lambdas)["expected_risk"]
    risks_free = ridge_path(train, samples.y, test, samples.y_test, lambdas, free)["expected_risk"]
    return pd.DataFrame(
        {
            "lambda": lambdas,
            "intercept_penalised": listing[:, 0],
            "intercept_unpenalised": unpenalised[:, 0],
            "intercept_shrink": listing[:, 0] / unpenalised[:, 0],
            "expected_risk_penalised": risks.to_numpy(),
            "expected_risk_unpenalised": risks_free.to_numpy(),
        }
    )


def lambda_scale(samples: SineSamples, degree: int, lambdas: np.ndarray, factor: float) -> pd.DataFrame:
    """What sets the useful range of lambda: "the scale of X^T X / N rather than anything intuitive"
    (Pitfalls: Expecting the shrinkage to be proportional to lambda). The grid's best lambda for the
    design and for the design times ``factor`` on the grid times factor^2 (the same fits, so their
    ratio is factor^2, the scale of X^T X / N), beside the eigenvalues of X^T X / N and how many of
    them exceed the best lambda (the directions the penalty leaves nearly alone)."""
    train, test = samples.designs(degree)
    best = float(lambdas[ridge_path(train, samples.y, test, samples.y_test, lambdas)["expected_risk"].idxmin()])
    scaled_grid = lambdas * factor**2
    scaled = ridge_path(train * factor, samples.y, test * factor, samples.y_test, scaled_grid)
    best_scaled = float(scaled_grid[scaled["expected_risk"].idxmin()])
    eigenvalues = np.linalg.eigvalsh(train.T @ train / len(train))
    return pd.DataFrame(
        [
            {
                "factor": float(factor),
                "factor_squared": float(factor) ** 2,
                "best_lambda": best,
                "best_lambda_scaled": best_scaled,
                "best_lambda_ratio": best_scaled / best,
                "gram_eigenvalue_min": float(eigenvalues.min()),
                "gram_eigenvalue_max": float(eigenvalues.max()),
                "eigenvalues_above_best_lambda": int((eigenvalues > best).sum()),
                "parameters": int(train.shape[1]),
            }
        ]
    )
