from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from twelve_points_cases import DESIGN, MSE, RECOVERED_Y, X, brute_force_sums_of_squares, noisy_table, refit

from conftest import project_records
from cvsuite.methods.fold_statistics import fold_statistics
from cvsuite.published.comparison import compare
from cvsuite.published.scales import read_scales
from cvsuite.studies import twelve_points as tp

REGISTRY = Path(__file__).resolve().parents[1] / "registry"


def test_every_registered_figure_and_claim_reads_as_registered_on_the_recovered_table():
    # The records of the worked example that point at these tables, including the claims the recovery
    # did not aim at (fold 4 the polynomial's worst, fold 3 close to the line, ...), and those the
    # document gets wrong (registered with their erratum, so they must differ), each by its judge.
    from cvsuite.studies import twelve_points_by_folds as by_folds
    from cvsuite.studies import twelve_points_random_x as random_x
    from cvsuite.studies import twelve_points_splits as splits
    from cvsuite.studies import twelve_points_table_statistics as tps
    from cvsuite.studies.twelve_points_ranking import fresh_ranking_evidence, ranking_evidence

    stats = tp.fresh_data_statistics(DESIGN, MSE, slope=2.0, noise_sd=0.3, draws=200, seed=5)
    evidence = ranking_evidence(RECOVERED_Y, DESIGN, MSE)
    statistics = tps.table_statistics(RECOVERED_Y, DESIGN, MSE, compared_fold=3)
    counts = by_folds.equal_fold_counts(12, 5)
    expectations = by_folds.expectations_by_folds(X, (1, 5), counts, MSE)
    random_designs = random_x.random_design_expectations(12, (1, 5), (4, 12), 400, 7)
    against_loo = pd.concat(
        [
            by_folds.against_leave_one_out(expectations),
            random_x.random_design_against_leave_one_out(12, 1, counts, 400, 7),
        ],
        ignore_index=True,
    )
    tables = {
        "twelve_points/fits.csv": tp.fits_table(RECOVERED_Y, DESIGN),
        "twelve_points/folds.csv": tp.fold_table(RECOVERED_Y, DESIGN, MSE),
        "twelve_points/summary.csv": tp.model_summary(RECOVERED_Y, DESIGN, MSE),
        "twelve_points/contrasts.csv": tp.contrasts(RECOVERED_Y, DESIGN, MSE, fold_a=4, fold_b=3),
        "twelve_points/design.csv": tps.design_table(DESIGN),
        "twelve_points/table_statistics.csv": statistics,
        "twelve_points/ranking_evidence.csv": evidence.assign(**fresh_ranking_evidence(stats)),
        "twelve_points/expectations_by_folds.csv": expectations,
        "twelve_points/random_design_expectations.csv": random_designs,
        "twelve_points/against_leave_one_out.csv": against_loo,
        "twelve_points/loo_loss_dependence.csv": by_folds.leave_one_out_loss_dependence(X, (1, 5)),
        "twelve_points/uneven_folds_against_leave_one_out.csv": by_folds.against_leave_one_out(
            by_folds.expectations_by_folds(X, (1, 5), [*by_folds.unequal_fold_counts(12, 5), 12], MSE)
        ),
        "twelve_points/random_folds_against_leave_one_out.csv": by_folds.random_folds_against_leave_one_out(
            X, (1, 5), [4, 5, 6, 10], 100, 11, MSE
        ),
        "twelve_points/pessimism_by_n.csv": by_folds.pessimism_by_sample_size([12, 120, 1200], (1, 5), 4, MSE),
        "twelve_points/robustness.csv": tp.conclusion_frequencies(stats, edge_fold=4),
        "twelve_points/consistent_tables.csv": tps.across_tables(pd.concat([statistics, evidence], axis=1)),
        "twelve_points/single_splits.csv": splits.single_splits(RECOVERED_Y, DESIGN, MSE),
        "twelve_points/fold_fit_spread.csv": splits.fold_fit_spread(
            RECOVERED_Y, DESIGN, tp.residual_sd(RECOVERED_Y, X)
        ),
        "twelve_points/fold_fit_distance.csv": splits.fold_fit_distance(X, (1, 5), counts),
    }
    registered = [r for r in project_records() if r.readings and all(x.reference.table in tables for x in r.readings)]
    assert len(registered) >= 50
    judged = compare(registered, tables, read_scales(REGISTRY).words)
    for record, status, judge in zip(registered, judged["status"], judged["judge"]):
        expected = (
            ("differs",)
            if record.erratum
            else ("depends on the reading",)
            if record.depends
            else ("reproduced", "reproduced by construction")
        )
        assert status in expected, record.id
        assert not judge.startswith("exact") or not record.is_claim, record.id  # every claim has its own judge
    for field in ("note", "remark", "erratum"):
        assert not judged[field].str.contains("n/a", regex=False).any(), field


