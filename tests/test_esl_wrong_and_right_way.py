import numpy as np
import pandas as pd
import pytest

from cvsuite.data.null_predictors import NullDesign, balanced_labels
from cvsuite.methods.folds import fold_of, permutation_folds
from cvsuite.studies.esl_wrong_and_right_way import (
    Setting,
    open_choice_settings,
    screened_cross_validation,
    simulate_wrong_and_right_way,
)
from cvsuite.studies.esl_wrong_and_right_way_summaries import (
    correlation_draws,
    correlation_histogram,
    fold_sizes,
    printed_draw,
    published_statistics,
    setting_summary,
)

RNG = np.random.default_rng(11)
X = RNG.standard_normal((20, 60))
Y = balanced_labels(20)


def test_unstratified_folds_are_the_permutation_cut_in_order():
    order = np.random.default_rng(3).permutation(20)
    ids = fold_of(permutation_folds(order, Y, 5, False), len(Y))
    for k, chunk in enumerate(np.array_split(order, 5)):
        assert (ids[chunk] == k).all()


@pytest.mark.parametrize("n, k", [(20, 5), (50, 5), (50, 10), (20, 3)])
def test_stratified_folds_share_each_class_evenly(n, k):
    labels = balanced_labels(n)
    ids = fold_of(permutation_folds(np.random.default_rng(5).permutation(n), labels, k, True), len(labels))
    for c in (0.0, 1.0):
        counts = np.bincount(ids[labels == c], minlength=k)
        assert counts.max() - counts.min() <= 1
    sizes = np.bincount(ids, minlength=k)
    assert sizes.max() - sizes.min() <= 1


@pytest.mark.parametrize("k", [1, 21])
def test_fold_ids_refuse_impossible_fold_counts(k):
    with pytest.raises(ValueError, match="between 2 and n = 20"):
        fold_of(permutation_folds(np.arange(20), Y, k, False), len(Y))


def test_a_dataset_is_the_same_draw_whatever_the_number_of_datasets():
    setting = [Setting("signed", False, 5)]
    few, _ = simulate_wrong_and_right_way(NullDesign(20, 60, 7), setting, datasets=2, selected=5)
    many, _ = simulate_wrong_and_right_way(NullDesign(20, 60, 7), setting, datasets=4, selected=5)
    pd.testing.assert_frame_equal(few, many.iloc[:2])


def brute_force_cv(x, y, folds, selected, right_way):
    """Both ways, written the slow and obvious way."""
    errors = np.zeros(len(y), dtype=int)
    everyone = np.argsort([-np.corrcoef(x[:, j], y)[0, 1] for j in range(x.shape[1])])[:selected]
    for k in np.unique(folds):
        train, test = folds != k, folds == k
        if right_way:
            corr = [np.corrcoef(x[train, j], y[train])[0, 1] for j in range(x.shape[1])]
            chosen = np.argsort(np.negative(corr))[:selected]
        else:
            chosen = everyone
        for i in np.flatnonzero(test):
            d = ((x[np.ix_(train, chosen)] - x[i, chosen]) ** 2).sum(axis=1)
            errors[i] = y[train][np.argmin(d)] != y[i]
    return errors


@pytest.mark.parametrize("stratified", [False, True])
def test_both_ways_agree_with_a_brute_force_implementation(stratified):
    folds = fold_of(permutation_folds(np.random.default_rng(2).permutation(20), Y, 5, stratified), len(Y))
    ways = screened_cross_validation(X, Y, folds, 6, "signed")
    assert ways["wrong_way"]["errors"].tolist() == brute_force_cv(X, Y, folds, 6, right_way=False).tolist()
    assert ways["right_way"]["errors"].tolist() == brute_force_cv(X, Y, folds, 6, right_way=True).tolist()


