import numpy as np
import pytest

from cvsuite.data.daily_sales import SalesProcess, ar1_noise, daily_sales, forecast_floor, sales_paths

PROCESS = SalesProcess(level=100.0, trend_per_day=0.5, weekday_effects=(-6, -4, -3, -1, 2, 9, 3), innovation_sd=4.0)


def test_ar1_noise_follows_its_recursion_from_a_stationary_start():
    z = np.random.default_rng(0).standard_normal(50)
    e = ar1_noise(z, 0.7, 2.0)
    assert e.shape == (50,)
    assert e[0] == pytest.approx(2.0 * z[0] / np.sqrt(1 - 0.49))
    assert np.allclose(e[1:] - 0.7 * e[:-1], 2.0 * z[1:])


def test_ar1_noise_gives_one_column_per_coefficient_from_the_same_draws():
    z = np.random.default_rng(1).standard_normal(30)
    both = ar1_noise(z, [0.0, 0.5], 1.0)
    assert both.shape == (30, 2)
    assert np.allclose(both[:, 0], z)
    e = 1.0 * z[0] / np.sqrt(1 - 0.25)
    for t in range(1, 30):
        e = 0.5 * e + z[t]
    assert both[-1, 1] == pytest.approx(e)


def test_ar1_noise_has_the_stationary_variance():
    z = np.random.default_rng(2).standard_normal(200_000)
    assert np.var(ar1_noise(z, 0.8, 3.0)) == pytest.approx(9.0 / (1 - 0.64), rel=0.03)


def test_ar1_noise_refuses_a_unit_root():
    with pytest.raises(ValueError, match="strictly between -1 and 1"):
        ar1_noise(np.zeros(5), 1.0, 1.0)


def test_sales_are_level_plus_trend_plus_the_weekday_effect_with_day_0_a_monday():
    days = np.array([0, 5, 7, 13])
    # Monday (-6), Saturday (9), Monday again (-6), Sunday (3)
    expected = [100.0 - 6, 100.0 + 2.5 + 9, 100.0 + 3.5 - 6, 100.0 + 6.5 + 3 + 1.0]
    assert daily_sales(days, np.array([0.0, 0.0, 0.0, 1.0]), PROCESS).tolist() == expected


def test_sales_paths_carry_one_column_per_coefficient():
    z = np.random.default_rng(3).standard_normal(20)
    paths = sales_paths(z, [0.0, 0.6], PROCESS)
    assert paths.shape == (20, 2)
    assert paths[:, 0] == pytest.approx(daily_sales(np.arange(20), 4.0 * z, PROCESS))


def test_sales_process_needs_one_effect_per_weekday():
    with pytest.raises(ValueError, match="one value per weekday"):
        SalesProcess(level=0.0, trend_per_day=0.0, weekday_effects=(1.0, 2.0), innovation_sd=1.0)


def test_forecast_floor_is_the_innovation_variance_without_persistence():
    assert forecast_floor(0.0, 3.0, 28) == pytest.approx(9.0)
    assert forecast_floor(0.8, 3.0, 1) == pytest.approx(9.0)
    assert forecast_floor(0.8, 3.0, 10_000) == pytest.approx(9.0 / (1 - 0.64), rel=1e-3)


def test_forecast_floor_two_days_ahead_by_hand():
    # h = 1: sd^2; h = 2: sd^2 (1 + phi^2); mean of the two.
    assert forecast_floor(0.5, 2.0, 2) == pytest.approx((4.0 + 4.0 * 1.25) / 2)
