import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import Ridge

from cvsuite.data.gaussian_regression import RegressionDesign, regression_sample
from cvsuite.studies.preprocessing_leak import (
    correlation_sums,
    fit_ridge_on_selected,
    leak_summary,
    leaks_at_sample_size,
    pipeline_cv,
    select_by_correlation,
    select_from_sums,
    simulate_leaks,
)


def pure_noise(n_predictors):
    return RegressionDesign(n_predictors=n_predictors, signal_predictors=0, signal_coefficient=0.0, noise_sd=1.0)


def leak_arguments(sample_size, *, pure_noise):
    signal = (0, 0.0) if pure_noise else (3, 0.3)
    return RegressionDesign(1000, *signal, 1.0), sample_size, 10


def _select_by_hand(X, y, n_selected):
    corr = np.array([abs(np.corrcoef(X[:, j], y)[0, 1]) for j in range(X.shape[1])])
    return np.sort(np.argsort(-corr, kind="stable")[:n_selected])


def _fit_by_hand(X_train, y_train, centre_rows, centre_y, ridge_penalty):
    """scikit-learn's Ridge, no intercept, on columns standardised with ``centre_rows``' mean and s.d.;
    returns the prediction function."""
    mean, sd = centre_rows.mean(axis=0), centre_rows.std(axis=0)
    model = Ridge(alpha=ridge_penalty, fit_intercept=False).fit((X_train - mean) / sd, y_train - centre_y)
    return lambda X_new: centre_y + ((X_new - mean) / sd) @ model.coef_


def _pipelines_by_hand(X, y, folds, n_selected, ridge_penalty):
    """Each pipeline's pooled held-out squared error, each step fitted where the pipeline says."""
    n = len(y)
    on_all = _select_by_hand(X, y, n_selected)
    squared = {"honest": [], "scaling_before": [], "selection_before": []}
    for fold in folds:
        train = np.setdiff1d(np.arange(n), fold)
        inside = _select_by_hand(X[train], y[train], n_selected)
        fits = {
            "honest": (inside, X[train][:, inside], y[train].mean()),
            "scaling_before": (inside, X[:, inside], y.mean()),
            "selection_before": (on_all, X[train][:, on_all], y[train].mean()),
        }
        for name, (cols, centre_rows, centre_y) in fits.items():
            predict = _fit_by_hand(X[train][:, cols], y[train], centre_rows, centre_y, ridge_penalty)
            squared[name].extend((y[fold] - predict(X[fold][:, cols])) ** 2)
    return {name: np.mean(values) for name, values in squared.items()}


def test_selection_keeps_the_columns_of_largest_absolute_correlation():
    X, y, _ = regression_sample(40, pure_noise(60), np.random.default_rng(0))
    assert select_by_correlation(X, y, 7).tolist() == _select_by_hand(X, y, 7).tolist()


def test_selection_ties_go_to_the_lower_column():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(20)
    y = x + 0.1 * rng.standard_normal(20)
    X = np.column_stack([rng.standard_normal(20), x, rng.standard_normal(20), x])
    assert select_by_correlation(X, y, 1).tolist() == [1]


def test_training_set_sums_give_the_selection_made_on_the_training_rows():
    X, y, _ = regression_sample(50, pure_noise(200), np.random.default_rng(2))
    fold = np.arange(10, 20)
    train = np.setdiff1d(np.arange(50), fold)
    held = correlation_sums(X[fold], y[fold])
    by_difference = select_from_sums(tuple(t - h for t, h in zip(correlation_sums(X, y), held)), 5)
    assert by_difference.tolist() == _select_by_hand(X[train], y[train], 5).tolist()


def test_selection_refuses_more_columns_than_there_are():
    with pytest.raises(ValueError, match="between 1 and the number of predictors 3"):
        select_by_correlation(np.ones((5, 3)), np.arange(5.0), 4)


def test_unpenalised_fit_on_training_centres_is_least_squares_with_an_intercept():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 3))
    y = 2 + X @ np.array([1.0, -0.5, 0.2]) + rng.standard_normal(30)
    c, w = fit_ridge_on_selected(
        X, y, centre_x=X.mean(axis=0), scale_x=X.std(axis=0), centre_y=y.mean(), ridge_penalty=0.0
    )
    coef = np.linalg.lstsq(np.column_stack([np.ones(30), X]), y, rcond=None)[0]
    assert c == pytest.approx(coef[0])
    assert np.allclose(w, coef[1:])


