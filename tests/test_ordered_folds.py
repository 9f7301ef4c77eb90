import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import KFold
from sklearn.neighbors import NearestCentroid

from cvsuite.data.gaussian_classes import GaussianClasses, class_ordered_sample
from cvsuite.studies.ordered_folds import (
    SCHEMES,
    composition_table,
    cross_validate,
    fold_class_composition,
    folds_for,
    ordered_folds_summary,
    schemes_at_k,
    simulate_ordered_folds,
    whole_classes_held_out,
)

LABELS = np.repeat(np.arange(4), 6)
SMALL = GaussianClasses(n_classes=4, per_class=8, test_per_class=20, n_features=5, separation=1.5)


DOCUMENT_DESIGN = GaussianClasses(n_classes=10, per_class=30, test_per_class=50, n_features=20, separation=0.7)


def _cross_validate_by_hand(X, labels, X_test, labels_test, folds):
    """Each fold's model is scikit-learn's NearestCentroid fitted on the other folds' rows."""
    correct, fold_accuracies, true_hits, unseen = 0, [], 0.0, 0
    for fold in folds:
        train = np.setdiff1d(np.arange(labels.size), fold)
        model = NearestCentroid().fit(X[train], labels[train])
        hits = model.predict(X[fold]) == labels[fold]
        correct += hits.sum()
        fold_accuracies.append(100 * hits.mean())
        true_hits += len(fold) * np.mean(model.predict(X_test) == labels_test)
        unseen += np.sum(~np.isin(labels[fold], labels[train]))
    n = labels.size
    return {
        "cv_accuracy_percent": 100 * correct / n,
        "fold_models_true_accuracy_percent": 100 * true_hits / n,
        "unseen_class_percent": 100 * unseen / n,
        "cv_std_error_points": np.std(fold_accuracies, ddof=1) / np.sqrt(len(folds)),
    }


@pytest.mark.parametrize("k", [3, 4])
def test_unshuffled_and_shuffled_folds_are_scikit_learns_kfold(k):
    unshuffled = [test for _, test in KFold(k).split(LABELS)]
    shuffled = [test for _, test in KFold(k, shuffle=True, random_state=7).split(LABELS)]
    assert [f.tolist() for f in folds_for("unshuffled", LABELS, k, random_state=7)] == [f.tolist() for f in unshuffled]
    assert [f.tolist() for f in folds_for("shuffled", LABELS, k, random_state=7)] == [f.tolist() for f in shuffled]


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


def test_cross_validation_of_whole_class_folds_scores_nothing_right():
    design = GaussianClasses(n_classes=4, per_class=6, test_per_class=20, n_features=3, separation=3.0)
    X, labels, X_test, labels_test = class_ordered_sample(design, np.random.default_rng(4))
    result = cross_validate(X, labels, X_test, labels_test, folds_for("unshuffled", labels, 4, 0), n_classes=4)
    assert result["cv_accuracy_percent"] == 0.0
    assert result["unseen_class_percent"] == 100.0
    assert result["whole_classes_held_out"] == 4
    assert result["fold_models_true_accuracy_percent"] > 50.0


@pytest.mark.parametrize("scheme", ["shuffled", "unshuffled"])
def test_cross_validation_scores_each_fold_with_a_classifier_fitted_on_the_others(scheme):
    X, labels, X_test, labels_test = class_ordered_sample(SMALL, np.random.default_rng(5))
    folds = folds_for(scheme, labels, 3, random_state=5)
    result = cross_validate(X, labels, X_test, labels_test, folds, n_classes=4)
    for name, value in _cross_validate_by_hand(X, labels, X_test, labels_test, folds).items():
        assert result[name] == pytest.approx(value), name


def test_composition_table_has_one_count_per_scheme_fold_and_class():
    table = composition_table(4, 6, 3, random_state=0)
    assert len(table) == len(SCHEMES) * 3 * 4
    assert table.groupby(["scheme", "class"])["held_out"].sum().eq(6).all()
    unshuffled = table[table["scheme"] == "unshuffled"].pivot(index="fold", columns="class", values="held_out")
    # 24 items in 3 blocks of 8: classes 0 | 0 and 1 | 1 and 2 ... by hand
    assert unshuffled.to_numpy().tolist() == [[6, 2, 0, 0], [0, 4, 4, 0], [0, 0, 2, 6]]


