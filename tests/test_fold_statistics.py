import numpy as np
import pytest
from twelve_points_cases import DESIGN, MSE, NAMES, X, brute_force_sums_of_squares, noisy_table

from cvsuite.methods.fold_statistics import (
    Convention,
    Design,
    conventions_grid,
    fold_statistics,
    statistic_values,
    sums_of_squares,
)


def test_the_design_has_the_worked_examples_folds_by_position():
    # Step 2: "Observations are assigned by position, {1,5,9}, {2,6,10}, {3,7,11}, {4,8,12}".
    assert [(f + 1).tolist() for f in DESIGN.folds] == [[1, 5, 9], [2, 6, 10], [3, 7, 11], [4, 8, 12]]
    assert DESIGN.fold_numbers.tolist() == [1, 2, 3, 4] * 3
    assert X.tolist() == list(range(1, 13))


@pytest.mark.parametrize(
    "convention",
    [
        MSE,
        Convention(fold_error="sum"),
        Convention(cv="pooled", fold_sd_ddof=0),
        Convention(training_error="per_residual_df"),
    ],
    ids=lambda c: c.label,
)
def test_quadratic_forms_agree_with_refitting_each_fold(convention):
    y = noisy_table(1)
    stats = fold_statistics(y[None, :], DESIGN, convention)
    for m, degree in enumerate(DESIGN.degrees):
        training_ss, fold_ss = brute_force_sums_of_squares(y, degree)
        fold_ss = np.array(fold_ss)
        errors = fold_ss / 3 if convention.fold_error == "mean" else fold_ss
        train_den = 12 if convention.training_error == "mean" else 12 - (degree + 1)
        cv = errors.mean() if convention.cv == "mean_of_folds" else fold_ss.sum() / 12
        assert stats["folds"][0, m] == pytest.approx(errors, rel=1e-7)
        assert stats["training"][0, m] == pytest.approx(training_ss / train_den, rel=1e-7)
        assert stats["cv"][0, m] == pytest.approx(cv, rel=1e-7)
        assert stats["sd"][0, m] == pytest.approx(np.std(errors, ddof=convention.fold_sd_ddof), rel=1e-7)
        assert stats["se"][0, m] == pytest.approx(np.std(errors, ddof=convention.fold_sd_ddof) / 2, rel=1e-7)


def test_named_statistics_are_the_documents_differences_and_ratios():
    y = noisy_table(2)
    line_train, line_folds = brute_force_sums_of_squares(y, 1)
    poly_train, poly_folds = brute_force_sums_of_squares(y, 5)
    line_cv, poly_cv = np.mean(line_folds) / 3, np.mean(poly_folds) / 3
    expected = {
        "line_training_error": line_train / 12,
        "polynomial_training_error": poly_train / 12,
        "line_cv": line_cv,
        "polynomial_cv": poly_cv,
        "polynomial_fold_4": poly_folds[3] / 3,
        "polynomial_fold_3": poly_folds[2] / 3,
        "polynomial_fold_sd": np.std(np.array(poly_folds) / 3, ddof=1),
        "line_fold_sd": np.std(np.array(line_folds) / 3, ddof=1),
        "training_error_gain": (line_train - poly_train) / 12,
        "cv_difference": poly_cv - line_cv,
        "polynomial_cv_over_training": poly_cv / (poly_train / 12),
        "polynomial_cv_over_line_cv": poly_cv / line_cv,
    }
    values = statistic_values(y[None, :], NAMES, DESIGN, MSE)[0]
    assert values == pytest.approx([expected[n] for n in NAMES], rel=1e-7)


def test_statistics_cannot_see_a_line_or_a_reflection():
    y = noisy_table(2)
    base = statistic_values(y[None, :], NAMES, DESIGN, MSE)
    moved = statistic_values((y + 0.37 - 0.081 * X)[None, :], NAMES, DESIGN, MSE)
    mirrored = statistic_values((4 * X - y)[None, :], NAMES, DESIGN, MSE)
    assert np.allclose(base, moved, rtol=1e-9) and np.allclose(base, mirrored, rtol=1e-9)


def test_held_out_sum_of_squares_is_never_below_the_training_one():
    ys = 2 * X + 0.3 * np.random.default_rng(3).standard_normal((500, 12))
    sums = sums_of_squares(ys, DESIGN.forms())
    assert (sums[:, :, 1:].sum(axis=2) >= sums[:, :, 0] - 1e-12).all()


def test_a_tables_sums_of_squares_do_not_depend_on_the_batch_it_is_in():
    # What makes fresh-data tables the same bytes whatever the batch size.
    ys = 2 * X + 0.3 * np.random.default_rng(4).standard_normal((64, 12))
    forms = DESIGN.forms()
    together = sums_of_squares(ys, forms)
    assert all(np.array_equal(together[i], sums_of_squares(ys[i], forms)[0]) for i in range(len(ys)))


def test_an_unknown_statistic_is_refused_by_name():
    with pytest.raises(ValueError, match="there is no fold 5"):
        statistic_values(noisy_table(0)[None, :], ["polynomial_fold_5"], DESIGN, MSE)
    with pytest.raises(ValueError, match="unknown statistic 'line_rmse'"):
        statistic_values(noisy_table(0)[None, :], ["line_rmse"], DESIGN, MSE)


def test_a_convention_must_be_one_the_library_knows():
    with pytest.raises(ValueError, match="fold_sd_ddof must be 0 or 1"):
        Convention(fold_sd_ddof=2)
    grid = conventions_grid(["mean", "sum"], ["mean_of_folds"], [0, 1], ["mean"])
    assert [(c.fold_error, c.fold_sd_ddof) for c in grid] == [("mean", 0), ("mean", 1), ("sum", 0), ("sum", 1)]


def test_a_design_whose_polynomial_is_not_determined_is_refused():
    with pytest.raises(ValueError, match="needs 6 training points"):
        Design.of(8, 1, 5, 2)
