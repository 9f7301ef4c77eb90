import numpy as np
import pytest
from twelve_points_cases import DESIGN, MSE, noisy_table, printed_from

from conftest import project_records
from cvsuite.methods.fold_statistics import Convention
from cvsuite.methods.printed_targets import (
    PrintedTargets,
    arithmetic_problems,
    fold_summary_possible,
    misses_in_printed_units,
    printed_check,
    reads_as_printed,
)


def test_reads_as_printed_is_decided_at_the_printed_precision():
    targets = PrintedTargets.of({"line_cv": "0.1314", "polynomial_cv_over_training": "3.9"})
    values = np.array([[0.13144, 3.94], [0.13146, 3.94], [0.1314, 3.96]])
    assert reads_as_printed(values, targets).tolist() == [[True, True], [False, True], [True, False]]


def test_misses_are_counted_in_units_of_the_last_printed_digit():
    targets = PrintedTargets.of({"line_cv": "0.1314", "polynomial_cv_over_training": "3.9"})
    assert targets.units.tolist() == pytest.approx([1e-4, 0.1])
    assert misses_in_printed_units(np.array([[0.1316, 3.75]]), targets)[0] == pytest.approx([2.0, 1.5])


def test_an_unknown_statistic_is_refused_by_name():
    with pytest.raises(ValueError, match="'line_rmse' is not one of"):
        PrintedTargets.of({"line_rmse": "0.3"})


def test_targets_are_read_from_the_registry_as_printed():
    claims = project_records()
    ids = {"line_cv": "oos.twelve.line-cv", "polynomial_cv_over_line_cv": "oos.twelve.polynomial-cv-over-line-cv"}
    targets = PrintedTargets.from_registry(claims, ids)
    published = {claim.id: claim.published for claim in claims}
    assert targets.texts == tuple(published[ids[name]] for name in ("line_cv", "polynomial_cv_over_line_cv"))
    with pytest.raises(KeyError, match="no row oos.twelve.nowhere"):
        PrintedTargets.from_registry(claims, {"line_cv": "oos.twelve.nowhere"})


def test_the_printed_check_writes_each_value_as_printed():
    y = noisy_table(5)
    targets = printed_from(y)
    shifted = PrintedTargets.of({"line_cv": f"{float(targets.values[2]) + 0.0003:.4f}"})
    check = printed_check(y, DESIGN, MSE, shifted)
    assert check.loc[0, "recomputed_as_printed"] == targets.texts[2]
    assert not check.loc[0, "reads_the_same"]
    assert check.loc[0, "miss_in_printed_units"] == pytest.approx(3.0, abs=0.5)
    assert printed_check(y, DESIGN, MSE, targets)["reads_the_same"].all()


def test_arithmetic_rules_out_summed_fold_errors_for_a_mean_error_table():
    targets = printed_from(noisy_table(6))
    assert arithmetic_problems(targets, DESIGN, MSE) == []
    summed = Convention(fold_error="sum")
    assert any("held-out sum of squares" in p for p in arithmetic_problems(targets, DESIGN, summed))


def test_arithmetic_rules_out_a_held_out_error_below_the_training_error():
    targets = PrintedTargets.of({"line_training_error": "0.2000", "line_cv": "0.1000"})
    (problem,) = arithmetic_problems(targets, DESIGN, MSE)
    # At the edges of the printed precision: 0.10005 x 12 = 1.2006 held out against 0.19995 x 12 = 2.3994.
    assert (
        problem == "line: held-out sum of squares at most 1.2006, below the training sum of squares of at least 2.3994"
    )


def test_fold_summary_is_impossible_when_a_fold_sits_too_far_from_the_mean():
    # Four fold errors with mean 0.2 and s.d. 0.05 cannot include 0.9; they can include 0.3.
    assert not fold_summary_possible([(0.90, 0.91)], (0.20, 0.21), (0.05, 0.06), DESIGN, MSE)
    assert fold_summary_possible([(0.30, 0.31)], (0.20, 0.21), (0.05, 0.06), DESIGN, MSE)
