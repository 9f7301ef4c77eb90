"""Study robustness: each conclusion scored as a statistic with its Monte Carlo standard error."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.studies.robustness import (
    WORDS,
    Evidence,
    PassRegion,
    ShapeCriteria,
    conclusions,
    k_bias_conclusions,
    ridge_conclusions,
    shape_image_conclusions,
    side_by_side,
)

CRITERIA = ShapeCriteria(
    holdout="holdout 20%", kfold="5-fold", almost_every=0.8, bootstrap=20, bootstrap_seed=0, document_datasets=40
)


def by_id(rows):
    return {r["conclusion"]: r for r in rows}


def k_bias_rows():
    rows = []
    for d, biases in enumerate([[3, 1, 0.1], [2, 1, -0.1], [4, 2, 0.2], [5, 0.5, 0.3]]):
        for k, b in zip([2, 5, 25], biases):
            rows.append(
                {"dataset": d, "K": k, "bias": b, "spread_over_shuffles": 0.0 if k == 25 else 2.0, "std_error": 1.0}
            )
    return pd.DataFrame(rows)


def shape_rows(n=400):
    rng = np.random.default_rng(0)
    estimates = pd.DataFrame(
        {
            "dataset": np.repeat(np.arange(n), 2),
            "estimator": ["holdout 20%", "5-fold"] * n,
            "error": np.ravel(np.column_stack([rng.normal(-0.01, 0.12, n), rng.normal(-0.01, 0.06, n)])),
        }
    )
    selection = pd.DataFrame(
        {
            "dataset": np.repeat(np.arange(n), 2),
            "n_candidates": [1, 42] * n,
            "non_nested_score": 0.7,
            "nested_estimate": np.tile([0.6, 0.59], n),
            "true_accuracy": 0.6,
            "optimism": np.tile([0.0, 0.1], n),
        }
    )
    return estimates, selection


def test_k_bias_conclusions_score_shares_of_samples():
    result = by_id(k_bias_conclusions(k_bias_rows(), almost_every=0.8))
    assert result["cv_biased_upward"]["estimate"] == 0.75  # K = 25 is upward on 3 of 4 samples
    assert result["cv_biased_upward"]["se"] == pytest.approx(0.25)  # s.d. 0.5 of (1, 0, 1, 1) over root 4
    assert result["bias_falls_with_k"]["estimate"] == 1.0 and result["bias_falls_with_k"]["held"]
    assert result["loo_zero_spread"]["held"]
    assert result["std_error_understates_spread"]["estimate"] == 1.0


def test_shape_conclusions_read_a_bias_against_the_documents_dataset_count():
    estimates, selection = shape_rows()
    result = by_id(shape_image_conclusions(estimates, selection, CRITERIA))
    holdout = estimates.loc[estimates["estimator"] == "holdout 20%", "error"].to_numpy()
    kfold = estimates.loc[estimates["estimator"] == "5-fold", "error"].to_numpy()
    # The estimator furthest from 0 in units of a 40-dataset standard error, and its mean.
    furthest = max((holdout, kfold), key=lambda e: abs(e.mean()) / (e.std(ddof=1) / np.sqrt(40)))
    assert result["no_estimator_bias"]["estimate"] == pytest.approx(furthest.mean())
    assert result["no_estimator_bias"]["held"]  # about -0.01, within 2 s.e. of a 40-dataset mean
    assert result["holdout_twice_as_variable"]["estimate"] == pytest.approx(holdout.std(ddof=1) / kfold.std(ddof=1))
    assert result["winner_overstates"]["estimate"] == 1.0
    assert not result["nested_as_often_high_as_low"]["held"]  # never above the truth
    assert result["gap_grows_with_candidates"]["estimate"] == pytest.approx(0.1)
    assert result["gap_grows_with_candidates"]["held"]


def test_conclusions_count_the_datasets_each_one_reads():
    estimates, selection = shape_rows(n=10)
    exchange = pd.DataFrame({"expected_risk_fall_percent": [75.0] * 4, "train_risk_rise_percent": [49.0] * 4})
    rows = conclusions(Evidence(estimates, selection, k_bias_rows(), exchange), CRITERIA)
    assert [r["conclusion"] for r in rows] == list(WORDS)
    assert [r["datasets"] for r in rows] == [10] * 5 + [4] * 5


def test_side_by_side_keeps_one_row_per_conclusion():
    doc = [
        {**r, "datasets": 1}
        for r in ridge_conclusions(
            pd.DataFrame({"expected_risk_fall_percent": [75.0], "train_risk_rise_percent": [49.0]})
        )
    ]
    new = [
        {**r, "datasets": 2}
        for r in ridge_conclusions(
            pd.DataFrame({"expected_risk_fall_percent": [10.0, -1.0], "train_risk_rise_percent": [5.0, 3.0]})
        )
    ]
    table = side_by_side(doc, new)
    assert table.loc[0, "held_at_document_scale"] and not table.loc[0, "held"]
    assert table.loc[0, "new_estimate"] == 0.5 and (
        table.loc[0, "document_datasets"],
        table.loc[0, "new_datasets"],
    ) == (1, 2)
    assert table.loc[0, "words"] == WORDS["penalty_trades_train_for_expected"]["words"]


@pytest.mark.parametrize("n", [10, 400])
def test_the_drawn_criterion_gives_the_verdict_the_study_gives(n):
    # The figure shades each conclusion's pass region; a reader judging by eye must reach "held".
    estimates, selection = shape_rows(n=n)
    exchange = pd.DataFrame({"expected_risk_fall_percent": [75.0, 10.0], "train_risk_rise_percent": [49.0, -1.0]})
    evidence = Evidence(estimates, selection, k_bias_rows(), exchange)
    for row in conclusions(evidence, CRITERIA):
        assert row["region"].holds(row["estimate"], row["se"]) == row["held"], row["conclusion"]


def test_a_pass_region_reads_intervals_bars_and_exact_values():
    assert PassRegion(low=1.5, high=2.5).holds(2.0, 1.0) and not PassRegion(low=1.5, high=2.5).holds(2.5, 0.0)
    assert PassRegion(bar="above", reference=0.5).holds(0.8, 0.1) and not PassRegion(bar="above", reference=0.5).holds(
        0.6, 0.1
    )
    assert PassRegion(bar="around", reference=0.5).holds(0.45, 0.05) and not PassRegion(
        bar="around", reference=0.5
    ).holds(0.35, 0.05)
    assert PassRegion(low=0.0, high=0.0).holds(0.0, 0.0) and not PassRegion(low=0.0, high=0.0).holds(1e-12, 0.0)
