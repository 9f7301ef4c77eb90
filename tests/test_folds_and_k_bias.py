import numpy as np
import pytest

from cvsuite.studies.degree_sweep import degree_sweep, degree_sweep_summary
from cvsuite.methods.folds import canonical_partition, shuffled_partition, training_sizes
from cvsuite.methods.monte_carlo import standard_error
from cvsuite.studies.k_bias import cv_fold_risks, k_bias_table, std_error_range
from cvsuite.data.sine import sine_sample

X, Y = sine_sample(25, 3, 0.35, 3.0)
XT, YT = sine_sample(400, 99, 0.35, 3.0)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 25])
def test_shuffled_partition_covers_every_point_once(k):
    folds = shuffled_partition(25, k, seed=7)
    assert len(folds) == k
    assert sorted(np.concatenate(folds).tolist()) == list(range(25))
    assert max(map(len, folds)) - min(map(len, folds)) <= 1


@pytest.mark.parametrize("k", [1, 0, 26])
def test_shuffled_partition_refuses_impossible_fold_counts(k):
    with pytest.raises(ValueError, match="between 2 and n = 25"):
        shuffled_partition(25, k, seed=0)


def test_training_sizes_are_n_minus_the_fold():
    folds = shuffled_partition(25, 3, seed=0)
    assert sorted(training_sizes(25, folds).tolist()) == [16, 17, 17]


def test_cv_estimate_depends_on_the_partition_not_the_fold_order():
    folds = shuffled_partition(25, 5, seed=3)
    shuffled = [np.random.default_rng(1).permutation(f) for f in reversed(folds)]
    assert cv_fold_risks(X, Y, folds, 5, 3.0).mean() == cv_fold_risks(X, Y, shuffled, 5, 3.0).mean()
    assert [f.tolist() for f in canonical_partition(shuffled)] == [f.tolist() for f in canonical_partition(folds)]


def test_leave_one_out_has_no_partition_spread():
    table = k_bias_table(X, Y, XT, YT, degree=5, half_width=3.0, fold_counts=[25], shuffles=6, first_seed=0)
    assert table.loc[0, "spread_over_shuffles"] == 0.0


def test_small_k_is_biased_upward_and_bias_falls_with_k():
    table = k_bias_table(X, Y, XT, YT, degree=5, half_width=3.0, fold_counts=[2, 5, 25], shuffles=8, first_seed=0)
    assert (table["bias"] > 0).all()
    assert table["bias"].is_monotonic_decreasing


def test_standard_error_is_sample_sd_over_root_k():
    risks = np.array([1.0, 2.0, 3.0, 4.0])
    assert standard_error(risks) == pytest.approx(np.std(risks, ddof=1) / 2)


def test_std_error_range_uses_only_large_enough_k():
    table = k_bias_table(X, Y, XT, YT, degree=5, half_width=3.0, fold_counts=[2, 5, 10], shuffles=3, first_seed=0)
    row = std_error_range(table, 5).iloc[0]
    assert row["std_error_min"] == table.loc[table["K"] >= 5, "std_error"].min()


def test_degree_sweep_training_risk_never_rises_with_degree():
    sweep = degree_sweep(X, Y, XT, YT, range(0, 11), 3.0)
    assert (np.diff(sweep["train_risk"]) <= 1e-12).all()
    summary = degree_sweep_summary(sweep).iloc[0]
    assert summary["best_expected_risk"] == sweep["expected_risk"].min()
