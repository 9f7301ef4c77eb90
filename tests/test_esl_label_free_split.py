import numpy as np
import pytest

from cvsuite.data.null_predictors import balanced_labels
from cvsuite.methods.folds import fold_of, permutation_folds
from cvsuite.studies.esl_label_free_split import (
    claim_verdicts,
    fit_stump,
    heldout_error_distribution,
    one_dataset_stumps,
    published_statistics,
    restricted_orders,
    simulate_label_free_split,
    sorted_orders,
    split_errors,
    stump_cross_validation,
    summarise_procedures,
)

RNG = np.random.default_rng(4)
X = RNG.standard_normal((12, 7))
Y = balanced_labels(12)


def test_split_errors_match_counting_every_split_by_hand():
    errors = split_errors(Y, sorted_orders(X))
    for j in range(X.shape[1]):
        ranked = Y[np.argsort(X[:, j], kind="stable")]
        for s in range(len(Y) - 1):
            left, right = ranked[: s + 1], ranked[s + 1 :]
            assert errors[j, s, 0] == (left == 1).sum() + (right == 0).sum()
            assert errors[j, s, 1] == (left == 0).sum() + (right == 1).sum()


def test_a_subsets_orders_are_read_off_the_full_orders():
    keep = np.ones(12, dtype=bool)
    keep[[1, 5, 9]] = False
    kept = np.flatnonzero(keep)
    direct = kept[np.argsort(X[kept].T, axis=1, kind="stable")]
    assert (restricted_orders(sorted_orders(X), keep) == direct).all()


def test_a_separating_predictor_is_found_with_zero_errors_and_a_midpoint_threshold():
    x = RNG.standard_normal((12, 5))
    x[:, 3] = np.where(Y == 1, 2.0, -2.0) + RNG.uniform(-0.5, 0.5, 12)
    stump = fit_stump(x, Y)
    assert (stump.predictor, stump.training_errors) == (3, 0)
    assert (stump.predict(x) == Y).all()
    assert stump.threshold == pytest.approx(0.5 * (x[Y == 0, 3].max() + x[Y == 1, 3].min()))


def test_ties_go_to_the_lowest_predictor():
    x = np.repeat(RNG.standard_normal((12, 1)), 3, axis=1)
    assert fit_stump(x, Y).predictor == 0


def test_restricting_the_candidates_keeps_the_predictors_own_index():
    assert fit_stump(X, Y, predictors=[4]).predictor == 4


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
    per_dataset, _ = simulate_label_free_split(20, 200, 5, 20, 3, [False])
    summary = summarise_procedures(per_dataset).set_index("procedure")["cv_error_percent"]
    assert summary["full_data_stump"] < summary["full_data_predictor"] < summary["cross_validated_stump"] - 15


def test_stratification_is_a_second_setting_on_the_same_datasets():
    per_dataset, per_fold = simulate_label_free_split(20, 50, 5, 3, 3, [False, True], test_points=20)
    first, second = (per_dataset[per_dataset["setting"] == i].reset_index(drop=True) for i in (0, 1))
    assert (first["full_data_training_errors"] == second["full_data_training_errors"]).all()
    assert second["true_error_percent"].isna().all() and first["true_error_percent"].notna().all()
    assert len(per_fold) == 3 * 5


def test_one_fold_statistics_take_their_spread_over_single_folds():
    per_dataset, per_fold = simulate_label_free_split(20, 50, 5, 6, 3, [False], test_points=20)
    table = published_statistics(per_dataset, per_fold, design_datasets=50).set_index("statistic")
    counts = per_fold["full_data_predictor_heldout_errors"]
    row = table.loc["full_data_predictor_heldout_errors"]
    assert row["expected"] == pytest.approx(counts.mean())
    assert row["design_sd"] == pytest.approx(counts.std(ddof=1))
    assert row["expected_se"] == pytest.approx(np.hypot(row["mc_se"], row["design_sd"]))


def test_held_out_error_shares_add_up_per_procedure():
    _, per_fold = simulate_label_free_split(20, 50, 5, 4, 3, [False])
    shares = heldout_error_distribution(per_fold).groupby("procedure")["share_percent"].sum()
    assert shares.tolist() == pytest.approx([100.0] * 3)


def test_the_marked_predictors_are_those_of_fewest_full_data_errors():
    table = one_dataset_stumps(20, 60, 5, 3, 0, False, marked=6)
    assert table["marked"].sum() == 6
    assert table.loc[table["marked"], "full_data_training_errors"].max() <= table.loc[~table["marked"], "full_data_training_errors"].min()
    assert (table["training_samples"] + table["heldout_samples"] == 20).all()


def test_verdicts_say_false_when_the_full_data_choice_is_not_optimistic():
    per_dataset, _ = simulate_label_free_split(20, 200, 5, 15, 3, [False])
    assert (claim_verdicts(per_dataset, 3).set_index("claim").loc[
        ["choice_on_all_data_is_optimistic", "rechoosing_within_folds_not_optimistic"], "verdict"] == "True").all()
    flat = per_dataset.copy()
    for column in ("full_data_stump_cv_error_percent", "full_data_predictor_cv_error_percent"):
        flat[column] = flat["cross_validated_stump_cv_error_percent"]
    assert claim_verdicts(flat, 3).set_index("claim").loc["choice_on_all_data_is_optimistic", "verdict"] == "False"
