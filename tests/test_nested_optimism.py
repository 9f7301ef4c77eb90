"""Study nested_optimism: Part 2 of "Cross-Validation", section Example, from the per-dataset rows."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.studies.nested_optimism import candidate_growth, growth_findings, selection_claims, selection_summary

# Three datasets, two candidate sets; optimism (score - truth) and nested error (estimate - truth) by hand.
SELECTION = pd.DataFrame(
    {
        "dataset": [0, 0, 1, 1, 2, 2],
        "n_candidates": [1, 42, 1, 42, 1, 42],
        "non_nested_score": [0.60, 0.70, 0.62, 0.75, 0.58, 0.66],
        "nested_estimate": [0.61, 0.62, 0.62, 0.58, 0.615, 0.63],
        "true_accuracy": [0.60, 0.60, 0.60, 0.60, 0.60, 0.60],
    }
)
SELECTION["optimism"] = SELECTION["non_nested_score"] - SELECTION["true_accuracy"]
SELECTION["nested_error"] = SELECTION["nested_estimate"] - SELECTION["true_accuracy"]


def test_selection_summary_is_the_documents_part_2_block():
    row = selection_summary(SELECTION, 42).iloc[0]
    assert row["n_datasets"] == 3
    assert (row["non_nested_mean"], row["nested_mean"], row["true_mean"]) == pytest.approx((0.70333333, 0.61, 0.6))
    assert row["optimism_mean"] == pytest.approx(0.10333333) and row["optimism_points"] == pytest.approx(10.333333)
    assert row["optimism_mean_se"] == pytest.approx(np.std([0.10, 0.15, 0.06], ddof=1) / np.sqrt(3))
    assert (row["optimism_positive"], row["nested_error_positive"]) == (3, 2)
    assert row["nested_error_mean"] == pytest.approx(0.01)
    assert row["nested_error_within_2se"]  # 0.01 against 2 x 0.0152


def test_candidate_growth_has_a_row_per_candidate_set_smallest_first():
    growth = candidate_growth(SELECTION)
    assert growth["n_candidates"].tolist() == [1, 42]
    assert growth["optimism_mean"].tolist() == pytest.approx([0.0, 0.10333333])


def test_growth_is_the_paired_gain_in_optimism_with_its_standard_error():
    findings = growth_findings(SELECTION).iloc[0]
    gains = [0.10, 0.13, 0.08]  # optimism with 42 settings minus with 1, dataset by dataset
    assert (findings["smallest_set"], findings["largest_set"]) == (1, 42)
    assert findings["optimism_gain"] == pytest.approx(np.mean(gains))
    assert findings["optimism_gain_se"] == pytest.approx(np.std(gains, ddof=1) / np.sqrt(3))
    assert findings["optimism_grows_with_candidates"]
    # with 1 setting the nested errors 0.01, 0.02, 0.015 average 0.015, beyond 2 x 0.0029
    assert not findings["nested_error_within_2se_for_every_set"]


def test_the_winners_score_is_biased_upward_when_its_mean_optimism_exceeds_two_standard_errors():
    summary = selection_summary(SELECTION, 42)
    claim = selection_claims(summary).set_index("claim").loc["winner_biased_upward"]
    optimism = np.array([0.10, 0.15, 0.06])
    assert claim["value"] == pytest.approx(optimism.mean() / (optimism.std(ddof=1) / np.sqrt(3)))
    assert claim["holds"]
    flat = selection_claims(summary.assign(optimism_mean=0.01, optimism_mean_se=0.01)).iloc[0]
    assert not flat["holds"]


COUNTS = {"nested_error_positive": 2, "nested_error_negative": 2}


def test_the_winner_cannot_both_overstate_and_sit_below_its_fresh_score():
    summary = pd.DataFrame([{"optimism_mean": 0.07, "optimism_mean_se": 0.01, **COUNTS}])
    claims = selection_claims(summary).set_index("claim")
    assert bool(claims.loc["winner_biased_upward", "holds"]) and not bool(
        claims.loc["winner_score_sits_below_fresh", "holds"]
    )
    below = selection_claims(pd.DataFrame([{"optimism_mean": -0.05, "optimism_mean_se": 0.01, **COUNTS}]))
    below = below.set_index("claim")
    assert bool(below.loc["winner_score_sits_below_fresh", "holds"])


def test_as_often_too_high_as_too_low_counts_the_datasets_either_way():
    summary = selection_summary(SELECTION, 42)
    claims = selection_claims(summary).set_index("claim")
    expected = int(summary.loc[0, "nested_error_positive"]) == int(summary.loc[0, "nested_error_negative"])
    assert bool(claims.loc["nested_as_often_high_as_low_in_example", "holds"]) == expected
    even = selection_claims(summary.assign(nested_error_positive=20, nested_error_negative=20)).set_index("claim")
    assert even.loc["nested_as_often_high_as_low_in_example", "holds"]


def candidate_scores(regret_by_dataset):
    """Two datasets of three candidates; the CV winner is the first, its true accuracy below the best by
    the given regret; the CV errors share a dataset-wide offset."""
    rows = []
    for dataset, (offset, regret) in enumerate(regret_by_dataset):
        truths = [0.60, 0.60 + regret, 0.50]
        scores = [0.70 + offset, 0.66 + offset, 0.58 + offset]
        rows += [
            {"dataset": dataset, "sigma": 1.0, "k": k, "cv_score": c, "true_accuracy": t}
            for k, c, t in zip((1, 3, 5), scores, truths)
        ]
    return pd.DataFrame(rows)


def test_the_ranking_is_judged_by_the_regret_beside_the_winners_optimism():
    from cvsuite.studies.nested_optimism import ranking_claims, ranking_robustness

    table = ranking_robustness(candidate_scores([(0.0, 0.01), (0.05, 0.02), (-0.03, 0.0), (0.02, 0.01)])).iloc[0]
    assert table["mean_regret"] == pytest.approx(0.01)
    assert table["mean_optimism"] == pytest.approx(np.mean([0.10, 0.15, 0.07, 0.12]))
    assert table["optimism_minus_regret"] == pytest.approx(table["mean_optimism"] - table["mean_regret"])
    claims = {c[0]: c for c in ranking_claims(pd.DataFrame([table]))}
    assert claims["ranking_more_robust_than_winner_value"][1]
    assert ranking_robustness(candidate_scores([]).iloc[0:0]).empty
