"""What CV_k estimates when x is drawn with each observation: the other reading of the k sentences.

``twelve_points_by_folds`` answers "Estimating Out-of-Sample Error"'s sentences about k on the
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
unstable mean with a large standard error, and the median beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import MODELS
from cvsuite.methods.folds import positional_folds
from cvsuite.methods.monte_carlo import mean_and_se

LOW, HIGH = 0.5, 12.5  # the example's x = 1..12 as cells of width one


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


def random_design_expectations(n: int, degrees, fold_counts, designs: int, seed: int) -> pd.DataFrame:
    """Per candidate and k, averaged over random designs: E[CV_k] (with its Monte Carlo s.e. and its
    median over designs), s.d.(CV_k) over designs and noise, the expected error of the fit to n
    observations and to n - 1, and the pessimism of CV_k against the fit to n, percent.

    Draw order from ``default_rng(seed)``: ``designs`` rows of n uniform x, then as many of n - 1.
    """
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(LOW, HIGH, (designs, n)), axis=1)
    x_smaller = rng.uniform(LOW, HIGH, (designs, n - 1))
    rows = []
    for model, degree in zip(MODELS, degrees):
        features = _features(x, degree)
        full, full_se = mean_and_se(expected_errors(features, degree))
        smaller, smaller_se = mean_and_se(expected_errors(_features(x_smaller, degree), degree))
        for k in fold_counts:
            expectation, variance = cv_moments(features, k)
            mean, se = mean_and_se(expectation)
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
                }
            )
    return pd.DataFrame(rows)


# The sentences about k, each read on either design: x fixed as the example prints it
# (twelve_points_by_folds) or drawn with every observation (here). The document is given whichever
# reading favours it: a claim "holds on either design" when it holds on one of them.
EITHER_DESIGN = (
    "cv_mildly_pessimistic_at_example_k",
    "pessimism_vanishes_at_k_equals_n",
    "loo_more_variable_than_example_k",
    "example_k_trades_bias_for_steadiness",
)


def random_design_claims(table: pd.DataFrame, example_folds: int) -> list[tuple[str, bool, float, str]]:
    """The sentences of ``twelve_points_by_folds.fold_count_claims`` on random designs, same criteria.

    Where a candidate's errors have no finite mean (the degree-5 fit to 12 random points), no
    comparison of its expectations can favour the sentence: its percentages read as the Monte Carlo
    means they are, and the claim is decided by both candidates as before.
    """
    from cvsuite.studies.twelve_points_by_folds import MILD_PERCENT, VANISHING_PERCENT

    n = int(table["folds"].max())
    by_model = {model: part.set_index("folds") for model, part in table.groupby("model", sort=False)}
    at_k = {m: p.loc[example_folds] for m, p in by_model.items()}
    loo = {m: p.loc[n] for m, p in by_model.items()}
    pessimism_k = [r["pessimism_percent"] for r in at_k.values()]
    loo_pessimism = [abs(r["pessimism_percent"]) for r in loo.values()]
    sd_ratio = [loo[m]["cv_sd"] / at_k[m]["cv_sd"] for m in by_model]
    trades = [
        at_k[m]["pessimism_percent"] > loo[m]["pessimism_percent"] and at_k[m]["cv_sd"] < loo[m]["cv_sd"]
        for m in by_model
    ]
    line = MODELS[0]
    return [
        (
            "cv_mildly_pessimistic_at_example_k_random_x",
            all(0 < p < MILD_PERCENT for p in pessimism_k),
            float(at_k[line]["pessimism_percent"]),
            f"x drawn with each observation: E[CV_k] at the example's k exceeds the expected error of the fit to all n "
            f"by less than {MILD_PERCENT:g}% for both models; value: the line's pessimism, percent",
        ),
        (
            "pessimism_vanishes_at_k_equals_n_random_x",
            all(p < VANISHING_PERCENT for p in loo_pessimism),
            float(loo[line]["pessimism_percent"]),
            f"x drawn with each observation: leave-one-out's pessimism is below {VANISHING_PERCENT:g}% for both "
            "models; value: the line's, percent",
        ),
        (
            "loo_more_variable_than_example_k_random_x",
            all(r > 1 for r in sd_ratio),
            float(sd_ratio[0]),
            "x drawn with each observation: leave-one-out's CV has a larger s.d. than CV at the example's k, for both "
            "models; value: the line's ratio of s.d.s, leave-one-out over the example's k",
        ),
        (
            "example_k_trades_bias_for_steadiness_random_x",
            all(trades),
            float(sd_ratio[0]),
            "x drawn with each observation: at the example's k, more pessimism and a smaller s.d. than leave-one-out, "
            "for both models; value: the line's ratio of s.d.s, leave-one-out over the example's k",
        ),
    ]


def either_design_claims(claims: pd.DataFrame) -> list[tuple[str, bool, float, str]]:
    """Each sentence of ``EITHER_DESIGN`` holding on the fixed design or on random ones (the reading
    that favours the document); value: the fixed design's."""
    by_name = claims.set_index("claim")
    rows = []
    for name in EITHER_DESIGN:
        fixed, random = by_name.loc[name], by_name.loc[f"{name}_random_x"]
        rows.append(
            (
                f"{name}_either_design",
                bool(fixed["holds"]) or bool(random["holds"]),
                float(fixed["value"]),
                f"{name} with x fixed as printed, or with x drawn with each observation; value: the fixed design's",
            )
        )
    return rows