def test_fits_and_held_out_predictions_are_least_squares_refits():
    y = noisy_table(3)
    fits = tp.fits_table(y, DESIGN)
    assert fits["fold"].tolist() == [1, 2, 3, 4] * 3
    for model, degree in (("line", 1), ("polynomial", 5)):
        assert np.allclose(fits[f"{model}_fit"], refit(X, y, degree, X))
        for fold in DESIGN.folds:
            train = np.setdiff1d(np.arange(12), fold)
            held_out = fits[f"{model}_held_out_prediction"].to_numpy()[fold]
            assert np.allclose(held_out, refit(X[train], y[train], degree, X[fold]))


def test_the_fold_statistics_behind_the_sentences_follow_refits():
    from cvsuite.studies.twelve_points_table_statistics import table_statistics

    for seed in range(15, 25):
        y = noisy_table(seed)
        row = table_statistics(y, DESIGN, MSE, compared_fold=3).iloc[0]
        poly = np.array(brute_force_sums_of_squares(y, 5)[1]) / 3
        line = np.array(brute_force_sums_of_squares(y, 1)[1]) / 3
        assert row["edge_fold_over_largest_other_fold"] == pytest.approx(poly[3] / poly[:3].max(), rel=1e-8)
        # above 1 exactly when fold 4 is the worst
        assert (row["edge_fold_over_largest_other_fold"] > 1) == (int(np.argmax(poly)) == 3)
        excess = poly - line
        gap = excess[2] - np.delete(excess, 2).min()
        assert row["compared_fold_excess_minus_smallest_other"] == pytest.approx(gap, abs=1e-10)
        assert (gap < 0) == (int(np.argmin(excess)) == 2)


def test_residual_sd_is_the_lines_with_n_minus_2_degrees_of_freedom():
    y = noisy_table(4)
    assert tp.residual_sd(y, X) == pytest.approx(np.sqrt(np.sum((y - refit(X, y, 1, X)) ** 2) / 10))


def test_fresh_data_are_one_stream_of_normals_whatever_the_batch():
    # Draw order: default_rng(seed).standard_normal((draws, n)), row d for table d.
    noise = np.random.default_rng(4).standard_normal((50, 12))
    expected = fold_statistics(2.0 * X + 0.3 * noise, DESIGN, MSE)
    fresh = tp.fresh_data_statistics(DESIGN, MSE, slope=2.0, noise_sd=0.3, draws=50, seed=4, batch=7)
    assert all(np.array_equal(fresh[k], expected[k]) for k in expected)
    training_ss = brute_force_sums_of_squares(2.0 * X + 0.3 * noise[17], 1)[0]
    assert fresh["training"][17, 0] == pytest.approx(training_ss / 12)


def test_conclusion_frequencies_carry_binomial_standard_errors():
    stats = tp.fresh_data_statistics(DESIGN, MSE, slope=2.0, noise_sd=0.3, draws=400, seed=5)
    freq = tp.conclusion_frequencies(stats, edge_fold=4, reference_difference=0.0).set_index("conclusion")
    assert freq.loc["polynomial_ahead_on_training", "frequency"] == 1.0  # nested models: never above
    assert "holds_in_every_draw" not in freq.columns  # the record's identity judge reads the frequency
    worst = np.argmax(stats["folds"][:, 1], axis=1) == 3
    p = freq.loc["edge_fold_is_polynomials_worst", "frequency"]
    assert p == worst.mean()
    assert freq.loc["edge_fold_is_polynomials_worst", "frequency_se"] == pytest.approx(np.sqrt(p * (1 - p) / 400))
    assert freq.loc["polynomial_cv_above_line_cv", "frequency"] == np.mean(stats["cv"][:, 1] > stats["cv"][:, 0])


