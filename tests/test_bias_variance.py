"""Study bias_variance: squared bias, variance and their sum against degree, at several sample sizes."""

import numpy as np
import pandas as pd
import pytest

from cvsuite.data.sine import sine_signal
from cvsuite.studies.bias_variance import (
    BiasVarianceSettings,
    Fits,
    bias_across_n,
    decomposition,
    ends_against_interior,
    fit_samples,
    more_data,
    optima,
    optimum_shift,
    rigid_and_flexible,
    training_error_steps,
)

SETTINGS = BiasVarianceSettings(
    (25, 100), (0, 1, 3, 5, 7), samples=60, grid_points=41, seed=1, noise=0.35, half_width=3.0
)


@pytest.fixture(scope="module")
def fits():
    return fit_samples(SETTINGS)


@pytest.fixture(scope="module")
def table(fits):
    return decomposition(SETTINGS, fits)


def test_the_decomposition_adds_the_noise_to_bias_and_variance(table):
    np.testing.assert_allclose(table["expected_error"], table["bias_squared"] + table["variance"] + 0.35**2)
    assert (table["variance"] > 0).all() and (table["training_error"] > 0).all()


def test_the_decomposition_of_saved_fits_is_the_one_drawn_afresh(table):
    pd.testing.assert_frame_equal(decomposition(SETTINGS), table)


def test_a_constant_misses_the_curve_by_its_variance_over_the_range(table):
    cells = np.linspace(-3, 3, 42)
    grid = (cells[:-1] + cells[1:]) / 2  # the centres of 41 equal cells, as the study averages over x
    constant = table[(table["n"] == 100) & (table["degree"] == 0)].iloc[0]
    curve = sine_signal(grid)
    assert constant["bias_squared"] == pytest.approx(np.mean((curve - curve.mean()) ** 2), rel=0.05)


def test_the_squared_biass_standard_error_is_the_jackknifes(fits, table):
    predictions = fits.predictions[25][2]  # degree 3 at 25 points

    def bias2(p):
        return np.mean((p.mean(axis=0) - fits.truth) ** 2 - p.var(axis=0, ddof=1) / len(p))

    leave_out = np.array([bias2(np.delete(predictions, i, axis=0)) for i in range(len(predictions))])
    jackknife = np.sqrt((len(leave_out) - 1) / len(leave_out) * ((leave_out - leave_out.mean()) ** 2).sum())
    row = table[(table["n"] == 25) & (table["degree"] == 3)].iloc[0]
    assert row["bias_squared"] == pytest.approx(bias2(predictions))
    assert row["bias_squared_se"] == pytest.approx(jackknife)


def test_the_flexible_fit_has_the_lower_bias_and_the_higher_variance_beyond_their_noise(fits, table):
    contrast = rigid_and_flexible(fits)
    assert list(contrast["n"]) == [25, 100] and set(contrast["flexible_degree"]) == {7}
    assert (contrast["bias_squared_difference"] < -2 * contrast["bias_squared_difference_se"]).all()
    assert (contrast["log_variance_ratio"] > 2 * contrast["log_variance_ratio_se"]).all()
    by = table.set_index(["n", "degree"])
    for row in contrast.itertuples():
        assert row.variance_ratio == pytest.approx(by.loc[(row.n, 7), "variance"] / by.loc[(row.n, 0), "variance"])
        assert np.exp(row.log_variance_ratio) == pytest.approx(row.variance_ratio)
        assert row.variance_difference == pytest.approx(by.loc[(row.n, 7), "variance"] - by.loc[(row.n, 0), "variance"])


def test_more_data_lowers_the_variance_at_every_degree(fits):
    steps = more_data(fits)
    assert len(steps) == len(SETTINGS.degrees) and set(steps["larger_n"]) == {100}
    assert (steps["log_variance_ratio"] < -2 * steps["log_variance_ratio_se"]).all()


