"""Where held-out observations enter a fit: each leak's data flow, and a predictor recorded after the outcome.

"Estimating Out-of-Sample Error", A related failure with the same shape: "Any step fitted on all the
data before splitting leaks in the same way: scaling by the overall mean and standard deviation,
imputing with a column median, selecting variables by their correlation with the response. Each uses
held-out observations to shape the fit later evaluated on them" (``held_out_influence``); and the
shop's "A figure that reveals leakage", whose predictor is "recorded after the outcome it predicts"
(``target_leak``). On the design and the pipeline of ``cvsuite.studies.preprocessing_leak``.
Statistics only: the registry's records decide what they say.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.gaussian_regression import RegressionDesign, regression_sample, true_mse
from cvsuite.methods.folds import chunked_folds
from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.studies.preprocessing_leak import (
    _pipeline_cv_rows,
    fit_on_all,
    fit_ridge_on_selected,
    select_by_correlation,
)


def _fold_predictions(
    X, y, train, *, columns_from, centre_from, n_selected, ridge_penalty, selected=None
) -> np.ndarray:
    """The fold model's predictions at its own training rows (``X[train]`` as given): predictors
    selected on the rows ``columns_from`` (or the columns ``selected``) and centred and scaled on
    the rows ``centre_from``."""
    if selected is None:
        selected = select_by_correlation(X[columns_from], y[columns_from], n_selected)
    columns = X[:, selected]
    c, w = fit_ridge_on_selected(
        columns[train],
        y[train],
        centre_x=columns[centre_from].mean(axis=0),
        scale_x=columns[centre_from].std(axis=0),
        centre_y=y[centre_from].mean(),
        ridge_penalty=ridge_penalty,
    )
    return c + columns[train] @ w


def held_out_influence(
    X, y, folds, *, n_selected: int, ridge_penalty: float, missing_share: float, seed: int
) -> pd.DataFrame:
    """Whether a held-out observation shapes the fit later evaluated on it ("Each uses held-out
    observations to shape the fit later evaluated on them"), shown by computation: one observation of
    the first fold is moved far (its response, each predictor, and for imputation its value of the
    first predictor across that column's median), the first fold's model refitted on the same training
    rows, and its predictions there compared. Per step done on all the data before splitting
    (scaling, selection, imputing the first predictor's missing values with the column median) and
    for the honest pipeline (every step on the training folds): the largest change of a prediction.
    ``missing_share`` of the first predictor's values are missing for the imputation rows, chosen
    with ``default_rng(seed)`` among the observations other than the moved one."""
    n = len(y)
    fold = folds[0]
    train = np.ones(n, dtype=bool)
    train[fold] = False
    every = np.ones(n, dtype=bool)
    moved_row = int(fold[0])
    X_moved, y_moved = X.copy(), y.copy()
    X_moved[moved_row] += 10.0
    y_moved[moved_row] += 10.0
    fit = dict(n_selected=n_selected, ridge_penalty=ridge_penalty)
    settings = {
        "honest": dict(columns_from=train, centre_from=train),
        "scaling_before": dict(columns_from=train, centre_from=every),
        "selection_before": dict(columns_from=every, centre_from=train),
    }
    changes = {
        name: float(
            np.abs(
                _fold_predictions(X_moved, y_moved, train, **rows, **fit)
                - _fold_predictions(X, y, train, **rows, **fit)
            ).max()
        )
        for name, rows in settings.items()
    }
    # Imputation: missing values of one predictor the fold model uses (the first the training rows
    # select) filled with its median, over all the rows or over the training rows; the held-out
    # observation's own value of it is moved across that median.
    # The predictors stay those the training rows select before imputation: a column filled with a
    # constant correlates less, and a selection that dropped it would hide what its median does.
    chosen = select_by_correlation(X[train], y[train], n_selected)
    j = int(chosen[0])
    rng = np.random.default_rng(seed)
    others = np.setdiff1d(np.arange(n), [moved_row])
    missing = rng.choice(others, size=int(round(missing_share * n)), replace=False)
    present = np.setdiff1d(np.arange(n), missing)
    median_rows = {"imputation_before": present, "imputation_honest": np.intersect1d(present, np.flatnonzero(train))}
    across = 10.0 if X[moved_row, j] <= np.median(X[present, j]) else -10.0
    for name, median_from in median_rows.items():
        predictions = []
        for value in (X[moved_row, j], X[moved_row, j] + across):
            filled = X.copy()
            filled[moved_row, j] = value
            filled[missing, j] = np.median(filled[median_from, j])
            predictions.append(
                _fold_predictions(filled, y, train, columns_from=train, centre_from=train, selected=chosen, **fit)
            )
        changes[name] = float(np.abs(predictions[1] - predictions[0]).max())
    return pd.DataFrame(
        [
            {
                "step": name,
                "fitted_on": "all the data" if name.endswith("before") else "the training folds",
                "largest_prediction_change": change,
            }
            for name, change in changes.items()
        ]
    )


def target_leak(
    design: RegressionDesign,
    n: int,
    n_selected: int,
    ridge_penalty: float,
    *,
    n_folds: int,
    leak_noise_sd: float,
    n_datasets: int,
    first_seed: int,
) -> pd.DataFrame:
    """A predictor recorded after the outcome ("one predictor is the date of the customer's next
    visit, recorded after the outcome it predicts"): the response plus noise of s.d.
    ``leak_noise_sd``, added as one more column. Data set s (``default_rng(first_seed + s)``: the
    data and the leak, then the permutation of the folds): the honest pipeline's k-fold CV error with
    the leaked column among the candidates, and the exact error at prediction time of the pipeline
    fitted on all n, when the column is not yet recorded and stands at its training mean. Both less
    the noise variance no model clears, with their means and standard errors over the data sets."""
    cv_gap, later_gap = [], []
    for s in range(n_datasets):
        rng = np.random.default_rng(first_seed + s)
        X, y, b = regression_sample(n, design, rng)
        leaked = np.column_stack([X, y + leak_noise_sd * rng.standard_normal(n)])
        folds = chunked_folds(rng.permutation(n), n_folds)
        rows = _pipeline_cv_rows(
            leaked,
            y,
            folds,
            n_selected=n_selected,
            ridge_penalty=ridge_penalty,
            true_coefficients=np.append(b, 0.0),
            noise_sd=design.noise_sd,
        )
        cv_gap.append(next(r["cv_mse"] for r in rows if r["pipeline"] == "honest") - design.noise_sd**2)
        selected, c, w = fit_on_all(leaked, y, n_selected, ridge_penalty)
        is_leak = selected == leaked.shape[1] - 1
        # Not yet recorded at prediction time: the leaked column at its training mean, a constant.
        intercept = c + float(w[is_leak] @ np.full(int(is_leak.sum()), leaked[:, -1].mean()))
        later = true_mse(intercept, selected[~is_leak], w[~is_leak], b, design.noise_sd)
        later_gap.append(later - design.noise_sd**2)
    row = {"sample_size": n, "datasets": n_datasets, "leak_noise_sd": leak_noise_sd}
    row["cv_mse_minus_noise_variance"], row["cv_mse_minus_noise_variance_se"] = mean_and_se(cv_gap)
    row["prediction_time_mse_minus_noise_variance"], row["prediction_time_mse_minus_noise_variance_se"] = mean_and_se(
        later_gap
    )
    return pd.DataFrame([row])
