"""What CV_k estimates when x is drawn with each observation: the other reading of the k sentences.

``twelve_points_by_folds`` computes "Estimating Out-of-Sample Error"'s sentences about k on the
worked example's own design, x fixed at 1..12. The standard reading of "what CV_k estimates" draws
x afresh with every observation: then leave-one-out is exactly unbiased for the expected error of
the procedure trained on n - 1 observations, and its pessimism against n is the step of the
learning curve from n - 1 to n. This module measures that reading on the example's candidates.

Each design draws n values of x uniformly over the example's range (x from 0.5 to 12.5, the
twelve positions' cells), sorts them and assigns folds by position as the example does; fresh data
are y = a + b x + e, e ~ N(0, s^2), which both candidates contain, so given the design every figure
is exact (in units of s^2): E[CV_k | X] = tr(A), Var[CV_k | X] = 2 tr(A^2) for the quadratic form
CV_k = e'Ae, and the expected error on a new observation of the model fitted to X is
1 + tr((X'X)^-1 M), M the features' second moments under the uniform x. The designs are averaged by
Monte Carlo, with standard errors. A degree-5 fit to 12 random points is sometimes nearly singular,
so its errors have heavy tails: where they have no finite mean the table shows it as a large,
unstable mean with a large standard error, and the medians beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import MODELS
from cvsuite.methods.folds import positional_folds
from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se, standard_error
from cvsuite.studies.twelve_points_by_folds import AGAINST_LOO_COLUMNS

LOW, HIGH = 0.5, 12.5  # the example's x = 1..12 as cells of width one
RANDOM_DESIGN = "random"  # x drawn with each observation (``against_leave_one_out``'s design column)


def _features(x: np.ndarray, degree: int) -> np.ndarray:
    """Polynomial features of x rescaled to [-1, 1] (a fit's predictions do not depend on the scaling)."""
    z = (x - (LOW + HIGH) / 2) / ((HIGH - LOW) / 2)
    return np.stack([z**j for j in range(degree + 1)], axis=-1)


def _second_moments(degree: int) -> np.ndarray:
    """E[f(x) f(x)'] for x uniform on the range: E[z^m] = 1/(m + 1) for even m, 0 for odd."""
    powers = np.add.outer(np.arange(degree + 1), np.arange(degree + 1))
    return np.where(powers % 2 == 0, 1.0 / (powers + 1), 0.0)


def expected_errors(features: np.ndarray, degree: int) -> np.ndarray:
    """Per design (D, n, p): the expected squared error, in units of s^2, of the least-squares fit on
    a new observation drawn like the design's."""
    gram = np.einsum("dni,dnj->dij", features, features)
    return 1 + np.einsum("dij,ji->d", np.linalg.inv(gram), _second_moments(degree))


def cv_moments(features: np.ndarray, n_folds: int) -> tuple[np.ndarray, np.ndarray]:
    """Per design: E[CV_k] and Var[CV_k] over the noise (units s^2 and s^4), CV_k the pooled mean
    squared held-out residual over folds by position."""
    designs, n, _ = features.shape
    form = np.zeros((designs, n, n))
    for fold in positional_folds(n, n_folds):
        train = np.setdiff1d(np.arange(n), fold)
        # held-out residuals e_f - X_f (X_t'X_t)^-1 X_t' e_t: the rows of L, a map of the noise
        mapping = features[:, fold] @ np.linalg.pinv(features[:, train])
        rows = np.zeros((designs, len(fold), n))
        rows[:, np.arange(len(fold)), fold] = 1.0
        rows[:, :, train] -= mapping
        form += np.einsum("dfi,dfj->dij", rows, rows)
    form /= n
    return np.einsum("dii->d", form), 2 * np.einsum("dij,dji->d", form, form)


def random_designs(n: int, designs: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The designs: ``designs`` rows of n uniform x (sorted), then as many of n - 1, in that order
    from ``default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(LOW, HIGH, (designs, n)), axis=1)
    return x, rng.uniform(LOW, HIGH, (designs, n - 1))


def _moments(features: np.ndarray, degree: int, n_folds: int, cache: dict | None) -> tuple[np.ndarray, np.ndarray]:
    """``cv_moments``, remembered in ``cache`` by (degree, k): the functions below share the designs of
    one (n, designs, seed), so a caller that runs both on them computes each form once."""
    if cache is None:
        return cv_moments(features, n_folds)
    key = (degree, n_folds)
    if key not in cache:
        cache[key] = cv_moments(features, n_folds)
    return cache[key]


def random_design_expectations(
    n: int, degrees, fold_counts, designs: int, seed: int, cache: dict | None = None
) -> pd.DataFrame:
    """Per candidate and k, averaged over random designs (``random_designs``): E[CV_k] (with its Monte
    Carlo s.e. and its median over designs), s.d.(CV_k) over designs and noise, the expected error of
    the fit to n observations and to n - 1 (means, s.e.s and medians over designs), the pessimism of
    CV_k against the fit to n (in percent, and as a fraction with its delta-method s.e.), and the
    learning curve's step from n - 1 to n in median (median error of a fit to n - 1 over the median
    for n, less one: a typical value where the means do not exist)."""
    x, x_smaller = random_designs(n, designs, seed)
    rows = []
    for model, degree in zip(MODELS, degrees):
        features = _features(x, degree)
        full_errors = expected_errors(features, degree)
        smaller_errors = expected_errors(_features(x_smaller, degree), degree)
        full, full_se = mean_and_se(full_errors)
        smaller, smaller_se = mean_and_se(smaller_errors)
        step_median = float(np.median(smaller_errors) / np.median(full_errors) - 1)
        for k in fold_counts:
            expectation, variance = _moments(features, degree, k, cache)
            mean, se = mean_and_se(expectation)
            ratio, ratio_se = ratio_and_se(expectation, full_errors)
            rows.append(
                {
                    "model": model,
                    "degree": int(degree),
                    "folds": int(k),
                    "designs": designs,
                    "expected_cv": mean,
                    "expected_cv_se": se,
                    "expected_cv_median": float(np.median(expectation)),
                    "cv_sd": float(np.sqrt(variance.mean() + expectation.var())),
                    "full_sample_error": full,
                    "full_sample_error_se": full_se,
                    "n_minus_one_error": smaller,
                    "n_minus_one_error_se": smaller_se,
                    "pessimism_percent": 100 * (mean / full - 1),
                    "pessimism": ratio - 1,
                    "pessimism_se": ratio_se,
                    "full_sample_error_median": float(np.median(full_errors)),
                    "n_minus_one_error_median": float(np.median(smaller_errors)),
                    "n_minus_one_step_median": step_median,
                }
            )
    return pd.DataFrame(rows)


def random_design_against_leave_one_out(
    n: int, degree: int, fold_counts, designs: int, seed: int, cache: dict | None = None
) -> pd.DataFrame:
    """``twelve_points_by_folds.against_leave_one_out`` with x drawn with each observation, for one
    candidate (the line: the degree-5 fit to random points has errors with no finite mean, so no mean
    or s.d. of them is an estimate), on the designs of ``random_designs``. Each k of ``fold_counts``
    below n against leave-one-out, paired on the same designs: the pessimisms against the fit to n
    and their difference (delta-method s.e.s), the s.d.s of CV over designs and noise, and
    leave-one-out's s.d. minus k's (s.e. from the linearised s.d.s, paired). ``cache``: see ``_moments``."""
    x, _ = random_designs(n, designs, seed)
    model = MODELS[0] if degree == 1 else f"degree {degree}"
    features = _features(x, degree)
    full_errors = expected_errors(features, degree)
    loo_mean, loo_variance = _moments(features, degree, n, cache)
    loo_ratio, loo_ratio_se = ratio_and_se(loo_mean, full_errors)
    loo_sd, loo_influence = _sd_and_influence(loo_mean, loo_variance)
    rows = []
    for k in fold_counts:
        if k >= n:
            continue
        mean, variance = _moments(features, degree, k, cache)
        ratio, ratio_se = ratio_and_se(mean, full_errors)
        gap, gap_se = ratio_and_se(mean - loo_mean, full_errors)
        sd, influence = _sd_and_influence(mean, variance)
        rows.append(
            {
                "design": RANDOM_DESIGN,
                "model": model,
                "folds": int(k),
                "pessimism": ratio - 1,
                "pessimism_se": ratio_se,
                "loo_pessimism": loo_ratio - 1,
                "loo_pessimism_se": loo_ratio_se,
                "pessimism_minus_loo": gap,
                "pessimism_minus_loo_se": gap_se,
                "cv_sd": sd,
                "loo_cv_sd": loo_sd,
                "loo_minus_k_cv_sd": loo_sd - sd,
                "loo_minus_k_cv_sd_se": standard_error(loo_influence - influence),
            }
        )
    return pd.DataFrame(rows, columns=AGAINST_LOO_COLUMNS)


def _sd_and_influence(expectation: np.ndarray, variance: np.ndarray) -> tuple[float, np.ndarray]:
    """s.d.(CV) over designs and noise, sqrt(mean(Var | X) + var(E | X)), and each design's term of its
    linearisation (the s.e. of a difference of two such s.d.s on the same designs is the standard
    error of the difference of these terms)."""
    sd = float(np.sqrt(variance.mean() + expectation.var()))
    return sd, (variance + expectation**2 - 2 * expectation.mean() * expectation) / (2 * sd)
