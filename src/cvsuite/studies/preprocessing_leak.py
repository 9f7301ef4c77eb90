"""Scaling inside the fold loop against scaling before it, and selection before it.

"Estimating Out-of-Sample Error", Scaling inside the fold loop against scaling before it: "Centre
and scale using the whole dataset, and each training fit has used the held-out fold's mean. The
leak is small for a mean over many observations and can be large for a variable-selection step on
few." And, in the warning on selection: "Variable selection on the full dataset is the most
damaging, because it can produce a respectable cross-validation score from predictors that are
pure noise." The procedure block's step 4 is the honest reference: "Every step of fitting,
including any scaling, imputation or variable selection, must happen inside this loop, using only
the k-1 training folds."

The pipeline: choose the ``n_selected`` predictors of largest absolute correlation with the
response; centre the response and centre and scale the chosen predictors; ridge regression (no
intercept: the centring is the intercept). Each of the two preprocessing steps is fitted either on
the training folds (inside) or on all n observations (before). With x ~ N(0, I) and
y = x . b + noise (``cvsuite.data.gaussian_regression``), the true error of a fitted model
f(x) = c + x . w is exactly noise_sd^2 + c^2 + ||w - b||^2, so no test sample is needed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.gaussian_regression import RegressionDesign, nested_regression_samples, true_mse
from cvsuite.methods.folds import chunked_folds
from cvsuite.methods.monte_carlo import mean_and_se, standard_error

# pipeline name -> (centre and scale on all data, select on all data)
PIPELINES = {
    "honest": (False, False),
    "scaling_before": (True, False),
    "selection_before": (False, True),
}


def select_by_correlation(X: np.ndarray, y: np.ndarray, n_selected: int) -> np.ndarray:
    """The ``n_selected`` columns of largest |correlation| with y, in column order; ties go to the lower index."""
    return select_from_sums(correlation_sums(X, y), n_selected)


def correlation_sums(X, y) -> tuple:
    """The sufficient statistics of every column's correlation with y: (n, sum x, sum x^2, sum xy, sum y).

    Those of a training set are the data set's minus the held-out fold's, which saves copying the
    training rows of X per fold.
    """
    return (len(y), X.sum(axis=0), np.einsum("ij,ij->j", X, X), X.T @ y, y.sum())


def select_from_sums(sums: tuple, n_selected: int) -> np.ndarray:
    """``select_by_correlation`` from ``correlation_sums`` instead of the data."""
    n, sx, sxx, sxy, sy = sums
    if not 1 <= n_selected <= len(sx):
        raise ValueError(f"n_selected must lie between 1 and the number of predictors {len(sx)}, got {n_selected}")
    spread = np.sqrt(np.maximum(sxx - sx**2 / n, 0.0))
    # |corr| up to the factor 1/||y - ybar||, common to every column
    strength = np.abs(sxy - sx * sy / n) / np.where(spread > 0, spread, np.inf)
    # The n_selected-th largest strength, then everything above it and, among equals, the lowest
    # indices: a stable descending sort's first n_selected, without sorting all p columns.
    kth = np.partition(strength, len(strength) - n_selected)[len(strength) - n_selected]
    above, equal = np.flatnonzero(strength > kth), np.flatnonzero(strength == kth)
    return np.sort(np.concatenate([above, equal[: n_selected - len(above)]]))


def fit_ridge_on_selected(X_selected, y, *, centre_x, scale_x, centre_y, ridge_penalty: float):
    """Ridge on the standardised chosen columns; returns (c, w) with the prediction c + x[selected] . w.

    ``X_selected`` holds the training rows of the chosen columns only. The standardisation uses
    the given centres and scales, wherever they were computed (that is the leak under study).
    """
    Z = (X_selected - centre_x) / scale_x
    beta = np.linalg.solve(Z.T @ Z + ridge_penalty * np.eye(Z.shape[1]), Z.T @ (y - centre_y))
    w = beta / scale_x
    return float(centre_y - centre_x @ w), w


def fit_on_all(X, y, n_selected: int, ridge_penalty: float):
    """The pipeline fitted on every observation (the model one would ship): the selected columns and
    the (c, w) of ``fit_ridge_on_selected``, every step on all the rows."""
    selected = select_by_correlation(X, y, n_selected)
    columns = X[:, selected]
    c, w = fit_ridge_on_selected(
        columns,
        y,
        centre_x=columns.mean(axis=0),
        scale_x=columns.std(axis=0),
        centre_y=y.mean(),
        ridge_penalty=ridge_penalty,
    )
    return selected, c, w


def pipeline_cv(
    X, y, folds, *, n_selected: int, ridge_penalty: float, true_coefficients, noise_sd: float
) -> pd.DataFrame:
    """K-fold CV of the pipeline with each step inside or before the loop: one row per pipeline.

    Columns: pipeline, cv_mse (squared error pooled over held-out observations), cv_std_error (the
    s.d. of the fold losses over sqrt(K), what step 5 of the procedure reports), fold_models_true_mse
    (the exact error of the K fitted models, weighted like cv_mse) and optimism (that minus cv_mse).
    """
    return pd.DataFrame(
        _pipeline_cv_rows(
            X,
            y,
            folds,
            n_selected=n_selected,
            ridge_penalty=ridge_penalty,
            true_coefficients=true_coefficients,
            noise_sd=noise_sd,
        )
    )


def _pipeline_cv_rows(X, y, folds, *, n_selected, ridge_penalty, true_coefficients, noise_sd) -> list[dict]:
    n = len(y)
    total = correlation_sums(X, y)
    # Selection inside the loop is the same for the honest and the scaling-before pipelines (the
    # correlation ignores centring and scale), so it is made once per fold.
    selected_all = select_from_sums(total, n_selected)
    columns_all = X[:, selected_all]
    losses = {name: [] for name in PIPELINES}
    truths = {name: [] for name in PIPELINES}
    sizes = np.array([len(f) for f in folds])
    for fold in folds:
        train = np.ones(n, dtype=bool)
        train[fold] = False
        held = correlation_sums(X[fold], y[fold])
        selected_inside = select_from_sums(tuple(t - h for t, h in zip(total, held)), n_selected)
        columns_inside = X[:, selected_inside]
        for name, (scale_before, select_before) in PIPELINES.items():
            selected, columns = (selected_all, columns_all) if select_before else (selected_inside, columns_inside)
            chosen, centre_y = (columns, y.mean()) if scale_before else (columns[train], y[train].mean())
            c, w = fit_ridge_on_selected(
                columns[train],
                y[train],
                centre_x=chosen.mean(axis=0),
                scale_x=chosen.std(axis=0),
                centre_y=centre_y,
                ridge_penalty=ridge_penalty,
            )
            losses[name].append(np.mean((y[fold] - c - columns[fold] @ w) ** 2))
            truths[name].append(true_mse(c, selected, w, true_coefficients, noise_sd))
    rows = []
    for name in PIPELINES:
        fold_losses = np.array(losses[name])
        cv = float(fold_losses @ sizes / sizes.sum())
        truth = float(np.array(truths[name]) @ sizes / sizes.sum())
        rows.append(
            {
                "pipeline": name,
                "cv_mse": cv,
                "cv_std_error": standard_error(fold_losses),
                "fold_models_true_mse": truth,
                "optimism": truth - cv,
            }
        )
    return rows


def simulate_leaks(
    sample_sizes,
    design: RegressionDesign,
    n_selected: int,
    ridge_penalty: float,
    *,
    n_folds: int,
    n_datasets: int,
    first_seed: int,
) -> pd.DataFrame:
    """Per sample size and data set, each pipeline's CV estimate, true error and optimism.

    The pipeline keeps the ``n_selected`` predictors most correlated with the response and fits
    ridge regression with ``ridge_penalty``; it is cross-validated with ``n_folds`` folds.

    Data set s at every sample size is drawn with ``default_rng(first_seed + s)``: the data (see
    ``regression_sample``), then one permutation of the n observations cut by
    ``numpy.array_split`` into the K folds. Also records the error of the pipeline fitted on all n
    (the model one would ship; the same for every pipeline) as ``full_fit_true_mse``.
    """
    for n in sample_sizes:
        if n_folds > n:
            raise ValueError(f"{n_folds} folds need at least {n_folds} observations, sample size {n} has fewer")
    rows = {n: [] for n in sample_sizes}
    for s in range(n_datasets):
        # Every sample size's data set s in one pass over the seed's stream (nested_regression_samples).
        samples = nested_regression_samples(sample_sizes, design, np.random.default_rng(first_seed + s))
        for n, (X, y, b, rng) in zip(sample_sizes, samples):
            folds = chunked_folds(rng.permutation(n), n_folds)
            selected, c, w = fit_on_all(X, y, n_selected, ridge_penalty)
            full_fit = true_mse(c, selected, w, b, design.noise_sd)
            cv_rows = _pipeline_cv_rows(
                X,
                y,
                folds,
                n_selected=n_selected,
                ridge_penalty=ridge_penalty,
                true_coefficients=b,
                noise_sd=design.noise_sd,
            )
            for row in cv_rows:
                rows[n].append({"sample_size": int(n), "dataset": s, **row, "full_fit_true_mse": full_fit})
    return pd.DataFrame([row for n in sample_sizes for row in rows[n]])


def leak_summary(runs: pd.DataFrame, noise_sd: float) -> pd.DataFrame:
    """Per sample size and pipeline: mean CV estimate, true error, optimism and leak, with MC SEs.

    The leak is the honest CV estimate minus this pipeline's, data set by data set (0 for honest).
    Percentages are of the mean true error of the honest fold models.
    """
    rows = []
    for n, at_n in runs.groupby("sample_size", sort=True):
        honest = at_n[at_n["pipeline"] == "honest"].set_index("dataset")
        reference = honest["fold_models_true_mse"].mean()
        for name in PIPELINES:
            mine = at_n[at_n["pipeline"] == name].set_index("dataset").loc[honest.index]
            row = {"sample_size": int(n), "pipeline": name, "datasets": len(mine)}
            for col in ("cv_mse", "fold_models_true_mse", "optimism", "full_fit_true_mse"):
                row[col], row[f"{col}_se"] = mean_and_se(mine[col])
            row["leak"], row["leak_se"] = mean_and_se(honest["cv_mse"] - mine["cv_mse"])
            row["optimism_percent"], row["optimism_percent_se"] = (
                100 * row["optimism"] / reference,
                100 * row["optimism_se"] / reference,
            )
            row["leak_percent"], row["leak_percent_se"] = (
                100 * row["leak"] / reference,
                100 * row["leak_se"] / reference,
            )
            row["cv_std_error"] = float(mine["cv_std_error"].mean())
            row["leak_in_honest_cv_std_errors"] = row["leak"] / honest["cv_std_error"].mean()
            row["noise_variance"] = noise_sd**2
            rows.append(row)
    return pd.DataFrame(rows)


def noise_floor(runs: pd.DataFrame, noise_sd: float) -> dict:
    """What bounds every model's true error ("Because sigma^2 enters every model's test error
    identically, it bounds expected error from below"): the smallest exact true error over every
    data set, sample size and pipeline, of the fold models and of the full fits, and its distance
    above noise_sd^2 (at least 0 if the noise variance is the floor)."""
    smallest = float(min(runs["fold_models_true_mse"].min(), runs["full_fit_true_mse"].min()))
    return {"smallest_true_mse": smallest, "smallest_true_mse_minus_noise_variance": smallest - noise_sd**2}


def leaks_at_sample_size(
    runs: pd.DataFrame,
    summary: pd.DataFrame,
    design: RegressionDesign,
    sample_size: int,
    n_selected: int,
) -> pd.DataFrame:
    """The leak of each step at ``sample_size``, one row: estimates, optimism and leaks with MC SEs.

    ``design`` gives the number of predictors and whether they are pure noise; ``n_selected`` is
    the number the pipeline keeps; ``runs`` the data sets' rows, for the paired differences.

    The leak of a pipeline is the honest CV estimate minus its own, data set by data set. Each leak,
    and the honest optimism, is also given in units of the standard error the honest CV reports
    itself (step 5: the s.d. of the fold losses over sqrt(k), averaged over data sets), the scale on
    which a leak hides inside the figure's own error bar or moves it by more; the selection leak
    minus the scaling leak is paired by data set; and the selection-before CV error is given against
    the noise variance, the floor no model of pure noise clears. Statistics only.
    """
    at_n = summary[summary["sample_size"] == sample_size].set_index("pipeline")
    if at_n.empty:
        raise ValueError(f"sample size {sample_size} is not among the simulated ones")
    honest, scaling, selection = at_n.loc["honest"], at_n.loc["scaling_before"], at_n.loc["selection_before"]
    reported_se = honest["cv_std_error"]
    noise_variance = honest["noise_variance"]
    row = {
        "sample_size": int(sample_size),
        "predictors": int(design.n_predictors),
        "selected": int(n_selected),
        "pure_noise": design.pure_noise,
        "datasets": int(honest["datasets"]),
        "noise_variance": noise_variance,
        "honest_cv_std_error": reported_se,
        "truth_mse": honest["fold_models_true_mse"],
        "truth_mse_se": honest["fold_models_true_mse_se"],
    }
    for label, r in (("honest", honest), ("scaling", scaling), ("selection", selection)):
        row[f"{label}_cv_mse"], row[f"{label}_cv_mse_se"] = r["cv_mse"], r["cv_mse_se"]
        row[f"{label}_optimism"], row[f"{label}_optimism_se"] = r["optimism"], r["optimism_se"]
    for label, r in (("scaling", scaling), ("selection", selection)):
        row[f"{label}_leak"], row[f"{label}_leak_se"] = r["leak"], r["leak_se"]
        row[f"{label}_leak_percent"], row[f"{label}_leak_percent_se"] = r["leak_percent"], r["leak_percent_se"]
        row[f"{label}_leak_in_reported_se"] = r["leak"] / reported_se
    for label, r in (("scaling", scaling), ("selection", selection)):
        row[f"{label}_leak_in_reported_se_se"] = r["leak_se"] / reported_se
    at_runs = runs[runs["sample_size"] == sample_size]
    cv = {name: at_runs[at_runs["pipeline"] == name].set_index("dataset")["cv_mse"] for name in PIPELINES}
    # (honest - selection) - (honest - scaling), data set by data set
    row["selection_minus_scaling_leak"], row["selection_minus_scaling_leak_se"] = mean_and_se(
        cv["scaling_before"] - cv["selection_before"].loc[cv["scaling_before"].index]
    )
    row["honest_optimism_in_reported_se"] = honest["optimism"] / reported_se
    row["honest_optimism_in_reported_se_se"] = honest["optimism_se"] / reported_se
    row["selection_cv_minus_noise_variance"] = selection["cv_mse"] - noise_variance
    row["selection_cv_minus_noise_variance_se"] = selection["cv_mse_se"]
    row["selection_cv_mse_over_noise_variance"] = selection["cv_mse"] / noise_variance
    return pd.DataFrame([row])
