import numpy as np
import pandas as pd
import pytest

from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se
from cvsuite.studies.temporal_holdout import (
    ar1_noise,
    cut_days_from_fractions,
    daily_sales,
    errors_by_ar_coefficient,
    errors_by_exclusion_radius,
    example_series,
    forecast_floor,
    nearest_days_indices,
    random_fold_mse,
    simulate_errors,
    temporal_holdout_mse,
    temporal_holdout_verdict,
    trend_weekday_local_level_predictions,
)

WEEKDAYS = [-6.0, -4.0, -3.0, -1.0, 2.0, 9.0, 3.0]
SMALL = dict(n_days=140, horizon_days=14, level=100.0, trend_per_day=0.05, weekday_effects=WEEKDAYS, innovation_sd=4.0)


def test_mean_and_se_is_sample_sd_over_root_r():
    mean, se = mean_and_se([1.0, 2.0, 3.0, 6.0])
    assert mean == 3.0
    assert se == pytest.approx(np.std([1, 2, 3, 6], ddof=1) / 2)


def test_ratio_and_se_of_proportional_pairs_has_no_spread():
    ratio, se = ratio_and_se([2.0, 4.0, 6.0], [1.0, 2.0, 3.0])
    assert ratio == pytest.approx(2.0)
    assert se == pytest.approx(0.0, abs=1e-12)


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
    assert np.allclose(both[:, 1], ar1_noise(z, 0.5, 1.0))


def test_ar1_noise_has_the_stationary_variance():
    z = np.random.default_rng(2).standard_normal(200_000)
    assert np.var(ar1_noise(z, 0.8, 3.0)) == pytest.approx(9.0 / (1 - 0.64), rel=0.03)


def test_ar1_noise_refuses_a_unit_root():
    with pytest.raises(ValueError, match="strictly between -1 and 1"):
        ar1_noise(np.zeros(5), 1.0, 1.0)


def test_forecast_floor_is_the_innovation_variance_without_persistence():
    assert forecast_floor(0.0, 3.0, 28) == pytest.approx(9.0)
    assert forecast_floor(0.8, 3.0, 1) == pytest.approx(9.0)
    assert forecast_floor(0.8, 3.0, 10_000) == pytest.approx(9.0 / (1 - 0.64), rel=1e-3)


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
    sales = daily_sales(days, np.zeros(84), 50.0, 0.2, WEEKDAYS)
    future = np.arange(84, 100)
    truth = daily_sales(future, np.zeros(16), 50.0, 0.2, WEEKDAYS)
    assert np.allclose(trend_weekday_local_level_predictions(days, sales, future, 7), truth)
    folds = np.array_split(np.random.default_rng(0).permutation(84), 7)
    assert random_fold_mse(days, sales, folds, 7) == pytest.approx(0.0, abs=1e-18)


def test_model_fits_several_series_on_the_same_days_as_if_one_at_a_time():
    days = np.arange(70)
    sales = np.random.default_rng(4).normal(size=(70, 3)) + 10
    both = trend_weekday_local_level_predictions(days[:50], sales[:50], days[50:], 7)
    for j in range(3):
        assert np.allclose(both[:, j], trend_weekday_local_level_predictions(days[:50], sales[:50, j], days[50:], 7))


def test_temporal_holdout_never_uses_days_from_the_cut_on():
    days = np.arange(120)
    sales = np.random.default_rng(5).normal(size=120)
    later = sales.copy()
    later[90:] += 100.0  # days after the only cut's scored window and inside it, shifted alike
    shifted_score = temporal_holdout_mse(days, later, [90], 14, 7)
    # prediction does not move; only the scored truth does
    pred = trend_weekday_local_level_predictions(days[:90], sales[:90], days[90:104], 7)
    assert shifted_score == pytest.approx(np.mean((later[90:104] - pred) ** 2))


def test_random_folds_must_hold_out_every_day():
    days = np.arange(30)
    with pytest.raises(ValueError, match="every day"):
        random_fold_mse(days, np.ones(30), [np.arange(0, 10), np.arange(10, 20)], 3)


def test_cuts_need_a_full_horizon_after_them():
    assert cut_days_from_fractions(100, [0.5, 0.8], 20).tolist() == [50, 80]
    with pytest.raises(ValueError, match="20 days after it"):
        cut_days_from_fractions(100, [0.9], 20)


def test_simulation_is_a_deterministic_function_of_the_seed():
    args = dict(SMALL, ar_coefficients=[0.0], main_ar_coefficient=0.8, n_folds=5, neighbours=7,
                cut_fractions=[0.5, 0.75], exclusion_radii=[3], n_series=2, first_seed=11)
    assert simulate_errors(**args).equals(simulate_errors(**args))


