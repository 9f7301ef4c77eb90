import numpy as np
import pytest

from cvsuite.methods.folds import positional_folds
from cvsuite.studies import twelve_points as tp

DESIGN = tp.Design.of(12, 1, 5, 4)
X = DESIGN.x
MSE = tp.Convention()  # mean squared fold errors, CV the mean of folds, s.d. ddof 1, training RSS / n
NAMES = ("line_training_error", "polynomial_training_error", "line_cv", "polynomial_cv", "polynomial_fold_4",
         "polynomial_fold_3", "polynomial_fold_sd", "line_fold_sd", "training_error_gain", "cv_difference",
         "polynomial_cv_over_training", "polynomial_cv_over_line_cv")


def table(seed: int, decimals: int | None = None) -> np.ndarray:
    y = 2 * X + 0.3 * np.random.default_rng(seed).standard_normal(len(X))
    return np.round(y, decimals) if decimals is not None else y


def printed_from(y, decimals: int = 4, convention=MSE) -> tp.PrintedTargets:
    """The statistics of a known table written as a document would print them."""
    values = tp.statistic_values(y[None, :], NAMES, DESIGN, convention)[0]
    return tp.PrintedTargets.of({n: f"{v:.{decimals}f}" for n, v in zip(NAMES, values)})


def test_positional_folds_deal_observations_round_robin():
    folds = positional_folds(12, 4)
    assert [f.tolist() for f in folds] == [[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]]
    with pytest.raises(ValueError, match="between 2 and n = 12"):
        positional_folds(12, 13)


def test_quadratic_forms_agree_with_refitting_each_fold():
    y = table(1)
    stats = tp.fold_statistics(y[None, :], DESIGN, MSE)
    for m, degree in enumerate(DESIGN.degrees):
        errors = []
        for fold in DESIGN.folds:
            train = np.setdiff1d(np.arange(12), fold)
            coef = np.polynomial.polynomial.polyfit(X[train], y[train], degree)
            errors.append(np.mean((y[fold] - np.polynomial.polynomial.polyval(X[fold], coef)) ** 2))
        full = np.polynomial.polynomial.polyval(X, np.polynomial.polynomial.polyfit(X, y, degree))
        assert stats["folds"][0, m] == pytest.approx(errors, rel=1e-7)
        assert stats["training"][0, m] == pytest.approx(np.mean((y - full) ** 2), rel=1e-7)
        assert stats["sd"][0, m] == pytest.approx(np.std(errors, ddof=1), rel=1e-7)
        assert stats["se"][0, m] == pytest.approx(np.std(errors, ddof=1) / 2, rel=1e-7)


def test_statistics_cannot_see_a_line_or_a_reflection():
    y = table(2)
    base = tp.statistic_values(y[None, :], NAMES, DESIGN, MSE)
    moved = tp.statistic_values((y + 0.37 - 0.081 * X)[None, :], NAMES, DESIGN, MSE)
    mirrored = tp.statistic_values((4 * X - y)[None, :], NAMES, DESIGN, MSE)
    assert np.allclose(base, moved, rtol=1e-9) and np.allclose(base, mirrored, rtol=1e-9)


def test_held_out_sum_of_squares_is_never_below_the_training_one():
    ys = 2 * X + 0.3 * np.random.default_rng(3).standard_normal((500, 12))
    sums = tp.sums_of_squares(ys, DESIGN.forms())
    assert (sums[:, :, 1:].sum(axis=2) >= sums[:, :, 0] - 1e-12).all()


def test_search_objective_jacobian_matches_finite_differences():
    targets = printed_from(table(4))
    basis = tp.line_complement_basis(X)
    forms_z = np.einsum("ia,mkij,jb->mkab", basis, DESIGN.forms(), basis)
    objective = tp._Objective(DESIGN, MSE, targets.names, forms_z)
    z = 0.3 * np.random.default_rng(5).standard_normal(10)
    jac = objective.jacobian(z, targets.values, targets.units)
    numeric = np.zeros_like(jac)
    for k in range(10):
        step = np.zeros(10)
        step[k] = 1e-6
        numeric[:, k] = (objective.misses(z + step, targets.values, targets.units)
                         - objective.misses(z - step, targets.values, targets.units)) / 2e-6
    assert np.allclose(jac, numeric, rtol=1e-5, atol=1e-3)
    y = 2 * X + basis @ z
    assert np.allclose(objective.misses(z, targets.values, targets.units),
                       tp.misses_in_printed_units(tp.statistic_values(y[None, :], targets.names, DESIGN, MSE), targets)[0]
                       * np.sign(objective.misses(z, targets.values, targets.units)))


