import numpy as np
from twelve_points_cases import X, noisy_table

from cvsuite.methods.table_symmetries import align_to, closest_to_line, line_complement_basis, line_part, table_class


def test_the_line_complement_is_orthonormal_and_orthogonal_to_every_line():
    basis = line_complement_basis(X)
    assert basis.shape == (12, 10)
    assert np.allclose(basis.T @ basis, np.eye(10))
    assert np.allclose(basis.T @ np.ones(12), 0) and np.allclose(basis.T @ X, 0)


def test_line_part_is_the_least_squares_line():
    y = noisy_table(1)
    assert np.allclose(line_part(y, X), np.polyval(np.polyfit(X, y, 1), X))


def test_table_class_ignores_lines_and_reflections_only():
    y = noisy_table(11)
    assert table_class(y, X) == table_class(y - 0.2 + 0.1 * X, X) == table_class(4 * X - y, X)
    other = y.copy()
    other[3] += 0.05
    assert table_class(other, X) != table_class(y, X)


def test_closest_to_line_picks_the_lattice_member_nearest_the_reference_line():
    y = noisy_table(12, decimals=1)
    far = np.round(y + 0.3 + 0.1 * X, 1)
    chosen = closest_to_line(far, X, 2.0, decimals=1)
    assert table_class(chosen, X) == table_class(y, X)
    assert np.allclose(chosen * 10, np.round(chosen * 10))
    distance = np.sum((line_part(chosen, X) - 2 * X) ** 2)
    assert distance <= np.sum((line_part(y, X) - 2 * X) ** 2) + 1e-12
    deviation = chosen - 2 * X
    assert deviation[np.abs(deviation) > 0.05][0] > 0  # of the mirror pair, the one starting above y = 2x


def test_align_to_puts_a_mirrored_shifted_table_back_on_the_reference():
    y = noisy_table(14)
    assert np.allclose(align_to(4 * X - y + 0.5, y, X)[0], y)
