from pathlib import Path

import numpy as np
import pytest
from twelve_points_cases import DESIGN, MSE, RECOVERED_Y, X, brute_force_sums_of_squares, noisy_table, refit

from cvsuite.methods.fold_statistics import fold_statistics
from cvsuite.published.comparison import judge, look_up
from cvsuite.published.registry import read_registry
from cvsuite.studies import twelve_points as tp

REGISTRY = Path(__file__).resolve().parents[1] / "registry" / "published_numbers.csv"


def test_every_registered_figure_and_claim_reads_as_printed_on_the_recovered_table():
    # The registry rows of the worked example that point at these tables, including the claims the
    # recovery did not aim at (fold 4 the polynomial's worst, fold 3 close to the line, ...).
    tables = {
        "twelve_points/fits.csv": tp.fits_table(RECOVERED_Y, DESIGN),
        "twelve_points/folds.csv": tp.fold_table(RECOVERED_Y, DESIGN, MSE),
        "twelve_points/summary.csv": tp.model_summary(RECOVERED_Y, DESIGN, MSE),
        "twelve_points/contrasts.csv": tp.contrasts(RECOVERED_Y, DESIGN, MSE, fold_a=4, fold_b=3),
        "twelve_points/claims.csv": tp.document_claims(RECOVERED_Y, DESIGN, MSE, edge_fold=4, fold_b=3, nearly=4.0),
    }
    claims = [c for c in read_registry(REGISTRY) if c.table in tables]
    assert len(claims) >= 20
    for claim in claims:
        assert judge(claim, look_up(claim, tables))["status"] in ("reproduced", "reproduced by construction"), claim.id


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


def test_claims_follow_the_table():
    for seed in range(15, 25):
        y = noisy_table(seed)
        claims = tp.document_claims(y, DESIGN, MSE, edge_fold=4, fold_b=3, nearly=4.0).set_index("claim")
        folds = np.array(brute_force_sums_of_squares(y, 5)[1]) / 3
        assert claims.loc["edge_fold_is_polynomials_worst", "holds"] == (int(np.argmax(folds)) == 3)
        assert claims.loc["edge_fold_over_fold_b_below_nearly", "value"] == pytest.approx(folds[3] / folds[2])
        assert claims.loc["edge_fold_over_fold_b_below_nearly", "holds"] == (folds[3] / folds[2] < 4.0)


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
    assert bool(freq.loc["polynomial_ahead_on_training", "holds_in_every_draw"])
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
    with pytest.raises(ValueError, match="edge_fold = 5: there are folds 1 to 4"):
        tp.document_claims(noisy_table(16), DESIGN, MSE, edge_fold=5, fold_b=3, nearly=4.0)