def test_histogram_counts_every_value_once_and_the_tail_in_one_overflow_row():
    values = np.random.default_rng(6).standard_normal(1000)
    hist = tp.histogram_table(values, bins=20, upper_quantile=0.95)
    assert hist["count"].sum() == 1000
    assert hist["overflow"].sum() == 1
    assert hist.loc[hist["overflow"], "count"].item() == np.sum(values > np.quantile(values, 0.95)) == 50


def test_a_fold_outside_the_design_is_refused_by_name():
    from cvsuite.studies.twelve_points_table_statistics import table_statistics

    with pytest.raises(ValueError, match="fold_a = 5: there are folds 1 to 4"):
        tp.contrasts(noisy_table(16), DESIGN, MSE, fold_a=5, fold_b=3)
    with pytest.raises(ValueError, match="compared_fold = 5: there are folds 1 to 4"):
        table_statistics(noisy_table(16), DESIGN, MSE, compared_fold=5)


# ----------------------------------------------------------------------------------------------
# The ranking as an inference, the design, the other sentences, what CV_k estimates


def test_paired_test_is_scipys_related_samples_t_test_on_the_fold_errors():
    from scipy.stats import ttest_rel

    from cvsuite.studies.twelve_points_ranking import ranking_evidence

    evidence = ranking_evidence(RECOVERED_Y, DESIGN, MSE).iloc[0]
    folds = np.array([brute_force_sums_of_squares(RECOVERED_Y, d)[1] for d in (1, 5)]) / 3
    expected = ttest_rel(folds[1], folds[0])
    assert evidence["paired_t"] == pytest.approx(expected.statistic, rel=1e-9)
    assert evidence["paired_p_value"] == pytest.approx(expected.pvalue, rel=1e-9)
    assert evidence["paired_t_critical"] == pytest.approx(3.182446305284263, rel=1e-12)  # t(0.975, 3), tables
    assert abs(evidence["paired_t"]) < evidence["paired_t_critical"]  # the paired test does not separate them
    se = folds.std(axis=1, ddof=1) / 2
    assert evidence["unpaired_difference_se"] == pytest.approx(np.hypot(*se), rel=1e-9)
    difference = folds[1].mean() - folds[0].mean()
    # The Checks rule's two measures of the fold losses' variation, over the difference: as step 5
    # measures their spread (s.d. / sqrt(k)), and (the stricter reading) as their s.d.
    assert evidence["largest_std_error_over_cv_difference"] == pytest.approx(se.max() / difference, rel=1e-9)
    assert evidence["largest_fold_sd_over_cv_difference"] == pytest.approx(
        folds.std(axis=1, ddof=1).max() / difference, rel=1e-9
    )
    assert evidence["partitions_polynomial_worse"] == evidence["partitions"] == 15400


def test_every_repartition_is_scored_as_a_refit_would_score_it():
    from cvsuite.methods.partitions import equal_partitions
    from cvsuite.studies.twelve_points_ranking import repartition_statistics

    y = noisy_table(31)
    partitions = equal_partitions(12, 4)
    scored = repartition_statistics(np.vstack([y, RECOVERED_Y]), DESIGN, MSE)
    assert scored["difference"].shape == (2, 15400) == scored["t"].shape
    for p in (0, 4321, 15399):
        errors = []
        for degree in (1, 5):
            held_out = []
            for fold in partitions[p]:
                train = np.setdiff1d(np.arange(12), fold)
                held_out.append(np.mean((y[fold] - refit(X[train], y[train], degree, X[fold])) ** 2))
            errors.append(np.array(held_out))
        difference = errors[1] - errors[0]
        assert scored["difference"][0, p] == pytest.approx(difference.mean(), rel=1e-8)
        assert scored["t"][0, p] == pytest.approx(difference.mean() / (difference.std(ddof=1) / 2), rel=1e-8)
    # the document's own assignment is one of them
    by_position = [
        i
        for i, p in enumerate(partitions)
        if sorted(map(tuple, p.tolist())) == [(0, 4, 8), (1, 5, 9), (2, 6, 10), (3, 7, 11)]
    ]
    contrasts = tp.contrasts(RECOVERED_Y, DESIGN, MSE, fold_a=4, fold_b=3).iloc[0]
    assert scored["difference"][1, by_position[0]] == pytest.approx(contrasts["cv_difference"], rel=1e-9)


