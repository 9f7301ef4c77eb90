"""Monte Carlo summaries (cvsuite.methods.monte_carlo): every standard error of the suite."""

import math

import numpy as np
import pytest

from cvsuite.methods.monte_carlo import expectation_row, mean_and_se, ratio_and_se, standard_error


def test_standard_error_is_the_sample_sd_over_root_n():
    # s.d. (ddof 1) of 1, 2, 3, 6 is sqrt(14/3); over root 4.
    assert standard_error([1.0, 2.0, 3.0, 6.0]) == pytest.approx(math.sqrt(14 / 3) / 2, rel=1e-15)
    assert standard_error([5.0, 5.0, 5.0]) == 0.0


def test_one_replication_has_no_standard_error():
    assert math.isnan(standard_error([0.7]))
    mean, se = mean_and_se([0.7])
    assert mean == 0.7 and math.isnan(se)


def test_mean_and_se_pairs_the_mean_with_its_standard_error():
    assert mean_and_se([1.0, 2.0, 3.0, 6.0]) == (3.0, standard_error([1.0, 2.0, 3.0, 6.0]))


def test_ratio_of_proportional_pairs_has_no_spread():
    ratio, se = ratio_and_se([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    assert ratio == pytest.approx(2.0) and se == pytest.approx(0.0, abs=1e-12)


def test_ratio_standard_error_is_the_delta_method_on_the_pairs():
    a, b = np.array([1.0, 3.0, 2.0, 5.0]), np.array([2.0, 2.0, 3.0, 4.0])
    ratio, se = ratio_and_se(a, b)
    assert ratio == pytest.approx(11 / 11)
    linear = (a - ratio * b) / b.mean()
    assert se == pytest.approx(np.std(linear, ddof=1) / 2)


def test_expectation_row_adds_the_two_errors_in_quadrature():
    row = expectation_row("x", "percent", "mean over 50 datasets", 200, 3.7, 0.3, 0.4)
    assert row["expected_se"] == pytest.approx(0.5)


def test_ratio_and_se_is_the_ratio_of_means_with_its_delta_method_error_by_hand():
    # By hand: ratio 6 / 4 = 1.5; linearised terms (a - 1.5 b) / mean(b) = (-0.375, 0.375, 0),
    # s.d. 0.375, so the standard error is 0.375 / sqrt(3).
    ratio, se = ratio_and_se([1.0, 2.0, 3.0], [1.0, 1.0, 2.0])
    assert ratio == 1.5
    assert se == pytest.approx(0.375 / np.sqrt(3))
