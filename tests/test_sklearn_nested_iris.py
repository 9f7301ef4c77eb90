import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold, ParameterGrid, cross_val_score
from sklearn.svm import SVC

from cvsuite.methods.folds import legacy_shuffled_kfold
from cvsuite.methods.nested_selection import (
    best_setting,
    combine_fold_scores,
    estimator_scorer,
    held_out_scores,
    nested_cv,
    non_nested_cv,
    parameter_grid,
)
from cvsuite.published.registry import Claim, published_value
from cvsuite.studies.sklearn_nested_iris import (
    difference_summary,
    gallery_trials,
    optimism_side_by_side,
    shape_image_optimism,
)

X, Y = load_iris(return_X_y=True)
GRID = {"C": [1, 10, 100], "gamma": [0.01, 0.1]}
SETTINGS = parameter_grid(GRID)
SVC_SCORER = estimator_scorer(lambda setting: SVC(kernel="rbf", **setting))


@pytest.mark.parametrize("n, k, seed", [(150, 4, 0), (113, 4, 7), (10, 3, 2), (5, 5, 1)])
def test_legacy_shuffled_kfold_gives_scikit_learns_shuffled_kfold(n, k, seed):
    ours = legacy_shuffled_kfold(n, k, seed)
    theirs = [test for _, test in KFold(k, shuffle=True, random_state=seed).split(np.zeros(n))]
    assert [f.tolist() for f in ours] == [t.tolist() for t in theirs]


def test_legacy_shuffled_kfold_refuses_impossible_fold_counts():
    with pytest.raises(ValueError, match="between 2 and n = 4"):
        legacy_shuffled_kfold(4, 5, 0)


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
    folds = legacy_shuffled_kfold(len(Y), 4, 3)
    ours = non_nested_cv(SVC_SCORER, SETTINGS, X, Y, folds, "mean_of_folds")
    search = GridSearchCV(SVC(kernel="rbf"), GRID, cv=KFold(4, shuffle=True, random_state=3)).fit(X, Y)
    assert ours.setting == search.best_index_
    assert ours.score == search.best_score_
    assert np.array_equal(ours.scores, search.cv_results_["mean_test_score"])


def test_nested_cv_equals_cross_val_score_of_gridsearchcv_bit_for_bit():
    seed = 1
    outer = legacy_shuffled_kfold(len(Y), 4, seed)
    inner = [legacy_shuffled_kfold(len(Y) - len(f), 4, seed) for f in outer]
    ours = nested_cv(SVC_SCORER, SETTINGS, X, Y, outer, inner, "mean_of_folds")
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
    cache = {}
    first = non_nested_cv(counting, SETTINGS, X, Y, folds, "mean_of_folds", cache)
    second = non_nested_cv(counting, SETTINGS, X, Y, folds, "pooled", cache)
    assert len(calls) == len(SETTINGS) * len(folds)
    assert first.scores.shape == second.scores.shape


def test_fit_and_score_must_return_one_score_per_test_item():
    def wrong(setting, X_train, y_train, X_test, y_test):
        return np.ones(len(y_test) + 1)

    with pytest.raises(ValueError, match="scores for"):
        held_out_scores(wrong, SETTINGS[:1], X, Y, legacy_shuffled_kfold(len(Y), 2, 0))


def test_nested_cv_needs_one_inner_partition_per_outer_fold():
    outer = legacy_shuffled_kfold(len(Y), 3, 0)
    with pytest.raises(ValueError, match="2 inner partitions given for 3 outer folds"):
        nested_cv(SVC_SCORER, SETTINGS, X, Y, outer, [legacy_shuffled_kfold(100, 2, 0)] * 2, "pooled")


