import numpy as np
import pytest

from cvsuite.data.daily_sales import SalesProcess, daily_sales
from cvsuite.methods.trend_weekday_local_level import nearest_days_indices, trend_weekday_local_level_predictions

PROCESS = SalesProcess(level=50.0, trend_per_day=0.2, weekday_effects=(-6, -4, -3, -1, 2, 9, 3), innovation_sd=1.0)


@pytest.mark.parametrize("radius", [0, 1, 3])
def test_nearest_days_match_a_brute_force_search_with_ties_to_the_earlier_day(radius):
    rng = np.random.default_rng(3)
    train = np.sort(rng.choice(200, size=120, replace=False))
    held_out = np.setdiff1d(np.arange(200), train)
    chosen = nearest_days_indices(train, held_out, 5, radius)
    for day, picks in zip(held_out, chosen):
        distance = np.abs(train - day).astype(float)
        distance[distance <= radius] = np.inf
        # stable sort on (distance, day): equal distances go to the earlier day
        expected = np.lexsort((train, distance))[:5]
        assert sorted(picks.tolist()) == sorted(expected.tolist())


def test_exclusion_radius_one_withholds_tuesday_and_thursday():
    train = np.array([0, 1, 3, 4, 5, 6])  # Monday..Sunday with Wednesday (day 2) held out
    picks = train[nearest_days_indices(train, np.array([2]), 2, exclusion_radius=1)[0]]
    assert sorted(picks.tolist()) == [0, 4]


def test_nearest_days_refuse_too_few_days_outside_the_radius():
    with pytest.raises(ValueError, match="fewer than 3 training days"):
        nearest_days_indices(np.array([0, 1, 2, 3]), np.array([2]), 3, exclusion_radius=1)


def test_model_recovers_a_noise_free_trend_and_weekly_pattern_exactly():
    days = np.arange(84)
    sales = daily_sales(days, np.zeros(84), PROCESS)
    future = np.arange(84, 100)
    truth = daily_sales(future, np.zeros(16), PROCESS)
    assert np.allclose(trend_weekday_local_level_predictions(days, sales, future, 7), truth)


def test_model_adds_the_mean_residual_of_the_nearest_days_to_the_least_squares_fit():
    rng = np.random.default_rng(6)
    days = np.sort(rng.choice(60, size=45, replace=False))
    sales = rng.normal(20.0, 3.0, size=45)
    design = np.column_stack([np.ones(45), days, (days[:, None] % 7) == np.arange(1, 7)])
    coef = np.linalg.lstsq(design.astype(float), sales, rcond=None)[0]
    residuals = sales - design @ coef
    for day in (5, 61, 30):
        distance = np.abs(days - day).astype(float)
        distance[distance == 0] = np.inf  # radius 0 still withholds the day itself
        nearest = np.lexsort((days, distance))[:4]
        row = np.concatenate([[1.0, day], (day % 7) == np.arange(1, 7)])
        expected = row @ coef + residuals[nearest].mean()
        assert trend_weekday_local_level_predictions(days, sales, [day], 4)[0] == pytest.approx(expected, rel=1e-10)


def test_model_fits_several_series_on_the_same_days_as_if_one_at_a_time():
    days = np.arange(70)
    sales = np.random.default_rng(4).normal(size=(70, 3)) + 10
    both = trend_weekday_local_level_predictions(days[:50], sales[:50], days[50:], 7)
    for j in range(3):
        assert np.allclose(both[:, j], trend_weekday_local_level_predictions(days[:50], sales[:50, j], days[50:], 7))


@pytest.mark.parametrize("before, after", [(0, 14), (3, 0), (2, 5)])
def test_an_uneven_exclusion_withholds_each_side_as_asked(before, after):
    rng = np.random.default_rng(8)
    train = np.sort(rng.choice(300, size=200, replace=False))
    held_out = np.setdiff1d(np.arange(20, 280), train)
    chosen = nearest_days_indices(train, held_out, 7, (before, after))
    for day, picks in zip(held_out, chosen):
        offset = train - day
        distance = np.abs(offset).astype(float)
        distance[(offset < 0) & (-offset <= before)] = np.inf
        distance[(offset > 0) & (offset <= after)] = np.inf
        expected = np.lexsort((train, distance))[:7]
        assert sorted(picks.tolist()) == sorted(expected.tolist())


def test_a_symmetric_pair_is_the_radius_and_a_negative_one_is_refused():
    train = np.arange(0, 60, 2)
    days = np.arange(11, 49, 2)
    assert np.array_equal(nearest_days_indices(train, days, 5, (3, 3)), nearest_days_indices(train, days, 5, 3))
    with pytest.raises(ValueError, match="cannot be negative"):
        nearest_days_indices(train, days, 5, (-1, 2))
