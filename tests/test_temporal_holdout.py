import numpy as np
import pandas as pd
import pytest

from cvsuite.data.daily_sales import SalesProcess
from cvsuite.methods.trend_weekday_local_level import trend_weekday_local_level_predictions
from cvsuite.studies.temporal_holdout import (
    HoldoutDesign,
    cut_days_from_fractions,
    errors_by_ar_coefficient,
    errors_by_exclusion_radius,
    errors_with_future_withheld,
    example_series,
    random_fold_mse,
    scored_days_before_a_fitted_day,
    simulate_errors,
    temporal_holdout_mse,
    temporal_splits,
)
from cvsuite.studies.temporal_holdout_contrast import temporal_holdout_contrast

WEEKDAYS = (-6.0, -4.0, -3.0, -1.0, 2.0, 9.0, 3.0)
PROCESS = SalesProcess(level=100.0, trend_per_day=0.05, weekday_effects=WEEKDAYS, innovation_sd=4.0)
SMALL = HoldoutDesign(n_days=84, horizon_days=14, n_folds=4, neighbours=7, cut_fractions=(0.5, 0.75))
# The contrast reads K and the horizon it reports from the design.
CONTRAST_DESIGN = HoldoutDesign(n_days=730, horizon_days=28, n_folds=10, neighbours=7, cut_fractions=(0.5,))
FUTURE_WITHHELD = pd.DataFrame(
    [{"ar_coefficient": 0.8, "future_withheld_days": 14, "gap_closed_percent": 36.0, "gap_closed_percent_se": 1.5}]
)
CONTRAST = dict(future_withheld=FUTURE_WITHHELD, scored_days_before_a_fitted_day=0, bias_shares={})


