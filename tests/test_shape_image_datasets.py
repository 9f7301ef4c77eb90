"""Step shape_image_datasets: one dataset of "Cross-Validation", section Example, Parts 1 and 2.

The central test redoes a dataset independently: the document's draws in order, scipy's blur and
scikit-learn's KNeighborsClassifier for every held-out prediction and every true accuracy.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.ndimage import gaussian_filter
from sklearn.neighbors import KNeighborsClassifier
from threadpoolctl import threadpool_limits

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import stratified_round_robin_folds
from cvsuite.methods.knn import blurred_features, squared_distances
from cvsuite.studies.shape_image_datasets import _Dataset, simulate_dataset, simulate_datasets
from cvsuite.studies.shape_image_settings import ShapeStudySettings, holdout_name, kfold_name

GRID = {"sigmas": [0, 1, 2], "ks": [1, 3, 5]}
SETTINGS = ShapeStudySettings.from_config(
    {
        "images": {
            "per_class": 10,
            "fresh_per_class": 50,
            "size": 16,
            "max_shift": 2,
            "contrast_low": 0.5,
            "contrast_high": 1.0,
            "noise_sd": 0.6,
        },
        "grid": GRID,
        "first_seed": 0,
        "datasets": 2,
    },
    {
        "sigma": 1,
        "k": 3,
        "holdout_folds": 4,
        "kfold_folds": [4, 5],
        "repartition_seed": 2,
        "repartitions": 3,
        "repartition_folds": 4,
    },
    {
        "selection_folds": 3,
        "outer_folds": 3,
        "candidate_sets": [{"sigmas": [1], "ks": [3]}, {"sigmas": [1], "ks": [1, 3, 5]}, GRID],
    },
)


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """scikit-learn's neighbour search spins OpenMP threads; on a busy machine one thread is many times faster."""
    with threadpool_limits(1):
        yield


def blur(images, sigma):
    return np.array([gaussian_filter(x, sigma) if sigma else x for x in images]).reshape(len(images), -1)


def hits(features, labels, train, test, k):
    return int(
        (
            KNeighborsClassifier(k, algorithm="brute").fit(features[train], labels[train]).predict(features[test])
            == labels[test]
        ).sum()
    )


def cv_hits(features, labels, universe, folds, k):
    return sum(hits(features, labels, np.setdiff1d(universe, fold), fold, k) for fold in folds)


def independent_dataset(seed):
    """The document's Example for one dataset outside the repartitioned one, by scikit-learn."""
    rng = np.random.default_rng(seed)
    images, labels = draw_shape_images(10, rng, ShapeImageDesign())
    fresh, fresh_labels = draw_shape_images(50, rng, ShapeImageDesign())
    features = {s: blur(images, s) for s in GRID["sigmas"]}

    def true_accuracy(sigma, k):
        return (
            KNeighborsClassifier(k, algorithm="brute")
            .fit(features[sigma], labels)
            .score(blur(fresh, sigma), fresh_labels)
        )

    everything = np.arange(len(labels))
    partitions = [
        stratified_round_robin_folds(labels, 4, rng)[:1],
        stratified_round_robin_folds(labels, 4, rng),
        stratified_round_robin_folds(labels, 5, rng),
        [np.array([i]) for i in everything],
    ]
    estimates = [cv_hits(features[1], labels, everything, folds, 3) / sum(map(len, folds)) for folds in partitions]

    settings = [(s, k) for s in GRID["sigmas"] for k in GRID["ks"]]
    selection_folds = stratified_round_robin_folds(labels, 3, rng)
    scores = [cv_hits(features[s], labels, everything, selection_folds, k) for s, k in settings]
    winner = settings[int(np.argmax(scores))]
    nested = 0
    for test in stratified_round_robin_folds(labels, 3, rng):
        train = np.setdiff1d(everything, test)
        inner = [train[f] for f in stratified_round_robin_folds(labels[train], 3, rng)]
        chosen = settings[int(np.argmax([cv_hits(features[s], labels, train, inner, k) for s, k in settings]))]
        nested += hits(features[chosen[0]], labels, train, test, chosen[1])
    return {
        "estimates": estimates,
        "true": true_accuracy(1, 3),
        "winner": winner,
        "non_nested": max(scores) / 40,
        "nested": nested / 40,
        "winner_true": true_accuracy(*winner),
    }