def test_the_ends_of_the_degree_range_err_more_than_the_best_interior_degree(fits, table):
    ends = ends_against_interior(fits)
    assert list(ends["end"]) == ["most rigid", "most flexible"] * 2
    assert (ends["log_error_ratio"] > 0).all()
    best = table[table["degree"].between(1, 5)].groupby("n")["expected_error"].min()
    for row in ends.itertuples():
        end = table[(table["n"] == row.n) & (table["degree"] == row.end_degree)]["expected_error"].iloc[0]
        assert row.error_ratio == pytest.approx(end / best[row.n])


def test_the_optimum_moves_to_more_flexible_fits_on_the_curved_regression(fits, table):
    best = optima(table)
    assert list(best["best_degree"]) == sorted(best["best_degree"])
    shift = optimum_shift(fits, best)
    assert list(shift["at_n"]) == [25, 100] and (shift["log_error_ratio"] > 0).all()


def _fits_whose_best_degree_is(degree_of_least_error: dict[int, int]) -> Fits:
    """Made-up fits on a grid of one point whose truth is 0: at each size, every sample's prediction
    is 0.1 at the chosen degree and 0.5 at the others, so the optimum is where the dict puts it."""
    degrees, sizes = (0, 1, 2), tuple(degree_of_least_error)
    predictions = {
        n: np.array([[[0.1 + 0.001 * s] if d == degree_of_least_error[n] else [0.5 + 0.001 * s] for s in range(4)]
                     for d in degrees])
        for n in sizes
    }  # fmt: skip
    training = {n: np.tile([[1.0], [0.9], [0.8]], (1, 4)) for n in sizes}
    return Fits(degrees, sizes, predictions, training, np.zeros(1), 0.0)


def test_an_optimum_that_moves_the_other_way_reads_below_zero():
    fits = _fits_whose_best_degree_is({25: 2, 100: 1})
    settings_table = decomposition(None, fits)
    shift = optimum_shift(fits, optima(settings_table))
    assert list(shift[["less_flexible_degree", "more_flexible_degree"]].iloc[0]) == [1, 2]
    assert (shift["log_error_ratio"] < 0).all()
    still = _fits_whose_best_degree_is({25: 1, 100: 1})
    assert (optimum_shift(still, optima(decomposition(None, still)))["log_error_ratio"] == 0).all()


def test_training_error_falls_at_every_step_of_degree(fits):
    steps = training_error_steps(fits)
    assert len(steps) == 2 * (len(SETTINGS.degrees) - 1)
    assert (steps["training_error_step"] < -2 * steps["training_error_step_se"]).all()


def test_the_lines_squared_bias_stays_while_a_flexible_fits_shrinks(table):
    across = bias_across_n(table).set_index("degree")
    assert across.loc[1, "bias_squared_max_over_min"] < 1.1
    assert across.loc[1, "bias_squared_at_smallest_n"] == pytest.approx(
        table[(table["n"] == 25) & (table["degree"] == 1)]["bias_squared"].iloc[0]
    )
    assert across.loc[5, "bias_squared_at_largest_n"] < across.loc[5, "bias_squared_at_smallest_n"]


def test_the_three_terms_add_up_for_squared_error_and_not_for_zero_one_error():
    from cvsuite.studies.bias_variance import BiasVarianceSettings, fit_samples
    from cvsuite.studies.decomposition_by_loss import decomposition_by_loss

    settings = BiasVarianceSettings((30, 60), (0, 3), 60, 41, 2, 0.3, 1.0)
    table = decomposition_by_loss(fit_samples(settings), 10, 4).set_index(["n", "degree"])
    assert (table["squared_gap"].abs() <= 3 * table["squared_gap_se"] + 1e-12).all()
    assert (table["squared_gap_share"] < 0.02).all()
    # The constant classifier's majority is wrong on about half the range, where its "variance" is
    # right: the three 0-1 terms overshoot the error by far.
    assert (table.loc[(30, 0), "zero_one_gap"] + 3 * table.loc[(30, 0), "zero_one_gap_se"]) < 0
    assert table["zero_one_three_terms"].ge(table["zero_one_noise"]).all()