def test_dataset_d_is_drawn_in_the_documented_order_from_default_rng_seed_d():
    """Predictors, then the permutation the folds are cut from, then the fresh samples' screened predictors."""
    per_dataset, _ = simulate_wrong_and_right_way(
        NullDesign(20, 60, 7), [Setting("signed", False, 5)], datasets=2, selected=5, test_points=40
    )
    rng = np.random.default_rng([7, 1])
    x = rng.standard_normal((20, 60))
    folds = np.empty(20, dtype=int)
    for k, chunk in enumerate(np.array_split(rng.permutation(20), 5)):
        folds[chunk] = k
    chosen = np.argsort([-np.corrcoef(x[:, j], Y)[0, 1] for j in range(60)])[:5]
    fresh_x, fresh_y = rng.standard_normal((40, 5)), np.repeat([0.0, 1.0], 20)
    nearest = [np.argmin(((x[:, chosen] - q) ** 2).sum(axis=1)) for q in fresh_x]
    row = per_dataset.iloc[1]
    assert row["dataset"] == 1
    assert row["wrong_way_cv_error_percent"] == 100 * brute_force_cv(x, Y, folds, 5, right_way=False).mean()
    assert row["right_way_cv_error_percent"] == 100 * brute_force_cv(x, Y, folds, 5, right_way=True).mean()
    assert row["true_error_percent"] == 100 * (Y[nearest] != fresh_y).mean()


def test_each_open_choice_is_changed_on_its_own():
    default = Setting("signed", False, 5)
    assert open_choice_settings(default, [5, 10, 50]) == [
        default,
        Setting("absolute", False, 5),
        Setting("signed", True, 5),
        Setting("signed", False, 10),
        Setting("signed", False, 50),
    ]


def test_screening_on_all_samples_leaks_and_screening_in_the_fold_does_not():
    per_dataset, corr = simulate_wrong_and_right_way(
        NullDesign(30, 800, 1), [Setting("signed", False, 5)], datasets=12, selected=20
    )
    assert per_dataset["wrong_way_cv_error_percent"].mean() + 20 < per_dataset["right_way_cv_error_percent"].mean()
    assert np.nanmean(corr[:, 0]) > 5 * abs(np.nanmean(corr[:, 1]))


def test_absolute_selection_orients_held_out_correlations_by_the_selection_sign():
    per_dataset, corr = simulate_wrong_and_right_way(
        NullDesign(30, 800, 1), [Setting("absolute", False, 5)], datasets=6, selected=20
    )
    assert np.nanmean(corr[:, 0]) > 0.1


def test_the_final_models_error_on_fresh_samples_is_recorded_for_the_first_setting_only():
    per_dataset, _ = simulate_wrong_and_right_way(
        NullDesign(20, 60, 1),
        [Setting("signed", False, 5), Setting("signed", True, 5)],
        datasets=3,
        selected=5,
        test_points=40,
    )
    assert per_dataset.loc[per_dataset["setting"] == 0, "true_error_percent"].notna().all()
    assert per_dataset.loc[per_dataset["setting"] == 1, "true_error_percent"].isna().all()


def test_the_comparison_se_combines_monte_carlo_error_and_the_books_design():
    per_dataset, corr = simulate_wrong_and_right_way(
        NullDesign(20, 60, 1), [Setting("signed", False, 5)], datasets=8, selected=5, test_points=40
    )
    table = published_statistics(per_dataset, corr, design_datasets=2).set_index("statistic")
    row = table.loc["right_way_cv_error_percent"]
    sd = per_dataset["right_way_cv_error_percent"].std(ddof=1)
    assert row["design_sd"] == pytest.approx(sd / np.sqrt(2))
    assert row["mc_se"] == pytest.approx(sd / np.sqrt(8))
    assert row["expected_se"] == pytest.approx(np.hypot(row["mc_se"], row["design_sd"]))
    assert table.loc["true_error_percent", "design_sd"] == 0.0


def test_histogram_shares_add_up_to_all_correlations():
    _, corr = simulate_wrong_and_right_way(NullDesign(20, 60, 1), [Setting("signed", False, 5)], datasets=3, selected=5)
    histogram = correlation_histogram(corr, 10)
    assert histogram.groupby("procedure")["share_percent"].sum().tolist() == pytest.approx([100.0, 100.0])


