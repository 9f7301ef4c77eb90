"""What "Regularization and Cross-Validation" says in words about the ridge path and its worked example.

§8.2.3, Reading the plot, Pitfalls and the Recall card describe the degree-12 path in words
("rises monotonically", "climbs again", "nearly cancel", "five orders of magnitude", "a penalty term
and a prior are equal"), and the "Worked example by hand" states algebra (its Step 1 expansion, the
closed form, "halves", "not linear"). Each is computed here and kept as a claim with its criterion.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, mean_squared_error
from cvsuite.methods.ridge import ridge_coefficients, ridge_path
from cvsuite.studies.document_claims import claims_table

NEAR = 0.05  # "sits at the dotted line": within 5% of the unregularised expected risk
# §8.2.3: "The book gives three names for the same term — regulariser, penalty term —": the names
# the sentence gives, and, from "From the book", the term the book uses for lambda instead.
PENALTY_TERM_NAMES = ("regulariser", "penalty term")
LAMBDA_NAME = "regularization parameter"


def below_the_grid(samples: SineSamples, degree: int, grid_start: float, decades: int = 6) -> pd.DataFrame:
    """The ridge fit at grid_start and the decades below it, against the unregularised fit.

    "At lambda near zero it [the expected risk] sits at the dotted line, 0.670332": where on the
    lambda axis that is true. ``over_unregularised`` is the expected risk / the unregularised one;
    ``decades_below_start`` numbers the rows (0 at grid_start), so that a row is named exactly.
    """
    train_design, test_design = samples.designs(degree)
    lambdas = grid_start * 10.0 ** -np.arange(decades)
    path = ridge_path(train_design, samples.y, test_design, samples.y_test, lambdas)
    unregularised = ridge_path(train_design, samples.y, test_design, samples.y_test, np.array([0.0]))
    path["over_unregularised"] = path["expected_risk"] / unregularised["expected_risk"].iloc[0]
    path["decades_below_start"] = np.arange(decades)
    return path[["decades_below_start", "lambda", "expected_risk", "over_unregularised"]]


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


@dataclass(frozen=True)
class RidgeEvidence:
    """The tables the claims read, and the fit and data behind the two computed ones."""

    grid: pd.DataFrame
    summary: pd.DataFrame
    near_zero: pd.DataFrame
    worked: pd.DataFrame
    exchange: pd.DataFrame
    train_design: np.ndarray
    y: np.ndarray
    noise_sd: float


def _worked_claims(worked: pd.DataFrame, exchange: pd.DataFrame, x: np.ndarray, y: np.ndarray) -> list[tuple]:
    """The worked example's algebra, on its data (the document's: x = (1, -1), y = (2, 0))."""
    finite = worked[np.isfinite(worked["lambda"])]
    closed_gap = float(np.abs(finite["theta"] - finite["theta_numerical"]).max())
    lam = finite["lambda"].to_numpy()
    step3_gap = float(np.abs(2 - 2 / (1 + lam) + 1 / (1 + lam) ** 2 - finite["train_risk_numerical"]).max())
    thetas = np.linspace(-2, 3, 11)
    direct = np.array([mean_squared_error(y, t * x) for t in thetas])
    step1_gap = float(
        max(
            np.abs(direct - (4 - 4 * thetas + 2 * thetas**2) / 2).max(),
            np.abs(direct - (2 - 2 * thetas + thetas**2)).max(),
        )
    )
    at = finite.set_index("lambda")["theta_numerical"]
    ratio = float(exchange["theta_ratio"].iloc[0])
    claims = [
        (
            "closed_form_matches_ridge_solve",
            closed_gap < 1e-12,
            closed_gap,
            "theta(lambda) = 1 / (1 + lambda) equals a numerical ridge solve at every finite lambda of the table "
            "(to 1e-12); value: the largest gap",
        ),
        (
            "step1_expansion_holds",
            step1_gap < 1e-12,
            step1_gap,
            "Step 1: the mean squared error of theta x equals (1/2)[4 - 4 theta + 2 theta^2] and 2 - 2 theta + "
            "theta^2 at 11 values of theta in [-2, 3] (to 1e-12); value: the largest gap",
        ),
        (
            "step3_formula_matches",
            step3_gap < 1e-12,
            step3_gap,
            "Step 3: R_emp(lambda) = 2 - 2/(1 + lambda) + 1/(1 + lambda)^2 equals the numerical ridge fit's "
            "training risk at every finite lambda of the table (to 1e-12); value: the largest gap",
        ),
        (
            "lambda_one_halves_theta",
            abs(ratio - 0.5) < 1e-12,
            ratio,
            "theta(1) / theta(0) = 1/2 ('lambda = 1 already halves the coefficient'); value: the ratio",
        ),
    ]
    if {0.0, 1.0, 3.0} <= set(at.index):
        linear = at[0.0] + 3 * (at[1.0] - at[0.0])
        claims.append(
            (
                "shrinkage_not_linear_in_lambda",
                abs(at[3.0] - linear) > 1e-6,
                at[3.0],
                f"theta(3) differs from the straight line through theta(0) and theta(1) ({linear:g}) "
                "('not linear in lambda'); value: theta(3)",
            )
        )
    return claims


def ridge_claims(e: RidgeEvidence, worked_x: np.ndarray, worked_y: np.ndarray) -> pd.DataFrame:
    """The sentences about the path and the worked example, each as a claim with its criterion."""
    grid, best = e.grid, e.summary.iloc[0]
    at_best = int(grid["expected_risk"].idxmin())
    after = grid.iloc[at_best:]
    rises = np.diff(grid["train_risk"].to_numpy())
    unregularised = ridge_coefficients(e.train_design, e.y, 0.0)
    cancel = cancellation_ratio(e.train_design, unregularised)
    start = float(e.near_zero["over_unregularised"].iloc[0])
    expected_after, train_after = np.diff(after["expected_risk"].to_numpy()), np.diff(after["train_risk"].to_numpy())
    names = len(PENALTY_TERM_NAMES)
    claims = [
        (
            "starts_at_the_unregularised_expected_risk",
            abs(start - 1) <= NEAR,
            start,
            "the expected risk at the first lambda of the grid lies within 5% of the unregularised fit's ('At "
            "lambda near zero it sits at the dotted line'); value: their ratio",
        ),
        (
            "expected_risk_climbs_after_best",
            bool((expected_after > 0).all()),
            float((expected_after > 0).mean()),
            "the expected risk rises at every grid step past the best lambda ('then climbs again'); value: share",
        ),
        (
            "train_risk_rises_monotonically",
            bool((rises > 0).all()),
            float(rises.min()),
            "the training risk rises at every grid step ('It rises monotonically'); value: the smallest rise",
        ),
        (
            "cannot_beat_the_unregularised_training_risk",
            bool(grid["train_risk"].min() >= best["unregularised_train_risk"]),
            float(grid["train_risk"].min() - best["unregularised_train_risk"]),
            "no lambda of the grid has a training risk below the unregularised fit's; value: the smallest excess",
        ),
        (
            "both_risks_rise_and_norm_shrinks_past_optimum",
            bool((expected_after > 0).all() and (train_after > 0).all() and (np.diff(after["theta_norm"]) < 0).all()),
            float(after["theta_norm"].iloc[-1]),
            "past the best lambda both risks rise and ||theta|| falls at every "
            "grid step ('rise together and the norm keeps shrinking'); value: ||theta|| at the last lambda",
        ),
        (
            "coefficients_nearly_cancel",
            cancel > 100,
            cancel,
            "unregularised fit: the terms |theta_j phi_j(x)| add "
            "up to more than 100 times the largest |f(x)| at some training point ('nearly cancel'); value: ratio",
        ),
    ]
    gap = penalty_prior_gap(e.train_design, e.y, float(best["best_lambda"]), e.noise_sd)
    orders = float(best["best_lambda_orders_below_one"])
    claims += [
        (
            "penalty_equals_gaussian_prior",
            gap < 1e-8,
            gap,
            "at the best lambda the ridge solution equals the "
            "posterior mean (the mode) under the prior theta ~ N(0, sigma^2 / (N lambda) I), sigma the data's noise "
            "s.d., to 1e-8 relative ('a penalty term and a prior are ... equal'); value: the relative gap",
        ),
        (
            "best_lambda_five_orders_below_one",
            round(orders) == 5,
            orders,
            "-log10 of the best lambda rounds to 5 ('five orders of magnitude from 1'); value: -log10 lambda",
        ),
        (
            "penalty_term_names_given",
            names == 3,
            names,
            f"'three names for the same term': the sentence gives "
            f"{' and '.join(repr(n) for n in PENALTY_TERM_NAMES)}; 'From the book' adds {LAMBDA_NAME!r}, which the "
            "document gives to lambda ('lambda is the regularisation parameter'); value: the names given",
        ),
    ]
    return claims_table(claims + _worked_claims(e.worked, e.exchange, worked_x, worked_y))
