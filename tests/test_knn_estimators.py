"""Study knn_estimators: Part 1 of "Cross-Validation", section Example, from the per-dataset rows."""

import numpy as np
import pandas as pd
import pytest
from scipy.ndimage import gaussian_filter
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from threadpoolctl import threadpool_limits

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import stratified_round_robin_folds
from cvsuite.studies.knn_estimators import (
    crosscheck_table,
    estimator_summary,
    repartition_summary,
    spread_findings,
    true_accuracy_range,
)

# Two estimators on three datasets; errors by hand: holdout -0.1, 0.2, 0.2; 5-fold 0.0, 0.05, 0.1.
ESTIMATES = pd.DataFrame(
    {
        "dataset": [0, 0, 1, 1, 2, 2],
        "estimator": ["holdout 20%", "5-fold"] * 3,
        "held_out_images": [16, 80] * 3,
        "estimate": [0.5, 0.6, 0.8, 0.65, 0.9, 0.8],
        "true_accuracy": [0.6, 0.6, 0.6, 0.6, 0.7, 0.7],
    }
)
ESTIMATES["error"] = ESTIMATES["estimate"] - ESTIMATES["true_accuracy"]


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """scikit-learn's neighbour search spins OpenMP threads; on a busy machine one thread is many times faster."""
    with threadpool_limits(1):
        yield


def test_estimator_summary_is_the_mean_and_sample_sd_of_the_errors():
    summary = estimator_summary(ESTIMATES, ["holdout 20%", "5-fold"]).set_index("estimator")
    holdout = summary.loc["holdout 20%"]
    assert holdout["mean_error"] == pytest.approx(0.1)
    assert holdout["sd_error"] == pytest.approx(np.sqrt(0.03))  # deviations -0.2, 0.1, 0.1: 0.06 / 2
    assert holdout["mean_error_se"] == pytest.approx(0.1)  # sqrt(0.03) / sqrt(3)
    assert not holdout["bias_distinguishable_from_zero"]  # 0.1 is not beyond 2 x 0.1
    kfold = summary.loc["5-fold"]
    assert (kfold["mean_error"], kfold["sd_error"]) == pytest.approx((0.05, 0.05))
    assert kfold["bias_distinguishable_from_zero"] == (0.05 > 2 * 0.05 / np.sqrt(3))
    assert summary["held_out_images"].tolist() == [16, 80] and summary["n_datasets"].tolist() == [3, 3]


def test_true_accuracy_range_counts_each_dataset_once():
    assert true_accuracy_range(ESTIMATES).iloc[0].tolist() == [3, 0.6, 0.7]


def test_repartition_summary_gives_range_and_sd_and_blanks_for_a_dataset_not_run():
    repartitions = pd.DataFrame(
        {
            "dataset": 0,
            "repetition": [0, 0, 1, 1, 2, 2],
            "estimator": ["holdout 20%", "5-fold"] * 3,
            "estimate": [0.5, 0.6, 0.7, 0.62, 0.6, 0.64],
        }
    )
    table = repartition_summary(repartitions, ["holdout 20%", "5-fold"]).set_index("estimator")
    assert table.loc["holdout 20%", ["estimate_min", "estimate_max", "range_points"]].tolist() == pytest.approx(
        [0.5, 0.7, 20]
    )
    assert table.loc["5-fold", "estimate_sd"] == pytest.approx(0.02)
    empty = repartition_summary(repartitions.iloc[:0], ["holdout 20%"]).iloc[0]
    assert empty["repetitions"] == 0 and np.isnan(empty["estimate_sd"]) and np.isnan(empty["dataset"])


def test_spread_findings_compare_the_holdouts_spread_with_k_folds():
    summary = estimator_summary(ESTIMATES, ["holdout 20%", "5-fold"])
    repeated = pd.DataFrame({"estimator": ["holdout 20%", "5-fold"], "estimate_sd": [0.08, 0.01]})
    findings = spread_findings(summary, repeated, "holdout 20%", "5-fold").iloc[0]
    assert findings["holdout_over_kfold_sd"] == pytest.approx(np.sqrt(0.03) / 0.05)
    assert findings["partition_spread_below_dataset_spread"]  # 0.01 < 0.05
    assert findings["no_estimator_bias_distinguishable"] == (not summary["bias_distinguishable_from_zero"].any())


def test_crosscheck_accuracy_is_scikit_learns_on_the_same_images_and_folds():
    # 10 images per class in 5 folds: every fold holds 8 images, so pooled hits and the mean of the
    # fold accuracies (cross_val_score) are the same number.
    row = crosscheck_table(ShapeImageDesign(), 10, sigma=1, k=3, n_folds=5, seed=2).iloc[0]
    rng = np.random.default_rng(2)
    images, labels = draw_shape_images(10, rng, ShapeImageDesign())
    folds = stratified_round_robin_folds(labels, 5, rng)
    features = np.array([gaussian_filter(x, 1) for x in images]).reshape(len(images), -1)
    splits = [(np.setdiff1d(np.arange(40), f), f) for f in folds]
    expected = cross_val_score(KNeighborsClassifier(3), features, labels, cv=splits).mean()
    assert row["ours_accuracy"] == pytest.approx(expected, abs=1e-15)
    assert row["folds"] == 5 and row["accuracies_agree"]
    assert row["per_class_counts_match_stratified_kfold"] and row["unshuffled_kfold_is_consecutive_blocks"]