def test_fresh_ranking_evidence_counts_draws_with_binomial_errors():
    from cvsuite.studies.twelve_points_ranking import fresh_ranking_evidence

    stats = tp.fresh_data_statistics(DESIGN, MSE, slope=2.0, noise_sd=0.3, draws=300, seed=8)
    row = fresh_ranking_evidence(stats)
    worse = stats["cv"][:, 1] > stats["cv"][:, 0]
    assert row["fresh_polynomial_worse_percent"] == pytest.approx(100 * worse.mean())
    d = stats["folds"][:, 1] - stats["folds"][:, 0]
    t = d.mean(axis=1) / (d.std(axis=1, ddof=1) / 2)
    assert row["fresh_paired_test_separates_percent"] == pytest.approx(100 * np.mean(np.abs(t) > 3.182446305284263))
    p = worse.mean()
    assert row["fresh_polynomial_worse_percent_se"] == pytest.approx(100 * np.sqrt(p * (1 - p) / 300))


def test_the_design_sees_folds_by_position_span_the_range_and_blocks_do_not():
    from cvsuite.methods.fold_statistics import Design
    from cvsuite.methods.folds import consecutive_folds
    from cvsuite.studies.twelve_points_table_statistics import design_table

    row = design_table(DESIGN).iloc[0]
    assert row["fold_assignment"] == "{1,5,9} {2,6,10} {3,7,11} {4,8,12}"
    assert (row["fold_size"], row["training_size"], row["loo_training_overlap"]) == (3, 9, 10)
    assert (row["observations_not_held_out_once"], row["folds_spanning_range"]) == (0, 4)
    assert row["loo_training_observations_not_shared"] == 1
    blocks = design_table(Design(X, (1, 5), tuple(consecutive_folds(12, 4)))).iloc[0]
    assert blocks["folds_spanning_range"] == 0 and blocks["observations_not_held_out_once"] == 0
    repeated = Design(X, (1, 5), (np.arange(0, 6), np.arange(3, 12)))
    assert design_table(repeated).iloc[0]["observations_not_held_out_once"] == 3  # 4, 5, 6 held out twice


def test_table_statistics_match_refits_of_the_edge_fold_and_of_interpolating_polynomials():
    from cvsuite.studies.twelve_points_table_statistics import table_statistics

    y = noisy_table(17)
    row = table_statistics(y, DESIGN, MSE, compared_fold=3).iloc[0]
    fold4 = DESIGN.folds[3]
    train = np.setdiff1d(np.arange(12), fold4)
    residuals = y[fold4] - refit(X[train], y[train], 5, X[fold4])
    assert row["edge_observation"] == 12 and row["edge_fold"] == 4
    assert row["edge_observation_share_of_edge_fold"] == pytest.approx(
        residuals[-1] ** 2 / np.sum(residuals**2), rel=1e-8
    )
    assert row["line_slope"] == pytest.approx(np.polyfit(X, y, 1)[0], rel=1e-12)
    held_out = []
    for fold in DESIGN.folds:  # degree 8 through each fold's nine training points
        train = np.setdiff1d(np.arange(12), fold)
        held_out.append(np.mean((y[fold] - refit(X[train], y[train], 8, X[fold])) ** 2))
    assert row["interpolant_cv"] == pytest.approx(np.mean(held_out), rel=1e-6)
    assert row["interpolant_training_error"] < 1e-18
    line_training = brute_force_sums_of_squares(y, 1)[0] / 12
    assert row["interpolant_training_error_over_line"] == pytest.approx(
        row["interpolant_training_error"] / line_training
    )


