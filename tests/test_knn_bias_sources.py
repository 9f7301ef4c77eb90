"""Part 1's errors split into training size and validation, and the class-balanced leave-one-out."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.studies.knn_bias_sources import (
    bias_source_claims,
    bias_source_differences,
    bias_sources,
    source_pairs,
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


def test_the_training_size_claims_hold_when_larger_k_trains_closer_to_the_full_model():
    models = fold_models()
    claims = {c[0]: c for c in bias_source_claims(models, bias_source_differences(models, source_pairs(ORDER)), ORDER)}
    assert claims["larger_k_less_training_size_bias"][1] is True
    assert claims["loo_smallest_training_size_bias"][1] is True
    assert claims["loo_little_training_size_bias"][1] and claims["loo_little_training_size_bias"][2] == pytest.approx(
        1 / 15, rel=0.1
    )
    assert claims["loo_pessimism_is_class_imbalance"][1]
    # Leave-one-out's models as far from the full model as 5-fold's: the ordering fails, and "little" too.
    worse = fold_models(loo_effect=-0.02)
    claims = {c[0]: c for c in bias_source_claims(worse, bias_source_differences(worse, source_pairs(ORDER)), ORDER)}
    assert claims["larger_k_less_training_size_bias"][1] is False
    assert not claims["loo_little_training_size_bias"][1]