def test_data_set_s_is_drawn_from_first_seed_plus_s_and_shuffled_with_that_random_state():
    runs = simulate_ordered_folds(SMALL, [4], n_datasets=2, first_seed=20)
    rng = np.random.default_rng(21)
    means = 1.5 * rng.standard_normal((4, 5))
    labels, labels_test = np.repeat(np.arange(4), 8), np.repeat(np.arange(4), 20)
    X = means[labels] + rng.standard_normal((32, 5))
    X_test = means[labels_test] + rng.standard_normal((80, 5))
    mine = runs[runs["dataset"] == 1].set_index("scheme")
    truth = 100 * np.mean(NearestCentroid().fit(X, labels).predict(X_test) == labels_test)
    assert mine["true_accuracy_percent"].tolist() == pytest.approx([truth] * len(SCHEMES))
    folds = [test for _, test in KFold(4, shuffle=True, random_state=21).split(X)]
    by_hand = _cross_validate_by_hand(X, labels, X_test, labels_test, folds)
    assert mine.loc["shuffled", "cv_accuracy_percent"] == pytest.approx(by_hand["cv_accuracy_percent"])
    assert mine.loc["shuffled", "fold_models_true_accuracy_percent"] == pytest.approx(
        by_hand["fold_models_true_accuracy_percent"]
    )


def test_simulation_shows_the_collapse_only_for_unshuffled_folds_a_class_long():
    runs = simulate_ordered_folds(SMALL, [4, 8], n_datasets=6, first_seed=0)
    summary = ordered_folds_summary(runs).set_index(["folds", "scheme"])
    assert summary.loc[(4, "unshuffled"), "cv_accuracy_percent"] == 0.0
    assert summary.loc[(4, "stratified"), "cv_accuracy_percent"] > 50.0
    assert summary.loc[(8, "unshuffled"), "cv_accuracy_percent"] > 25.0


def test_simulation_refuses_more_folds_than_members_of_a_class():
    with pytest.raises(ValueError, match="K = 9 folds: stratified folds need at least 9 members per class"):
        simulate_ordered_folds(SMALL, [9], n_datasets=2, first_seed=0)


def _summary(unshuffled_cv, shuffled_bias, shuffled_whole):
    rows = []
    for scheme in SCHEMES:
        cv = unshuffled_cv if scheme == "unshuffled" else 85.0 + shuffled_bias
        rows.append(
            {
                "folds": 10,
                "scheme": scheme,
                "datasets": 100,
                "cv_accuracy_percent": cv,
                "cv_accuracy_percent_se": 0.4,
                "fold_models_true_accuracy_percent": 85.0,
                "fold_models_true_accuracy_percent_se": 0.4,
                "true_accuracy_percent": 86.0,
                "true_accuracy_percent_se": 0.4,
                "unseen_class_percent": 0.0,
                "whole_classes_held_out": 10.0 if scheme == "unshuffled" else shuffled_whole,
                "cv_std_error_points": 2.0,
                "cv_minus_truth_points": cv - 86.0,
                "cv_minus_truth_points_se": 0.4,
                "cv_minus_fold_models_points": cv - 85.0,
                "cv_minus_fold_models_points_se": 0.2,
                "datasets_with_a_whole_class_held_out": 100 if scheme == "unshuffled" else int(shuffled_whole > 0),
            }
        )
    return pd.DataFrame(rows)


def test_the_schemes_side_by_side_give_what_the_records_read_of_a_collapse_that_shuffling_repairs():
    row = schemes_at_k(_summary(0.0, 0.1, 0.0), DOCUMENT_DESIGN, 10).iloc[0]
    assert row["unshuffled_datasets_with_a_whole_class_held_out"] == 100
    assert row["shuffled_datasets_with_a_whole_class_held_out"] == 0
    # Below chance (10%) by 10 points, with no spread: every data set collapses the same way.
    assert (row["unshuffled_cv_minus_chance_points"], row["unshuffled_cv_minus_chance_points_se"]) == (-10.0, 0.4)
    assert row["collapse_points"] == 86.0
    # Shuffled: 0.1 points from its fold models, against its own standard error of 2 points.
    assert row["shuffled_abs_cv_minus_fold_models_in_cv_std_errors"] == pytest.approx(0.05)
    assert row["shuffled_abs_cv_minus_fold_models_in_cv_std_errors_se"] == pytest.approx(0.1)


def test_the_schemes_side_by_side_show_no_collapse_and_a_biased_shuffle_as_such():
    row = schemes_at_k(_summary(80.0, -3.0, 0.02), DOCUMENT_DESIGN, 10).iloc[0]
    assert row["unshuffled_cv_minus_chance_points"] == 70.0
    # |-3| points against a standard error of 2: 1.5 of it, on either side of the fold models.
    assert row["shuffled_abs_cv_minus_fold_models_in_cv_std_errors"] == pytest.approx(1.5)
    assert row["shuffled_datasets_with_a_whole_class_held_out"] == 1
    assert not any(isinstance(v, bool) for v in row.to_dict().values())


def test_the_schemes_side_by_side_need_their_number_of_folds_among_the_simulated_ones():
    with pytest.raises(ValueError, match="K = 5 is not among"):
        schemes_at_k(_summary(0.0, 0.1, 0.0), DOCUMENT_DESIGN, 5)
