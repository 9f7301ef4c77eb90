"""Study sklearn_nested_iris: scikit-learn's gallery "Nested versus non-nested cross-validation" on our code."""

import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.svm import SVC

from conftest import project_records
from cvsuite.methods.nested_selection import estimator_scorer, parameter_grid
from cvsuite.published.published_values import published_value
from cvsuite.studies.sklearn_nested_iris import (
    PUBLISHED_REFERENCES,
    difference_summary,
    fold_sizes,
    gallery_trials,
    iris_beside_shape_images,
    optimism_side_by_side,
    shape_image_optimism,
)

X, Y = load_iris(return_X_y=True)
GRID = {"C": [1, 10, 100], "gamma": [0.01, 0.1]}
SETTINGS = parameter_grid(GRID)
SVC_SCORER = estimator_scorer(lambda setting: SVC(kernel="rbf", **setting))


def test_gallery_trials_are_the_gallerys_loop():
    # The gallery, trial i: GridSearchCV(cv=inner_cv).fit(X, y).best_score_ against
    # cross_val_score(GridSearchCV(cv=inner_cv), X, y, cv=outer_cv).mean(), KFold(shuffle, random_state=i).
    trials = gallery_trials(X, Y, SETTINGS, SVC_SCORER, trials=2, n_outer=3, n_inner=3, first_seed=5)
    assert len(trials) == 2 * 4  # one row per trial and (inner, outer) pair of rules
    gallery = trials[(trials["inner_combine"] == "mean_of_folds") & (trials["outer_combine"] == "mean_of_folds")]
    for row in gallery.itertuples():
        inner_cv = KFold(3, shuffle=True, random_state=row.random_state)
        outer_cv = KFold(3, shuffle=True, random_state=row.random_state)
        assert row.non_nested_score == GridSearchCV(SVC(kernel="rbf"), GRID, cv=inner_cv).fit(X, Y).best_score_
        nested = cross_val_score(GridSearchCV(SVC(kernel="rbf"), GRID, cv=inner_cv), X, Y, cv=outer_cv).mean()
        assert row.nested_score == nested
    assert gallery["random_state"].tolist() == [5, 6]


def test_gallery_trials_refuse_an_unknown_combining_rule():
    with pytest.raises(ValueError, match="combine must be one of"):
        gallery_trials(X, Y, SETTINGS, SVC_SCORER, trials=1, n_outer=3, n_inner=3, first_seed=0, combines=["median"])


def test_difference_summary_counts_the_winners_a_rule_changes():
    rows = []
    for inner, outer, setting, chosen, diff in [
        ("mean_of_folds", "mean_of_folds", "a", "a; a", 0.1),
        ("pooled", "mean_of_folds", "b", "a; b", 0.3),
    ]:
        rows.append(
            {
                "trial": 0,
                "inner_combine": inner,
                "outer_combine": outer,
                "non_nested_score": 1.0,
                "nested_score": 1.0 - diff,
                "difference": diff,
                "non_nested_setting": setting,
                "nested_settings": chosen,
            }
        )
    rows.append({**rows[0], "trial": 1, "difference": 0.3})
    rows.append({**rows[1], "trial": 1, "non_nested_setting": "a", "nested_settings": "a; a"})
    summary = difference_summary(pd.DataFrame(rows)).set_index("inner_combine")
    assert summary.loc["pooled", "non_nested_winner_changes"] == 1
    assert summary.loc["pooled", "nested_choice_changes"] == 1
    assert summary.loc["mean_of_folds", "sd_difference"] == pytest.approx(0.1)  # ddof = 0, as the gallery prints
    assert summary.loc["mean_of_folds", "mean_difference_se"] == pytest.approx(0.1)  # s.d. (ddof = 1) 0.1414 / sqrt 2


def _shape_table():
    return pd.DataFrame(
        {
            "dataset": [0, 1, 0, 1],
            "n_candidates": [42, 42, 6, 6],
            "winner_sigma": 1.0,
            "winner_k": 5,
            "non_nested_score": [0.7, 0.66, 0.6, 0.6],
            "nested_estimate": [0.6, 0.61, 0.6, 0.6],
            "true_accuracy": 0.6,
        }
    )


def test_shape_image_optimism_takes_only_the_requested_candidate_set():
    assert shape_image_optimism(_shape_table(), 42) == pytest.approx([0.1, 0.05])


def test_shape_image_optimism_names_what_is_missing():
    with pytest.raises(ValueError, match="lacks column"):
        shape_image_optimism(_shape_table().drop(columns="nested_estimate"), 42)
    with pytest.raises(ValueError, match=r"no rows with n_candidates = 12 \(it has \[6, 42\]\)"):
        shape_image_optimism(_shape_table(), 12)


def test_optimism_side_by_side_summarises_each_study():
    long, summary = optimism_side_by_side(
        {"a": (np.array([0.0, 0.2]), 6, 150), "b": (np.array([0.1, 0.1, 0.1]), 42, 80)}
    )
    assert len(long) == 5
    assert summary.set_index("study").loc["a", "mean_optimism"] == pytest.approx(0.1)
    assert summary.set_index("study").loc["a", "sd_optimism"] == pytest.approx(np.sqrt(0.02))
    assert summary.set_index("study").loc["b", "replicates_positive"] == 3


def test_iris_beside_shape_images_labels_each_study_with_its_design():
    gallery = pd.DataFrame({"difference": [0.0, 0.02, 0.01]})
    _, summary = iris_beside_shape_images(
        gallery, _shape_table(), n_settings=6, n_items=150, shape_candidates=42, shape_items=80
    )
    assert summary["study"].tolist() == [
        "iris, SVC (6 settings, 150 items, 3 trials)",
        "shape images, kNN (42 settings, 80 items, 2 datasets)",
    ]
    assert summary["mean_optimism"].tolist() == pytest.approx([0.01, 0.075])


def test_fold_sizes_are_kfolds_on_iris():
    outer = [len(test) for _, test in KFold(4).split(X)]
    inner = {len(test) for train, _ in KFold(4).split(X) for _, test in KFold(4).split(train)}
    assert outer == [38, 38, 37, 37] and inner == {28, 29}
    assert fold_sizes(150, 4, 4) == "outer folds 38/38/37/37 items, inner folds 28-29 items"


def test_the_reference_lines_are_the_gallerys_printed_numbers():
    # 'Average difference of <mean> with std. dev. of <sd>.': each reference line is the number at
    # its place in the quoted sentence, from the row of the column the figure draws it against.
    claims = project_records()
    rows = {claim.id: claim for claim in claims}
    places = {"mean": (0, "mean_difference"), "sd": (1, "sd_difference"), "mean_iid": (0, "mean_difference")}
    for name, claim_id in PUBLISHED_REFERENCES.items():
        place, column = places[name]
        quoted = re.findall(r"\d+\.\d+", rows[claim_id].cited_words)
        assert published_value(claims, claim_id) == float(quoted[place])
        assert rows[claim_id].reading.reference.column == column
    assert "pooled" in rows[PUBLISHED_REFERENCES["mean_iid"]].reading.reference.rows