def _series_by_hand(seed, phi, design=SMALL, process=PROCESS):
    """The documented draws of one series, regenerated with numpy alone: the n_days + horizon_days
    innovations, then one permutation of the observed days cut into K chunks."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(design.n_days + design.horizon_days)
    folds = np.array_split(rng.permutation(design.n_days), design.n_folds)
    noise = np.empty_like(z)
    noise[0] = process.innovation_sd * z[0] / np.sqrt(1 - phi**2)
    for t in range(1, len(z)):
        noise[t] = phi * noise[t - 1] + process.innovation_sd * z[t]
    days = np.arange(len(z))
    sales = process.level + process.trend_per_day * days + np.array(WEEKDAYS)[days % 7] + noise
    return sales, folds


def _predict_by_hand(train_days, train_sales, day, neighbours, radius=0, after=None):
    # Least squares on intercept, day and six weekday dummies, plus the mean residual of the
    # nearest training days outside the radius (ties to the earlier day), by brute force; with
    # ``after``, the radius applies before the day and ``after`` days are withheld after it.
    def row(d):
        return np.concatenate([[1.0, d], (d % 7) == np.arange(1, 7)])

    design = np.array([row(d) for d in train_days])
    coef = np.linalg.lstsq(design, train_sales, rcond=None)[0]
    offset = train_days - day
    distance = np.abs(offset).astype(float)
    after = radius if after is None else after
    distance[((offset <= 0) & (-offset <= radius)) | ((offset > 0) & (offset <= after))] = np.inf
    nearest = np.lexsort((train_days, distance))[:neighbours]
    return row(day) @ coef + (train_sales - design @ coef)[nearest].mean()


def _random_fold_mse_by_hand(sales, folds, neighbours, radius=0, after=None):
    days = np.arange(len(sales))
    squared = []
    for fold in folds:
        train = np.setdiff1d(days, fold)
        squared += [(sales[d] - _predict_by_hand(train, sales[train], d, neighbours, radius, after)) ** 2 for d in fold]
    return np.mean(squared)


def test_series_s_is_drawn_from_first_seed_plus_s_innovations_then_folds():
    errors = simulate_errors(PROCESS, SMALL, [0.8, 0.0, 0.8], [3], n_series=2, first_seed=11)
    assert sorted(errors["ar_coefficient"].unique()) == [0.0, 0.8]
    assert sorted(errors["exclusion_radius_days"].unique()) == [-1, 0, 3]
    sales_all, folds = _series_by_hand(12, 0.8)
    sales, days = sales_all[:84], np.arange(84)
    mine = errors[(errors["series"] == 1) & (errors["ar_coefficient"] == 0.8)].set_index(
        ["estimator", "exclusion_radius_days"]
    )["mse"]
    assert mine[("random_folds", 0)] == pytest.approx(_random_fold_mse_by_hand(sales, folds, 7), rel=1e-9)
    assert mine[("random_folds", 3)] == pytest.approx(_random_fold_mse_by_hand(sales, folds, 7, radius=3), rel=1e-9)
    next_period = np.mean([(sales_all[d] - _predict_by_hand(days, sales, d, 7)) ** 2 for d in range(84, 98)])
    assert mine[("next_period", -1)] == pytest.approx(next_period, rel=1e-9)
    temporal = np.mean(
        [
            np.mean([(sales[d] - _predict_by_hand(days[:cut], sales[:cut], d, 7)) ** 2 for d in range(cut, cut + 14)])
            for cut in (42, 63)
        ]
    )
    assert mine[("temporal_holdout", -1)] == pytest.approx(temporal, rel=1e-9)


def test_example_series_is_the_series_drawn_from_its_seed():
    example = example_series(PROCESS, SMALL, 0.8, 3)
    sales_all, folds = _series_by_hand(3, 0.8)
    assert example["sales"].to_numpy() == pytest.approx(sales_all[:84], rel=1e-12)
    for k, fold in enumerate(folds):
        assert (example["random_fold"].to_numpy()[fold] == k + 1).all()
    day = int(folds[2][0])
    train = np.setdiff1d(np.arange(84), folds[2])
    expected = _predict_by_hand(train, sales_all[train], day, 7)
    assert example.loc[day, "random_fold_prediction"] == pytest.approx(expected, rel=1e-9)
    window = example["temporal_holdout_prediction"].notna()
    assert example.loc[window, "day"].tolist() == list(range(63, 77))
    assert (example["last_cut_day"] == 63).all()


def test_random_folds_with_a_noise_free_series_make_no_error():
    days = np.arange(84)
    sales = 50.0 + 0.2 * days + np.array(WEEKDAYS)[days % 7]
    folds = np.array_split(np.random.default_rng(0).permutation(84), 7)
    assert random_fold_mse(days, sales, folds, 7) == pytest.approx(0.0, abs=1e-18)


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


def test_random_folds_beat_the_temporal_holdout_only_with_persistent_noise():
    design = HoldoutDesign(n_days=140, horizon_days=14, n_folds=5, neighbours=7, cut_fractions=(0.5, 0.75))
    errors = simulate_errors(PROCESS, design, [0.0, 0.9], [14], n_series=8, first_seed=0)
    by_phi = errors_by_ar_coefficient(errors, 4.0, 14).set_index("ar_coefficient")
    assert by_phi.loc[0.9, "temporal_holdout_mse"] > 2 * by_phi.loc[0.9, "random_folds_mse"]
    assert by_phi.loc[0.0, "temporal_holdout_mse"] < 1.5 * by_phi.loc[0.0, "random_folds_mse"]
    radius = errors_by_exclusion_radius(errors).set_index(["ar_coefficient", "exclusion_radius_days"])
    assert radius.loc[(0.9, 14), "gap_closed_percent"] > radius.loc[(0.9, 0), "gap_closed_percent"]


def _summaries(gap_main, gap_independent, closed_widest):
    by_phi = pd.DataFrame(
        [
            {
                "ar_coefficient": phi,
                "series": 100,
                "random_folds_mse": 20.0,
                "random_folds_mse_se": 0.1,
                "temporal_holdout_mse": 20.0 + gap,
                "temporal_holdout_mse_se": 1.0,
                "next_period_mse": 20.0 + gap,
                "next_period_mse_se": 2.0,
                "gap_mse": gap,
                "gap_mse_se": 0.5,
                "random_below_temporal_percent": 100 * gap / (20 + gap),
                "random_below_temporal_percent_se": 1.0,
                "random_over_next_period": 20 / (20 + gap),
                "random_over_next_period_se": 0.02,
                "temporal_over_next_period": 1.0,
                "temporal_over_next_period_se": 0.05,
                "noise_variance": 40.0,
                "forecast_floor_mse": 35.0,
            }
            for phi, gap in ((0.0, gap_independent), (0.8, gap_main))
        ]
    )
    by_radius = pd.DataFrame(
        [
            {
                "ar_coefficient": 0.8,
                "exclusion_radius_days": r,
                "random_folds_mse": 20.0,
                "random_folds_mse_se": 0.1,
                "gap_closed_percent": c,
                "gap_closed_percent_se": 2.0,
            }
            for r, c in ((0, 0.0), (1, 10.0), (14, closed_widest))
        ]
    )
    return by_phi, by_radius


def test_the_contrast_gives_the_gaps_and_shares_the_records_read():
    row = temporal_holdout_contrast(*_summaries(40.0, 0.3, 90.0), CONTRAST_DESIGN, 0.8, **CONTRAST).iloc[0]
    assert (row["gap_mse"], row["gap_independent_noise_mse"]) == (40.0, 0.3)
    assert (row["first_exclusion_radius_days"], row["gap_closed_first_radius_percent"]) == (1, 10.0)
    assert (row["widest_exclusion_radius_days"], row["gap_closed_widest_radius_share"]) == (14, 0.9)
    # Random folds report 20 against the 35 no forecast of the next days can beat; the floor is exact.
    assert row["random_folds_minus_forecast_floor_mse"] == -15.0
    assert row["random_folds_minus_forecast_floor_mse_se"] == 0.1
    assert row["random_over_next_period"] == pytest.approx(1 / 3)
    assert (row["gap_closed_future_withheld_percent"], row["temporal_scored_days_before_a_fitted_day"]) == (36.0, 0)
    assert not any(isinstance(v, (bool, np.bool_)) for v in row.to_dict().values())


def test_the_contrast_follows_the_numbers_when_there_is_no_gap_to_explain():
    settings = {**CONTRAST, "scored_days_before_a_fitted_day": 3}
    row = temporal_holdout_contrast(*_summaries(0.5, 5.0, 45.0), CONTRAST_DESIGN, 0.8, **settings).iloc[0]
    assert (row["gap_mse"], row["gap_independent_noise_mse"], row["gap_closed_widest_radius_share"]) == (0.5, 5.0, 0.45)
    assert row["temporal_scored_days_before_a_fitted_day"] == 3


def test_the_contrast_needs_independent_noise_among_the_coefficients():
    by_phi, by_radius = _summaries(40.0, 0.3, 90.0)
    with pytest.raises(ValueError, match="independent noise"):
        temporal_holdout_contrast(by_phi[by_phi["ar_coefficient"] > 0], by_radius, CONTRAST_DESIGN, 0.8, **CONTRAST)


def test_random_folds_denied_the_future_score_as_a_refit_without_the_following_days():
    errors = simulate_errors(PROCESS, SMALL, [0.8], [3], n_series=1, first_seed=4, future_withheld_days=5)
    sales_all, folds = _series_by_hand(4, 0.8)
    mine = errors.set_index(["estimator", "exclusion_radius_days"])["mse"]
    expected = _random_fold_mse_by_hand(sales_all[:84], folds, 7, radius=0, after=5)
    assert mine[("random_folds_future_withheld", 5)] == pytest.approx(expected, rel=1e-9)
    # and the other rows are those of a run without it
    plain = simulate_errors(PROCESS, SMALL, [0.8], [3], n_series=1, first_seed=4)
    assert errors[errors["estimator"] != "random_folds_future_withheld"].reset_index(drop=True).equals(plain)


def test_share_of_the_gap_closed_by_withholding_the_future_is_a_ratio_of_means():
    rows = []
    for s, (random, future, temporal) in enumerate([(10.0, 14.0, 30.0), (12.0, 15.0, 20.0), (8.0, 9.0, 28.0)]):
        rows += [
            (s, 0.8, "random_folds", 0, random),
            (s, 0.8, "random_folds_future_withheld", 14, future),
            (s, 0.8, "temporal_holdout", -1, temporal),
            (s, 0.8, "next_period", -1, temporal),
        ]
    errors = pd.DataFrame(rows, columns=["series", "ar_coefficient", "estimator", "exclusion_radius_days", "mse"])
    row = errors_with_future_withheld(errors).iloc[0]
    assert row["future_withheld_days"] == 14
    assert row["gap_closed_percent"] == pytest.approx(100 * (8 / 3) / (48 / 3))
    assert row["random_folds_mse"] == pytest.approx(38 / 3)


def test_the_temporal_splits_score_only_later_days_and_a_random_split_does_not():
    days = np.arange(100)
    splits = temporal_splits(days, [40, 70], 14)
    assert scored_days_before_a_fitted_day(days, splits) == 0
    assert [int(test.sum()) for _, test in splits] == [14, 14]
    shuffled = np.zeros(100, dtype=bool)
    shuffled[[5, 50, 90]] = True
    assert scored_days_before_a_fitted_day(days, [(~shuffled, shuffled)]) == 3


def test_the_contrast_carries_the_share_of_the_gap_closed_by_withholding_only_the_future():
    closing = FUTURE_WITHHELD.assign(gap_closed_percent=98.0)
    settings = {**CONTRAST, "future_withheld": closing}
    row = temporal_holdout_contrast(*_summaries(40.0, 0.3, 90.0), CONTRAST_DESIGN, 0.8, **settings).iloc[0]
    assert (row["future_withheld_days"], row["gap_closed_future_withheld_percent"]) == (14, 98.0)
    with pytest.raises(ValueError, match="future-withheld"):
        temporal_holdout_contrast(
            *_summaries(40.0, 0.3, 90.0), CONTRAST_DESIGN, 0.8, **{**CONTRAST, "future_withheld": closing.iloc[:0]}
        )


def test_bias_shares_are_each_figures_gap_to_the_next_period_over_random_folds_gap():
    from cvsuite.studies.temporal_holdout import bias_shares

    rows = []
    # (phi, series, random folds, temporal holdout, next period)
    for phi, s, random, temporal, following in [
        (0.8, 0, 10.0, 31.0, 30.0),
        (0.8, 1, 12.0, 18.0, 20.0),
        (0.0, 0, 16.0, 16.5, 16.2),
        (0.0, 1, 17.0, 17.0, 17.4),
    ]:
        rows += [
            (s, phi, "random_folds", 0, random),
            (s, phi, "temporal_holdout", -1, temporal),
            (s, phi, "next_period", -1, following),
        ]
    errors = pd.DataFrame(rows, columns=["series", "ar_coefficient", "estimator", "exclusion_radius_days", "mse"])
    shares = bias_shares(errors, 0.8)
    random_gap = ((10 - 30) + (12 - 20)) / 2
    assert shares["temporal_bias_share"] == pytest.approx(abs(((31 - 30) + (18 - 20)) / 2 / random_gap))
    assert shares["stable_random_bias_share"] == pytest.approx(abs(((16 - 16.2) + (17 - 17.4)) / 2 / random_gap))
    assert shares["temporal_bias_share_se"] > 0
    moved = ((10 - 16) + (12 - 17)) / 2 / (((30 - 16.2) + (20 - 17.4)) / 2)
    assert shares["random_response_share"] == pytest.approx(abs(moved))
