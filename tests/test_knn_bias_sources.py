"""Part 1's errors split into training size and validation, and the class-balanced leave-one-out."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.studies.knn_bias_sources import (
    bias_source_differences,
    bias_sources,
    source_pairs,
    training_size_share,
)
from cvsuite.studies.shape_image_datasets import BALANCED_LOO

ORDER = ["holdout 20%", "5-fold", "10-fold", "leave-one-out"]


def fold_models(n=40, loo_effect=-0.001, seed=0):
    rng = np.random.default_rng(seed)
    effects = {
        "holdout 20%": -0.014,
        "5-fold": -0.015,
        "10-fold": -0.007,
        "leave-one-out": loo_effect,
        BALANCED_LOO: -0.003,
    }
    rows = []
    for dataset in range(n):
        true = 0.6 + rng.normal(0, 0.02)
        for name, effect in effects.items():
            training = effect + rng.normal(0, 0.001)
            validation = rng.normal(0.01 if name == BALANCED_LOO else -0.005, 0.01)
            rows.append(
                {
                    "dataset": dataset,
                    "estimator": name,
                    "training_images": 64.0,
                    "estimate": true + training + validation,
                    "fold_models_true_accuracy": true + training,
                    "true_accuracy": true,
                    "training_size_effect": training,
                    "validation_effect": validation,
                }
            )
    return pd.DataFrame(rows)


def test_the_two_sources_add_up_to_each_estimators_mean_error():
    table = bias_sources(fold_models(), ORDER).set_index("estimator")
    assert list(table.index) == ORDER + [BALANCED_LOO]
    total = table["training_size_effect"] + table["validation_effect"]
    np.testing.assert_allclose(total, table["mean_error"], atol=1e-12)


def test_the_pairs_compare_each_k_with_the_next_and_the_balanced_with_leave_one_out():
    pairs = source_pairs(ORDER)
    assert ("10-fold", "5-fold") in pairs and ("leave-one-out", "10-fold") in pairs
    assert ("leave-one-out", "holdout 20%") in pairs and (BALANCED_LOO, "leave-one-out") in pairs


def test_larger_k_trains_closer_to_the_full_model_paired_over_the_datasets():
    """What the records on the training-size bias read: the paired differences of the training-size
    effects (larger K minus smaller, leave-one-out minus each other) with their standard errors."""
    models = fold_models()
    pair = bias_source_differences(models, source_pairs(ORDER)).set_index(["estimator", "versus"])
    for step in [("10-fold", "5-fold"), ("leave-one-out", "10-fold"), ("leave-one-out", "holdout 20%")]:
        row = pair.loc[step]
        assert row["training_size_effect_difference"] > 2 * row["training_size_effect_difference_se"], step
    balanced = pair.loc[(BALANCED_LOO, "leave-one-out")]
    assert balanced["mean_error_difference"] > 2 * balanced["mean_error_difference_se"]  # 0.015 better, noise 0.01
    # Leave-one-out's models as far from the full model as 5-fold's: the step to it turns negative.
    worse = fold_models(loo_effect=-0.02)
    row = (
        bias_source_differences(worse, source_pairs(ORDER))
        .set_index(["estimator", "versus"])
        .loc[("leave-one-out", "10-fold")]
    )
    assert row["training_size_effect_difference"] < -2 * row["training_size_effect_difference_se"]


def test_the_training_size_share_is_a_ratio_of_means_with_its_delta_method_error():
    """ "Little of this bias": leave-one-out's training-size effect over 5-fold's, paired by dataset."""
    models = fold_models()
    share = training_size_share(models, "leave-one-out", "5-fold").iloc[0]
    effects = models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    ratio = effects["leave-one-out"].mean() / effects["5-fold"].mean()
    linear = (effects["leave-one-out"] - ratio * effects["5-fold"]) / effects["5-fold"].mean()
    assert share["share"] == pytest.approx(ratio) and share["share"] == pytest.approx(1 / 15, rel=0.1)
    assert share["share_se"] == pytest.approx(np.std(linear, ddof=1) / np.sqrt(len(linear)))
    assert (share["estimator"], share["versus"], share["datasets"]) == ("leave-one-out", "5-fold", 40)
    assert training_size_share(fold_models(loo_effect=-0.02), "leave-one-out", "5-fold").iloc[0]["share"] > 1


def test_each_bias_is_read_on_the_scale_of_the_error_it_is_a_bias_of():
    """'Estimates the error of': the full model's accuracy minus the estimate over its error, and the
    same against the models the estimator trains, each a ratio of means over the datasets."""
    models = fold_models()
    table = bias_sources(models, ORDER).set_index("estimator")
    block = models[models["estimator"] == "5-fold"]
    full = (block["true_accuracy"] - block["estimate"]).mean() / (1 - block["true_accuracy"]).mean()
    trained = block["fold_models_true_accuracy"]
    own = (trained - block["estimate"]).mean() / (1 - trained).mean()
    assert table.loc["5-fold", "pessimism_share_of_error"] == pytest.approx(full)
    assert table.loc["5-fold", "fold_models_pessimism_share"] == pytest.approx(own)
    # The fixture's validation effect is -0.005 (the estimate below its models): pessimistic on both scales.
    assert table.loc["5-fold", "fold_models_pessimism_share"] > 0
    assert table.loc["5-fold", "pessimism_share_of_error_se"] > 0
