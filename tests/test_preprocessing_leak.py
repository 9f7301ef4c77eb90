import numpy as np
import pandas as pd
import pytest

from cvsuite.studies.preprocessing_leak import (
    _select_from_sums,
    _sums,
    fit_ridge_on_selected,
    leak_summary,
    pipeline_cv,
    preprocessing_leak_verdict,
    regression_sample,
    select_by_correlation,
    simulate_leaks,
    true_mse,
)


def test_selection_keeps_the_columns_of_largest_absolute_correlation():
    rng = np.random.default_rng(0)
    X, y, _ = regression_sample(40, 60, 0, 0.0, 1.0, rng)
    corr = np.array([np.corrcoef(X[:, j], y)[0, 1] for j in range(60)])
    expected = np.sort(np.argsort(-np.abs(corr))[:7])
    assert select_by_correlation(X, y, 7).tolist() == expected.tolist()


def test_selection_ties_go_to_the_lower_column():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(20)
    y = x + 0.1 * rng.standard_normal(20)
    X = np.column_stack([rng.standard_normal(20), x, rng.standard_normal(20), x])
    assert select_by_correlation(X, y, 1).tolist() == [1]


def test_training_set_sums_give_the_selection_made_on_the_training_rows():
    rng = np.random.default_rng(2)
    X, y, _ = regression_sample(50, 200, 0, 0.0, 1.0, rng)
    fold = np.arange(10, 20)
    train = np.setdiff1d(np.arange(50), fold)
    held = _sums(X[fold], y[fold])
    by_difference = _select_from_sums(tuple(t - h for t, h in zip(_sums(X, y), held)), 5)
    assert by_difference.tolist() == select_by_correlation(X[train], y[train], 5).tolist()


def test_selection_refuses_more_columns_than_there_are():
    with pytest.raises(ValueError, match="between 1 and the number of predictors 3"):
        select_by_correlation(np.ones((5, 3)), np.arange(5.0), 4)


def test_unpenalised_fit_on_training_centres_is_least_squares_with_an_intercept():
    rng = np.random.default_rng(3)
    X = rng.standard_normal((30, 3))
    y = 2 + X @ np.array([1.0, -0.5, 0.2]) + rng.standard_normal(30)
    c, w = fit_ridge_on_selected(X, y, X.mean(axis=0), X.std(axis=0), y.mean(), 0.0)
    coef = np.linalg.lstsq(np.column_stack([np.ones(30), X]), y, rcond=None)[0]
    assert c == pytest.approx(coef[0])
    assert np.allclose(w, coef[1:])


def test_true_mse_matches_the_error_on_a_large_fresh_sample():
    rng = np.random.default_rng(4)
    b = np.array([0.5, 0.0, -0.3, 0.0])
    selected, w, c = np.array([0, 3]), np.array([0.4, 0.2]), 0.1
    X = rng.standard_normal((400_000, 4))
    y = X @ b + 0.7 * rng.standard_normal(400_000)
    fresh = np.mean((y - c - X[:, selected] @ w) ** 2)
    assert true_mse(c, selected, w, b, 0.7) == pytest.approx(fresh, rel=0.01)


def test_regression_sample_is_pure_noise_without_signal_predictors():
    X, y, b = regression_sample(10, 5, 0, 0.8, 1.0, np.random.default_rng(5))
    assert X.shape == (10, 5) and y.shape == (10,) and not b.any()
    _, _, b = regression_sample(10, 5, 2, 0.8, 1.0, np.random.default_rng(5))
    assert b.tolist() == [0.8, 0.8, 0.0, 0.0, 0.0]


