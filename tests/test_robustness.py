"""Study robustness: each conclusion's statistic at both scales with its Monte Carlo standard error.

The records of the registry judge these statistics; the last tests hold the figures' bounds to the
records' judges and to the list of vague words, and every conclusion to a record.
"""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from cvsuite.studies import robustness_regression
from cvsuite.studies.robustness import (
    REFERENCE,
    WORDS,
    Evidence,
    ShapeSettings,
    _gap_growth,
    conclusion_statistics,
    shape_image_statistics,
    side_by_side,
)
from cvsuite.studies.robustness_estimators import (
    k_order_statistics,
    nested_bias_statistic,
    shape_estimators,
    truth_correlation_statistics,
    z_score,
)
from cvsuite.studies.robustness_regression import k_bias_by_k, k_bias_statistics, ridge_statistics, with_lower_bound
from cvsuite.studies.shape_image_datasets import BALANCED_LOO

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = ShapeSettings(holdout="holdout 20%", kfold="5-fold", bootstrap=20, bootstrap_seed=0, document_datasets=40)


def by_id(rows):
    return {r["conclusion"]: r for r in rows}


def k_bias_rows():
    rows = []
    for d, biases in enumerate([[3, 1, 0.1], [2, 1, -0.1], [4, 2, 0.2], [5, 0.5, 0.3]]):
        for k, b in zip([2, 5, 25], biases):
            spread = 0.0 if k == 25 else 2.0
            rows.append(
                {
                    "dataset": d,
                    "K": k,
                    "truth": 0.5,
                    "bias": b,
                    "spread_over_shuffles": spread,
                    "std_error": 1.0,
                    "spread_over_std_error": spread,
                }
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


def test_k_bias_statistics_read_the_bias_through_a_lower_bound_of_its_mean_and_the_rest_as_shares():
    sources = k_bias_sources()
    result = by_id(k_bias_statistics(k_bias_rows(), sources))
    upward = result["cv_biased_upward"]
    capped = np.minimum(sources["training_effect"], 0.5)  # each sample's training effect, at most the truth
    per_k = {k: capped[sources["K"] == k] for k in (2, 5, 25)}
    # K = 2 is capped on every sample (no spread: infinitely many SE), K = 5 is 39 SE above 0, K = 25 1.5.
    assert "(K = 25)" in upward["statistic"]
    assert upward["estimate"] == pytest.approx(per_k[25].mean())
    assert upward["se"] == pytest.approx(per_k[25].std(ddof=1) / 2)
    smaller = result["cv_estimates_smaller_training_sets"]
    assert smaller["estimate"] == pytest.approx(sources.loc[sources["K"] == 2, "training_effect"].mean())
    assert result["bias_falls_with_k"]["estimate"] == 1.0
    assert result["loo_zero_spread"]["estimate"] == 0.0
    assert result["std_error_understates_spread"]["estimate"] == 1.0
    assert not any("held" in row or "criterion" in row for row in result.values())


def test_the_lower_bound_is_below_the_training_effect_sample_by_sample_and_tames_a_heavy_tail():
    bias = k_bias_rows()
    sources = k_bias_sources(bias).assign(training_effect=lambda s: np.where(s["dataset"] == 0, 1000.0, 0.2))
    bounded = with_lower_bound(sources, bias)
    assert (bounded["training_effect_lower_bound"] <= bounded["training_effect"]).all()
    table = k_bias_by_k(bias, sources).set_index("K")
    assert (table["training_effect_lower_bound"] <= table["training_effect"]).all()
    # One near-singular fit makes the mean's standard error as large as the mean; the bound's is small.
    assert table.loc[2, "training_effect_se"] > 100 and table.loc[2, "training_effect_lower_bound_se"] < 0.1
    assert table.loc[2, "training_effect_lower_bound"] == pytest.approx((0.5 + 3 * 0.2) / 4)
    assert table.loc[5, "median_spread_over_std_error"] == 2.0


def test_coverage_counts_the_samples_within_two_reported_uncertainties_of_the_truth():
    """'A known uncertainty': within 2 of the first shuffle's standard errors, and within 2 of the larger
    of it and the spread over shuffles (the Pitfalls' reseed check), the latter as a share of 95%."""
    bias = k_bias_rows().assign(bias=0.1, std_error=0.04, spread_over_shuffles=0.0)
    first = bias["dataset"] == 0
    bias.loc[first, "spread_over_shuffles"] = 0.06  # two standard errors miss it, two spreads cover it
    table = k_bias_by_k(bias, k_bias_sources(bias)).set_index("K")
    samples = table["samples"]
    assert (table["std_error_coverage"] == 0.0).all()
    np.testing.assert_allclose(table["reseeded_coverage"], 1 / samples)
    assert (table["reseeded_coverage_se"] > 0).all()
    # Covering 95.4% of the time (2 s.d. of a normal) is an uncertainty of the estimate's own size.
    assert robustness_regression._uncertainty_ratio(0.9545, 100)[0] == pytest.approx(1.0, abs=1e-3)
    # Every sample covered: half a sample off, a finite width with a finite error.
    full, full_se = robustness_regression._uncertainty_ratio(1.0, 100)
    assert full == pytest.approx(robustness_regression._uncertainty_ratio(0.995, 100)[0]) and 0 < full_se < 1
    assert table.loc[5, "mean_bias_over_truth"] == pytest.approx(0.1 / 0.5)


def test_shape_statistics_read_a_bias_against_the_documents_dataset_count():
    estimates, selection = shape_rows()
    result = by_id(shape_image_statistics(estimates, selection, SETTINGS, fold_models_of(estimates)))
    holdout = estimates.loc[estimates["estimator"] == "holdout 20%", "error"].to_numpy()
    kfold = estimates.loc[estimates["estimator"] == "5-fold", "error"].to_numpy()
    # The estimator furthest from 0 in units of a 40-dataset standard error, and its mean.
    furthest = max((holdout, kfold), key=lambda e: abs(e.mean()) / (e.std(ddof=1) / np.sqrt(40)))
    assert result["no_estimator_bias"]["estimate"] == pytest.approx(furthest.mean())
    assert result["holdout_twice_as_variable"]["estimate"] == pytest.approx(holdout.std(ddof=1) / kfold.std(ddof=1))
    assert result["winner_overstates"]["estimate"] == 1.0
    assert result["nested_as_often_high_as_low"]["estimate"] == 0.0  # never above the truth
    assert result["gap_grows_with_candidates"]["estimate"] == pytest.approx(0.1)


def test_the_gap_is_read_at_the_step_of_candidates_that_gains_the_fewest_standard_errors():
    rng = np.random.default_rng(1)
    gains = {1: 0.0, 2: 0.02, 6: 0.05, 42: 0.055}  # the last step gains least
    selection = pd.DataFrame(
        [
            {"dataset": d, "n_candidates": n, "optimism": g + rng.normal(0, 0.01)}
            for d in range(200)
            for n, g in gains.items()
        ]
    )
    row = _gap_growth(selection)
    by_size = selection.pivot(index="dataset", columns="n_candidates", values="optimism")
    assert row["estimate"] == pytest.approx((by_size[42] - by_size[6]).mean())
    assert "with 42 settings - with 6" in row["statistic"]


def test_conclusion_statistics_count_the_datasets_each_one_reads():
    estimates, selection = shape_rows(n=10)
    exchange = pd.DataFrame({"expected_risk_fall_percent": [75.0] * 4, "train_risk_rise_percent": [49.0] * 4})
    rows = conclusion_statistics(
        Evidence(estimates, fold_models_of(estimates), selection, k_bias_rows(), k_bias_sources(), exchange), SETTINGS
    )
    names = [r["conclusion"] for r in rows]
    # Two estimators only: no step of K to measure and no estimator after 5-fold to correlate.
    skipped = ("larger_k_less_bias", "loo_less_biased_than_kfold", "larger_k_less_bias_in_total")
    skipped += ("loo_pessimism_is_class_imbalance",)
    assert names == [w for w in WORDS if w not in skipped and "correlated" not in w]
    assert [r["datasets"] for r in rows] == [10] * 6 + [4] * 6
    four = four_estimators()
    full = conclusion_statistics(
        Evidence(four, fold_models_of(four), selection, k_bias_rows(), k_bias_sources(), exchange), SETTINGS
    )
    assert [r["conclusion"] for r in full] == list(WORDS)


def test_side_by_side_keeps_one_row_per_conclusion_and_only_statistics():
    doc = [
        {**r, "datasets": 1}
        for r in ridge_statistics(
            pd.DataFrame({"expected_risk_fall_percent": [75.0], "train_risk_rise_percent": [49.0]})
        )
    ]
    new = [
        {**r, "datasets": 2}
        for r in ridge_statistics(
            pd.DataFrame({"expected_risk_fall_percent": [10.0, -1.0], "train_risk_rise_percent": [5.0, 3.0]})
        )
    ]
    table = side_by_side(doc, new)
    declared = yaml.safe_load((ROOT / "studies.yaml").read_text())["studies"]["robustness"]["tables"]["conclusions"]
    assert list(table.columns) == declared
    assert table.loc[0, "document_estimate"] == 1.0 and table.loc[0, "new_estimate"] == 0.5
    assert (table.loc[0, "document_datasets"], table.loc[0, "new_datasets"]) == (1, 2)
    assert table.loc[0, "words"] == WORDS["penalty_trades_train_for_expected"]["words"]


def test_side_by_side_adds_the_reference_and_the_z_scores():
    estimates, selection = shape_rows(n=40)
    big, big_selection = shape_rows(n=400)
    table = side_by_side(
        [
            {**r, "datasets": 40}
            for r in shape_image_statistics(estimates, selection, SETTINGS, fold_models_of(estimates))
        ],
        [{**r, "datasets": 400} for r in shape_image_statistics(big, big_selection, SETTINGS, fold_models_of(big))],
    ).set_index("conclusion")
    row = table.loc["winner_overstates"]
    assert row["reference"] == 0.5 and np.isnan(row["new_z"])  # every dataset overstates: s.e. 0
    bias = table.loc["no_estimator_bias"]
    assert bias["new_z"] == pytest.approx(bias["new_estimate"] / bias["new_estimate_se"])
    assert np.isnan(z_score(1.0, 0.0, 0.0)) and np.isnan(z_score(1.0, float("nan"), 1.0))


def test_k_order_statistics_read_the_training_size_bias_and_the_whole_error_beside_it():
    estimates = four_estimators()
    models = fold_models_of(estimates)
    result = by_id(k_order_statistics(estimates, "holdout 20%", models))
    effects = models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    steps = [effects["10-fold"] - effects["5-fold"], effects["leave-one-out"] - effects["10-fold"]]
    step = min(steps, key=lambda d: d.mean() / d.std(ddof=1))
    assert result["larger_k_less_bias"]["estimate"] == pytest.approx(step.mean())
    little = result["loo_less_biased_than_kfold"]
    assert little["estimate"] == pytest.approx(effects["leave-one-out"].mean() / effects["5-fold"].mean())
    assert 0 < little["se"] < 0.01  # about -0.001 against -0.015, a ratio near 0.07
    errors = estimates.pivot(index="dataset", columns="estimator", values="error")
    total = result["larger_k_less_bias_in_total"]
    assert total["estimate"] == pytest.approx((errors["leave-one-out"] - errors["10-fold"]).mean())
    assert result["loo_pessimism_is_class_imbalance"]["estimate"] == pytest.approx(0.01)


def test_the_nested_bias_is_its_mean_error_with_the_largest_candidate_set():
    selection = pd.DataFrame(
        {
            "n_candidates": [42] * 400 + [1] * 400,
            "nested_estimate": np.concatenate([np.tile([-0.02, -0.01, 0.0, 0.01], 100) + 0.59, np.full(400, 0.7)]),
            "true_accuracy": 0.6,
            "optimism": 0.07,
        }
    )
    row = nested_bias_statistic(selection)
    assert row["estimate"] == pytest.approx(-0.015 / 0.07)  # against the winner's optimism: 'such bias'
    assert row["se"] == pytest.approx(np.tile([-0.02, -0.01, 0.0, 0.01], 100).std(ddof=1) / 20 / 0.07)


def test_truth_correlations_are_the_largest_in_absolute_value_and_the_largest():
    estimates = four_estimators()
    rows = by_id(truth_correlation_statistics(estimates, ("10-fold", "leave-one-out")))
    r = {
        k: np.corrcoef(g["estimate"], g["true_accuracy"])[0, 1]
        for k, g in estimates.groupby("estimator")
        if k in ("10-fold", "leave-one-out")
    }
    assert rows["cv_weakly_correlated_with_truth"]["estimate"] == pytest.approx(max(r.values(), key=abs))
    assert rows["cv_negatively_correlated_with_truth"]["estimate"] == pytest.approx(max(r.values()))


def test_shape_estimators_give_each_bias_at_the_documents_scale_and_against_leave_one_out():
    estimates = four_estimators()
    models = fold_models_of(estimates)
    table = shape_estimators(estimates, models, "5-fold", 40).set_index("estimator")
    errors = estimates.pivot(index="dataset", columns="estimator", values="error")
    kfold = errors["5-fold"]
    document_se = kfold.std(ddof=1) / np.sqrt(40)
    assert table.loc["5-fold", "document_scale_z"] == pytest.approx(abs(kfold.mean()) / document_se)
    assert table.loc["5-fold", "document_scale_z_se"] == pytest.approx(kfold.std(ddof=1) / 20 / document_se)
    difference = errors["leave-one-out"] - errors["10-fold"]
    assert table.loc["10-fold", "loo_mean_error_difference"] == pytest.approx(difference.mean())
    assert table.loc["10-fold", "loo_mean_error_difference_se"] == pytest.approx(difference.std(ddof=1) / 20)
    effects = models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    assert table.loc["holdout 20%", "loo_training_size_effect_difference"] == pytest.approx(
        (effects["leave-one-out"] - effects["holdout 20%"]).mean()
    )
    assert table.loc[["leave-one-out", BALANCED_LOO], "loo_mean_error_difference"].isna().all()
    declared = yaml.safe_load((ROOT / "studies.yaml").read_text())["studies"]["robustness"]["tables"]
    assert list(table.reset_index().columns) == declared["shape_estimators"]
    assert list(k_bias_by_k(k_bias_rows(), k_bias_sources()).columns) == declared["k_bias_by_k"]


# ----------------------------------------------------------------------------------------------
# The figures draw the bounds the records' judges apply, and every conclusion is a record's


def _records():
    from cvsuite.published.records import read_records

    return read_records(ROOT / "registry")


def _vague():
    from cvsuite.published.scales import read_scales

    return read_scales(ROOT / "registry").words


def test_every_conclusion_has_a_bound_drawn_and_a_place_in_a_figure():
    from cvsuite.figures.robustness import BOUNDS, TOPICS

    placed = [c for _, ids in TOPICS.values() for c in ids]
    assert sorted(placed) == sorted(WORDS) == sorted(BOUNDS)
    assert set(REFERENCE) <= set(WORDS)


def test_the_figures_bounds_are_the_scales_bounds():
    from cvsuite.figures.robustness import BOUNDS

    vague = _vague()
    for conclusion, bound in BOUNDS.items():
        if not bound.word:
            continue
        word = vague[bound.word]
        low = float(word.get("at_least", word.get("above", "nan")))
        high = float(word.get("at_most", word.get("below", "nan")))
        if bound.low is not None and bound.high is not None and bound.low == -bound.high and np.isnan(low):
            low = -high  # a bound on the absolute value ('only weakly')
        assert (bound.low if bound.low is not None else float("nan")) == pytest.approx(low, nan_ok=True), conclusion
        assert (bound.high if bound.high is not None else float("nan")) == pytest.approx(high, nan_ok=True), conclusion


def test_the_figures_bounds_are_the_judges_of_the_records_that_read_the_conclusions():
    """The bound a panel draws is the rule of the record that judges that conclusion's fresh statistic."""
    from cvsuite.figures.robustness import BOUNDS

    pattern = re.compile(r"^robustness/conclusions\.csv\[conclusion=([a-z_]+)\]\.new_estimate$")
    vague = _vague()
    checked = set()
    for record in _records():
        reading = record.reading
        match = pattern.match(reading.statistic) if reading else None
        if not match:
            continue
        bound = BOUNDS[match.group(1)]
        params = reading.params
        if reading.judge == "sign":
            if "word" in params:
                word = vague[params["word"]]
                side = "below" if {"below", "at_most"} & set(word) else "above"
                reference = float(next(word[k] for k in ("below", "at_most", "above", "at_least") if k in word))
            else:
                side = "above" if "above" in params else "below"
                reference = float(params[side])
            assert (bound.bar, bound.reference) == (side, reference), record.id
        elif reading.judge == "size":
            assert bound.word == params.get("word"), record.id
        elif reading.judge == "identity":
            assert bound.low == bound.high == float(params["equals"]), record.id
        checked.add(match.group(1))
    assert len(checked) >= 10


def test_every_conclusion_is_read_by_a_record_of_the_document_it_quotes():
    documents = {record.id: record for record in _records()}
    texts = {
        r.id: " ".join([*(reading.statistic for reading in r.readings), r.note, r.remark, r.not_reproducible])
        for r in documents.values()
    }
    quoting = {
        conclusion: [
            i for i, text in texts.items() if f"conclusion={conclusion}]" in text or f"csv {conclusion}" in text
        ]
        for conclusion in WORDS
    }
    # Two are judged on the K table K by K, whose K = 2 row and weakest row the conclusions' rows repeat.
    by_k = {
        "cv_estimates_smaller_training_sets": "robustness/k_bias_by_k.csv[K=2].training_effect_lower_bound",
        "cv_biased_upward": "robustness/k_bias_by_k.csv.training_effect_lower_bound",
    }
    for conclusion, statistic in by_k.items():
        quoting[conclusion] = [i for i, r in documents.items() if r.statistic == statistic]
    missing = [c for c, ids in quoting.items() if not ids]
    assert not missing, missing
    for conclusion, ids in quoting.items():
        assert any(documents[i].quoted_in == WORDS[conclusion]["document"] for i in ids), conclusion


def test_the_figures_draw_statistics_and_bounds_without_verdicts():
    from cvsuite.figures.robustness import conclusion_figures

    estimates, selection = shape_rows(n=40)
    four = four_estimators(n=40)
    exchange = pd.DataFrame({"expected_risk_fall_percent": [75.0, 10.0], "train_risk_rise_percent": [49.0, 3.0]})
    evidence = Evidence(four, fold_models_of(four), selection, k_bias_rows(), k_bias_sources(), exchange)
    rows = conclusion_statistics(evidence, SETTINGS)
    table = side_by_side(rows, rows)
    figures = conclusion_figures(table)
    texts = [
        t.get_text()
        for fig in figures.values()
        for t in [*fig.texts, *(a.title for a in fig.axes), *(x for a in fig.axes for x in a.texts)]
    ]
    assert texts and not any(re.search(r"\bHELD\b|UNDECIDED|hold on fresh", t) for t in texts)


def test_a_bootstrap_resample_holds_each_drawn_datasets_rows_as_often_as_it_was_drawn():
    from cvsuite.studies.robustness import _bootstrap_standard_error

    frame = pd.DataFrame({"dataset": [7, 3, 7, 5, 3, 5], "value": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    seen = []
    _bootstrap_standard_error(lambda f: seen.append(f) or 0.0, [frame], "dataset", 3, seed=4)
    rng = np.random.default_rng(4)
    for resample in seen:
        drawn = pd.Series(rng.choice(np.array([3, 5, 7]), 3)).value_counts()
        # In the frame's order, each row repeated once per draw of its dataset.
        expected = [v for d, v in zip(frame["dataset"], frame["value"]) for _ in range(int(drawn.get(d, 0)))]
        assert resample["value"].tolist() == expected


def test_leave_one_out_coverage_matches_a_refit_per_held_out_point_and_an_exact_true_risk():
    """The hat-matrix shortcut and the midpoint-rule truth agree with 25 refits per sample and a fine
    quadrature, on the same draws."""
    from cvsuite.studies.robustness_regression import leave_one_out_coverage

    samples, n, degree, noise, width, seed = 60, 25, 5, 0.35, 3.0, 7
    table = leave_one_out_coverage(samples, n, degree, noise, width, seed)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-width, width, (samples, n))
    y = np.sin(1.4 * x) + 0.3 * x + noise * rng.standard_normal((samples, n))
    grid = np.linspace(-width, width, 20001)
    covered = []
    for xs, ys in zip(x, y):
        losses = []
        for i in range(n):
            keep = np.arange(n) != i
            fit = np.polyfit(xs[keep] / width, ys[keep], degree)
            losses.append((ys[i] - np.polyval(fit, xs[i] / width)) ** 2)
        fit = np.polyfit(xs / width, ys, degree)
        truth = noise**2 + np.mean((np.sin(1.4 * grid) + 0.3 * grid - np.polyval(fit, grid / width)) ** 2)
        covered.append(abs(np.mean(losses) - truth) <= 2 * np.std(losses, ddof=1) / np.sqrt(n))
    assert table.loc[0, "std_error_coverage"] == pytest.approx(np.mean(covered))
    assert table.loc[0, "samples"] == samples and table.loc[0, "K"] == n