def test_expected_cv_is_the_leverage_formula_at_k_equals_n_and_the_simulated_mean_at_k_4():
    from cvsuite.methods.fold_statistics import Design
    from cvsuite.methods.folds import positional_folds
    from cvsuite.studies.twelve_points_by_folds import expectations_by_folds

    table = expectations_by_folds(X, (1, 5), [4, 12], MSE).set_index(["model", "folds"])
    for model, degree in (("line", 1), ("polynomial", 5)):
        vander = np.vander(X, degree + 1)
        hat = vander @ np.linalg.pinv(vander)
        # leave-one-out residual = residual / (1 - h_ii): E = sigma^2 mean(1 / (1 - h_ii))
        assert table.loc[(model, 12), "expected_cv"] == pytest.approx(np.mean(1 / (1 - np.diag(hat))), rel=1e-8)
        assert table.loc[(model, 12), "full_sample_error"] == pytest.approx(1 + (degree + 1) / 12, rel=1e-12)
    fresh = tp.fresh_data_statistics(DESIGN, MSE, slope=2.0, noise_sd=1.0, draws=20000, seed=9)
    for m, model in enumerate(("line", "polynomial")):
        cv = fresh["cv"][:, m]
        assert abs(cv.mean() - table.loc[(model, 4), "expected_cv"]) < 4 * cv.std() / np.sqrt(len(cv))
        assert cv.std() == pytest.approx(table.loc[(model, 4), "cv_sd"], rel=0.05)
    assert Design(X, (1, 5), tuple(positional_folds(12, 4))).folds[3].tolist() == [3, 7, 11]


def test_expectations_without_the_spread_are_the_same_numbers_bit_for_bit():
    from cvsuite.studies.twelve_points_by_folds import expectations_by_folds

    x = np.arange(1, 61, dtype=float)
    full = expectations_by_folds(x, (1, 5), [2, 4, 5, 60], MSE)
    narrow = expectations_by_folds(x, (1, 5), [2, 4, 5, 60], MSE, spread=False)
    assert narrow["cv_sd"].isna().all()
    pd.testing.assert_frame_equal(narrow.drop(columns="cv_sd"), full.drop(columns="cv_sd"), check_exact=True)


def test_each_k_against_leave_one_out_reads_the_exact_expectations():
    from cvsuite.studies.twelve_points_by_folds import against_leave_one_out, expectations_by_folds

    table = expectations_by_folds(X, (1, 5), [2, 4, 12], MSE)
    assert table["pessimism"].to_numpy() == pytest.approx(table["pessimism_percent"].to_numpy() / 100, rel=1e-12)
    against = against_leave_one_out(table).set_index(["model", "folds"])
    assert sorted(against.index) == [("line", 2), ("line", 4), ("polynomial", 2), ("polynomial", 4)]
    by = table.set_index(["model", "folds"])
    for model in ("line", "polynomial"):
        row, k, loo = against.loc[(model, 4)], by.loc[(model, 4)], by.loc[(model, 12)]
        assert row["loo_minus_k_cv_sd"] == pytest.approx(loo["cv_sd"] - k["cv_sd"], rel=1e-12)
        assert row["pessimism_minus_loo"] == pytest.approx(k["pessimism"] - loo["pessimism"], rel=1e-12)
        assert row["pessimism_se"] == row["loo_minus_k_cv_sd_se"] == 0.0  # exact: no Monte Carlo
    assert (against["design"] == "fixed").all()
    with pytest.raises(ValueError, match="needs k = n = 12"):
        against_leave_one_out(table[table["folds"] < 12].assign(folds=lambda t: t["folds"].replace(4, 12)))


def test_leave_one_out_loss_dependence_matches_simulated_losses():
    # The closed forms against held-out squared residuals simulated with noise, and leave-one-out's
    # s.d. against expectations_by_folds' own.
    from cvsuite.methods.fold_statistics import residual_operators
    from cvsuite.methods.folds import positional_folds
    from cvsuite.studies.twelve_points_by_folds import expectations_by_folds, leave_one_out_loss_dependence

    table = leave_one_out_loss_dependence(X, (1, 5)).set_index("model")
    exact = expectations_by_folds(X, (1, 5), [12], MSE).set_index("model")
    noise = np.random.default_rng(11).standard_normal((40_000, 12))
    for model, degree in (("line", 1), ("polynomial", 5)):
        row = table.loc[model]
        assert row["cv_sd"] == pytest.approx(exact.loc[model, "cv_sd"], rel=1e-12)
        residuals = noise @ np.vstack(residual_operators(X, degree, positional_folds(12, 12))[1]).T
        losses = residuals**2
        assert losses.mean(axis=1).std() == pytest.approx(row["cv_sd"], rel=0.03)
        assert np.sqrt(losses.var(axis=0).sum()) / 12 == pytest.approx(row["independent_losses_cv_sd"], rel=0.03)
        increase = (row["cv_sd"] / row["independent_losses_cv_sd"]) ** 2 - 1
        assert row["dependence_variance_increase"] == pytest.approx(increase, rel=1e-12)
        correlation = np.corrcoef(losses.T)[~np.eye(12, dtype=bool)]
        assert correlation.mean() == pytest.approx(row["mean_loss_correlation"], abs=0.01)
        residual_correlation = np.abs(np.corrcoef(residuals.T))[~np.eye(12, dtype=bool)]
        assert residual_correlation.mean() == pytest.approx(row["mean_abs_residual_correlation"], abs=0.01)
    assert (
        0 < table.loc["line", "dependence_variance_increase"] < table.loc["polynomial", "dependence_variance_increase"]
    )


