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
from cvsuite.studies.robustness_estimators import (
    UNDECIDED,
    finding,
    k_order_conclusions,
    nested_bias_conclusion,
    truth_correlation_conclusions,
    z_score,
)
from cvsuite.studies.robustness_regions import regions_as_arrays, regions_from_arrays
from cvsuite.studies.shape_image_datasets import BALANCED_LOO
from cvsuite.workflow.outputs import write_arrays, write_table

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


def k_bias_sources(bias=None):
    """The two sources of each sample's bias: the fold models' excess risk carries nine tenths of it."""
    bias = k_bias_rows() if bias is None else bias
    return bias.assign(training_effect=0.9 * bias["bias"], validation_effect=0.1 * bias["bias"])


def fold_models_of(estimates):
    """The step's fold_models rows for given estimates: training-size effects rising with K (by the
    training images), the rest validation; a class-balanced leave-one-out one point above leave-one-out."""
    effect = {"holdout 20%": -0.014, "5-fold": -0.015, "10-fold": -0.007, "leave-one-out": -0.001}
    rng = np.random.default_rng(9)
    rows = estimates.assign(
        training_size_effect=[effect.get(e, -0.003) + rng.normal(0, 0.0005) for e in estimates["estimator"]]
    )
    if "estimate" not in rows:
        rows = rows.assign(true_accuracy=0.6, estimate=0.6 + rows["error"])
    rows["validation_effect"] = rows["estimate"] - rows["true_accuracy"] - rows["training_size_effect"]
    rows["fold_models_true_accuracy"] = rows["true_accuracy"] + rows["training_size_effect"]
    rows["training_images"] = 64.0
    loo = rows[rows["estimator"] == "leave-one-out"]
    if len(loo):
        balanced = loo.assign(estimator=BALANCED_LOO, estimate=loo["estimate"] + 0.01, training_size_effect=-0.003)
        rows = pd.concat([rows, balanced], ignore_index=True)
    return rows


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


def four_estimators(n=400, loo_shift=-0.01):
    """Part 1's four estimators on n datasets: 5-fold and 10-fold share a dataset effect, LOO is
    10-fold moved by ``loo_shift`` (as the document's own table has it), the holdout is noisier."""
    rng = np.random.default_rng(5)
    base = rng.normal(0, 0.05, n)
    errors = {
        "holdout 20%": rng.normal(-0.01, 0.12, n),
        "5-fold": base + rng.normal(-0.014, 0.02, n),
        "10-fold": base + rng.normal(-0.004, 0.02, n),
    }
    errors["leave-one-out"] = errors["10-fold"] + loo_shift + rng.normal(0, 0.01, n)
    truth = rng.normal(0.6, 0.02, n)
    rows = [
        pd.DataFrame({"dataset": range(n), "estimator": k, "error": e, "estimate": truth + e, "true_accuracy": truth})
        for k, e in errors.items()
    ]
    return pd.concat(rows).sort_values(["dataset"], kind="stable", ignore_index=True)


def test_k_bias_conclusions_score_the_bias_as_a_mean_error_and_the_rest_as_shares():
    result = by_id(k_bias_conclusions(k_bias_rows(), k_bias_sources(), almost_every=0.8))
    upward = result["cv_biased_upward"]
    leave_one_out = np.array([0.1, -0.1, 0.2, 0.3])  # K = 25: the fewest standard errors above 0
    assert upward["estimate"] == pytest.approx(leave_one_out.mean())
    assert upward["se"] == pytest.approx(leave_one_out.std(ddof=1) / 2)
    assert upward["held"] == UNDECIDED  # 1.5 SE: a positive mean too small for four samples to show
    downward = k_bias_rows().assign(bias=lambda b: np.where(b["K"] == 25, -1.0 - b["bias"], b["bias"]))
    assert by_id(k_bias_conclusions(downward, k_bias_sources(downward), 0.8))["cv_biased_upward"]["held"] is False
    assert result["bias_falls_with_k"]["estimate"] == 1.0 and result["bias_falls_with_k"]["held"]
    assert result["loo_zero_spread"]["held"]
    assert result["std_error_understates_spread"]["estimate"] == 1.0


