"""What CV_k estimates, on the worked example's own design: "Estimating Out-of-Sample Error".

The document says CV_k estimates "the error of the procedure applied to training sets of size about
n(k-1)/k", that "for small n ... the estimate is mildly pessimistic", "A bias that shrinks as k grows
and vanishes at k=n", that leave-one-out "estimates the error of the model actually being fitted" while
its "held-out losses [are] strongly dependent and their average more variable", and that "Five or ten
folds trade a little bias for a steadier estimate".

On the worked example's design (x = 1..12, the line and the degree-5 polynomial, folds by position)
with fresh data y = a + b x + e, e ~ N(0, s^2), these are exact: both models contain the line, so
each held-out residual is a linear map of e alone, CV_k is a quadratic form e'Ae with E = s^2 tr(A)
and Var = 2 s^4 tr(A^2), and the error of the model fitted to all n observations on a new observation
at one of the design's x is s^2 (1 + p/n). Every figure below is in units of s^2 (so it depends on
neither the recovered table nor the noise level) for each k that divides n into folds the polynomial
can be fitted without. The tables hold the statistics; the registry's records decide what the
sentences say of them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import MODELS, Convention, Design, residual_operators, statistics_from_sums
from cvsuite.methods.folds import fold_size_range, positional_folds

FIXED_DESIGN = "fixed"  # x fixed at the example's 1..n, as printed (``against_leave_one_out``'s design column)


def unequal_fold_counts(n: int, largest_degree: int) -> list[int]:
    """The k (2..n-1) that do not split n observations into equal folds (step 3's "roughly equal
    size") and leave at least largest_degree + 1 to fit."""
    return [k for k in range(2, n) if n % k and fold_size_range(n, k)["train_size_min"] >= largest_degree + 1]


def equal_fold_counts(n: int, largest_degree: int) -> list[int]:
    """The k (2..n) that split n observations into equal folds leaving at least largest_degree + 1 to fit."""
    return [k for k in range(2, n + 1) if n % k == 0 and n - n // k >= largest_degree + 1]


def cv_quadratic_forms(design: Design, convention: Convention) -> np.ndarray:
    """The matrices A_m with CV_k of model m = y' A_m y, shape (M, n, n).

    CV is linear in the residual sums of squares (``statistics_from_sums``), so its coefficients are
    read off by applying the convention to each unit sum, and A_m is the same combination of the sums'
    own quadratic forms.
    """
    forms = design.forms()  # (M, 1 + K, n, n)
    return np.einsum("im,mijk->mjk", _cv_coefficients(design, convention, forms.shape[1]), forms)


def cv_form_traces(design: Design, convention: Convention) -> np.ndarray:
    """tr(A_m) of ``cv_quadratic_forms``, per model, from the forms' diagonals alone: the same einsum
    terms summed in the same order, so the same bits, without the combined n x n matrices (at
    n = 1200, a quarter of a second)."""
    forms = design.forms()
    diagonals = np.einsum("im,mijj->mj", _cv_coefficients(design, convention, forms.shape[1]), forms)
    return np.array([np.sum(d) for d in diagonals])


def _cv_coefficients(design: Design, convention: Convention, parts: int) -> np.ndarray:
    """CV's coefficient on each residual sum of squares (training, then each fold), per model: (parts, M)."""
    models = len(design.degrees)
    unit = np.zeros((parts, models, parts))
    for i in range(parts):
        unit[i, :, i] = 1.0
    return statistics_from_sums(unit, design, convention)["cv"]


def expectations_by_folds(x, degrees, fold_counts, convention: Convention, *, spread: bool = True) -> pd.DataFrame:
    """Per model and k: fold and training sizes, fits, E[CV_k] and s.d.(CV_k), the full-sample error
    and the pessimism E[CV_k] / full-sample error - 1 (as a fraction, and in percent), the expected
    training error (1 - p/n: the fit's agreement with the noise takes p/n of it) and E[CV_k] over it;
    all in units of the noise variance. ``spread=False`` leaves s.d.(CV_k) out (NaN), the one figure
    that needs a product of two n x n matrices."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    rows = []
    for k in fold_counts:
        design = Design(x, tuple(degrees), tuple(positional_folds(n, k)))
        if spread:
            forms = cv_quadratic_forms(design, convention)
            expectations = [float(np.trace(form)) for form in forms]
            sds = [float(np.sqrt(2 * np.trace(form @ form))) for form in forms]
        else:
            expectations, sds = [float(trace) for trace in cv_form_traces(design, convention)], [np.nan] * len(degrees)
        training_forms = design.forms()[:, 0]
        for m, (model, degree) in enumerate(zip(MODELS, degrees)):
            expected, sd = expectations[m], sds[m]
            parameters = n - float(np.trace(training_forms[m]))  # trace of the hat matrix
            full_sample = 1 + parameters / n
            sizes = design.fold_sizes
            rows.append(
                {
                    "model": model,
                    "degree": int(degree),
                    "folds": int(k),
                    "fold_size": int(sizes.max()),
                    "training_size": int(n - sizes.max()),
                    "training_size_formula": n * (k - 1) / k,
                    "fits": len(design.folds),
                    "expected_cv": expected,
                    "cv_sd": sd,
                    "full_sample_error": full_sample,
                    "pessimism_percent": 100 * (expected / full_sample - 1),
                    "pessimism": expected / full_sample - 1,
                    # E[RSS / n]: the noise less the share the fit absorbs, an identity of least squares
                    "expected_training_error": 1 - parameters / n,
                    "expected_cv_over_training": expected / (1 - parameters / n),
                }
            )
    return pd.DataFrame(rows)


AGAINST_LOO_COLUMNS = [
    "design",
    "model",
    "folds",
    "pessimism",
    "pessimism_se",
    "loo_pessimism",
    "loo_pessimism_se",
    "pessimism_minus_loo",
    "pessimism_minus_loo_se",
    "cv_sd",
    "loo_cv_sd",
    "loo_minus_k_cv_sd",
    "loo_minus_k_cv_sd_se",
]


RANDOM_FOLDS_COLUMNS = [
    "model",
    "folds",
    "partitions",
    "pessimism",
    "pessimism_se",
    "loo_pessimism",
    "pessimism_minus_loo",
    "pessimism_minus_loo_se",
    "cv_sd",
    "cv_sd_se",
    "loo_cv_sd",
    "loo_minus_k_cv_sd",
    "loo_minus_k_cv_sd_se",
]


def random_folds_against_leave_one_out(
    x, degrees, fold_counts, partitions: int, seed: int, convention: Convention
) -> pd.DataFrame:
    """Each k against leave-one-out with the folds "of roughly equal size, assigned at random"
    (procedure step 3) rather than by position, on the example's fixed design.

    Over random partitions P and fresh noise, E[CV_k] = E_P[tr A_P] and Var(CV_k) = E_P[2 tr(A_P^2) +
    (tr A_P)^2] - (E_P[tr A_P])^2, A_P the quadratic form of CV_k on partition P (in units of the
    noise variance, as ``expectations_by_folds``); the partitions are drawn with a seeded generator
    and their Monte Carlo standard errors (delta method for the s.d.) are given. Leave-one-out has
    one partition, so its figures are exact."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    for k in fold_counts:
        if not 2 <= k < n or fold_size_range(n, k)["train_size_min"] < max(degrees) + 1:
            raise ValueError(
                f"random folds: k = {k} must be 2..{n - 1} and leave {max(degrees) + 1} observations to fit a "
                f"degree-{max(degrees)} polynomial (twelve_points.random_fold_counts)"
            )
    loo = expectations_by_folds(x, degrees, [n], convention).set_index("model")
    rng = np.random.default_rng(seed)
    rows = []
    for k in fold_counts:
        moments = np.zeros((partitions, len(degrees), 2))
        for p in range(partitions):
            order = rng.permutation(n)
            folds = tuple(np.sort(order[fold]) for fold in positional_folds(n, k))
            forms = cv_quadratic_forms(Design(x, tuple(degrees), folds), convention)
            traces = np.trace(forms, axis1=1, axis2=2)
            moments[p, :, 0] = traces
            moments[p, :, 1] = 2 * np.einsum("mij,mji->m", forms, forms) + traces**2
        for m, model in enumerate(MODELS[: len(degrees)]):
            first, second = moments[:, m, 0], moments[:, m, 1]
            mean1, mean2 = first.mean(), second.mean()
            sd = float(np.sqrt(mean2 - mean1**2))
            covariance = np.cov(np.vstack([first, second])) / partitions
            gradient = np.array([-2 * mean1, 1.0]) / (2 * sd)  # d sd / d (mean1, mean2)
            sd_se = float(np.sqrt(gradient @ covariance @ gradient))
            full = float(loo.loc[model, "full_sample_error"])
            pessimism, pessimism_se = mean1 / full - 1, first.std(ddof=1) / np.sqrt(partitions) / full
            rows.append(
                {
                    "model": model,
                    "folds": int(k),
                    "partitions": int(partitions),
                    "pessimism": float(pessimism),
                    "pessimism_se": float(pessimism_se),
                    "loo_pessimism": float(loo.loc[model, "pessimism"]),
                    "pessimism_minus_loo": float(pessimism - loo.loc[model, "pessimism"]),
                    "pessimism_minus_loo_se": float(pessimism_se),
                    "cv_sd": sd,
                    "cv_sd_se": sd_se,
                    "loo_cv_sd": float(loo.loc[model, "cv_sd"]),
                    "loo_minus_k_cv_sd": float(loo.loc[model, "cv_sd"] - sd),
                    "loo_minus_k_cv_sd_se": sd_se,
                }
            )
    return pd.DataFrame(rows, columns=RANDOM_FOLDS_COLUMNS)


def pessimism_by_sample_size(sizes, degrees, n_folds: int, convention: Convention) -> pd.DataFrame:
    """CV_k's pessimism on the example's design stretched to n observations (x = 1..n, folds by
    position), per model and n: "For large n the distinction is immaterial" ("Notes: What CV_k
    estimates, precisely"). Exact (``expectations_by_folds`` at one k), in units of the noise
    variance; the n that k does not divide are refused."""
    tables = []
    for n in sizes:
        if n % n_folds:
            raise ValueError(f"{n_folds} folds do not split {n} observations equally")
        x = np.arange(1, n + 1, dtype=float)
        table = expectations_by_folds(x, degrees, [n_folds], convention, spread=False)
        tables.append(table.assign(n=int(n)))
    columns = ["n", "model", "degree", "folds", "training_size", "expected_cv", "full_sample_error", "pessimism"]
    return pd.concat(tables, ignore_index=True)[columns]


def against_leave_one_out(table: pd.DataFrame) -> pd.DataFrame:
    """Each k below n against leave-one-out (k = n), per model, from ``expectations_by_folds``: the
    two pessimisms and the bias k gives up (its pessimism minus leave-one-out's), the two s.d.s of
    CV and leave-one-out's minus k's (above zero: leave-one-out the more variable). Exact on the
    fixed design, so every standard error is 0; ``design`` is FIXED_DESIGN."""
    n = int(table["folds"].max())
    if int(table["training_size"].max()) != n - 1:
        raise ValueError(f"comparing with leave-one-out needs k = n = {n} among the fold counts")
    rows = []
    for model, part in table.groupby("model", sort=False):
        by_k = part.set_index("folds")
        loo = by_k.loc[n]
        for k, row in by_k.drop(index=n).iterrows():
            rows.append(
                {
                    "design": FIXED_DESIGN,
                    "model": model,
                    "folds": int(k),
                    "pessimism": float(row["pessimism"]),
                    "pessimism_se": 0.0,
                    "loo_pessimism": float(loo["pessimism"]),
                    "loo_pessimism_se": 0.0,
                    "pessimism_minus_loo": float(row["pessimism"] - loo["pessimism"]),
                    "pessimism_minus_loo_se": 0.0,
                    "cv_sd": float(row["cv_sd"]),
                    "loo_cv_sd": float(loo["cv_sd"]),
                    "loo_minus_k_cv_sd": float(loo["cv_sd"] - row["cv_sd"]),
                    "loo_minus_k_cv_sd_se": 0.0,
                }
            )
    return pd.DataFrame(rows, columns=AGAINST_LOO_COLUMNS)


def loo_training_overlap(n: int) -> int:
    """The observations two leave-one-out training sets share: n - 2 of their n - 1 ('overlap in all
    but one observation'), the smallest over every pair."""
    training = [np.setdiff1d(np.arange(n), fold) for fold in positional_folds(n, n)]
    return min(len(np.intersect1d(a, b)) for i, a in enumerate(training) for b in training[i + 1 :])


LOSS_DEPENDENCE_COLUMNS = [
    "model",
    "folds",
    "cv_sd",
    "independent_losses_cv_sd",
    "dependence_variance_increase",
    "mean_loss_correlation",
    "largest_loss_correlation",
    "mean_abs_residual_correlation",
]


def leave_one_out_loss_dependence(x, degrees) -> pd.DataFrame:
    """How much the dependence of leave-one-out's held-out losses adds to the variance of their
    average, per model, on a fixed design: "making the held-out losses strongly dependent and their
    average more variable" ("Contrasts: k=5 against k=n").

    Each held-out residual is a linear map a_i'e of the noise (both models contain the line), so the
    losses (a_i'e)^2 have Var = 2 |a_i|^4 and Cov = 2 (a_i'a_j)^2 in units of s^4. Leave-one-out's
    average has variance (2/n^2) sum_ij (a_i'a_j)^2; were the same losses independent it would be
    (2/n^2) sum_i |a_i|^4. The table gives both s.d.s (in noise variances), the variance the
    covariances add as a fraction of the independent one, the losses' mean and largest pairwise
    correlation, and the mean absolute correlation of the held-out residuals themselves (whose square
    is the losses'). Exact, so no standard errors."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    rows = []
    for model, degree in zip(MODELS, degrees):
        _, held_out = residual_operators(x, degree, positional_folds(n, n))
        inner = np.vstack(held_out) @ np.vstack(held_out).T  # a_i'a_j
        covariance = 2 * inner**2
        variances = np.diag(covariance)
        correlation = covariance / np.sqrt(np.outer(variances, variances))
        off_diagonal = ~np.eye(n, dtype=bool)
        pairs = correlation[off_diagonal]
        norms = np.sqrt(np.diag(inner))
        residual_correlation = np.abs(inner / np.outer(norms, norms))[off_diagonal]
        rows.append(
            {
                "model": model,
                "folds": n,
                "cv_sd": float(np.sqrt(covariance.sum()) / n),
                "independent_losses_cv_sd": float(np.sqrt(variances.sum()) / n),
                "dependence_variance_increase": float(covariance.sum() / variances.sum() - 1),
                "mean_loss_correlation": float(pairs.mean()),
                "largest_loss_correlation": float(pairs.max()),
                "mean_abs_residual_correlation": float(residual_correlation.mean()),
            }
        )
    return pd.DataFrame(rows, columns=LOSS_DEPENDENCE_COLUMNS)