def test_inner_folds_index_the_outer_training_set_in_increasing_order():
    seen = []

    def recording(setting, X_train, y_train, X_test, y_test):
        seen.append((X_train[:, 0].copy(), X_test[:, 0].copy()))
        return np.zeros(len(y_test))

    data = np.arange(12, dtype=float)[:, None]
    labels = np.zeros(12, dtype=int)
    outer = [np.array([0, 5, 6, 11]), np.array([1, 2, 3, 4]), np.array([7, 8, 9, 10])]
    inner = [[np.array([0, 1]), np.array([2, 3, 4, 5, 6, 7])]] * 3
    nested_cv(recording, [{}], data, labels, outer, inner, "pooled")
    first_train, first_test = seen[0]
    assert first_test.tolist() == [1.0, 2.0] and first_train.tolist() == [3.0, 4.0, 7.0, 8.0, 9.0, 10.0]


def test_gallery_trials_give_one_row_per_trial_and_pair_of_rules():
    trials = gallery_trials(X, Y, SETTINGS, SVC_SCORER, trials=2, n_outer=3, n_inner=3, first_seed=0)
    assert len(trials) == 2 * 4
    assert (trials["difference"] == trials["non_nested_score"] - trials["nested_score"]).all()
    with pytest.raises(ValueError, match="combine must be one of"):
        gallery_trials(X, Y, SETTINGS, SVC_SCORER, 1, 3, 3, 0, combines=["median"])


def test_difference_summary_counts_the_winners_a_rule_changes():
    rows = []
    for inner, outer, setting, chosen, diff in [("mean_of_folds", "mean_of_folds", "a", "a; a", 0.1),
                                                ("pooled", "mean_of_folds", "b", "a; b", 0.3)]:
        rows.append({"trial": 0, "inner_combine": inner, "outer_combine": outer, "non_nested_score": 1.0,
                     "nested_score": 1.0 - diff, "difference": diff, "non_nested_setting": setting, "nested_settings": chosen})
    rows.append({**rows[0], "trial": 1, "difference": 0.3})
    rows.append({**rows[1], "trial": 1, "non_nested_setting": "a", "nested_settings": "a; a"})
    summary = difference_summary(pd.DataFrame(rows)).set_index("inner_combine")
    assert summary.loc["pooled", "non_nested_winner_changes"] == 1
    assert summary.loc["pooled", "nested_choice_changes"] == 1
    assert summary.loc["mean_of_folds", "sd_difference"] == pytest.approx(0.1)  # ddof = 0, as the gallery prints


def _shape_table():
    return pd.DataFrame({"dataset": [0, 1, 0, 1], "n_candidates": [42, 42, 6, 6], "winner_sigma": 1.0, "winner_k": 5,
                         "non_nested_score": [0.7, 0.66, 0.6, 0.6], "nested_estimate": [0.6, 0.61, 0.6, 0.6],
                         "true_accuracy": 0.6})


def test_shape_image_optimism_takes_only_the_requested_candidate_set():
    assert shape_image_optimism(_shape_table(), 42) == pytest.approx([0.1, 0.05])


def test_shape_image_optimism_names_what_is_missing():
    with pytest.raises(ValueError, match="lacks column"):
        shape_image_optimism(_shape_table().drop(columns="nested_estimate"), 42)
    with pytest.raises(ValueError, match=r"no rows with n_candidates = 12 \(it has \[6, 42\]\)"):
        shape_image_optimism(_shape_table(), 12)


def test_optimism_side_by_side_summarises_each_study():
    long, summary = optimism_side_by_side({"a": (np.array([0.0, 0.2]), 6, 150), "b": (np.array([0.1, 0.1, 0.1]), 42, 80)})
    assert len(long) == 5
    assert summary.set_index("study").loc["a", "mean_optimism"] == pytest.approx(0.1)
    assert summary.set_index("study").loc["b", "replicates_positive"] == 3


def test_published_value_reads_a_registry_row_and_names_a_missing_one():
    claim = Claim("x.y", "doc", "", "'q'", "12.5%", "rounded", None, "t.csv", "", "c", "", "")
    assert published_value([claim], "x.y") == 12.5
    with pytest.raises(KeyError, match="no row 'x.z'"):
        published_value([claim], "x.z")
