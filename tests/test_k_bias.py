"""Study k_bias: Equation 8.13 against the truth for each K ("Regularization and Cross-Validation" §8.2.4)."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.data.sine import SineSamples, polynomial_design, sine_sample
from cvsuite.methods.folds import shuffled_partition
from cvsuite.studies.k_bias import (
    KBiasSettings,
    cv_fold_risks,
    full_data_risk,
    k_bias_table,
    partition_grid,
    shuffle_runs,
    shuffle_summary,
    std_error_range,
)
from cvsuite.studies.k_bias_same_sample import degree_ranking, error_sources, other_degrees, precision_table

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


def shuffle_estimates(k, shuffles, degree=5):
    """Brute force: each shuffle's K-fold estimate, lstsq fold by fold."""
    return np.array(
        [
            np.mean(
                [brute_force_fold_risk(np.setdiff1d(np.arange(25), f), f, degree) for f in shuffled_partition(25, k, s)]
            )
            for s in range(shuffles)
        ]
    )


def test_shuffle_summary_counts_what_the_mean_over_shuffles_is_made_of():
    settings = KBiasSettings(5, (2, 3, 25), 8, 0)
    runs = shuffle_runs(SAMPLES, settings)
    truth = full_data_risk(SAMPLES, 5)
    summary = shuffle_summary(runs, truth, 25).set_index("K")
    two, three = shuffle_estimates(2, 8), shuffle_estimates(3, 8)
    assert summary.loc[2, "shuffles_above_truth"] == (two > truth).sum()
    assert summary.loc[2, "shuffle_median"] == pytest.approx(np.median(two), rel=1e-10)
    assert summary.loc[2, "largest_shuffle_share_of_estimate"] == pytest.approx(two.max() / two.sum(), rel=1e-10)
    assert summary.loc[2, "cv_estimate_without_largest"] == pytest.approx(np.sort(two)[:-1].mean(), rel=1e-10)
    assert summary.loc[2, "fall_to_next_k"] == pytest.approx((two - three).mean(), rel=1e-10)
    assert summary.loc[2, "fall_to_next_k_se"] == pytest.approx((two - three).std(ddof=1) / np.sqrt(8), rel=1e-9)
    assert (summary.loc[2, "distinct_partitions"], summary.loc[25, "distinct_partitions"]) == (8, 1)
    assert (summary.loc[2, "distinct_training_sizes"], summary.loc[25, "distinct_training_sizes"]) == (2, 1)
    own = [np.std(runs[0].fold_risks[s], ddof=1) / np.sqrt(2) for s in range(8)]
    assert summary.loc[2, "median_std_error"] == pytest.approx(np.median(own), rel=1e-10)
    assert summary.loc[2, "shuffles_with_smaller_std_error"] == sum(v < own[0] for v in own)
    # sigma / sqrt(K) of each partition's own folds, written out apart from standard_error: the identity.
    assert (summary["std_error_own_folds_gap"] < 1e-12 * summary["median_std_error"].max()).all()


def test_many_shuffles_start_with_the_tables_own_and_leave_one_out_is_exact():
    settings = KBiasSettings(5, (2, 5, 25), 6, 0)
    precision = precision_table(SAMPLES, settings, 6).set_index("K")
    table = k_bias_table(SAMPLES, settings).set_index("K")
    np.testing.assert_allclose(precision["cv_estimate"], table["cv_estimate"], rtol=1e-10)
    np.testing.assert_allclose(precision["cv_estimate_se"][[2, 5]], table["cv_estimate_se"][[2, 5]], rtol=1e-8)
    assert precision.loc[25, "cv_estimate_se"] == 0.0 and np.isinf(precision.loc[25, "bias_over_se"])
    two = shuffle_estimates(2, 6)
    assert precision.loc[2, "share_above_truth"] == pytest.approx((two > table.loc[2, "truth"]).mean())


def test_the_two_sources_of_error_add_up_to_the_bias_and_the_first_is_the_fold_models_true_risk():
    settings = KBiasSettings(5, (3, 25), 4, 0)
    sources = error_sources(SAMPLES, settings).set_index("K")
    table = k_bias_table(SAMPLES, settings).set_index("K")
    total = sources["training_effect"] + sources["validation_effect"]
    np.testing.assert_allclose(total, table["bias"], rtol=1e-8)
    true_risks = []
    for s in range(4):
        for fold in shuffled_partition(25, 3, s):
            train = np.setdiff1d(np.arange(25), fold)
            theta = np.linalg.lstsq(polynomial_design(X[train], 5, 3.0), Y[train], rcond=None)[0]
            true_risks.append(np.mean((YT - polynomial_design(XT, 5, 3.0) @ theta) ** 2))
    assert sources.loc[3, "training_effect"] == pytest.approx(np.mean(true_risks) - table.loc[3, "truth"], rel=1e-9)


