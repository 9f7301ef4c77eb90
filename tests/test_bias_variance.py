"""Study bias_variance: squared bias, variance and their sum against degree, at several sample sizes."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.data.sine import sine_signal
from cvsuite.studies.bias_variance import BiasVarianceSettings, bias_variance_claims, decomposition, optima

SETTINGS = BiasVarianceSettings(
    (25, 400), (0, 1, 3, 5, 7), samples=60, grid_points=41, seed=1, noise=0.35, half_width=3.0
)


@pytest.fixture(scope="module")
def table():
    return decomposition(SETTINGS)


def test_the_decomposition_adds_the_noise_to_bias_and_variance(table):
    np.testing.assert_allclose(table["expected_error"], table["bias_squared"] + table["variance"] + 0.35**2)
    assert (table["variance"] > 0).all() and (table["training_error"] > 0).all()


def test_a_constant_misses_the_curve_by_its_variance_over_the_range(table):
    grid = np.linspace(-3, 3, 41)
    constant = table[(table["n"] == 400) & (table["degree"] == 0)].iloc[0]
    curve = sine_signal(grid)
    assert constant["bias_squared"] == pytest.approx(np.mean((curve - curve.mean()) ** 2), rel=0.05)


def test_the_sentences_hold_on_the_curved_regression(table):
    best = optima(table)
    claims = {c[0]: c for c in bias_variance_claims(table, best)}
    for name in (
        "flexibility_lowers_bias",
        "flexibility_raises_variance",
        "sum_has_interior_minimum",
        "more_data_lowers_variance",
        "line_misses_the_same_way_at_every_n",
        "training_error_keeps_falling",
    ):
        assert claims[name][1], name
    assert list(best["best_degree"]) == sorted(best["best_degree"])


def test_an_optimum_that_does_not_move_fails_the_sentence():
    rows = []
    for n in (25, 100):
        for degree, error in zip((0, 1, 2), (0.9, 0.2, 0.5)):
            rows.append(
                {
                    "n": n,
                    "degree": degree,
                    "expected_error": error,
                    "bias_squared": 0.1,
                    "variance": 0.1,
                    "training_error": 1.0 - degree / 10,
                }
            )
    table = pd.DataFrame(rows)
    claims = {c[0]: c for c in bias_variance_claims(table, optima(table))}
    assert claims["sum_has_interior_minimum"][1] and not claims["optimum_moves_to_more_flexible_with_n"][1]