def test_against_leave_one_out_with_x_drawn_pairs_the_same_designs():
    from cvsuite.studies.twelve_points_random_x import (
        random_design_against_leave_one_out,
        random_design_expectations,
    )

    against = random_design_against_leave_one_out(12, 1, (4, 12), 600, 3).set_index("folds")
    expected = random_design_expectations(12, (1,), (4, 12), 600, 3).set_index("folds")
    row = against.loc[4]
    assert list(against.index) == [4] and row["design"] == "random" and row["model"] == "line"
    assert row["pessimism"] == pytest.approx(expected.loc[4, "pessimism"], rel=1e-12)
    assert row["loo_pessimism"] == pytest.approx(expected.loc[12, "pessimism"], rel=1e-12)
    assert row["cv_sd"] == pytest.approx(expected.loc[4, "cv_sd"], rel=1e-12)
    assert row["loo_cv_sd"] == pytest.approx(expected.loc[12, "cv_sd"], rel=1e-12)
    # pairing on the same designs: the difference is far better known than either s.d. alone
    assert 0 < row["loo_minus_k_cv_sd_se"] < 0.01 * abs(row["loo_minus_k_cv_sd"])
    assert 0 < row["pessimism_minus_loo_se"] < row["pessimism_se"]


def test_across_tables_gives_each_statistics_range():
    from cvsuite.studies.twelve_points_table_statistics import across_tables, solution_tables

    per_table = pd.DataFrame({"a": [1.0, 3.0, 2.0], "b": [5.0, 4.0, 6.0]})
    summary = across_tables(per_table, ("b", "a")).set_index("statistic")
    assert list(summary.index) == ["b", "a"]
    assert summary.loc["a", "tables"] == 3 and (summary.loc["a", "minimum"], summary.loc["a", "maximum"]) == (1.0, 3.0)
    with pytest.raises(ValueError, match="no column c"):
        across_tables(per_table, ("c",))
    long = pd.DataFrame(
        {
            "source": ["s"] * 4 + ["t"] * 4,
            "solution": [2] * 4 + [1] * 4,
            "observation": [2, 1, 4, 3] * 2,
            "y": np.arange(8.0),
        }
    )
    assert solution_tables(long, 4).tolist() == [[1.0, 0.0, 3.0, 2.0], [5.0, 4.0, 7.0, 6.0]]


def test_with_x_drawn_afresh_leave_one_out_is_unbiased_for_the_fit_to_n_minus_one():
    """The standard reading of what CV_k estimates: over random designs, E[CV_n] equals the expected error
    of the fit to n - 1 observations (exactly, in expectation), and CV_k is pessimistic against the fit to n."""
    from cvsuite.studies.twelve_points_random_x import random_design_expectations

    table = random_design_expectations(12, (1,), (4, 12), 3000, 11).set_index("folds")
    loo, four = table.loc[12], table.loc[4]
    assert loo["expected_cv"] == pytest.approx(
        loo["n_minus_one_error"], abs=4 * (loo["expected_cv_se"] + loo["n_minus_one_error_se"])
    )
    assert four["expected_cv"] > loo["expected_cv"] > loo["full_sample_error"]
    assert four["pessimism_percent"] > loo["pessimism_percent"] > 0
    # the fraction is the ratio of means, with the paired delta-method s.e.
    assert loo["pessimism"] == pytest.approx(loo["expected_cv"] / loo["full_sample_error"] - 1, rel=1e-9)
    assert 0 < loo["pessimism_se"] < loo["pessimism"]
    assert loo["n_minus_one_step_median"] == pytest.approx(
        loo["n_minus_one_error_median"] / loo["full_sample_error_median"] - 1
    )