def test_zero_one_ends_are_read_on_the_same_fresh_responses_as_the_decomposition():
    from cvsuite.studies.bias_variance import BiasVarianceSettings, fit_samples
    from cvsuite.studies.decomposition_by_loss import decomposition_by_loss, zero_one_ends_against_interior

    fits = fit_samples(BiasVarianceSettings((30, 60), (0, 1, 2, 3, 4), 60, 41, 2, 0.3, 1.0))
    by_loss = decomposition_by_loss(fits, 10, 4).set_index(["n", "degree"])
    ends = zero_one_ends_against_interior(fits, 10, 4)
    for row in ends.itertuples():
        top = by_loss.loc[(row.n, row.end_degree), "zero_one_direct"]
        bottom = by_loss.loc[(row.n, row.best_interior_degree), "zero_one_direct"]
        assert row.error_ratio == pytest.approx(top / bottom, rel=1e-12)
        interior = [by_loss.loc[(row.n, d), "zero_one_direct"] for d in (1, 2, 3)]
        assert bottom == min(interior)
    assert list(ends["end"]) == ["most rigid", "most flexible"] * 2


def test_log_loss_terms_add_up_without_spread_and_not_with_it():
    """Read as P(y > 0) = Phi(fit / sigma): fits that all equal the truth lose only the truth's entropy;
    identical fits off the truth add exactly the bias, KL(q || p), so the three terms add up; fits that
    spread do not add up to the three terms defined as for squared error."""
    from cvsuite.studies.decomposition_by_loss import log_loss_terms

    truth, sigma = np.linspace(-1.0, 1.0, 7), 0.5
    exact = log_loss_terms(np.tile(truth, (3, 1)), truth, sigma)
    assert exact["direct"] == pytest.approx(np.full(3, exact["noise"]))
    assert exact["bias"] == pytest.approx(0.0, abs=1e-12) and exact["variance_each"] == pytest.approx(0.0, abs=1e-12)
    shifted = log_loss_terms(np.tile(truth + 0.3, (3, 1)), truth, sigma)
    assert shifted["bias"] > 0 and shifted["variance_each"] == pytest.approx(0.0, abs=1e-12)
    assert shifted["direct"] == pytest.approx(np.full(3, shifted["noise"] + shifted["bias"]))
    spread = log_loss_terms(truth + np.array([[-0.6], [0.0], [0.6]]), truth, sigma)
    gap = spread["direct"].mean() - spread["noise"] - spread["bias"] - spread["variance_each"].mean()
    assert abs(gap) > 1e-3


def test_the_held_out_optimum_shift_chooses_on_one_half_and_scores_on_the_other():
    from cvsuite.studies.bias_variance import BiasVarianceSettings, fit_samples, optimum_shift_held_out

    fits = fit_samples(BiasVarianceSettings((30, 60), (0, 4), 12, 41, 2, 0.3, 1.0))
    table = optimum_shift_held_out(fits)
    errors = {n: fits.excess_errors(n) + fits.noise**2 for n in fits.sizes}
    chosen = {n: int(fits.degrees[np.argmin(e[:, :6].mean(axis=1))]) for n, e in errors.items()}
    first = table.iloc[0]
    assert sorted((chosen[first.n], chosen[first.larger_n])) == [first.less_flexible_degree, first.more_flexible_degree]
    top, bottom = first.more_flexible_degree, first.less_flexible_degree
    held_out = errors[first.at_n][:, 6:]
    index = list(fits.degrees)
    expected = np.log(held_out[index.index(top)].mean() / held_out[index.index(bottom)].mean())
    assert first.log_error_ratio == pytest.approx(expected) and first.samples_scored == 6


def test_the_opposite_margin_is_the_weaker_move_signed_by_whether_the_two_go_opposite_ways():
    from cvsuite.studies.bias_variance import opposite_margin

    assert opposite_margin(-0.4, 0.1, 0.3, 0.1) == pytest.approx(3.0)  # bias falls 4 SE, variance rises 3
    assert opposite_margin(-0.4, 0.1, -0.9, 0.1) == pytest.approx(-4.0)  # both fall: the weaker is 4 SE
    assert opposite_margin(0.05, 0.1, 0.9, 0.1) == pytest.approx(-0.5)  # a bias that barely moves decides