def test_shape_conclusions_read_a_bias_against_the_documents_dataset_count():
    estimates, selection = shape_rows()
    result = by_id(shape_image_conclusions(estimates, selection, CRITERIA, fold_models_of(estimates)))
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
    rows = conclusions(
        Evidence(estimates, fold_models_of(estimates), selection, k_bias_rows(), k_bias_sources(), exchange), CRITERIA
    )
    names = [r["conclusion"] for r in rows]
    # Two estimators only: no step of K to score and no estimator after 5-fold to correlate.
    skipped = ("larger_k_less_bias", "loo_less_biased_than_kfold", "larger_k_less_bias_in_total")
    skipped += ("loo_pessimism_is_class_imbalance",)
    assert names == [w for w in WORDS if w not in skipped and "correlated" not in w]
    assert [r["datasets"] for r in rows] == [10] * 6 + [4] * 6
    four = four_estimators()
    full = conclusions(
        Evidence(four, fold_models_of(four), selection, k_bias_rows(), k_bias_sources(), exchange), CRITERIA
    )
    assert [r["conclusion"] for r in full] == list(WORDS)


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
    evidence = Evidence(estimates, fold_models_of(estimates), selection, k_bias_rows(), k_bias_sources(), exchange)
    for row in conclusions(evidence, CRITERIA):
        if row["held"] != UNDECIDED:  # a region draws a decided verdict; undecided is neither side of it
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


def test_the_saved_regions_read_back_as_the_regions_drawn(tmp_path):
    # The figure job draws the regions from the .npz the study job wrote; an open limit (None) and a
    # NaN one (one dataset's standard error) are drawn differently, so both must come back as they were.
    regions = {
        "interval": PassRegion(low=-0.019672521797635553, high=0.019672521797635553),
        "open_right": PassRegion(low=0.8),
        "open_left": PassRegion(high=-0.09793662020772652),
        "undefined": PassRegion(low=float("nan"), high=float("nan")),
        "exact": PassRegion(low=0.0, high=0.0),
        "above": PassRegion(bar="above", reference=0.5, standard_errors=3.0),
        "around": PassRegion(bar="around", reference=0.0),
    }
    write_arrays(regions_as_arrays(regions), tmp_path / "figure_arrays.npz")
    with np.load(tmp_path / "figure_arrays.npz", allow_pickle=False) as saved:
        back = regions_from_arrays({name: saved[name] for name in saved.files})
    # repr, not ==: NaN equals nothing, and repr tells None from NaN and keeps every digit.
    assert [(name, repr(region)) for name, region in back.items()] == [(n, repr(r)) for n, r in regions.items()]
    assert regions_from_arrays(regions_as_arrays({})) == {}


def test_the_figures_read_the_verdicts_back_as_the_study_gave_them(tmp_path):
    from cvsuite.figures.robustness import _verdict

    held = [True, False, UNDECIDED]
    write_table(pd.DataFrame({"held": held}), tmp_path / "mixed.csv")
    assert pd.read_csv(tmp_path / "mixed.csv")["held"].map(_verdict).tolist() == held
    write_table(pd.DataFrame({"held": [True, False]}), tmp_path / "decided.csv")
    assert pd.read_csv(tmp_path / "decided.csv")["held"].map(_verdict).tolist() == [True, False]


def test_k_order_conclusions_read_the_training_size_bias_and_the_whole_error_beside_it():
    estimates = four_estimators()
    models = fold_models_of(estimates)
    result = by_id(k_order_conclusions(estimates, "holdout 20%", models))
    effects = models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    steps = [effects["10-fold"] - effects["5-fold"], effects["leave-one-out"] - effects["10-fold"]]
    step = min(steps, key=lambda d: d.mean() / d.std(ddof=1))
    larger = result["larger_k_less_bias"]
    assert larger["estimate"] == pytest.approx(step.mean()) and larger["held"] is True
    assert result["loo_less_biased_than_kfold"]["held"]  # -0.001 against a quarter of 5-fold's -0.015
    errors = estimates.pivot(index="dataset", columns="estimator", values="error")
    total = result["larger_k_less_bias_in_total"]
    assert total["estimate"] == pytest.approx((errors["leave-one-out"] - errors["10-fold"]).mean())
    assert not total["held"]  # the whole error falls from 10-fold to leave-one-out, as in the document's table
    assert result["loo_pessimism_is_class_imbalance"]["estimate"] == pytest.approx(0.01)
    assert result["loo_pessimism_is_class_imbalance"]["held"]