def test_pessimism_by_sample_size_shrinks_towards_the_training_size_ratio_and_refuses_uneven_n():
    from cvsuite.studies.twelve_points_by_folds import pessimism_by_sample_size, unequal_fold_counts

    table = pessimism_by_sample_size([12, 120], (1, 5), 4, MSE).set_index(["n", "model"])
    assert table.loc[(12, "line"), "pessimism"] > table.loc[(120, "line"), "pessimism"] > 0
    # For large n a p-parameter fit on m points errs by about s^2 (1 + p/m): the pessimism nears p/m - p/n.
    assert table.loc[(120, "line"), "pessimism"] == pytest.approx(2 / 90 - 2 / 120, rel=0.05)
    with pytest.raises(ValueError, match="do not split 30"):
        pessimism_by_sample_size([30], (1, 5), 4, MSE)
    assert unequal_fold_counts(12, 5) == [5, 7, 8, 9, 10, 11]


def test_random_folds_against_leave_one_out_matches_simulated_partitions_and_noise():
    # The moments over random partitions against CV_10 simulated directly: a random partition and
    # fresh noise per draw, the fits refitted by brute force.
    from cvsuite.methods.folds import positional_folds
    from cvsuite.studies.twelve_points_by_folds import random_folds_against_leave_one_out

    row = random_folds_against_leave_one_out(X, (1, 5), [10], 300, 3, MSE).set_index("model").loc["line"]
    rng = np.random.default_rng(8)
    estimates = []
    for _ in range(2500):
        order, y = rng.permutation(12), rng.standard_normal(12)
        folds = [np.sort(order[f]) for f in positional_folds(12, 10)]
        errors = []
        for fold in folds:
            train = np.setdiff1d(np.arange(12), fold)
            fit = np.polyfit(X[train], y[train], 1)
            errors.append(np.mean((y[fold] - np.polyval(fit, X[fold])) ** 2))
        estimates.append(np.mean(errors))
    assert np.std(estimates) == pytest.approx(row["cv_sd"], rel=0.05)  # 2500 draws: the s.d.'s s.e. is 1.4%
    assert row["loo_minus_k_cv_sd"] == pytest.approx(row["loo_cv_sd"] - row["cv_sd"], rel=1e-12)
    assert row["partitions"] == 300 and 0 < row["cv_sd_se"] < 0.01


def test_random_folds_refuse_a_k_that_leaves_too_few_points_to_fit():
    from cvsuite.studies.twelve_points_by_folds import random_folds_against_leave_one_out

    with pytest.raises(ValueError, match="twelve_points.random_fold_counts"):
        random_folds_against_leave_one_out(X, (1, 5), [12], 10, 1, MSE)
    with pytest.raises(ValueError, match="leave 6 observations"):
        random_folds_against_leave_one_out(X, (1, 5), [2, 1], 10, 1, MSE)


def test_single_splits_hold_out_every_triple_and_the_fold_fits_are_refits():
    from itertools import combinations

    from cvsuite.studies import twelve_points_splits as splits

    y = noisy_table(6)
    table = splits.single_splits(y, DESIGN, MSE).set_index("model")
    errors = []
    for held in combinations(range(12), 3):
        train = np.setdiff1d(np.arange(12), held)
        errors.append(np.mean((y[list(held)] - refit(X[train], y[train], 1, X[list(held)])) ** 2))
    assert table.loc["line", "splits"] == 220
    assert table.loc["line", "split_error_max"] == pytest.approx(max(errors))
    assert table.loc["line", "split_error_sd"] == pytest.approx(np.std(errors, ddof=1))
    spread = splits.fold_fit_spread(y, DESIGN, 0.5).set_index("model")
    full = refit(X, y, 5, X)
    gaps = [
        np.abs(refit(X[np.setdiff1d(np.arange(12), f)], y[np.setdiff1d(np.arange(12), f)], 5, X) - full).max()
        for f in DESIGN.folds
    ]
    assert spread.loc["polynomial", "largest_gap_to_full_fit"] == pytest.approx(max(gaps))
    assert spread.loc["polynomial", "largest_gap_over_noise_sd"] == pytest.approx(max(gaps) / 0.5)