def test_other_degrees_score_leave_one_out_and_the_smallest_k_on_the_same_sample():
    others = other_degrees(SAMPLES, KBiasSettings(5, (2, 25), 3, 0)).set_index("degree")
    assert list(others.index) == [3, 4, 5, 6, 7]
    loo = np.mean([brute_force_fold_risk(np.setdiff1d(np.arange(25), [i]), [i], 3) for i in range(25)])
    assert others.loc[3, "loo_estimate"] == pytest.approx(loo, rel=1e-10)
    assert others.loc[4, "small_k_estimate"] == pytest.approx(shuffle_estimates(2, 3, 4).mean(), rel=1e-10)


def test_every_point_is_validated_once_in_every_shuffle_and_the_summary_counts_any_that_is_not():
    settings = KBiasSettings(5, (2, 5, 25), 4, 0)
    runs = shuffle_runs(SAMPLES, settings)
    summary = shuffle_summary(runs, full_data_risk(SAMPLES, 5), 25)
    assert (summary["points_not_validated_once"] == 0).all()
    broken = [runs[0].__class__(runs[0].k, [[p[0], p[0]] for p in runs[0].partitions], runs[0].fold_risks)]
    assert shuffle_summary(broken, 1.0, 25).loc[0, "points_not_validated_once"] > 0


def test_the_share_of_shuffles_whose_standard_error_is_below_the_spread_carries_its_binomial_se():
    summary = shuffle_summary(shuffle_runs(SAMPLES, KBiasSettings(5, (5,), 10, 0)), full_data_risk(SAMPLES, 5), 25)
    share = summary.loc[0, "std_errors_below_spread_share"]
    assert summary.loc[0, "std_errors_below_spread_share_se"] == pytest.approx(np.sqrt(share * (1 - share) / 10))


def test_the_standard_error_range_gives_its_ratio():
    table = pd.DataFrame({"K": [2, 5, 10], "std_error": [3.0, 0.028, 0.041]})
    row = std_error_range(table, 5).iloc[0]
    assert (row["std_error_min"], row["std_error_max"]) == (0.028, 0.041)
    assert row["std_error_max_over_min"] == pytest.approx(0.041 / 0.028)


def test_the_error_sources_say_how_much_worse_the_fold_models_are_and_how_per_fold_error_moves():
    sources = error_sources(SAMPLES, KBiasSettings(5, (2, 5, 25), 3, 0)).set_index("K")
    truth = full_data_risk(SAMPLES, 5)
    assert sources.loc[2, "fold_models_risk_over_truth"] == pytest.approx(1 + sources.loc[2, "training_effect"] / truth)
    assert sources.loc[2, "per_fold_validation_error_over_smallest_k"] == 1.0
    ratio = sources.loc[25, "averaged_validation_error"] / sources.loc[25, "per_fold_validation_error"]
    assert sources.loc[25, "averaged_over_per_fold"] == pytest.approx(ratio)


def test_the_degree_ranking_counts_the_pairs_the_smallest_k_orders_against_the_truth():
    others = pd.DataFrame(
        {
            "degree": [3, 4, 5],
            "truth": [1.0, 2.0, 3.0],
            "small_k": [2, 2, 2],
            "small_k_estimate": [3.0, 2.0, 1.0],
            "loo_error_percent": [0.5, -2.0, 1.0],
        }
    )
    row = degree_ranking(others).iloc[0]
    assert (row["discordant_pairs"], row["largest_loo_error_percent"], row["degrees"]) == (3, 2.0, 3)
    assert (
        degree_ranking(others.sort_values("degree").assign(small_k_estimate=[1.0, 2.0, 3.0])).loc[0, "discordant_pairs"]
        == 0
    )


def test_one_predictor_on_larger_validation_sets_is_scored_less_noisily():
    from cvsuite.data.sine import train_and_test
    from cvsuite.studies.k_bias_same_sample import validation_noise

    samples = train_and_test(train_size=25, train_seed=3, test_size=800, test_seed=99, noise=0.3, half_width=1.0)
    table = validation_noise(samples, 5, [1, 4, 16, 64], 400, 2)
    errors = table["median_relative_error"].to_numpy()
    assert (np.diff(errors) < 0).all() and (table["draws"] == 400).all()
    # A mean of m losses: its relative error shrinks about as one over the root of m.
    assert errors[3] / errors[1] == pytest.approx(0.25, rel=0.35)


def test_folds_sent_to_worker_processes_come_back_as_the_serial_risks():
    from cvsuite.studies.k_bias_parallel import parallel_folds

    settings = KBiasSettings(5, (3, 25), 4, 0)
    table = parallel_folds(SAMPLES, settings, workers=2).set_index("K")
    assert table.loc[3, "tasks"] == 3 and table.loc[25, "tasks"] == 25
    # Last bits are not asserted: the tasks' fits may run on another BLAS path than the serial ones.
    assert (table["largest_relative_difference"] < 1e-10).all()
    assert (table["fits_per_task_max"] == 1).all()
    assert table.loc[3, "training_size_max"] == 25 - 8 and table.loc[25, "training_size_max"] == 24
