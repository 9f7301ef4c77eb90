"""Study degree_sweep: page 802's least-squares sweep, quoted by "Regularization and Cross-Validation"."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.data.sine import polynomial_design, sine_sample
from cvsuite.studies.degree_sweep import degree_sweep, degree_sweep_summary, least_squares_solvers

X, Y = sine_sample(25, 3, 0.35, 3.0)
XT, YT = sine_sample(400, 99, 0.35, 3.0)


def test_training_risk_never_rises_with_degree_and_the_best_degree_has_the_least_expected_risk():
    sweep = degree_sweep(X, Y, XT, YT, range(0, 11), 3.0)
    assert (np.diff(sweep["train_risk"]) <= 1e-12).all()
    summary = degree_sweep_summary(sweep).iloc[0]
    assert summary["best_expected_risk"] == sweep["expected_risk"].min()
    assert summary["max_degree"] == 10


def test_each_row_is_a_least_squares_fit_of_that_degree():
    row = degree_sweep(X, Y, XT, YT, [3], 3.0).iloc[0]
    theta = np.linalg.lstsq(polynomial_design(X, 3, 3.0), Y, rcond=None)[0]
    train = np.mean((Y - polynomial_design(X, 3, 3.0) @ theta) ** 2)
    expected = np.mean((YT - polynomial_design(XT, 3, 3.0) @ theta) ** 2)
    assert (row["n_parameters"], row["train_risk"], row["expected_risk"]) == (4, train, expected)
    assert row["expected_over_train"] == expected / train
    assert row["theta_norm"] == np.linalg.norm(theta)


def test_the_stable_solvers_agree_where_the_normal_equations_stray():
    solvers = least_squares_solvers(X, Y, 15, 3.0).set_index("solver")["theta_norm"]
    stable = solvers.drop(index=[s for s in solvers.index if s.startswith("normal equations")])
    assert stable.max() - stable.min() < 1e-4 * stable.mean()
    normal = solvers[[s for s in solvers.index if s.startswith("normal equations")]].iloc[0]
    assert abs(normal - stable.mean()) > 100 * (stable.max() - stable.min())


def test_the_summary_says_how_many_times_the_best_degrees_norm_the_highest_degrees_is():
    sweep = pd.DataFrame(
        {
            "degree": [0, 1, 2, 3],
            "train_risk": [1.0, 0.5, 0.4, 0.3],
            "expected_risk": [1.2, 0.6, 0.8, 9.0],
            "expected_over_train": [1.2, 1.2, 2.0, 30.0],
            "theta_norm": [1.0, 2.0, 5.0, 50.0],
        }
    )
    row = degree_sweep_summary(sweep).iloc[0]
    assert (row["best_degree"], row["max_degree"]) == (1, 3)
    assert row["theta_norm_growth"] == pytest.approx(25.0)
    shrinking = degree_sweep_summary(sweep.assign(theta_norm=[1.0, 60.0, 5.0, 50.0])).iloc[0]
    assert shrinking["theta_norm_growth"] < 1  # a norm that does not grow from the best degree reads so


def test_the_documents_sweep_norm_grows_from_the_best_to_the_highest_degree():
    summary = degree_sweep_summary(degree_sweep(X, Y, XT, YT, range(0, 16), 3.0)).iloc[0]
    assert summary["theta_norm_growth"] == pytest.approx(summary["max_degree_theta_norm"] / summary["best_theta_norm"])
    assert summary["theta_norm_growth"] > 1000