def test_honest_cv_is_the_pooled_held_out_error_of_models_fitted_on_training_folds_only():
    rng = np.random.default_rng(6)
    X, y, b = regression_sample(30, 40, 0, 0.0, 1.0, rng)
    folds = np.array_split(rng.permutation(30), 3)
    squared = []
    for fold in folds:
        train = np.setdiff1d(np.arange(30), fold)
        s = select_by_correlation(X[train], y[train], 4)
        cols = X[train][:, s]
        c, w = fit_ridge_on_selected(cols, y[train], cols.mean(axis=0), cols.std(axis=0), y[train].mean(), 1.0)
        squared.extend((y[fold] - c - X[fold][:, s] @ w) ** 2)
    table = pipeline_cv(X, y, folds, 4, 1.0, b, 1.0).set_index("pipeline")
    assert table.loc["honest", "cv_mse"] == pytest.approx(np.mean(squared))


def test_selection_before_the_loop_scores_pure_noise_below_its_noise_variance():
    runs = simulate_leaks([30], 300, 0, 0.0, 1.0, 5, 5, 1.0, 12, 0)
    summary = leak_summary(runs, 1.0).set_index("pipeline")
    assert summary.loc["selection_before", "cv_mse"] < 0.8
    assert summary.loc["honest", "cv_mse"] > 1.0
    assert 0 < summary.loc["scaling_before", "leak"] < summary.loc["selection_before", "leak"]


def test_every_pipeline_fitted_on_all_data_is_the_same_model():
    runs = simulate_leaks([20], 50, 0, 0.0, 1.0, 3, 4, 1.0, 2, 7)
    assert runs.groupby("dataset")["full_fit_true_mse"].nunique().eq(1).all()


def test_simulation_refuses_more_folds_than_observations():
    with pytest.raises(ValueError, match="10 folds need at least 10 observations"):
        simulate_leaks([8], 20, 0, 0.0, 1.0, 2, 10, 1.0, 2, 0)


def _summary(scaling_leak, selection_leak, selection_cv, honest_optimism):
    base = {"sample_size": 50, "datasets": 100, "fold_models_true_mse": 1.4, "fold_models_true_mse_se": 0.01,
            "full_fit_true_mse": 1.4, "full_fit_true_mse_se": 0.01, "optimism_se": 0.02, "leak_se": 0.01,
            "cv_std_error": 0.2, "noise_variance": 1.0, "cv_mse_se": 0.01}
    rows = []
    for name, leak, cv, optimism in (("honest", 0.0, 1.4, honest_optimism), ("scaling_before", scaling_leak, 1.4 - scaling_leak, scaling_leak),
                                     ("selection_before", selection_leak, selection_cv, selection_leak)):
        rows.append({**base, "pipeline": name, "leak": leak, "cv_mse": cv, "optimism": optimism,
                     "leak_percent": 100 * leak / 1.4, "leak_percent_se": 1.0, "optimism_percent": 0.0, "optimism_percent_se": 1.0})
    return pd.DataFrame(rows)


def test_verdict_calls_a_leak_below_the_reported_standard_error_small_and_above_it_large():
    verdict = preprocessing_leak_verdict(_summary(0.05, 0.9, 0.5, 0.0), 50, 1000, 10, True, 2.0).iloc[0]
    assert verdict["leak_small_for_scaling"] and verdict["leak_large_for_selection"]
    assert verdict["selection_leak_most_damaging"] and verdict["selection_before_scores_pure_noise_respectably"]
    assert verdict["inside_the_loop_is_honest"]
    assert "pure-noise" in verdict["verdict"] and ": small)" in verdict["verdict"]


def test_verdict_fails_each_claim_when_the_numbers_go_the_other_way():
    verdict = preprocessing_leak_verdict(_summary(0.19, 0.21, 1.2, 0.1), 50, 1000, 10, False, 2.0).iloc[0]
    assert not verdict["leak_small_for_scaling"]
    assert not verdict["leak_large_for_selection"]
    assert not verdict["selection_leak_most_damaging"]
    assert not verdict["selection_before_scores_pure_noise_respectably"]
    assert not verdict["inside_the_loop_is_honest"]
    assert "pure-noise" not in verdict["verdict"]


def test_verdict_needs_its_sample_size_among_the_simulated_ones():
    with pytest.raises(ValueError, match="sample size 60 is not among"):
        preprocessing_leak_verdict(_summary(0.05, 0.9, 0.5, 0.0), 60, 1000, 10, True, 2.0)
