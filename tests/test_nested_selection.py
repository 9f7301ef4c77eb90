"""cvsuite.methods.nested_selection: grid selection, non-nested and nested, bit for bit against scikit-learn."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold, ParameterGrid, cross_val_score
from sklearn.svm import SVC

from cvsuite.methods.folds import legacy_shuffled_kfold
from cvsuite.methods.nested_selection import (
    GridProblem,
    best_setting,
    combine_fold_scores,
    estimator_scorer,
    held_out_scores,
    nested_cv,
    non_nested_cv,
    parameter_grid,
)

X, Y = load_iris(return_X_y=True)
GRID = {"C": [1, 10, 100], "gamma": [0.01, 0.1]}
SETTINGS = parameter_grid(GRID)
SVC_SCORER = estimator_scorer(lambda setting: SVC(kernel="rbf", **setting))
IRIS = GridProblem(SVC_SCORER, SETTINGS, X, Y)


def test_parameter_grid_follows_scikit_learns_order():
    grid = {"gamma": [0.1, 0.01], "C": [100, 1], "kernel": ["rbf"]}
    assert parameter_grid(grid) == list(ParameterGrid(grid))


def test_parameter_grid_refuses_an_empty_value_list():
    with pytest.raises(ValueError, match="no values for 'C'"):
        parameter_grid({"C": [], "gamma": [1]})


def test_combining_rules_agree_on_equal_folds_and_differ_on_unequal_ones():
    equal = [np.array([1.0, 0.0]), np.array([1.0, 1.0])]
    assert combine_fold_scores(equal, "mean_of_folds") == combine_fold_scores(equal, "pooled") == 0.75
    unequal = [np.array([1.0]), np.array([0.0, 0.0, 1.0])]
    assert combine_fold_scores(unequal, "mean_of_folds") == pytest.approx(2 / 3)
    assert combine_fold_scores(unequal, "pooled") == 0.5
    with pytest.raises(ValueError, match="combine must be one of"):
        combine_fold_scores(equal, "median")


def test_best_setting_gives_ties_to_the_first_setting_in_grid_order():
    table = [[np.array([1.0, 0.0])], [np.array([0.0, 1.0])], [np.array([0.0, 0.0])]]
    assert best_setting(table, "pooled")[0] == 0


def test_the_combining_rule_can_change_the_winner():
    # setting 0 wins the one-item fold, setting 1 wins more items overall
    table = [[np.array([1.0]), np.array([1.0, 0.0, 0.0])], [np.array([0.0]), np.array([1.0, 1.0, 1.0])]]
    assert best_setting(table, "mean_of_folds")[0] == 0
    assert best_setting(table, "pooled")[0] == 1


def test_non_nested_cv_equals_gridsearchcv_best_score_bit_for_bit():
    ours = non_nested_cv(IRIS, legacy_shuffled_kfold(len(Y), 4, 3), "mean_of_folds")
    search = GridSearchCV(SVC(kernel="rbf"), GRID, cv=KFold(4, shuffle=True, random_state=3)).fit(X, Y)
    assert ours.setting == search.best_index_
    assert ours.score == search.best_score_
    assert np.array_equal(ours.scores, search.cv_results_["mean_test_score"])


def test_nested_cv_equals_cross_val_score_of_gridsearchcv_bit_for_bit():
    seed = 1
    outer = legacy_shuffled_kfold(len(Y), 4, seed)
    inner = [legacy_shuffled_kfold(len(Y) - len(f), 4, seed) for f in outer]
    ours = nested_cv(IRIS, outer, inner, "mean_of_folds")
    search = GridSearchCV(SVC(kernel="rbf"), GRID, cv=KFold(4, shuffle=True, random_state=seed))
    theirs = cross_val_score(search, X, Y, cv=KFold(4, shuffle=True, random_state=seed))
    assert [float(np.mean(s)) for s in ours.outer_scores] == theirs.tolist()
    assert ours.estimate("mean_of_folds") == theirs.mean()


def test_a_shared_cache_fits_each_model_once():
    calls = []

    def counting(setting, X_train, y_train, X_test, y_test):
        calls.append(1)
        return SVC_SCORER(setting, X_train, y_train, X_test, y_test)

    folds = legacy_shuffled_kfold(len(Y), 3, 0)
    problem = GridProblem(counting, SETTINGS, X, Y, cache={})
    first = non_nested_cv(problem, folds, "mean_of_folds")
    second = non_nested_cv(problem, folds, "pooled")
    assert len(calls) == len(SETTINGS) * len(folds)
    # the cached fits are the fits: the same scores as a selection that fits everything afresh
    assert np.array_equal(second.scores, non_nested_cv(IRIS, folds, "pooled").scores)
    assert first.setting == non_nested_cv(IRIS, folds, "mean_of_folds").setting


def test_fit_and_score_must_return_one_score_per_test_item():
    def wrong(setting, X_train, y_train, X_test, y_test):
        return np.ones(len(y_test) + 1)

    with pytest.raises(ValueError, match="scores for"):
        held_out_scores(GridProblem(wrong, SETTINGS[:1], X, Y), legacy_shuffled_kfold(len(Y), 2, 0))


def test_nested_cv_needs_one_inner_partition_per_outer_fold():
    outer = legacy_shuffled_kfold(len(Y), 3, 0)
    with pytest.raises(ValueError, match="2 inner partitions given for 3 outer folds"):
        nested_cv(IRIS, outer, [legacy_shuffled_kfold(100, 2, 0)] * 2, "pooled")


def test_inner_folds_index_the_outer_training_set_in_increasing_order():
    seen = []

    def recording(setting, X_train, y_train, X_test, y_test):
        seen.append((X_train[:, 0].copy(), X_test[:, 0].copy()))
        return np.zeros(len(y_test))

    data = np.arange(12, dtype=float)[:, None]
    outer = [np.array([0, 5, 6, 11]), np.array([1, 2, 3, 4]), np.array([7, 8, 9, 10])]
    inner = [[np.array([0, 1]), np.array([2, 3, 4, 5, 6, 7])]] * 3
    nested_cv(GridProblem(recording, [{}], data, np.zeros(12, dtype=int)), outer, inner, "pooled")
    first_train, first_test = seen[0]
    assert first_test.tolist() == [1.0, 2.0] and first_train.tolist() == [3.0, 4.0, 7.0, 8.0, 9.0, 10.0]
