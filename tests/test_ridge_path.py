"""Study ridge_path: the exchange rate of §8.2.3 and the worked example by hand."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.data.sine import polynomial_design, sine_sample, train_and_test
from cvsuite.studies.ridge_path import (
    best_lambda_summary,
    checked_worked_example,
    worked_example_exchange,
    worked_example_table,
    worked_example_theta,
)
from cvsuite.studies.ridge_path_mechanics import (
    below_the_grid,
    cancellation_ratio,
    penalty_prior_gap,
    prior_mean,
    step1_expansion,
    with_mechanics,
    with_printed_algebra,
    with_steps_from_best,
)

X, Y = np.array([1.0, -1.0]), np.array([2.0, 0.0])


@pytest.mark.parametrize("lam, theta", [(0.0, 1.0), (1.0, 0.5), (3.0, 0.25), (np.inf, 0.0)])
def test_worked_example_closed_form_is_one_over_one_plus_lambda(lam, theta):
    assert worked_example_theta(lam, X, Y) == pytest.approx(theta)
    assert worked_example_theta(lam, X, Y) == pytest.approx(1 / (1 + lam))


def test_worked_example_closed_form_matches_a_numerical_ridge_solve():
    table = worked_example_table(X, Y, [0.0, 0.1, 1.0, 3.0, 10.0])
    np.testing.assert_allclose(table["theta"], table["theta_numerical"], rtol=0, atol=1e-14)
    np.testing.assert_allclose(table["train_risk"], table["train_risk_numerical"], rtol=0, atol=1e-14)


def test_worked_example_exchange_from_zero_to_one():
    table = worked_example_table(X, Y, [0.0, 1.0])
    exchange = worked_example_exchange(table, 0.0, 1.0).iloc[0]
    assert exchange["train_risk_cost"] == pytest.approx(0.25)
    assert exchange["theta_norm_squared_reduction_percent"] == pytest.approx(75.0)


def test_best_lambda_summary_reports_percentages_in_printed_units():
    import pandas as pd

    grid = pd.DataFrame(
        {"lambda": [1.0, 2.0], "train_risk": [1.5, 2.0], "expected_risk": [2.0, 3.0], "theta_norm": [2.0, 1.0]}
    )
    unreg = pd.Series({"train_risk": 1.0, "expected_risk": 4.0, "theta_norm": 10.0})
    row = best_lambda_summary(unreg, grid).iloc[0]
    assert row["best_lambda"] == 1.0
    assert row["train_risk_rise_percent"] == pytest.approx(50.0)
    assert row["expected_risk_fall_percent"] == pytest.approx(50.0)
    assert row["theta_norm_shrink_factor"] == pytest.approx(5.0)


def test_checked_worked_example_refuses_a_closed_form_that_misses_the_solve(monkeypatch):
    import cvsuite.studies.ridge_path as study

    monkeypatch.setattr(study, "worked_example_theta", lambda lam, x, y: 0.9 / (1 + lam))
    with pytest.raises(RuntimeError, match="differ by"):
        checked_worked_example(X, Y, [0.0, 1.0])


def test_the_ridge_solution_is_the_posterior_mean_under_the_matching_gaussian_prior():
    x, y = sine_sample(25, 3, 0.35, 3.0)
    design = polynomial_design(x, 12, 3.0)
    lam, sigma = 2.6e-5, 0.35
    tau = sigma / np.sqrt(25 * lam)
    # The p x p form of the same posterior mean: (X^T X / sigma^2 + I / tau^2)^-1 X^T y / sigma^2.
    p_by_p = np.linalg.solve(design.T @ design / sigma**2 + np.eye(13) / tau**2, design.T @ y / sigma**2)
    np.testing.assert_allclose(prior_mean(design, y, sigma, tau), p_by_p, rtol=1e-6)
    assert penalty_prior_gap(design, y, lam, sigma) < 1e-8
    # Another prior gives another estimate: the gap says so.
    assert np.abs(prior_mean(design, y, sigma, 2 * tau) - p_by_p).max() / np.abs(p_by_p).max() > 1e-3


def test_cancellation_ratio_is_the_terms_over_the_fit_they_add_up_to():
    design = np.array([[1.0, 1.0], [1.0, 0.5]])
    # Terms 1000 and -999 give a fit of 1 at the first point; 1000 and -499.5 give 500.5 at the second.
    assert cancellation_ratio(design, np.array([1000.0, -999.0])) == pytest.approx(1999 / 500.5)
    assert cancellation_ratio(np.eye(2), np.array([3.0, -2.0])) == pytest.approx(1.0)


def test_below_the_grid_runs_from_the_grid_start_down_to_the_unregularised_fit():
    samples = train_and_test(train_size=25, train_seed=3, test_size=400, test_seed=99, noise=0.35, half_width=3.0)
    below = below_the_grid(samples, 12, 1e-9)
    np.testing.assert_allclose(below["lambda"], [1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14])
    train, test = samples.designs(12)
    theta = np.linalg.lstsq(train, samples.y, rcond=None)[0]
    unregularised = np.mean((samples.y_test - test @ theta) ** 2)
    assert below["expected_risk"].iloc[-1] == pytest.approx(unregularised, rel=1e-3)
    assert below["over_unregularised"].iloc[0] == pytest.approx(below["expected_risk"].iloc[0] / unregularised)
    np.testing.assert_allclose(below["gap_to_unregularised"], below["over_unregularised"] - 1)
    assert abs(below["gap_to_unregularised"].iloc[-1]) < abs(below["gap_to_unregularised"].iloc[0])


def grid_of(train, expected, norm):
    return pd.DataFrame(
        {
            "lambda": np.geomspace(1e-3, 1, len(train)),
            "train_risk": train,
            "expected_risk": expected,
            "theta_norm": norm,
        }
    )


def test_steps_from_best_count_from_the_first_lambda_of_least_expected_risk():
    grid = with_steps_from_best(grid_of([0.1, 0.2, 0.3, 0.4, 0.5], [0.5, 0.2, 0.3, 0.2, 0.4], [5, 4, 3, 2, 1]))
    assert list(grid["steps_from_best"]) == [-1, 0, 1, 2, 3]
    assert list(grid.columns[:4]) == ["lambda", "train_risk", "expected_risk", "theta_norm"]


def test_the_summary_gains_the_prior_gap_the_cancellation_and_the_training_risk_excess():
    x, y = sine_sample(25, 3, 0.35, 3.0)
    design = polynomial_design(x, 12, 3.0)
    summary = pd.DataFrame([{"unregularised_train_risk": 0.1, "best_lambda": 2.6e-5}])
    out = with_mechanics(summary, grid_of([0.12, 0.2, 0.3], [0.5, 0.2, 0.3], [3, 2, 1]), design, y, 0.35)
    row = out.iloc[0]
    assert row["least_train_risk_excess"] == pytest.approx(0.02)
    assert row["penalty_prior_gap"] == pytest.approx(penalty_prior_gap(design, y, 2.6e-5, 0.35))
    theta = np.linalg.lstsq(design, y, rcond=None)[0]
    assert row["unregularised_cancellation_ratio"] == pytest.approx(cancellation_ratio(design, theta))
    assert row["unregularised_cancellation_ratio"] > 100  # the document's fit: its terms nearly cancel
    from cvsuite.methods.ridge import ridge_coefficients

    ridge = ridge_coefficients(design, y, 2.6e-5)
    assert row["best_cancellation_ratio"] == pytest.approx(cancellation_ratio(design, ridge))
    assert 1 <= row["best_cancellation_ratio"] < row["unregularised_cancellation_ratio"] / 10
    beaten = with_mechanics(summary, grid_of([0.05, 0.2, 0.3], [0.5, 0.2, 0.3], [3, 2, 1]), design, y, 0.35)
    assert beaten.iloc[0]["least_train_risk_excess"] < 0  # a grid that beats the unregularised fit says so


def test_the_worked_examples_printed_algebra_stands_beside_its_solves():
    worked = with_printed_algebra(worked_example_table(X, Y, [0.0, 1.0, 3.0, np.inf]))
    finite = worked[np.isfinite(worked["lambda"])]
    # Step 3's formula is the training risk of the numerical ridge fit on the document's data.
    np.testing.assert_allclose(finite["train_risk_step3"], finite["train_risk_numerical"], rtol=0, atol=1e-14)
    assert worked["train_risk_step3"].iloc[-1] == 2.0
    # theta(3) = 0.25 is off the line through theta(0) = 1 and theta(1) = 0.5, which gives -0.5.
    np.testing.assert_allclose(worked["theta_off_the_line"].iloc[:3], [0.0, 0.0, 0.75])
    assert np.isnan(worked["theta_off_the_line"].iloc[-1])
    # On other data the document's formula is not the training risk: the statistic shows it.
    other = with_printed_algebra(worked_example_table(X, np.array([3.0, 0.0]), [0.0, 1.0, 3.0]))
    assert np.abs(other["train_risk_step3"] - other["train_risk_numerical"]).max() > 0.1


def test_step1_expands_the_document_data_and_no_other():
    assert step1_expansion(X, Y)["largest_gap"].max() < 1e-12
    assert step1_expansion(X, np.array([3.0, 0.0]))["largest_gap"].max() > 0.1


def test_an_unpenalised_intercept_leaves_the_unit_feature_out_and_tends_to_the_mean():
    from cvsuite.methods.ridge import ridge_coefficient_path

    rng = np.random.default_rng(4)
    x = rng.uniform(-1, 1, 30)
    design, y = np.vander(x, 4, increasing=True), 2.0 + x + rng.standard_normal(30)
    free = np.array([False, True, True, True])
    lambdas = np.array([1e-3, 1e6])
    assert np.array_equal(ridge_coefficient_path(design, y, lambdas, None), ridge_coefficient_path(design, y, lambdas))
    unpenalised = ridge_coefficient_path(design, y, lambdas, free)
    # With every other coefficient penalised away, the free intercept is the mean of y.
    assert unpenalised[1, 0] == pytest.approx(y.mean(), rel=1e-4)
    assert abs(ridge_coefficient_path(design, y, lambdas)[1, 0]) < 1e-4


def test_the_best_lambda_moves_with_the_square_of_the_designs_scale():
    from cvsuite.data.sine import train_and_test
    from cvsuite.studies.ridge_path_mechanics import lambda_scale

    samples = train_and_test(train_size=25, train_seed=3, test_size=500, test_seed=99, noise=0.3, half_width=1.0)
    row = lambda_scale(samples, 8, np.geomspace(1e-9, 1e2, 60), 2.0).iloc[0]
    assert row["best_lambda_ratio"] == pytest.approx(4.0, rel=1e-12)
    assert row["gram_eigenvalue_min"] < row["best_lambda"] < row["gram_eigenvalue_max"] and row["parameters"] == 9


def test_the_curves_shape_along_the_path_reads_its_hat_matrix_its_roughness_and_its_gap():
    from cvsuite.data.sine import SineSamples
    from cvsuite.methods.ridge import ridge_coefficients
    from cvsuite.studies.ridge_path_shape import curve_shape, curve_shape_summary

    samples = train_and_test(train_size=25, train_seed=3, test_size=200, test_seed=99, noise=0.3, half_width=3.0)
    lambdas = np.geomspace(1e-6, 10, 30)
    shape = curve_shape(samples, 6, lambdas)
    design, _ = samples.designs(6)
    n, lam = len(design), float(lambdas[7])
    hat = design @ np.linalg.solve(design.T @ design / n + lam * np.eye(7), design.T / n)
    assert shape["effective_df"].iloc[8] == pytest.approx(np.trace(hat), rel=1e-10)
    assert shape["effective_df"].iloc[0] == pytest.approx(7)  # lambda = 0: the parameters
    assert shape["theta_norm"].iloc[8] == pytest.approx(np.linalg.norm(ridge_coefficients(design, samples.y, lam)))
    # On a straight line through noiseless points the curve is the line: no roughness, no gap.
    x = np.linspace(-3, 3, 25)
    line = SineSamples(x, 0.5 * x, x, 0.5 * x, 3.0)
    flat = curve_shape(line, 1, np.array([1e-12]))
    assert flat["roughness"].max() < 1e-12 and flat["largest_gap_to_signal"].iloc[0] > 0  # the signal is a sine
    table = pd.DataFrame({"lambda": [0.0, 1.0], "train_risk": [0.1, 0.8], "expected_risk": [0.6, 0.4]})
    row = curve_shape_summary(shape, samples, 6, table, float(lambdas[10])).iloc[0]
    assert row["trade_margin_min"] > 0  # the ridge fit minimises the penalised risk
    assert row["largest_lambda_train_over_best_expected"] == pytest.approx(0.8 / 0.4)
    assert 0 <= row["roughness_with_norm_share"] <= 1 and 0 <= row["roughness_falling_share"] <= 1
    at = shape.iloc[11]  # lambdas[10], after the unregularised row
    assert row["best_lambda_gap_over_noise"] == pytest.approx(at["largest_gap_to_signal"] / row["noise_gap_to_signal"])


def test_an_unstandardised_design_has_one_column_deleted_one_ignored_and_a_fit_that_moves_with_units():
    from cvsuite.studies.ridge_path_scales import unstandardised_penalty

    row = unstandardised_penalty(1e5, 60, 1e-3, 0.5, 3).iloc[0]
    assert row["spread_ratio"] == pytest.approx(1e5)
    assert abs(row["small_column_shrink"]) < 1e-6 and row["large_column_shrink"] == pytest.approx(
        1 / (1 + 1e-3), rel=1e-3
    )
    assert row["ridge_fit_change_on_rescale"] > 0.1 and row["ols_fit_change_on_rescale"] < 1e-10
    # On columns of one spread the penalty is no pitfall: rescaling by 1 changes nothing.
    same = unstandardised_penalty(1.0, 60, 1e-3, 0.5, 3).iloc[0]
    assert same["ridge_fit_change_on_rescale"] < 1e-12


def test_cv_at_each_lambda_and_k_is_equation_8_13_on_the_k_bias_shuffles_and_the_interaction_is_paired():
    from cvsuite.methods.folds import shuffled_partition
    from cvsuite.methods.ridge import ridge_coefficients
    from cvsuite.studies.ridge_path_folds import lambda_by_folds

    samples = train_and_test(train_size=15, train_seed=3, test_size=200, test_seed=99, noise=0.3, half_width=1.0)
    lambdas, truth = np.array([0.0, 1e-3, 1.0]), np.array([1.0, 2.0, 4.0])
    table, effects = lambda_by_folds(samples, 4, lambdas, truth, [3, 15], 3, 5)
    design = polynomial_design(samples.x, 4, 1.0)
    estimates = []  # Equation 8.13 at K = 3, lambda = 1e-3, by a literal loop over the shuffles' folds
    for seed in (5, 6, 7):
        risks = []
        for fold in shuffled_partition(15, 3, seed):
            train = np.setdiff1d(np.arange(15), fold)
            theta = ridge_coefficients(design[train], samples.y[train], 1e-3)
            risks.append(np.mean((samples.y[fold] - design[fold] @ theta) ** 2))
        estimates.append(np.mean(risks))
    row = table.set_index(["K", "lambda"]).loc[(3, 1e-3)]
    assert row["cv_estimate"] == pytest.approx(np.mean(estimates), rel=1e-9)
    assert row["cv_estimate_se"] == pytest.approx(np.std(estimates, ddof=1) / np.sqrt(3), rel=1e-6)
    assert row["truth"] == 2.0 and row["bias"] == pytest.approx(row["cv_estimate"] - 2.0)
    assert (table.loc[table["K"] == 15, "cv_estimate_se"] == 0).all()  # every shuffle cuts the same folds
    assert table.groupby("K")["chosen_by_cv"].sum().tolist() == [1, 1]
    by_lambda = effects.set_index("lambda")
    assert by_lambda.loc[effects["reference_lambda"].iloc[0], "interaction"] == 0.0
    k3, k15 = (table[table["K"] == k].set_index("lambda")["cv_estimate"] for k in (3, 15))
    assert by_lambda["folds_effect"].to_numpy() == pytest.approx((k3 - k15).to_numpy(), rel=1e-9)