def test_each_pipeline_fits_its_steps_on_the_rows_it_says():
    rng = np.random.default_rng(6)
    X, y, b = regression_sample(30, pure_noise(40), rng)
    folds = np.array_split(rng.permutation(30), 3)
    table = pipeline_cv(X, y, folds, n_selected=4, ridge_penalty=1.0, true_coefficients=b, noise_sd=1.0)
    by_hand = _pipelines_by_hand(X, y, folds, 4, 1.0)
    for name, cv_mse in table.set_index("pipeline")["cv_mse"].items():
        assert cv_mse == pytest.approx(by_hand[name], rel=1e-9), name


def test_data_set_s_is_drawn_from_first_seed_plus_s_data_then_folds():
    runs = simulate_leaks([30], pure_noise(40), 4, 1.0, n_folds=3, n_datasets=2, first_seed=5)
    rng = np.random.default_rng(6)
    X = rng.standard_normal((30, 40))
    y = rng.standard_normal(30)
    folds = np.array_split(rng.permutation(30), 3)
    mine = runs[runs["dataset"] == 1].set_index("pipeline")
    for name, cv_mse in _pipelines_by_hand(X, y, folds, 4, 1.0).items():
        assert mine.loc[name, "cv_mse"] == pytest.approx(cv_mse, rel=1e-9), name
    # The model fitted on all 30: noise variance + intercept^2 + ||w||^2 (every true coefficient is 0).
    cols = _select_by_hand(X, y, 4)
    mean, sd = X[:, cols].mean(axis=0), X[:, cols].std(axis=0)
    w = Ridge(alpha=1.0, fit_intercept=False).fit((X[:, cols] - mean) / sd, y - y.mean()).coef_ / sd
    full_fit = 1.0 + (y.mean() - mean @ w) ** 2 + np.sum(w**2)
    assert mine["full_fit_true_mse"].to_numpy() == pytest.approx([full_fit] * 3, rel=1e-9)


def test_selection_before_the_loop_scores_pure_noise_below_its_noise_variance():
    runs = simulate_leaks([30], pure_noise(300), 5, 1.0, n_folds=5, n_datasets=12, first_seed=0)
    summary = leak_summary(runs, 1.0).set_index("pipeline")
    assert summary.loc["selection_before", "cv_mse"] < 0.8
    assert summary.loc["honest", "cv_mse"] > 1.0
    assert 0 < summary.loc["scaling_before", "leak"] < summary.loc["selection_before", "leak"]


def test_simulation_refuses_more_folds_than_observations():
    with pytest.raises(ValueError, match="10 folds need at least 10 observations"):
        simulate_leaks([8], pure_noise(20), 2, 1.0, n_folds=10, n_datasets=2, first_seed=0)


def _summary(scaling_leak, selection_leak, selection_cv, honest_optimism):
    base = {
        "sample_size": 50,
        "datasets": 100,
        "fold_models_true_mse": 1.4,
        "fold_models_true_mse_se": 0.01,
        "full_fit_true_mse": 1.4,
        "full_fit_true_mse_se": 0.01,
        "optimism_se": 0.02,
        "leak_se": 0.01,
        "cv_std_error": 0.2,
        "noise_variance": 1.0,
        "cv_mse_se": 0.01,
    }
    rows = []
    for name, leak, cv, optimism in (
        ("honest", 0.0, 1.4, honest_optimism),
        ("scaling_before", scaling_leak, 1.4 - scaling_leak, scaling_leak),
        ("selection_before", selection_leak, selection_cv, selection_leak),
    ):
        rows.append(
            {
                **base,
                "pipeline": name,
                "leak": leak,
                "cv_mse": cv,
                "optimism": optimism,
                "leak_percent": 100 * leak / 1.4,
                "leak_percent_se": 1.0,
                "optimism_percent": 0.0,
                "optimism_percent_se": 1.0,
            }
        )
    return pd.DataFrame(rows)


def _runs(scaling_leak, selection_cv):
    """Four data sets at n = 50 whose CV estimates differ by the given leaks, with noise of their own."""
    noise = np.array([0.02, -0.01, 0.03, -0.04])
    rows = []
    for dataset, e in enumerate(noise):
        for name, cv in (
            ("honest", 1.4 + e),
            ("scaling_before", 1.4 - scaling_leak + e),
            ("selection_before", selection_cv + e / 2),
        ):
            rows.append({"sample_size": 50, "dataset": dataset, "pipeline": name, "cv_mse": cv})
    return pd.DataFrame(rows)


