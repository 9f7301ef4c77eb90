import numpy as np
import pytest

from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se


def test_mean_and_se_is_sample_sd_over_root_r():
    values = np.array([1.0, 2.0, 3.0, 6.0])
    mean, se = mean_and_se(values)
    assert mean == 3.0
    assert se == values.std(ddof=1) / np.sqrt(4)


def test_ratio_and_se_of_proportional_pairs_has_no_spread():
    ratio, se = ratio_and_se([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    assert ratio == pytest.approx(2.0)
    assert se == pytest.approx(0.0, abs=1e-12)


def test_ratio_and_se_is_the_ratio_of_means_with_its_delta_method_error():
    # By hand: ratio 6 / 4 = 1.5; linearised terms (a - 1.5 b) / mean(b) = (-0.375, 0.375, 0),
    # s.d. 0.375, so the standard error is 0.375 / sqrt(3).
    ratio, se = ratio_and_se([1.0, 2.0, 3.0], [1.0, 1.0, 2.0])
    assert ratio == 1.5
    assert se == pytest.approx(0.375 / np.sqrt(3))