def synthetic_runs(wrong, right, correlation):
    n = len(wrong)
    return pd.DataFrame(
        {
            "dataset": np.arange(n),
            "setting": np.zeros(n, dtype=int),
            "wrong_way_cv_error_percent": wrong,
            "right_way_cv_error_percent": right,
            "wrong_way_heldout_correlation": correlation,
            "right_way_heldout_correlation": np.zeros(n),
        }
    )


def test_the_gap_between_the_ways_is_paired_by_dataset_and_the_wrong_way_is_scaled_by_chance():
    """What the Pitfalls and 'respectable' records read (settings.csv): the right way minus the wrong way,
    dataset by dataset, with its paired SE, and the wrong way's CV error over chance's 50%."""
    noise = np.random.default_rng(0).normal(0, 5, 40)
    runs = synthetic_runs(4 + noise / 5, 50 + noise, 0.3 + noise / 100)
    row = setting_summary(runs, [Setting("signed", False, 5)], 40).set_index("datasets_used").loc["all"]
    gap = runs["right_way_cv_error_percent"] - runs["wrong_way_cv_error_percent"]
    assert row["right_minus_wrong_cv_error_points"] == pytest.approx(gap.mean())
    assert row["right_minus_wrong_cv_error_points_se"] == pytest.approx(gap.std(ddof=1) / np.sqrt(40))
    # Paired: the noise the two ways share leaves the gap's SE below the two SEs combined.
    unpaired = np.hypot(row["wrong_way_cv_error_percent_se"], row["right_way_cv_error_percent_se"])
    assert row["right_minus_wrong_cv_error_points_se"] < unpaired
    assert row["wrong_way_cv_error_over_chance"] == pytest.approx(row["wrong_way_cv_error_percent"] / 50)
    assert row["right_way_optimism_over_wrong_way"] == pytest.approx(
        (50 - runs["right_way_cv_error_percent"]).mean() / (50 - runs["wrong_way_cv_error_percent"]).mean()
    )
    honest = synthetic_runs(50 + noise, 50 + noise[::-1], noise / 100)
    row = setting_summary(honest, [Setting("signed", False, 5)], 40).set_index("datasets_used").loc["all"]
    assert abs(row["right_minus_wrong_cv_error_points"]) < 2 * row["right_minus_wrong_cv_error_points_se"]


def test_held_out_correlations_are_those_of_the_fold_for_the_predictors_screened_on_all_samples():
    folds = fold_of(permutation_folds(np.random.default_rng(8).permutation(20), Y, 4, True), len(Y))
    ways = screened_cross_validation(X, Y, folds, 5, "signed")
    chosen = np.argsort([-np.corrcoef(X[:, j], Y)[0, 1] for j in range(X.shape[1])])[:5]
    for k in range(4):
        rows = folds == k
        expected = [np.corrcoef(X[rows, j], Y[rows])[0, 1] for j in chosen]
        np.testing.assert_allclose(ways["wrong_way"]["heldout_correlations"][k], expected, rtol=1e-9)


def test_a_printed_one_fold_correlation_is_placed_among_our_one_fold_means():
    row = printed_draw("x", [0.1, 0.2, np.nan, 0.3, 0.4], 0.25)
    assert row["draws"] == 4 and (row["share_below_percent"], row["share_above_percent"]) == (50.0, 50.0)
    # datasets x ways x folds x predictors: one-fold means (0.2, 0.4) and (0.0, -0.2) per way.
    correlations = np.array([[[[0.1, 0.3], [0.4, 0.4]], [[0.1, -0.1], [-0.2, -0.2]]]])
    table = correlation_draws(correlations, {"wrong_way": 0.3, "right_way": 0.0}).set_index("statistic")
    assert table.loc["wrong_way_mean_heldout_correlation", "share_below_percent"] == 50.0
    assert table.loc["right_way_mean_heldout_correlation", "share_equal_percent"] == 50.0


def test_fold_sizes_of_twenty_samples_in_three_folds():
    row = fold_sizes(20, 3).iloc[0].to_dict()
    assert row == {
        "samples": 20,
        "folds": 3,
        "validation_size_min": 6,
        "validation_size_max": 7,
        "train_size_min": 13,
        "train_size_max": 14,
    }
