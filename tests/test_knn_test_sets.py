"""Small test sets on the shape-image design: the holdout's spread and a paired test's power."""

import numpy as np
import pytest
import yaml

from conftest import ROOT
from cvsuite.methods.knn import majority_votes
from cvsuite.studies.knn_test_sets import Z_5_PERCENT, holdout_spread, small_test_power
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, _Dataset


@pytest.fixture(scope="module")
def settings():
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    config["shape_images"]["images"]["fresh_per_class"] = 60  # the Example's design, fewer fresh images
    return ShapeStudySettings.from_config(config["shape_images"], config["knn_estimators"], config["nested_optimism"])


def test_the_holdout_is_redrawn_beside_five_fold_on_one_larger_dataset(settings):
    row = holdout_spread(settings, 20, 6, 3).iloc[0]
    assert (row["images"], row["held_out_images"], row["repartitions"]) == (80, 16, 6)
    assert row["holdout_over_kfold_sd"] == pytest.approx(row["holdout_sd"] / row["kfold_sd"])


def test_power_is_the_share_of_pairs_mcnemar_separates_on_each_random_test_set(settings):
    table = small_test_power(settings, 0, [16], 2, 4).iloc[0]
    data = _Dataset(0, settings)
    correct = []
    for sigma in settings.sigmas:
        nearest = data.fresh_ranking(sigma)[:, : max(settings.ks)]
        votes = majority_votes(data.labels[nearest], settings.ks, data.n_classes)
        correct += [votes[:, i] == data.fresh_labels for i in range(len(settings.ks))]
    rng = np.random.default_rng(4)
    shares = []
    for _ in range(2):
        picked = rng.choice(len(data.fresh_labels), size=16, replace=False)
        hits = [c[picked] for c in correct]
        detected = []
        for i in range(len(hits)):
            for j in range(i + 1, len(hits)):
                b, c = int((hits[i] & ~hits[j]).sum()), int((~hits[i] & hits[j]).sum())
                detected.append(b + c > 0 and abs(b - c) / np.sqrt(b + c) > Z_5_PERCENT)
        shares.append(np.mean(detected))
    assert table["pairs"] == 42 * 41 // 2
    assert table["power"] == pytest.approx(np.mean(shares))


def test_a_new_source_is_scored_beside_the_same_source_on_the_same_datasets(settings):
    from cvsuite.data.shape_images import ShapeImageDesign
    from cvsuite.studies.knn_test_sets import new_source

    same = new_source(settings, settings.design, 3, 20, 7).iloc[0]
    # A "new" source drawn from the same design differs only by its own fresh draws.
    assert same["datasets"] == 3 and same["fresh_images"] == 80
    shifted = new_source(settings, ShapeImageDesign(noise_sd=1.5, contrast=(0.2, 0.4)), 3, 20, 7).iloc[0]
    assert shifted["cv_accuracy"] == same["cv_accuracy"]  # the same datasets and partitions
    assert shifted["new_source_accuracy"] < shifted["same_source_accuracy"]
    assert shifted["cv_minus_new_source"] == pytest.approx(shifted["cv_accuracy"] - shifted["new_source_accuracy"])


def test_a_test_size_above_the_fresh_images_is_left_out_not_refused(settings):
    table = small_test_power(settings, 0, [16, 10**6], 2, 4)
    assert table["test_images"].tolist() == [16]


def test_the_fixed_classifier_reads_the_same_from_a_dataset_indexed_at_its_blur_alone(settings):
    from cvsuite.data.shape_images import draw_shape_images
    from cvsuite.methods.folds import stratified_round_robin_folds
    from cvsuite.studies.knn_test_sets import fixed_blur_only

    rng = np.random.default_rng(3)
    images, labels = draw_shape_images(20, rng, settings.design)
    fresh, fresh_labels = draw_shape_images(30, rng, settings.design)
    partitions = [stratified_round_robin_folds(labels, 5, rng) for _ in range(3)]
    full = _Dataset.of_images(settings, images, labels, fresh, fresh_labels)
    narrow = _Dataset.of_images(fixed_blur_only(settings), images, labels, fresh, fresh_labels)
    assert narrow.settings.sigmas == (settings.fixed_sigma,)
    assert narrow.fixed_accuracies(partitions) == full.fixed_accuracies(partitions)
    fixed = (settings.fixed_sigma, settings.fixed_k)
    assert narrow.true_accuracy(*fixed) == full.true_accuracy(*fixed)
