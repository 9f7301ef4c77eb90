from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_iris

from conftest import project_records
from cvsuite.methods.folds import stratified_dealt_folds
from cvsuite.methods.majority_class import expected_shuffled_kfold_accuracy
from cvsuite.published.published_values import published_value
from cvsuite.studies.kohavi_iris_majority import (
    class_count_summary,
    folds_not_leaving_minority,
    majority_cv_study,
    majority_study,
    protocol_estimates,
    spread,
)

ROOT = Path(__file__).resolve().parents[1]
BALANCED = np.repeat([0, 1, 2], 8)  # 24 items, 8 per class: a small stand-in for Iris


def test_leave_one_out_on_iris_scores_kohavis_published_zero_in_every_fold():
    claims = project_records()
    iris = load_iris()
    estimates, _, folds = majority_study(
        iris.target, list(iris.target_names), ["lowest_label"], n_folds=10, partitions=2, first_seed=0, tie_seed=0
    )
    loo = estimates.set_index("scheme").loc["leave-one-out"]
    assert loo["accuracy_percent"] == published_value(claims, "kohavi1995.loo.accuracy")
    assert loo["fold_range_percent"] == published_value(claims, "kohavi1995.loo.fold-range")
    assert len(folds[folds["protocol"] == "leave-one-out"]) == 150


def test_the_study_runs_every_tie_break_and_names_the_predicted_classes():
    estimates, runs, folds = majority_study(
        BALANCED, ["a", "b", "c"], ["lowest_label", "highest_label"], n_folds=4, partitions=3, first_seed=0, tie_seed=0
    )
    assert estimates["tie_break"].tolist() == ["lowest_label"] * 3 + ["highest_label"] * 3
    assert len(runs) == 2 * (1 + 3 + 3)
    assert (folds["predicted_class_name"] == np.array(["a", "b", "c"])[folds["predicted_class"]]).all()


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_stratified_partition_covers_every_item_once_with_class_proportions(k):
    folds = stratified_dealt_folds(BALANCED, k, np.random.default_rng(11))
    assert sorted(np.concatenate(folds).tolist()) == list(range(len(BALANCED)))
    per_class = np.array([np.bincount(BALANCED[f], minlength=3) for f in folds])
    assert per_class.max(axis=0).tolist() == [int(np.ceil(8 / k))] * 3
    assert (per_class.max(axis=0) - per_class.min(axis=0) <= 1).all()


def test_stratified_partition_refuses_impossible_fold_counts():
    with pytest.raises(ValueError, match="between 2 and n"):
        stratified_dealt_folds(BALANCED, 1, np.random.default_rng(0))


def test_shuffled_kfold_average_is_consistent_with_its_exact_expectation():
    runs, _ = majority_cv_study(
        BALANCED, 3, n_folds=4, partitions=400, first_seed=0, tie_break="lowest_label", tie_seed=0
    )
    shuffled = runs[runs["scheme"] == "shuffled"]["accuracy_percent"].to_numpy()
    se = np.std(shuffled, ddof=1) / np.sqrt(len(shuffled))
    exact = 100 * expected_shuffled_kfold_accuracy((8, 8, 8), 4, "lowest_label")
    assert abs(shuffled.mean() - exact) <= 4 * se


def test_shuffled_partition_r_is_the_permutation_of_default_rng_first_seed_plus_r():
    _, folds = majority_cv_study(
        BALANCED, 3, n_folds=4, partitions=2, first_seed=5, tie_break="lowest_label", tie_seed=0
    )
    first = folds[folds["protocol"] == "shuffled 4-fold"]
    chunks = np.array_split(np.random.default_rng(5).permutation(24), 4)
    held_out = [np.bincount(BALANCED[c], minlength=3) for c in chunks]
    remaining = [np.bincount(BALANCED, minlength=3) - h for h in held_out]
    assert first["predicted_class"].tolist() == [int(np.argmax(r)) for r in remaining]
    assert first["hits"].tolist() == [int(h[np.argmax(r)]) for h, r in zip(held_out, remaining)]


def test_stratified_folds_of_balanced_classes_give_the_same_score_in_every_fold_and_partition():
    runs, folds = majority_cv_study(BALANCED, 3, n_folds=4, partitions=20, first_seed=3, tie_break="random", tie_seed=1)
    estimates = protocol_estimates(runs, np.bincount(BALANCED)).set_index("scheme")
    assert estimates.loc["stratified", "spread_over_partitions_percent"] == 0.0
    assert estimates.loc["stratified", "accuracy_percent_se"] == 0.0
    assert estimates.loc["stratified", "fold_range_percent"] == 0.0
    assert estimates.loc["stratified", "accuracy_percent"] == estimates.loc["stratified", "full_data_accuracy_percent"]
    assert estimates.loc["leave-one-out", "fold_sd_percent"] == 0.0


def test_the_monte_carlo_se_of_shuffled_kfold_is_the_sample_sd_over_root_r():
    runs, _ = majority_cv_study(
        BALANCED, 3, n_folds=4, partitions=30, first_seed=0, tie_break="lowest_label", tie_seed=0
    )
    estimates = protocol_estimates(runs, np.bincount(BALANCED)).set_index("scheme")
    shuffled = runs.loc[runs["scheme"] == "shuffled", "accuracy_percent"].to_numpy()
    assert estimates.loc["shuffled", "accuracy_percent_se"] == pytest.approx(
        np.std(shuffled, ddof=1) / np.sqrt(30), rel=1e-12
    )
    assert estimates.loc["shuffled", "spread_over_partitions_percent"] == pytest.approx(np.std(shuffled), rel=1e-12)


def test_identical_values_have_exactly_zero_spread():
    assert spread(np.full(7, 100 / 3)) == 0.0
    assert spread([1.0, 2.0]) == pytest.approx(0.5)


def test_class_count_summary_reports_smallest_and_largest_class():
    row = class_count_summary(np.array([0, 0, 1, 2, 2, 2]), ["a", "b", "c"]).iloc[0]
    assert (row["min_class_count"], row["max_class_count"], row["count_c"]) == (1, 3, 3)


def test_deleting_an_instance_makes_its_class_the_minority_only_on_balanced_data():
    iris = load_iris()
    assert folds_not_leaving_minority(iris.target) == 0
    assert class_count_summary(iris.target, list(iris.target_names)).iloc[0]["loo_folds_not_leaving_minority"] == 0
    # Counts 3, 2: deleting one of the three leaves 2 against 2, a tie, not a minority; of the two, 1 against 3.
    assert folds_not_leaving_minority(np.array([0, 0, 0, 1, 1])) == 3