def test_the_fold_fits_distance_to_the_full_fit_is_the_noise_it_carries():
    """Exact against a simulation: the mean squared distance of fold fits to the full fit, on pure noise."""
    from cvsuite.studies import twelve_points_splits as splits

    exact = splits.fold_fit_distance(X, (1,), [4]).iloc[0]["distance_to_full_fit"]
    noise = np.random.default_rng(3).standard_normal((1000, 12))
    distances = []
    for y in noise:
        full = refit(X, y, 1, X)
        for fold in DESIGN.folds:
            train = np.setdiff1d(np.arange(12), fold)
            distances.append(np.mean((refit(X[train], y[train], 1, X) - full) ** 2))
    assert np.mean(distances) == pytest.approx(exact, rel=0.1)


def test_unlucky_splits_score_every_triple_on_fresh_tables_as_a_refit_would():
    from cvsuite.studies import twelve_points_splits as splits

    table = splits.unlucky_splits(DESIGN, MSE, slope=2.0, noise_sd=0.3, draws=5, seed=1).iloc[0]
    ys = 2.0 * X + 0.3 * np.random.default_rng(1).standard_normal((5, 12))
    worse = []
    for y in ys:
        per_split = []
        for split in map(np.array, __import__("itertools").combinations(range(12), 3)):
            errors = [splits.held_out_error(y, DESIGN, degree, split, MSE) for degree in DESIGN.degrees]
            per_split.append(errors[0] > errors[1])
        worse.append(np.mean(per_split))
    assert table["splits"] == 220 and table["tables"] == 5
    assert table["share_line_worse"] == pytest.approx(np.mean(worse))
    assert table["share_line_worse_se"] == pytest.approx(np.std(worse, ddof=1) / np.sqrt(5))


def test_the_spread_across_folds_of_every_partition_is_read_off_the_splits_errors():
    from itertools import combinations

    from cvsuite.methods.partitions import equal_partitions
    from cvsuite.studies import twelve_points_splits as splits

    table = splits.single_splits(RECOVERED_Y, DESIGN, MSE).set_index("model")
    for model, degree in zip(("line",), DESIGN.degrees):  # one model: the indexing is the same for both
        error = {
            c: splits.held_out_error(RECOVERED_Y, DESIGN, degree, np.array(c), MSE) for c in combinations(range(12), 3)
        }
        variances = [np.var([error[tuple(g)] for g in p], ddof=1) for p in equal_partitions(12, 4)]
        assert table.loc[model, "partition_fold_sd_rms"] == pytest.approx(np.sqrt(np.mean(variances)), rel=1e-9)
        assert table.loc[model, "partition_fold_sd_rms_over_split_sd"] == pytest.approx(
            table.loc[model, "partition_fold_sd_rms"] / table.loc[model, "split_error_sd"]
        )


def test_partition_noise_averages_every_partition_of_each_fresh_table():
    from itertools import combinations

    from cvsuite.methods.partitions import equal_partitions
    from cvsuite.studies import twelve_points_splits as splits

    table = splits.partition_noise(DESIGN, MSE, slope=2.0, noise_sd=0.3, draws=2, seed=5, repeats=4).set_index("model")
    rng = np.random.default_rng(5)
    ys = 2.0 * X + 0.3 * rng.standard_normal((2, 12))
    partitions = equal_partitions(12, 4)
    complete, spreads = [], []
    for y in ys:
        error = {c: splits.held_out_error(y, DESIGN, 1, np.array(c), MSE) for c in combinations(range(12), 3)}
        cv = np.array([np.mean([error[tuple(g)] for g in p]) for p in partitions])
        complete.append(cv.mean())
        spreads.append(cv.std(ddof=1))
    line = table.loc["line"]
    assert line["complete_cv_mean"] == pytest.approx(np.mean(complete), rel=1e-9)
    assert line["partition_sd_rms"] == pytest.approx(np.sqrt(np.mean(np.square(spreads))), rel=1e-9)
    assert line["partitions"] == len(partitions) == 15400
    assert 0 <= line["interval_coverage"] <= 1 and line["repeated_over_single_rms"] > 0
