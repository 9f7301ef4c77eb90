"""Study grouped_folds: grouped images under random, grouped and stratified grouped folds."""

import numpy as np
import pytest

from cvsuite.studies.grouped_folds import (
    GroupedDesign,
    class_share_deviation,
    group_placement,
    grouped_folds_summary,
    grouped_sample,
    interactions_split,
    nearest_neighbour_predictions,
    simulate_grouped_folds,
)

DESIGN = GroupedDesign(
    groups=20, per_group=4, features=3, separation=2.0, jitter=0.05, minority_share=0.3, new_groups=40
)


def test_a_grouped_sample_has_unequal_groups_of_one_class_each_near_their_centre():
    x, y, groups = grouped_sample(DESIGN, 20, np.random.default_rng(1))
    sizes = np.bincount(groups)
    assert len(sizes) == 20 and sizes.min() >= 2 and sizes.max() <= 2 * 4 - 2
    assert all(len(set(y[groups == g])) == 1 for g in range(20))
    assert sum(y[groups == g][0] for g in range(20)) == round(0.3 * 20)
    spread = max(x[groups == g].std(axis=0).max() for g in range(20) if sizes[g] > 1)
    assert spread < 0.2  # near-duplicates: the jitter, not the groups' unit spread


def test_nearest_neighbour_recalls_a_training_point_exactly():
    x = np.array([[0.0, 0.0], [5.0, 5.0]])
    assert list(nearest_neighbour_predictions(x, np.array([0, 1]), np.array([[0.1, 0.0], [4.0, 4.5]]))) == [0, 1]


def test_group_placement_counts_groups_on_both_sides_and_groups_held_out_twice():
    groups = np.array([0, 0, 1, 1])
    split_apart = [(np.array([0, 2]), np.array([1, 3])), (np.array([1, 3]), np.array([0, 2]))]
    whole = [(np.array([2, 3]), np.array([0, 1])), (np.array([0, 1]), np.array([2, 3]))]
    assert group_placement(groups, split_apart) == (2, 2)
    assert group_placement(groups, whole) == (0, 0)
    assert class_share_deviation(np.array([1, 1, 0, 0]), whole) == pytest.approx(0.5)


def test_random_folds_read_grouped_data_optimistic_and_grouped_folds_keep_groups_whole():
    runs = simulate_grouped_folds(DESIGN, 4, datasets=6, first_seed=3)
    summary = grouped_folds_summary(runs).set_index("scheme")
    assert summary.loc["random", "cv_minus_new_groups"] > summary.loc["grouped", "cv_minus_new_groups"] + 0.05
    assert (
        summary.loc["grouped", "splits_sharing_a_group"] == 0
        and summary.loc["grouped", "groups_not_held_out_once"] == 0
    )
    assert summary.loc["stratified_grouped", "splits_sharing_a_group"] == 0
    assert summary.loc["random", "splits_sharing_a_group"] > 0
    assert summary.loc["grouped", "leave_one_group_out_splits"] == 20
    # The paired differences are the per-data-set differences' means.
    by = {s: b.sort_values("dataset") for s, b in runs.groupby("scheme")}
    gap = (
        by["grouped"]["class_share_deviation"].to_numpy() - by["stratified_grouped"]["class_share_deviation"].to_numpy()
    )
    assert summary.loc["stratified_grouped", "grouped_deviation_minus_this"] == pytest.approx(gap.mean())


def test_a_random_split_over_interactions_trains_on_some_users_later_interactions():
    table = interactions_split(50, 10, 0.2, 0).set_index("split")
    assert table.loc["random", "users_with_later_training"] > 0
    assert table.loc["latest_held_out", "users_with_later_training"] == 0
    assert table.loc["random", "share"] == pytest.approx(table.loc["random", "users_with_later_training"] / 50)
