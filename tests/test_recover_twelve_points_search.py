import math

import numpy as np
import pytest
from twelve_points_cases import DESIGN, MSE, X, noisy_table, printed_from

from cvsuite.methods.fold_statistics import statistic_values
from cvsuite.methods.printed_targets import misses_in_printed_units
from cvsuite.methods.table_symmetries import line_complement_basis, table_class
from cvsuite.studies.recover_twelve_points_search import (
    SearchObjective,
    broad_starts,
    lattice_neighbours,
    local_starts_and_aims,
    search_tables,
    short_decimal_tables,
    spread_over_solutions,
)


def test_search_objective_jacobian_matches_finite_differences():
    targets = printed_from(noisy_table(4))
    basis = line_complement_basis(X)
    forms_z = np.einsum("ia,mkij,jb->mkab", basis, DESIGN.forms(), basis)
    objective = SearchObjective(DESIGN, MSE, targets.names, forms_z)
    z = 0.3 * np.random.default_rng(5).standard_normal(10)
    jac = objective.jacobian(z, targets.values, targets.units)
    numeric = np.zeros_like(jac)
    for k in range(10):
        step = np.zeros(10)
        step[k] = 1e-6
        numeric[:, k] = (
            objective.misses(z + step, targets.values, targets.units)
            - objective.misses(z - step, targets.values, targets.units)
        ) / 2e-6
    assert np.allclose(jac, numeric, rtol=1e-5, atol=1e-3)
    # Its misses are those of the table y = 2x + basis z, signed.
    y = 2 * X + basis @ z
    misses = objective.misses(z, targets.values, targets.units)
    expected = misses_in_printed_units(statistic_values(y[None, :], targets.names, DESIGN, MSE), targets)[0]
    assert np.allclose(np.abs(misses), expected)


def test_search_from_near_a_table_finds_tables_reproducing_its_figures():
    y = noisy_table(7)
    targets = printed_from(y)
    starts, aims = local_starts_and_aims(y, DESIGN, targets, count=6, seed=0, start_sd=0.02)
    result = search_tables(DESIGN, MSE, targets, 2.0, starts, aims=aims)
    assert result.consistent.sum() >= 3
    values = statistic_values(result.consistent_tables, targets.names, DESIGN, MSE)
    assert all(f"{v:.4f}" == text for row in values for v, text in zip(row, targets.texts))
    assert np.allclose(np.polyfit(X, result.tables.T - 2 * X[:, None], 1), 0, atol=1e-9)  # on y = 2x's line


def test_a_search_without_starts_finds_nothing():
    result = search_tables(DESIGN, MSE, printed_from(noisy_table(7)), 2.0, np.empty((0, 10)))
    assert result.tables.shape == (0, 12) and not result.consistent.any()


def test_broad_starts_are_noise_at_the_printed_training_errors_scale_off_the_line():
    targets = printed_from(noisy_table(9))
    starts = broad_starts(DESIGN, targets, 8, seed=3)
    # Draw order: one standard_normal((count, n)); scale sqrt(e n / (n - 2)) from the printed line training error.
    noise = np.random.default_rng(3).standard_normal((8, 12))
    scale = math.sqrt(float(targets.texts[0]) * 12 / 10)
    off_the_line = noise - np.array([np.polyval(np.polyfit(X, row, 1), X) for row in noise])
    assert np.allclose(starts @ line_complement_basis(X).T, scale * off_the_line)


def test_local_starts_and_aims_follow_their_draw_order():
    y = noisy_table(9)
    targets = printed_from(y)
    starts, aims = local_starts_and_aims(y, DESIGN, targets, count=5, seed=2, start_sd=0.05)
    rng = np.random.default_rng(2)
    offsets = 0.05 * rng.standard_normal((5, 12))
    basis = line_complement_basis(X)
    assert np.allclose(starts, (y + offsets) @ basis)
    assert np.array_equal(aims, targets.values + rng.uniform(-0.5, 0.5, (5, 12)) * targets.units)


def test_lattice_search_undoes_an_unknown_line_and_finds_the_short_table():
    y = noisy_table(10, decimals=1)
    targets = printed_from(y)
    disguised = y + 0.0337 + 0.0123 * X  # same statistics, off the 0.1 lattice
    found = short_decimal_tables(disguised[None, :], DESIGN, MSE, targets, 2.0, decimals=1)
    assert len(found) == 1
    best = found.filter(like="y_").to_numpy()[0]
    assert table_class(best, X) == table_class(y, X)
    assert np.allclose(best * 10, np.round(best * 10))


def test_every_neighbouring_lattice_move_is_tried():
    y = noisy_table(13, decimals=2)
    result = lattice_neighbours(y, DESIGN, MSE, printed_from(y), decimals=2)
    assert result["neighbours_tried"] == 2 * 12 + 4 * 66  # one coordinate +/-, or two with each sign pair
    assert result["closest_neighbour_largest_miss_printed_units"] > 0.5  # 0.01 moves y far past 4 decimals


def test_spread_measures_what_the_statistics_can_see():
    y = noisy_table(15)
    bump = np.zeros(12)
    bump[3] = 0.1
    seen = bump - np.polyval(np.polyfit(X, bump, 1), X)  # a line added to a table is invisible
    tables = np.array([y, 4 * X - y + 0.5, y + bump + 0.2 - 0.03 * X])
    spread = spread_over_solutions(tables, y, X)
    assert np.allclose(spread["y_max"] - spread["y_min"], np.abs(seen))
    assert spread["y_sd"].to_numpy() == pytest.approx(np.std([np.zeros(12), np.zeros(12), seen], axis=0, ddof=1))
