"""Study k_bias: Equation 8.13 against the truth for each K ("Regularization and Cross-Validation" §8.2.4)."""

import numpy as np
import pytest

from cvsuite.data.sine import SineSamples, polynomial_design, sine_sample
from cvsuite.methods.folds import shuffled_partition
from cvsuite.studies.k_bias import KBiasSettings, cv_fold_risks, k_bias_table, partition_grid, std_error_range

X, Y = sine_sample(25, 3, 0.35, 3.0)
XT, YT = sine_sample(400, 99, 0.35, 3.0)
SAMPLES = SineSamples(X, Y, XT, YT, 3.0)


def brute_force_fold_risk(train, test, degree=5):
    theta = np.linalg.lstsq(polynomial_design(X[train], degree, 3.0), Y[train], rcond=None)[0]
    return np.mean((Y[test] - polynomial_design(X[test], degree, 3.0) @ theta) ** 2)


def test_fold_risks_are_each_folds_least_squares_risk_on_itself():
    folds = shuffled_partition(25, 5, seed=3)
    expected = sorted(brute_force_fold_risk(np.setdiff1d(np.arange(25), f), f) for f in folds)
    np.testing.assert_allclose(sorted(cv_fold_risks(X, Y, folds, 5, 3.0)), expected, rtol=1e-12)


def test_cv_estimate_depends_on_the_partition_not_the_fold_order():
    folds = shuffled_partition(25, 5, seed=3)
    shuffled = [np.random.default_rng(1).permutation(f) for f in reversed(folds)]
    assert cv_fold_risks(X, Y, folds, 5, 3.0).mean() == cv_fold_risks(X, Y, shuffled, 5, 3.0).mean()


def test_leave_one_out_has_no_partition_spread():
    table = k_bias_table(SAMPLES, KBiasSettings(5, tuple([25]), 6, 0))
    assert table.loc[0, "spread_over_shuffles"] == 0.0


def test_small_k_is_biased_upward_and_bias_falls_with_k():
    table = k_bias_table(SAMPLES, KBiasSettings(5, tuple([2, 5, 25]), 8, 0))
    assert (table["bias"] > 0).all()
    assert table["bias"].is_monotonic_decreasing


def test_table_columns_are_the_listings_statistics():
    table = k_bias_table(SAMPLES, KBiasSettings(5, tuple([5]), 3, 0)).iloc[0]
    estimates = [
        np.mean([brute_force_fold_risk(np.setdiff1d(np.arange(25), f), f) for f in shuffled_partition(25, 5, seed=s)])
        for s in range(3)
    ]
    first = [brute_force_fold_risk(np.setdiff1d(np.arange(25), f), f) for f in shuffled_partition(25, 5, seed=0)]
    truth = np.mean(
        (YT - polynomial_design(XT, 5, 3.0) @ np.linalg.lstsq(polynomial_design(X, 5, 3.0), Y, rcond=None)[0]) ** 2
    )
    assert table["truth"] == pytest.approx(truth, rel=1e-12)
    assert table["cv_estimate"] == pytest.approx(np.mean(estimates), rel=1e-12)
    assert table["std_error"] == pytest.approx(np.std(first, ddof=1) / np.sqrt(5), rel=1e-10)
    assert table["spread_over_shuffles"] == pytest.approx(np.std(estimates), rel=1e-8)  # ddof = 0, as the listing
    assert (table["train_size_min"], table["train_size_max"]) == (20, 20)


def test_std_error_range_uses_only_large_enough_k():
    table = k_bias_table(SAMPLES, KBiasSettings(5, tuple([2, 5, 10]), 3, 0))
    row = std_error_range(table, 5).iloc[0]
    assert row["std_error_min"] == table.loc[table["K"] >= 5, "std_error"].min()
    assert row["std_error_max"] == table.loc[table["K"] >= 5, "std_error"].max()


def test_partition_grid_validates_every_point_exactly_once():
    grid = partition_grid(25, 5, seed=0)
    assert len(grid) == 5 * 25
    assert grid[grid["role"] == "validation"].groupby("point").size().eq(1).all()
    assert grid[grid["role"] == "training"].groupby("point").size().eq(4).all()


def test_the_se_of_the_mean_over_shuffles_says_how_far_the_bias_is_from_noise():
    table = k_bias_table(SAMPLES, KBiasSettings(5, (2, 25), 6, 0)).set_index("K")
    estimates = [
        np.mean([brute_force_fold_risk(np.setdiff1d(np.arange(25), f), f) for f in shuffled_partition(25, 2, seed=s)])
        for s in range(6)
    ]
    assert table.loc[2, "cv_estimate_se"] == pytest.approx(np.std(estimates, ddof=1) / np.sqrt(6), rel=1e-9)
    assert table.loc[2, "bias_over_se"] == pytest.approx(table.loc[2, "bias"] / table.loc[2, "cv_estimate_se"])
    assert table.loc[25, "cv_estimate_se"] == 0.0 and np.isinf(table.loc[25, "bias_over_se"])