def test_nested_bias_is_read_one_sided_and_needs_the_power_to_see_the_winners_bias():
    selection = pd.DataFrame(
        {
            "n_candidates": 42,
            "nested_estimate": np.tile([-0.02, -0.01, 0.0, 0.01], 100) + 0.59,
            "true_accuracy": 0.6,
            "optimism": 0.07,
        }
    )
    row = nested_bias_conclusion(selection)
    # Below 0 (no upward bias), with 2 SE (0.0011) far under a quarter of the optimism (0.0175).
    assert row["estimate"] == pytest.approx(-0.015) and row["held"]
    assert row["region"].holds(row["estimate"], row["se"])
    shifted = selection.assign(nested_estimate=selection["nested_estimate"] + 0.05)  # +0.035: a quarter is 0.0175
    assert not nested_bias_conclusion(shifted)["held"]
    few = selection.iloc[:8].assign(nested_estimate=np.tile([0.5, 0.7], 4))
    assert not nested_bias_conclusion(few)["held"]  # mean 0, but 2 SE = 0.076 > a quarter of 0.07: no power


def test_every_new_conclusions_drawn_region_gives_its_verdict():
    for shift in (-0.01, 0.01):
        estimates = four_estimators(loo_shift=shift)
        rows = k_order_conclusions(estimates, "holdout 20%", fold_models_of(estimates))
        rows += truth_correlation_conclusions(estimates, ("10-fold", "leave-one-out"))
        for row in rows:
            if row["held"] != UNDECIDED:
                assert row["region"].holds(row["estimate"], row["se"]) == row["held"], row["conclusion"]


def test_truth_correlations_read_weak_and_negative_on_the_largest():
    estimates = four_estimators()
    rows = by_id(truth_correlation_conclusions(estimates, ("10-fold", "leave-one-out")))
    r = {
        k: np.corrcoef(g["estimate"], g["true_accuracy"])[0, 1]
        for k, g in estimates.groupby("estimator")
        if k in ("10-fold", "leave-one-out")
    }
    assert rows["cv_weakly_correlated_with_truth"]["estimate"] == pytest.approx(max(r.values(), key=abs))
    assert rows["cv_negatively_correlated_with_truth"]["estimate"] == pytest.approx(max(r.values()))
    assert rows["cv_weakly_correlated_with_truth"]["held"] == all(abs(v) < 0.3 for v in r.values())


def test_the_finding_says_when_an_effect_is_too_small_for_the_documents_scale():
    row = {
        "document_datasets": 40,
        "new_datasets": 400,
        "held_at_document_scale": True,
        "held": True,
        "reference": 0.0,
        "new_estimate": -0.015,
        "document_z": z_score(-0.012, 0.0, 0.0085),
        "new_z": z_score(-0.015, 0.0, 0.0031),
    }
    assert finding(row) == (
        "held at the document's scale (40) and at 400; -0.015 (-4.8 SE) from 0 at 400: "
        "too small for 40 datasets to see (-1.4 SE), real at 400"
    )
    assert finding({**row, "document_z": -3.0, "held": False}).endswith(
        "distinguishable from 0 at both scales (-3.0 and -4.8 SE)"
    )
    assert finding({**row, "new_z": float("nan")}) == "held at the document's scale (40) and at 400"
    assert np.isnan(z_score(1.0, 0.0, 0.0)) and np.isnan(z_score(1.0, float("nan"), 1.0))


def test_side_by_side_adds_the_reference_the_z_scores_and_the_finding():
    estimates, selection = shape_rows(n=40)
    big, big_selection = shape_rows(n=400)
    table = side_by_side(
        [
            {**r, "datasets": 40}
            for r in shape_image_conclusions(estimates, selection, CRITERIA, fold_models_of(estimates))
        ],
        [{**r, "datasets": 400} for r in shape_image_conclusions(big, big_selection, CRITERIA, fold_models_of(big))],
    ).set_index("conclusion")
    row = table.loc["winner_overstates"]
    assert row["reference"] == 0.5 and np.isnan(row["new_z"])  # every dataset overstates: s.e. 0
    bias = table.loc["no_estimator_bias"]
    assert bias["new_z"] == pytest.approx(bias["new_estimate"] / bias["new_se"])
    assert bias["finding"].startswith("held at the document's scale (40) and at 400")
