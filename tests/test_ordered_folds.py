import numpy as np
import pandas as pd
import pytest

from cvsuite.studies.ordered_folds import (
    SCHEMES,
    class_ordered_sample,
    composition_table,
    cross_validate,
    fold_class_composition,
    folds_for,
    nearest_centroid_predict,
    ordered_folds_summary,
    ordered_folds_verdict,
    simulate_ordered_folds,
    whole_classes_held_out,
)

LABELS = np.repeat(np.arange(4), 6)


def test_sample_is_stored_class_by_class():
    X, labels, X_test, labels_test = class_ordered_sample(3, 5, 7, 2, 1.0, np.random.default_rng(0))
    assert labels.tolist() == [0] * 5 + [1] * 5 + [2] * 5
    assert X.shape == (15, 2) and X_test.shape == (21, 2)
    assert np.all(np.diff(labels_test) >= 0)


def test_unshuffled_folds_are_consecutive_blocks():
    folds = folds_for("unshuffled", LABELS, 4, random_state=0)
    assert [f.tolist() for f in folds] == [list(range(6 * k, 6 * k + 6)) for k in range(4)]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_scheme_holds_out_each_observation_once(scheme):
    folds = folds_for(scheme, LABELS, 3, random_state=1)
    assert sorted(np.concatenate(folds).tolist()) == list(range(24))


@pytest.mark.parametrize("scheme", ["stratified", "stratified_unshuffled"])
def test_stratified_folds_hold_each_class_in_equal_shares(scheme):
    composition = fold_class_composition(LABELS, folds_for(scheme, LABELS, 3, random_state=2), 4)
    assert (composition == 2).all()


def test_unknown_scheme_is_refused():
    with pytest.raises(ValueError, match="unknown fold scheme 'blocked'"):
        folds_for("blocked", LABELS, 3, random_state=0)


def test_whole_classes_are_counted_only_when_no_member_is_left_to_train_on():
    assert whole_classes_held_out(np.array([[6, 0, 3, 0], [0, 6, 3, 6]])) == 3
    assert whole_classes_held_out(np.array([[3, 3], [3, 3]])) == 0


def test_nearest_centroid_never_predicts_a_class_it_did_not_see():
    X, labels, X_test, _ = class_ordered_sample(4, 10, 10, 3, 2.0, np.random.default_rng(3))
    seen = labels != 2
    assert 2 not in nearest_centroid_predict(X[seen], labels[seen], X_test, 4)


def test_nearest_centroid_picks_the_nearest_class_mean():
    X = np.array([[0.0, 0.0], [0.0, 2.0], [10.0, 0.0], [10.0, 2.0]])
    labels = np.array([0, 0, 1, 1])
    assert nearest_centroid_predict(X, labels, np.array([[1.0, 1.0], [8.0, 1.0]]), 2).tolist() == [0, 1]


def test_cross_validation_of_whole_class_folds_scores_nothing_right():
    X, labels, X_test, labels_test = class_ordered_sample(4, 6, 20, 3, 3.0, np.random.default_rng(4))
    result = cross_validate(X, labels, X_test, labels_test, folds_for("unshuffled", labels, 4, 0), 4)
    assert result["cv_accuracy_percent"] == 0.0
    assert result["unseen_class_percent"] == 100.0
    assert result["whole_classes_held_out"] == 4
    assert result["fold_models_true_accuracy_percent"] > 50.0


def test_training_centroids_from_differences_match_a_fit_on_the_training_rows():
    X, labels, X_test, labels_test = class_ordered_sample(4, 6, 20, 3, 1.0, np.random.default_rng(5))
    folds = folds_for("shuffled", labels, 3, random_state=5)
    correct = sum(int(np.sum(nearest_centroid_predict(np.delete(X, f, 0), np.delete(labels, f), X[f], 4) == labels[f]))
                  for f in folds)
    result = cross_validate(X, labels, X_test, labels_test, folds, 4)
    assert result["cv_accuracy_percent"] == pytest.approx(100 * correct / 24)


def test_composition_table_has_one_count_per_scheme_fold_and_class():
    table = composition_table(4, 6, 3, random_state=0)
    assert len(table) == len(SCHEMES) * 3 * 4
    assert table.groupby(["scheme", "class"])["held_out"].sum().eq(6).all()


def test_simulation_shows_the_collapse_only_for_unshuffled_folds_a_class_long():
    runs = simulate_ordered_folds(4, 8, 20, 5, 1.5, [4, 8], 6, 0)
    summary = ordered_folds_summary(runs).set_index(["folds", "scheme"])
    assert summary.loc[(4, "unshuffled"), "cv_accuracy_percent"] == 0.0
    assert summary.loc[(4, "stratified"), "cv_accuracy_percent"] > 50.0
    assert summary.loc[(8, "unshuffled"), "cv_accuracy_percent"] > 25.0


def test_simulation_refuses_more_folds_than_members_of_a_class():
    with pytest.raises(ValueError, match="K = 9 folds: stratified folds need at least 9 members per class"):
        simulate_ordered_folds(4, 8, 20, 5, 1.5, [9], 2, 0)


def _summary(unshuffled_cv, shuffled_bias, shuffled_whole):
    rows = []
    for scheme in SCHEMES:
        cv = unshuffled_cv if scheme == "unshuffled" else 85.0 + shuffled_bias
        rows.append({"folds": 10, "scheme": scheme, "datasets": 100, "cv_accuracy_percent": cv, "cv_accuracy_percent_se": 0.4,
                     "fold_models_true_accuracy_percent": 85.0, "fold_models_true_accuracy_percent_se": 0.4,
                     "true_accuracy_percent": 86.0, "true_accuracy_percent_se": 0.4, "unseen_class_percent": 0.0,
                     "whole_classes_held_out": 10.0 if scheme == "unshuffled" else shuffled_whole,
                     "cv_std_error_points": 2.0, "cv_minus_truth_points": cv - 86.0, "cv_minus_truth_points_se": 0.4,
                     "cv_minus_fold_models_points": cv - 85.0, "cv_minus_fold_models_points_se": 0.2,
                     "datasets_with_a_whole_class_held_out": 100 if scheme == "unshuffled" else int(shuffled_whole > 0)})
    return pd.DataFrame(rows)


def test_verdict_holds_for_a_collapse_that_shuffling_repairs():
    verdict = ordered_folds_verdict(_summary(0.0, 0.1, 0.0), 10, 10, 30, 2.0).iloc[0]
    assert verdict["unshuffled_folds_hold_out_whole_classes"] and verdict["shuffled_folds_hold_out_no_whole_class"]
    assert verdict["unshuffled_estimate_collapses"] and verdict["shuffled_folds_estimate_honestly"]
    assert "collapses to 0.0%" in verdict["verdict"]


def test_verdict_fails_when_there_is_no_collapse_or_shuffling_is_biased():
    verdict = ordered_folds_verdict(_summary(80.0, -3.0, 0.02), 10, 10, 30, 2.0).iloc[0]
    assert not verdict["unshuffled_estimate_collapses"]
    assert not verdict["shuffled_folds_estimate_honestly"]
    assert not verdict["shuffled_folds_hold_out_no_whole_class"]


def test_verdict_needs_its_number_of_folds_among_the_simulated_ones():
    with pytest.raises(ValueError, match="K = 5 is not among"):
        ordered_folds_verdict(_summary(0.0, 0.1, 0.0), 5, 10, 30, 2.0)
