import numpy as np
import pandas as pd
import pytest

from cvsuite.data.null_predictors import NullDesign, balanced_labels
from cvsuite.methods.folds import fold_of, permutation_folds
from cvsuite.methods.stumps import fit_stump
from cvsuite.studies.esl_label_free_split import (
    heldout_draws,
    heldout_error_distribution,
    one_dataset_stumps,
    published_statistics,
    setting_summary,
    setup_table,
    simulate_label_free_split,
    stump_cross_validation,
    summarise_procedures,
)

RNG = np.random.default_rng(4)
X = RNG.standard_normal((12, 7))
Y = balanced_labels(12)


def test_the_full_data_stump_scored_fold_by_fold_is_its_training_error():
    folds = fold_of(permutation_folds(np.random.default_rng(0).permutation(12), Y, 4, False), len(Y))
    result = stump_cross_validation(X, Y, folds)
    assert result["errors"]["full_data_stump"].sum() == result["full_stump"].training_errors


def test_cross_validation_finds_a_real_signal():
    x = RNG.standard_normal((40, 30))
    y = balanced_labels(40)
    x[:, 17] += 4.0 * y
    folds = fold_of(permutation_folds(np.random.default_rng(1).permutation(40), y, 5, True), len(y))
    assert stump_cross_validation(x, y, folds)["errors"]["cross_validated_stump"].mean() < 0.15


def test_choosing_the_predictor_on_all_samples_is_optimistic_on_noise():
    per_dataset, _ = simulate_label_free_split(NullDesign(20, 200, 3), [False], datasets=20, n_folds=5)
    summary = summarise_procedures(per_dataset).set_index("procedure")["cv_error_percent"]
    assert summary["full_data_stump"] < summary["full_data_predictor"] < summary["cross_validated_stump"] - 15


def test_stratification_is_a_second_setting_on_the_same_datasets():
    per_dataset, per_fold = simulate_label_free_split(
        NullDesign(20, 50, 3), [False, True], datasets=3, n_folds=5, test_points=20
    )
    first, second = (per_dataset[per_dataset["setting"] == i].reset_index(drop=True) for i in (0, 1))
    assert (first["full_data_training_errors"] == second["full_data_training_errors"]).all()
    assert second["true_error_percent"].isna().all() and first["true_error_percent"].notna().all()
    assert len(per_fold) == 3 * 5


def test_one_fold_statistics_take_their_spread_over_single_folds():
    per_dataset, per_fold = simulate_label_free_split(
        NullDesign(20, 50, 3), [False], datasets=6, n_folds=5, test_points=20
    )
    table = published_statistics(per_dataset, per_fold, design_datasets=50).set_index("statistic")
    counts = per_fold["full_data_predictor_heldout_errors"]
    row = table.loc["full_data_predictor_heldout_errors"]
    assert row["expected"] == pytest.approx(counts.mean())
    assert row["design_sd"] == pytest.approx(counts.std(ddof=1))
    assert row["expected_se"] == pytest.approx(np.hypot(row["mc_se"], row["design_sd"]))


def test_held_out_error_shares_add_up_per_procedure():
    _, per_fold = simulate_label_free_split(NullDesign(20, 50, 3), [False], datasets=4, n_folds=5)
    shares = heldout_error_distribution(per_fold).groupby("procedure")["share_percent"].sum()
    assert shares.tolist() == pytest.approx([100.0] * 3)


def test_the_marked_predictors_are_those_of_fewest_full_data_errors():
    table = one_dataset_stumps(NullDesign(20, 60, 3), 0, n_folds=5, stratified=False, marked=6)
    assert table["marked"].sum() == 6
    assert (
        table.loc[table["marked"], "full_data_training_errors"].max()
        <= table.loc[~table["marked"], "full_data_training_errors"].min()
    )
    assert (table["training_samples"] + table["heldout_samples"] == 20).all()