def test_reads_as_printed_is_decided_at_the_printed_precision():
    targets = tp.PrintedTargets.of({"line_cv": "0.1314", "polynomial_cv_over_training": "3.9"})
    values = np.array([[0.13144, 3.94], [0.13146, 3.94], [0.1314, 3.96]])
    assert tp.reads_as_printed(values, targets).tolist() == [[True, True], [False, True], [True, False]]


def test_an_unknown_statistic_is_refused_by_name():
    with pytest.raises(ValueError, match="'line_rmse' is not one of"):
        tp.PrintedTargets.of({"line_rmse": "0.3"})
    with pytest.raises(ValueError, match="there is no fold 5"):
        tp.statistic_values(table(0)[None, :], ["polynomial_fold_5"], DESIGN, MSE)


def test_arithmetic_rules_out_summed_fold_errors_for_a_mean_error_table():
    targets = printed_from(table(6))
    assert tp.arithmetic_problems(targets, DESIGN, MSE) == []
    summed = tp.Convention(fold_error="sum")
    assert any("held-out sum of squares" in p for p in tp.arithmetic_problems(targets, DESIGN, summed))


def test_fold_summary_is_impossible_when_a_fold_sits_too_far_from_the_mean():
    args = ([(0.90, 0.91)], (0.20, 0.21), (0.05, 0.06), DESIGN, MSE)
    assert not tp._fold_summary_possible(*args)
    assert tp._fold_summary_possible([(0.30, 0.31)], (0.20, 0.21), (0.05, 0.06), DESIGN, MSE)


def test_search_from_near_a_table_finds_tables_reproducing_its_figures():
    y = table(7)
    targets = printed_from(y)
    starts, aims = tp.local_starts_and_aims(y, DESIGN, targets, count=6, seed=0, start_sd=0.02)
    result = tp.search_tables(DESIGN, MSE, targets, 2.0, starts, aims)
    assert result.consistent.sum() >= 3
    values = tp.statistic_values(result.consistent_tables, targets.names, DESIGN, MSE)
    assert tp.reads_as_printed(values, targets).all()


def test_screen_finds_the_generating_convention_and_shares_verdicts_between_twins():
    targets = printed_from(table(8))
    grid = tp.conventions_grid(["mean", "sum"], ["mean_of_folds", "pooled"], [1], ["mean"])
    screen, searches = tp.screen_conventions(DESIGN, grid, targets, 2.0, tp.broad_starts(DESIGN, targets, 10, seed=0))
    verdicts = dict(zip(screen["label"], screen["verdict"]))
    assert verdicts[MSE.label] == "consistent"
    pooled = tp.Convention(cv="pooled")
    assert screen.set_index("label").loc[pooled.label, "same_figures_as"] == MSE.label  # equal folds: the same numbers
    assert searches[pooled.label] is searches[MSE.label]
    assert verdicts[tp.Convention(fold_error="sum").label] == "ruled out by arithmetic"


def test_broad_starts_are_deterministic_and_orthogonal_to_the_line():
    targets = printed_from(table(9))
    a, b = tp.broad_starts(DESIGN, targets, 5, seed=3), tp.broad_starts(DESIGN, targets, 8, seed=3)
    assert np.array_equal(a, b[:5])  # more starts extend, never change, the first ones
    assert a.shape == (5, 10)


def test_lattice_search_undoes_an_unknown_line_and_finds_the_short_table():
    y = table(10, decimals=1)
    targets = printed_from(y)
    disguised = y + 0.0337 + 0.0123 * X  # same statistics, off the 0.1 lattice
    found = tp.short_decimal_tables(disguised[None, :], DESIGN, MSE, targets, 2.0, decimals=1)
    assert len(found) == 1
    best = found.filter(like="y_").to_numpy()[0]
    assert tp.table_class(best, X) == tp.table_class(y, X)
    assert np.allclose(best * 10, np.round(best * 10))


