from itertools import combinations

import numpy as np
import pytest

from cvsuite.methods.folds import leave_one_out_folds, shuffled_partition
from cvsuite.methods.majority_class import (
    TIE_BREAKS,
    expected_fold_accuracy,
    expected_shuffled_kfold_accuracy,
    label_of_most,
    majority_fold_results,
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


def test_a_fold_is_scored_against_the_majority_of_the_other_folds():
    labels = np.array([0, 0, 1, 1, 1, 2])
    folds = [np.array([2, 3]), np.array([0, 1, 4, 5])]
    table = majority_fold_results(labels, folds, 3, "lowest_label")
    # fold 0 trains on [0, 0, 1, 2] (predicts 0, no hit); fold 1 on [1, 1] (predicts 1, one hit of 4)
    assert table["predicted_class"].tolist() == [0, 1]
    assert table["hits"].tolist() == [0, 1]
    assert table["accuracy_percent"].tolist() == [0.0, 25.0]
    assert table["tied_classes"].tolist() == [1, 1]


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


def test_random_tie_break_is_one_choice_among_the_tied_classes():
    assert label_of_most(np.array([4, 1, 4]), "random", np.random.default_rng(9)) == np.random.default_rng(9).choice(
        [0, 2]
    )


def test_random_ties_of_a_partition_draw_as_label_of_most_would_fold_by_fold():
    from cvsuite.methods.majority_class import hits_from_counts

    for seed in range(20):
        counts = np.random.default_rng(100 + seed).integers(0, 3, size=(40, 3))
        sizes, held_out = counts.sum(axis=1), counts
        rng, by_fold = np.random.default_rng(seed), np.random.default_rng(seed)
        predicted = hits_from_counts(sizes, held_out, counts, "random", rng)[1]
        assert predicted.tolist() == [label_of_most(row, "random", by_fold) for row in counts]
        assert rng.bit_generator.state == by_fold.bit_generator.state


def test_unknown_tie_break_is_refused():
    with pytest.raises(ValueError, match="tie_break must be one of"):
        label_of_most(np.array([1, 1]), "coin")


def test_random_tie_break_needs_a_generator():
    with pytest.raises(ValueError, match="needs a random generator"):
        label_of_most(np.array([2, 2]), "random")


@pytest.mark.parametrize("seed", range(5))
def test_tie_breaking_moves_no_accuracy_on_balanced_data(seed):
    folds = shuffled_partition(len(BALANCED), 4, seed)
    hits = [
        majority_fold_results(BALANCED, folds, 3, rule, np.random.default_rng(seed))["hits"].tolist()
        for rule in TIE_BREAKS
    ]
    assert hits[0] == hits[1] == hits[2]


def test_tie_breaking_can_move_accuracy_on_unbalanced_data():
    labels = np.array([0, 0, 0, 1, 1])
    folds = [np.array([0]), np.array([1, 2, 3, 4])]  # the first fold leaves a 2-2 tie whose winner decides its hit
    low = majority_fold_results(labels, folds, 2, "lowest_label")
    high = majority_fold_results(labels, folds, 2, "highest_label")
    assert low.loc[0, "hits"] == 1 and high.loc[0, "hits"] == 0


@pytest.mark.parametrize(
    "counts, size, rule",
    [
        ((3, 2, 2), 3, "lowest_label"),
        ((3, 2, 2), 3, "highest_label"),
        ((2, 2, 2), 2, "random"),
        ((4, 1, 2), 4, "lowest_label"),
    ],
)
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


def test_leave_one_out_expectation_on_balanced_classes_is_zero():
    assert expected_shuffled_kfold_accuracy((8, 8, 8), 24, "lowest_label") == 0.0


def test_shuffled_kfold_expectation_is_the_average_over_every_partition():
    # 7 items in 2 folds of 4 and 3 (array_split sizes): every partition is one choice of the first fold
    labels = np.repeat([0, 1, 2], [3, 2, 2])
    pooled = []
    for first in combinations(range(7), 4):
        folds = [np.array(first), np.setdiff1d(np.arange(7), first)]
        pooled.append(majority_fold_results(labels, folds, 3, "lowest_label")["hits"].sum() / 7)
    assert expected_shuffled_kfold_accuracy((3, 2, 2), 2, "lowest_label") == pytest.approx(np.mean(pooled), rel=1e-12)