def test_random_folds_beat_the_temporal_holdout_only_with_persistent_noise():
    errors = simulate_errors(**SMALL, ar_coefficients=[0.0], main_ar_coefficient=0.9, n_folds=5, neighbours=7,
                             cut_fractions=[0.5, 0.75], exclusion_radii=[14], n_series=8, first_seed=0)
    by_phi = errors_by_ar_coefficient(errors, 4.0, 14).set_index("ar_coefficient")
    assert by_phi.loc[0.9, "temporal_holdout_mse"] > 2 * by_phi.loc[0.9, "random_folds_mse"]
    assert by_phi.loc[0.0, "temporal_holdout_mse"] < 1.5 * by_phi.loc[0.0, "random_folds_mse"]
    radius = errors_by_exclusion_radius(errors).set_index(["ar_coefficient", "exclusion_radius_days"])
    assert radius.loc[(0.9, 14), "gap_closed_percent"] > radius.loc[(0.9, 0), "gap_closed_percent"]


def test_example_series_matches_the_first_simulated_series():
    example = example_series(**SMALL, ar_coefficient=0.8, n_folds=5, neighbours=7, cut_fractions=[0.5, 0.75], seed=3)
    errors = simulate_errors(**SMALL, ar_coefficients=[], main_ar_coefficient=0.8, n_folds=5, neighbours=7,
                             cut_fractions=[0.5, 0.75], exclusion_radii=[], n_series=1, first_seed=3)
    random_mse = errors.query("estimator == 'random_folds'")["mse"].iloc[0]
    assert np.mean((example["sales"] - example["random_fold_prediction"]) ** 2) == pytest.approx(random_mse)
    assert example["temporal_holdout_prediction"].notna().sum() == 14


def _summaries(gap_main, gap_independent, closed_widest):
    by_phi = pd.DataFrame([
        {"ar_coefficient": phi, "series": 100, "random_folds_mse": 20.0, "random_folds_mse_se": 0.1,
         "temporal_holdout_mse": 20.0 + gap, "temporal_holdout_mse_se": 1.0, "next_period_mse": 20.0 + gap,
         "next_period_mse_se": 2.0, "gap_mse": gap, "gap_mse_se": 0.5,
         "random_below_temporal_percent": 100 * gap / (20 + gap), "random_below_temporal_percent_se": 1.0,
         "random_over_next_period": 20 / (20 + gap), "random_over_next_period_se": 0.02,
         "temporal_over_next_period": 1.0, "temporal_over_next_period_se": 0.05,
         "noise_variance": 40.0, "forecast_floor_mse": 35.0}
        for phi, gap in ((0.0, gap_independent), (0.8, gap_main))])
    by_radius = pd.DataFrame([
        {"ar_coefficient": 0.8, "exclusion_radius_days": r, "random_folds_mse": 20.0, "random_folds_mse_se": 0.1,
         "gap_closed_percent": c, "gap_closed_percent_se": 2.0}
        for r, c in ((0, 0.0), (1, 10.0), (14, closed_widest))])
    return by_phi, by_radius


def test_verdict_holds_when_the_gap_is_large_vanishes_without_persistence_and_closes():
    verdict = temporal_holdout_verdict(*_summaries(40.0, 0.3, 90.0), 0.8, 2.0, 50.0, 10, 28).iloc[0]
    assert verdict["random_folds_look_better"]
    assert verdict["they_estimate_different_quantities"]
    assert verdict["random_folds_learn_from_neighbouring_days"]
    assert verdict["verdict"].startswith("Random folds look better")


def test_verdict_fails_when_independent_noise_also_shows_a_gap_or_the_radius_closes_little():
    assert not temporal_holdout_verdict(*_summaries(40.0, 5.0, 90.0), 0.8, 2.0, 50.0, 10, 28).iloc[0]["random_folds_learn_from_neighbouring_days"]
    assert not temporal_holdout_verdict(*_summaries(40.0, 0.3, 45.0), 0.8, 2.0, 50.0, 10, 28).iloc[0]["random_folds_learn_from_neighbouring_days"]


def test_verdict_says_random_folds_do_not_look_better_without_a_gap():
    verdict = temporal_holdout_verdict(*_summaries(0.5, 0.3, 90.0), 0.8, 2.0, 50.0, 10, 28).iloc[0]
    assert not verdict["random_folds_look_better"]
    assert "do not look better" in verdict["verdict"]


def test_verdict_needs_independent_noise_among_the_coefficients():
    by_phi, by_radius = _summaries(40.0, 0.3, 90.0)
    with pytest.raises(ValueError, match="independent noise"):
        temporal_holdout_verdict(by_phi[by_phi["ar_coefficient"] > 0], by_radius, 0.8, 2.0, 50.0, 10, 28)
