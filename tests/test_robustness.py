import numpy as np
import pandas as pd

from cvsuite.studies.fresh_sine_datasets import fresh_sine_rows
from cvsuite.studies.robustness import k_bias_conclusions, ridge_conclusions, shape_image_conclusions, side_by_side

DATA = {"train_size": 25, "noise": 0.35, "half_width": 3.0, "test_size": 300}
RIDGE = {"degree": 12, "grid_start": 1e-9, "grid_stop": 100.0, "grid_points": 40}
K_BIAS = {"degree": 5, "folds": [2, 5, 25], "first_seed": 0}


def by_id(rows):
    return {r["conclusion"]: r for r in rows}


def test_fresh_sample_gives_an_exchange_row_and_a_row_per_k():
    exchange, bias = fresh_sine_rows(7, 70, data=DATA, ridge=RIDGE, k_bias=K_BIAS, shuffles=3)
    assert len(exchange) == 1 and list(bias["K"]) == [2, 5, 25]
    assert bias.loc[bias["K"] == 25, "spread_over_shuffles"].iloc[0] == 0.0


def test_k_bias_conclusions_score_shares_of_samples():
    rows = []
    for d, biases in enumerate([[3, 1, 0.1], [2, 1, -0.1], [4, 2, 0.2], [5, 0.5, 0.3]]):
        for k, b in zip([2, 5, 25], biases):
            rows.append({"dataset": d, "K": k, "bias": b, "spread_over_shuffles": 0.0 if k == 25 else 2.0, "std_error": 1.0})
    result = by_id(k_bias_conclusions(pd.DataFrame(rows), almost_every=0.8))
    assert result["cv_biased_upward"]["estimate"] == 0.75  # K = 25 is upward on 3 of 4 samples
    assert result["bias_falls_with_k"]["estimate"] == 1.0 and result["bias_falls_with_k"]["held"]
    assert result["loo_zero_spread"]["held"]
    assert result["std_error_understates_spread"]["estimate"] == 1.0


def test_shape_conclusions_read_a_bias_against_the_documents_dataset_count():
    rng = np.random.default_rng(0)
    n = 400
    estimates = pd.DataFrame({
        "dataset": np.repeat(np.arange(n), 2),
        "estimator": ["holdout 20%", "5-fold"] * n,
        "error": np.ravel(np.column_stack([rng.normal(-0.01, 0.12, n), rng.normal(-0.01, 0.06, n)])),
    })
    selection = pd.DataFrame({
        "dataset": np.repeat(np.arange(n), 2), "n_candidates": [1, 42] * n,
        "non_nested_score": 0.7, "nested_estimate": np.tile([0.6, 0.59], n), "true_accuracy": 0.6,
        "optimism": np.tile([0.0, 0.1], n),
    })
    result = by_id(shape_image_conclusions(estimates, selection, "holdout 20%", "5-fold", 0.8, 20, 0, 40))
    assert result["no_estimator_bias"]["held"]  # -0.01 is within 2 s.e. of a 40-dataset mean
    assert 1.5 < result["holdout_twice_as_variable"]["estimate"] < 2.5
    assert result["winner_overstates"]["estimate"] == 1.0
    assert not result["nested_as_often_high_as_low"]["held"]  # never above the truth
    assert result["gap_grows_with_candidates"]["held"]


def test_side_by_side_keeps_one_row_per_conclusion():
    doc = ridge_conclusions(pd.DataFrame({"expected_risk_fall_percent": [75.0], "train_risk_rise_percent": [49.0]}))
    new = ridge_conclusions(pd.DataFrame({"expected_risk_fall_percent": [10.0, -1.0], "train_risk_rise_percent": [5.0, 3.0]}))
    table = side_by_side(doc, new, {"penalty_trades_train_for_expected": {"document": "D", "words": "w"}},
                         {"penalty_trades_train_for_expected": (1, 2)})
    assert table.loc[0, "held_at_document_scale"] and not table.loc[0, "held"]
