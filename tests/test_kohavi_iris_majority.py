from itertools import combinations

import numpy as np
import pytest

from cvsuite.methods.folds import shuffled_partition
from cvsuite.methods.folds import leave_one_out_folds, stratified_dealt_folds
from cvsuite.studies.kohavi_iris_majority import (
    TIE_BREAKS,
    class_count_summary,
    expected_fold_accuracy,
    expected_shuffled_kfold_accuracy,
    label_of_most,
    majority_cv_study,
    majority_fold_results,
    protocol_estimates,
    spread,
)

BALANCED = np.repeat([0, 1, 2], 8)  # 24 items, 8 per class: a small stand-in for Iris


def test_leave_one_out_on_balanced_classes_never_predicts_the_held_out_class():
    table = majority_fold_results(BALANCED, leave_one_out_folds(len(BALANCED)), 3, "lowest_label")
    assert (table["predicted_class"] != BALANCED).all()
    assert table["hits"].sum() == 0


def test_leave_one_out_on_unbalanced_classes_is_not_zero():
    labels = np.array([0] * 6 + [1] * 3 + [2] * 3)
    table = majority_fold_results(labels, leave_one_out_folds(len(labels)), 3, "lowest_label")
    assert table["hits"].sum() == 6  # the clear majority survives deleting one of its members


@pytest.mark.parametrize("rule, expected", [("lowest_label", 1), ("highest_label", 2)])
def test_deterministic_tie_breaks_pick_the_first_or_last_tied_class(rule, expected):
    assert label_of_most(np.array([3, 5, 5]), rule) == expected


def test_random_tie_break_draws_only_when_there_is_a_tie():
    rng = np.random.default_rng(5)
    state = rng.bit_generator.state
    assert label_of_most(np.array([1, 7, 2]), "random", rng) == 1
    assert rng.bit_generator.state == state
    picks = {label_of_most(np.array([4, 4, 1]), "random", rng) for _ in range(50)}
    assert picks == {0, 1}


def test_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="tie_break must be one of"):
        label_of_most(np.array([1, 1]), "coin")


def test_random_tie_break_needs_a_generator():
    with pytest.raises(ValueError, match="needs a random generator"):
        label_of_most(np.array([2, 2]), "random")


@pytest.mark.parametrize("seed", range(5))
def test_tie_breaking_moves_no_accuracy_on_balanced_data(seed):
    folds = shuffled_partition(len(BALANCED), 4, seed)
    hits = [majority_fold_results(BALANCED, folds, 3, rule, np.random.default_rng(seed))["hits"].tolist() for rule in TIE_BREAKS]
    assert hits[0] == hits[1] == hits[2]


def test_tie_breaking_can_move_accuracy_on_unbalanced_data():
    labels = np.array([0, 0, 0, 1, 1])
    folds = [np.array([0]), np.array([1, 2, 3, 4])]  # the first fold leaves a 2-2 tie whose winner decides its hit
    low = majority_fold_results(labels, folds, 2, "lowest_label")
    high = majority_fold_results(labels, folds, 2, "highest_label")
    assert low.loc[0, "hits"] == 1 and high.loc[0, "hits"] == 0


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


@pytest.mark.parametrize("counts, size, rule", [((3, 2, 2), 3, "lowest_label"), ((3, 2, 2), 3, "highest_label"),
                                                ((2, 2, 2), 2, "random"), ((4, 1, 2), 4, "lowest_label")])
def test_expected_fold_accuracy_equals_the_average_over_every_subset(counts, size, rule):
    labels = np.repeat(np.arange(len(counts)), counts)
    accuracies = []
    for subset in combinations(range(len(labels)), size):
        held_out = np.bincount(labels[list(subset)], minlength=len(counts))
        remaining = np.array(counts) - held_out
        tied = np.flatnonzero(remaining == remaining.max())
        chosen = {"lowest_label": [tied[0]], "highest_label": [tied[-1]], "random": tied}[rule]
        accuracies.append(np.mean([held_out[c] for c in chosen]) / size)
    assert expected_fold_accuracy(counts, size, rule) == pytest.approx(np.mean(accuracies), rel=1e-12)


def test_shuffled_kfold_average_is_consistent_with_its_exact_expectation():
    runs, _ = majority_cv_study(BALANCED, 3, 4, partitions=400, first_seed=0, tie_break="lowest_label", tie_seed=0)
    shuffled = runs[runs["scheme"] == "shuffled"]["accuracy_percent"]
    se = shuffled.std(ddof=1) / np.sqrt(len(shuffled))
    exact = 100 * expected_shuffled_kfold_accuracy((8, 8, 8), 4, "lowest_label")
    assert abs(shuffled.mean() - exact) <= 4 * se


def test_stratified_folds_of_balanced_classes_give_the_same_score_in_every_fold_and_partition():
    runs, folds = majority_cv_study(BALANCED, 3, 4, partitions=20, first_seed=3, tie_break="random", tie_seed=1)
    estimates = protocol_estimates(runs, np.bincount(BALANCED)).set_index("scheme")
    assert estimates.loc["stratified", "spread_over_partitions_percent"] == 0.0
    assert estimates.loc["stratified", "fold_range_percent"] == 0.0
    assert estimates.loc["stratified", "accuracy_percent"] == estimates.loc["stratified", "full_data_accuracy_percent"]
    assert estimates.loc["leave-one-out", "fold_sd_percent"] == 0.0


def test_identical_values_have_exactly_zero_spread():
    assert spread(np.full(7, 100 / 3)) == 0.0
    assert spread([1.0, 2.0]) == pytest.approx(0.5)


def test_class_count_summary_reports_smallest_and_largest_class():
    row = class_count_summary(np.array([0, 0, 1, 2, 2, 2]), ["a", "b", "c"]).iloc[0]
    assert (row["min_class_count"], row["max_class_count"], row["count_c"]) == (1, 3, 3)
