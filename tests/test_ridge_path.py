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
from cvsuite.studies.ridge_path_claims import (
    RidgeEvidence,
    below_the_grid,
    cancellation_ratio,
    penalty_prior_gap,
    prior_mean,
    ridge_claims,
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


def grid_of(train, expected, norm):
    return pd.DataFrame(
        {
            "lambda": np.geomspace(1e-3, 1, len(train)),
            "train_risk": train,
            "expected_risk": expected,
            "theta_norm": norm,
        }
    )


def test_path_claims_follow_their_criteria_on_hand_made_paths():
    summary = pd.DataFrame(
        [{"unregularised_train_risk": 0.1, "best_lambda": 0.01, "best_lambda_orders_below_one": 2.0}]
    )
    near = pd.DataFrame({"over_unregularised": [0.97]})
    worked = worked_example_table(X, Y, [0.0, 1.0, 3.0])
    exchange = worked_example_exchange(worked, 0.0, 1.0)
    design = np.eye(3)
    good = RidgeEvidence(
        grid_of([0.1, 0.2, 0.3, 0.4], [0.5, 0.2, 0.3, 0.4], [4, 3, 2, 1]),
        summary,
        near,
        worked,
        exchange,
        design,
        np.ones(3),
        1.0,
    )
    claims = ridge_claims(good, X, Y).set_index("claim")["holds"]
    assert claims["starts_at_the_unregularised_expected_risk"] and claims["train_risk_rises_monotonically"]
    assert claims["both_risks_rise_and_norm_shrinks_past_optimum"] and not claims["best_lambda_five_orders_below_one"]
    assert claims["shrinkage_not_linear_in_lambda"] and claims["step1_expansion_holds"]
    bad = RidgeEvidence(
        grid_of([0.1, 0.05, 0.3, 0.4], [0.5, 0.2, 0.3, 0.25], [4, 3, 2, 1]),
        summary,
        near.assign(over_unregularised=0.44),
        worked,
        exchange,
        design,
        np.ones(3),
        1.0,
    )
    claims = ridge_claims(bad, X, Y).set_index("claim")["holds"]
    assert not claims["starts_at_the_unregularised_expected_risk"] and not claims["train_risk_rises_monotonically"]
    assert not claims["expected_risk_climbs_after_best"] and not claims["cannot_beat_the_unregularised_training_risk"]
    assert not claims["penalty_term_names_given"]  # "three names", two given
