import numpy as np
import pandas as pd

from cvsuite.studies.knn_estimators import estimator_summary
from cvsuite.studies.nested_optimism import candidate_growth, growth_findings
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, simulate_dataset, simulate_datasets
from cvsuite.workflow.shards import shard_ranges

GRID = {"sigmas": [0, 1, 2], "ks": [1, 3, 5]}
SETTINGS = ShapeStudySettings.from_config(
    {"images": {"per_class": 10, "fresh_per_class": 50, "size": 16, "max_shift": 2, "contrast_low": 0.5,
                "contrast_high": 1.0, "noise_sd": 0.6}, "grid": GRID},
    {"sigma": 1, "k": 3, "holdout_folds": 4, "kfold_folds": [4, 5], "repartition_seed": 2, "repartitions": 3,
     "repartition_folds": 4},
    {"selection_folds": 3, "outer_folds": 3,
     "candidate_sets": [{"sigmas": [1], "ks": [3]}, {"sigmas": [1], "ks": [1, 3, 5]}, GRID]},
)


def test_shard_ranges_cover_every_seed_once():
    assert shard_ranges(5, 7, 3) == [(5, 8), (8, 11), (11, 12)]
    assert shard_ranges(0, 4, 10) == [(0, 4)]


def test_a_dataset_depends_on_its_seed_alone():
    alone = simulate_dataset(3, SETTINGS)
    together = simulate_datasets(range(1, 5), SETTINGS)
    rows = together.estimates[together.estimates["dataset"] == 3].reset_index(drop=True)
    pd.testing.assert_frame_equal(alone.estimates, rows)


def test_estimators_are_named_and_counted_as_the_document_prints_them():
    result = simulate_dataset(0, SETTINGS)
    assert list(result.estimates["estimator"]) == ["holdout 25%", "4-fold", "5-fold", "leave-one-out"]
    assert list(result.estimates["held_out_images"]) == [10, 40, 40, 40]


def test_repartitions_only_on_the_chosen_dataset():
    assert simulate_dataset(1, SETTINGS).repartitions.empty
    repeated = simulate_dataset(2, SETTINGS).repartitions
    assert len(repeated) == 2 * SETTINGS.repartitions


def test_the_winner_of_a_larger_candidate_set_scores_at_least_as_high():
    selection = simulate_datasets(range(4), SETTINGS).selection
    scores = selection.pivot(index="dataset", columns="n_candidates", values="non_nested_score")
    assert (np.diff(scores.to_numpy(), axis=1) >= 0).all()
    assert sorted(selection["n_candidates"].unique()) == [1, 3, 9]


def test_summaries_have_a_row_per_estimator_and_per_candidate_set():
    result = simulate_datasets(range(4), SETTINGS)
    summary = estimator_summary(result.estimates, SETTINGS.estimator_names())
    assert list(summary["n_datasets"]) == [4, 4, 4, 4]
    growth = candidate_growth(result.selection)
    assert list(growth["n_candidates"]) == [1, 3, 9]
    assert growth_findings(result.selection).loc[0, "largest_set"] == 9


def test_settings_come_from_config_blocks():
    assert SETTINGS.fixed_k == 3 and SETTINGS.candidate_sets[-1] == ((0, 1, 2), (1, 3, 5))
