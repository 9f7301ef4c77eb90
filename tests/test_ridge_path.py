"""Study ridge_path: the exchange rate of §8.2.3 and the worked example by hand."""

import numpy as np
import pytest

from cvsuite.studies.ridge_path import (
    best_lambda_summary,
    checked_worked_example,
    worked_example_exchange,
    worked_example_table,
    worked_example_theta,
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