def test_the_full_data_choice_reads_optimistic_and_the_re_chosen_stump_does_not():
    """What the How It Works records read (settings.csv): with the predictor chosen on all samples the CV
    error lies far below the true 50%, re-chosen in each fold it does not; and the columns follow the data."""
    per_dataset, _ = simulate_label_free_split(NullDesign(20, 200, 3), [False], datasets=15, n_folds=5)
    row = setting_summary(per_dataset, [False], 15).set_index("datasets_used").loc["all"]
    assert row["full_data_predictor_cv_error_percent"] + 2 * row["full_data_predictor_cv_error_percent_se"] < 50
    assert row["cross_validated_stump_cv_error_percent"] + 2 * row["cross_validated_stump_cv_error_percent_se"] > 50
    flat = per_dataset.copy()
    flat["full_data_predictor_cv_error_percent"] = flat["cross_validated_stump_cv_error_percent"]
    same = setting_summary(flat, [False], 15).set_index("datasets_used").loc["all"]
    assert same["full_data_predictor_cv_error_percent"] == same["cross_validated_stump_cv_error_percent"]
    ratio = "cross_validated_stump_optimism_over_full_data_predictor"
    assert row[ratio] + 2 * row[f"{ratio}_se"] < 0.25
    assert row[ratio] == pytest.approx(
        (50 - per_dataset["cross_validated_stump_cv_error_percent"]).mean()
        / (50 - per_dataset["full_data_predictor_cv_error_percent"]).mean()
    )
    assert same[ratio] == pytest.approx(1.0)


def test_dataset_d_is_drawn_in_the_documented_order_and_cross_validated_fold_by_fold():
    """Predictors, then the permutation the folds are cut from, then the fresh values of the stump's predictor."""
    per_dataset, per_fold = simulate_label_free_split(
        NullDesign(20, 50, 3), [False], datasets=2, n_folds=5, test_points=30
    )
    y = balanced_labels(20)
    rng = np.random.default_rng([3, 1])
    x = rng.standard_normal((20, 50))
    chunks = np.array_split(rng.permutation(20), 5)
    full = fit_stump(x, y)
    fresh = rng.standard_normal(30)
    row = per_dataset.iloc[1]
    assert (row["dataset"], row["full_data_predictor_index"], row["full_data_training_errors"]) == (
        1,
        full.predictor,
        full.training_errors,
    )
    fresh_predicted = np.where(fresh > full.threshold, full.right_class, 1.0 - full.right_class)
    assert row["true_error_percent"] == 100 * (fresh_predicted != np.repeat([0.0, 1.0], 15)).mean()
    folds = per_fold[per_fold["dataset"] == 1]
    for k, chunk in enumerate(chunks):
        train = np.setdiff1d(np.arange(20), chunk)
        refit = fit_stump(x[train], y[train])
        fold = folds.iloc[k]
        assert fold["full_data_stump_heldout_errors"] == (full.predict(x[chunk]) != y[chunk]).sum()
        assert fold["cross_validated_stump_heldout_errors"] == (refit.predict(x[chunk]) != y[chunk]).sum()


def test_each_predictors_own_stump_is_refitted_on_the_first_fold():
    table = one_dataset_stumps(NullDesign(20, 30, 3), 2, n_folds=5, stratified=False, marked=6)
    y = balanced_labels(20)
    rng = np.random.default_rng([3, 2])
    x = rng.standard_normal((20, 30))
    test = np.array_split(rng.permutation(20), 5)[0]
    train = np.setdiff1d(np.arange(20), test)
    for j in (0, 11, 29):
        full, refit = fit_stump(x, y, predictors=[j]), fit_stump(x[train], y[train], predictors=[j])
        row = table.iloc[j]
        assert row["full_data_training_errors"] == full.training_errors
        assert row["fold_training_errors"] == refit.training_errors
        assert row["fold_heldout_errors"] == (refit.predict(x[test]) != y[test]).sum()


def test_printed_one_fold_draws_are_placed_among_our_folds():
    per_fold = pd.DataFrame(
        {
            "validation_size": 4,
            "full_data_predictor_heldout_errors": [0, 1, 2, 2, 3],
            "full_data_stump_heldout_errors": [0, 0, 0, 1, 2],
        }
    )
    table = heldout_draws(
        per_fold,
        {
            "full_data_predictor_heldout_errors": 2,
            "full_data_predictor_heldout_error_percent": 50.0,
            "full_data_stump_heldout_errors": 0,
        },
    ).set_index("statistic")
    assert table.loc["full_data_predictor_heldout_errors", ["share_below_percent", "share_equal_percent"]].tolist() == [
        40.0,
        40.0,
    ]
    assert table.loc["full_data_predictor_heldout_error_percent", "share_above_percent"] == 20.0  # 3 of 4 = 75%
    assert table.loc["full_data_stump_heldout_errors", "share_equal_percent"] == 60.0
    assert setup_table(NullDesign(20, 500, 1), 5, 50).iloc[0].tolist() == [20, 500, 5, 50]