def test_table_class_ignores_lines_and_reflections_only():
    y = table(11)
    assert tp.table_class(y, X) == tp.table_class(y - 0.2 + 0.1 * X, X) == tp.table_class(4 * X - y, X)
    other = y.copy()
    other[3] += 0.05
    assert tp.table_class(other, X) != tp.table_class(y, X)


def test_closest_to_line_picks_the_lattice_member_nearest_the_reference_line():
    y = table(12, decimals=1)
    far = np.round(y + 0.3 + 0.1 * X, 1)
    chosen = tp.closest_to_line(far, X, 2.0, decimals=1)
    assert tp.table_class(chosen, X) == tp.table_class(y, X)
    distance = np.sum((tp.line_part(chosen, X) - 2 * X) ** 2)
    assert distance <= np.sum((tp.line_part(y, X) - 2 * X) ** 2) + 1e-12
    deviation = chosen - 2 * X
    assert deviation[np.abs(deviation) > 0.05][0] > 0  # of the mirror pair, the one starting above y = 2x


def test_every_neighbouring_lattice_move_is_tried():
    y = table(13, decimals=2)
    result = tp.lattice_neighbours(y, DESIGN, MSE, printed_from(y), decimals=2)
    assert result["neighbours_tried"] == 2 * 12 + 4 * 66


def test_align_to_puts_a_mirrored_shifted_table_back_on_the_reference():
    y = table(14)
    assert np.allclose(tp.align_to(4 * X - y + 0.5, y, X)[0], y)


def test_claims_follow_the_table():
    y = table(15)
    claims = tp.document_claims(y, DESIGN, MSE, edge_fold=4, fold_b=3, nearly=4.0).set_index("claim")
    folds = tp.fold_statistics(y[None, :], DESIGN, MSE)["folds"][0, 1]
    assert claims.loc["edge_fold_is_polynomials_worst", "holds"] == (int(np.argmax(folds)) == 3)
    assert claims.loc["edge_fold_over_fold_b_below_nearly", "holds"] == (folds[3] / folds[2] < 4.0)


def test_fresh_data_are_reproducible_and_batch_free():
    one = tp.fresh_data_statistics(DESIGN, MSE, 2.0, 0.3, draws=50, seed=4)
    two = tp.fresh_data_statistics(DESIGN, MSE, 2.0, 0.3, draws=50, seed=4, batch=7)
    assert all(np.array_equal(one[k], two[k]) for k in one)


def test_conclusion_frequencies_carry_binomial_standard_errors():
    stats = tp.fresh_data_statistics(DESIGN, MSE, 2.0, 0.3, draws=400, seed=5)
    freq = tp.conclusion_frequencies(stats, edge_fold=4, reference_difference=0.0).set_index("conclusion")
    assert freq.loc["polynomial_ahead_on_training", "frequency"] == 1.0  # nested models: never above
    assert bool(freq.loc["polynomial_ahead_on_training", "holds_in_every_draw"])
    p = freq.loc["edge_fold_is_polynomials_worst", "frequency"]
    assert freq.loc["edge_fold_is_polynomials_worst", "frequency_se"] == pytest.approx(np.sqrt(p * (1 - p) / 400))
    assert freq.loc["cv_difference_at_least_reference", "frequency"] == freq.loc["polynomial_cv_above_line_cv", "frequency"]


def test_histogram_counts_every_value_once():
    values = np.random.default_rng(6).standard_normal(1000)
    hist = tp.histogram_table(values, bins=20, upper_quantile=0.95)
    assert hist["count"].sum() == 1000
    assert hist["overflow"].sum() == 1


def test_a_convention_must_be_one_the_library_knows():
    with pytest.raises(ValueError, match="fold_sd_ddof must be 0 or 1"):
        tp.Convention(fold_sd_ddof=2)
    assert len(tp.conventions_grid(["mean", "sum"], ["mean_of_folds"], [0, 1], ["mean"])) == 4


def test_a_design_whose_polynomial_is_not_determined_is_refused():
    with pytest.raises(ValueError, match="needs 6 training points"):
        tp.Design.of(8, 1, 5, 2)


def test_a_fold_outside_the_design_is_refused_by_name():
    with pytest.raises(ValueError, match="edge_fold = 5: there are folds 1 to 4"):
        tp.document_claims(table(16), DESIGN, MSE, edge_fold=5, fold_b=3, nearly=4.0)