def test_the_leaks_are_measured_against_the_standard_error_the_honest_cv_reports():
    row = leaks_at_sample_size(
        _runs(0.05, 0.5), _summary(0.05, 0.9, 0.5, 0.01), *leak_arguments(50, pure_noise=True)
    ).iloc[0]
    # The honest CV reports a standard error of 0.2: the leaks are a quarter of it and 4.5 times it.
    assert row["scaling_leak_in_reported_se"] == pytest.approx(0.25)
    assert row["scaling_leak_in_reported_se_se"] == pytest.approx(0.05)
    assert row["selection_leak_in_reported_se"] == pytest.approx(4.5)
    assert row["honest_optimism_in_reported_se"] == pytest.approx(0.05)
    assert row["honest_optimism_in_reported_se_se"] == pytest.approx(0.1)
    assert row["selection_cv_minus_noise_variance"] == pytest.approx(-0.5)
    assert row["selection_cv_mse_over_noise_variance"] == pytest.approx(0.5)
    # Paired by data set: the scaling-before CV minus the selection-before CV, the noise half shared.
    runs = _runs(0.05, 0.5).set_index(["pipeline", "dataset"])["cv_mse"]
    difference = runs["scaling_before"] - runs["selection_before"]
    assert row["selection_minus_scaling_leak"] == pytest.approx(difference.mean())
    assert row["selection_minus_scaling_leak_se"] == pytest.approx(difference.std(ddof=1) / 2)
    assert [c for c, v in row.items() if isinstance(v, (bool, np.bool_)) and c != "pure_noise"] == []


def test_the_leaks_follow_the_numbers_when_they_go_the_other_way():
    row = leaks_at_sample_size(
        _runs(0.19, 1.25), _summary(0.19, 0.15, 1.25, 0.1), *leak_arguments(50, pure_noise=False)
    ).iloc[0]
    assert not row["pure_noise"]
    assert row["scaling_leak_in_reported_se"] > row["selection_leak_in_reported_se"]
    assert row["selection_cv_minus_noise_variance"] == pytest.approx(0.25)
    assert row["selection_minus_scaling_leak"] == pytest.approx(-0.04)
    assert row["honest_optimism_in_reported_se"] == pytest.approx(0.5)


def test_the_leaks_need_their_sample_size_among_the_simulated_ones():
    with pytest.raises(ValueError, match="sample size 60 is not among"):
        leaks_at_sample_size(_runs(0.05, 0.5), _summary(0.05, 0.9, 0.5, 0.0), *leak_arguments(60, pure_noise=True))


def test_the_noise_floor_is_the_smallest_true_error_and_its_distance_above_the_noise_variance():
    from cvsuite.studies.preprocessing_leak import noise_floor

    runs = pd.DataFrame({"fold_models_true_mse": [1.3, 1.02, 2.0], "full_fit_true_mse": [1.1, 1.01, 1.5]})
    floor = noise_floor(runs, 1.0)
    assert floor["smallest_true_mse"] == 1.01
    assert floor["smallest_true_mse_minus_noise_variance"] == pytest.approx(0.01)
    below = runs.assign(full_fit_true_mse=[1.1, 0.99, 1.5])
    assert noise_floor(below, 1.0)["smallest_true_mse_minus_noise_variance"] == pytest.approx(-0.01)


def test_a_held_out_observation_moves_the_fold_fit_only_through_a_step_done_before_the_split():
    from cvsuite.data.gaussian_regression import RegressionDesign, regression_sample
    from cvsuite.methods.folds import chunked_folds
    from cvsuite.studies.preprocessing_leak_flow import held_out_influence

    rng = np.random.default_rng(3)
    X, y, _ = regression_sample(40, RegressionDesign(60, 0, 0.0, 1.0), rng)
    folds = chunked_folds(rng.permutation(40), 4)
    table = held_out_influence(X, y, folds, n_selected=5, ridge_penalty=1.0, missing_share=0.25, seed=1)
    change = table.set_index("step")["largest_prediction_change"]
    assert change["honest"] == 0.0 and change["imputation_honest"] == 0.0  # the training folds alone
    assert (change[["scaling_before", "selection_before", "imputation_before"]] > 0).all()
    assert set(table.loc[table["fitted_on"] == "all the data", "step"]) == {
        "scaling_before",
        "selection_before",
        "imputation_before",
    }


def test_a_predictor_recorded_after_the_outcome_cross_validates_below_the_floor_and_fails_later():
    from cvsuite.data.gaussian_regression import RegressionDesign
    from cvsuite.studies.preprocessing_leak_flow import target_leak

    row = target_leak(
        RegressionDesign(40, 0, 0.0, 1.0), 30, 3, 1.0, n_folds=3, leak_noise_sd=0.1, n_datasets=4, first_seed=2
    )
    row = row.iloc[0]
    assert row["cv_mse_minus_noise_variance"] < -0.5  # the leaked column is the response, nearly
    assert row["prediction_time_mse_minus_noise_variance"] > 0  # no model beats the noise without it
    assert row["datasets"] == 4