@pytest.mark.parametrize("seed", [3])
def test_a_dataset_is_the_documents_example_computed_by_scikit_learn(seed):
    ours, theirs = simulate_dataset(seed, SETTINGS), independent_dataset(seed)
    assert ours.estimates["estimate"].tolist() == pytest.approx(theirs["estimates"], abs=1e-15)
    assert (ours.estimates["true_accuracy"] == theirs["true"]).all()
    full = ours.selection.iloc[-1]
    assert (full["winner_sigma"], full["winner_k"]) == theirs["winner"]
    assert full["non_nested_score"] == pytest.approx(theirs["non_nested"], abs=1e-15)
    assert full["nested_estimate"] == pytest.approx(theirs["nested"], abs=1e-15)
    assert full["true_accuracy"] == pytest.approx(theirs["winner_true"], abs=1e-15)
    assert full["optimism"] == full["non_nested_score"] - full["true_accuracy"]


def test_a_dataset_depends_on_its_seed_alone():
    alone = simulate_dataset(3, SETTINGS)
    together = simulate_datasets(range(1, 5), SETTINGS)
    pd.testing.assert_frame_equal(
        alone.estimates, together.estimates[together.estimates["dataset"] == 3].reset_index(drop=True)
    )
    pd.testing.assert_frame_equal(
        alone.selection, together.selection[together.selection["dataset"] == 3].reset_index(drop=True)
    )


def test_estimators_are_named_and_counted_as_the_document_prints_them():
    result = simulate_dataset(0, SETTINGS)
    assert list(result.estimates["estimator"]) == ["holdout 25%", "4-fold", "5-fold", "leave-one-out"]
    assert list(result.estimates["held_out_images"]) == [10, 40, 40, 40]
    assert (holdout_name(5), kfold_name(10)) == ("holdout 20%", "10-fold")


def test_repartitions_only_on_the_chosen_dataset():
    assert simulate_dataset(1, SETTINGS).repartitions.empty
    repeated = simulate_dataset(2, SETTINGS).repartitions
    assert repeated["estimator"].tolist() == ["holdout 25%", "4-fold"] * SETTINGS.repartitions
    assert repeated["repetition"].tolist() == [0, 0, 1, 1, 2, 2]


def test_the_winner_of_a_larger_candidate_set_scores_at_least_as_high():
    selection = simulate_datasets(range(4), SETTINGS).selection
    scores = selection.pivot(index="dataset", columns="n_candidates", values="non_nested_score")
    assert (np.diff(scores.to_numpy(), axis=1) >= 0).all()
    assert sorted(selection["n_candidates"].unique()) == [1, 3, 9]


def test_settings_come_from_config_blocks():
    assert SETTINGS.fixed_k == 3 and SETTINGS.candidate_sets[-1] == ((0, 1, 2), (1, 3, 5))
    assert SETTINGS.design == ShapeImageDesign() and SETTINGS.fresh_per_class == 50


def test_the_fresh_images_are_ranked_the_documents_way_where_two_distances_tie():
    rng = np.random.default_rng(0)
    images, labels = draw_shape_images(10, rng, SETTINGS.design)
    images[7] = images[3]  # every fresh image is equally far from these two: a tie in every row
    fresh, fresh_labels = draw_shape_images(20, rng, SETTINGS.design)
    data = _Dataset.of_images(SETTINGS, images, labels, fresh, fresh_labels)
    literal = np.argsort(squared_distances(blurred_features(fresh, 1), blurred_features(images, 1)), axis=1)
    assert np.array_equal(data.fresh_ranking(1, 15), literal[:, :15])
