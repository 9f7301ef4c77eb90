"""What the fold statistics cannot see of a table: a line, and a reflection about it.

"Estimating Out-of-Sample Error", worked example: both models contain the straight line, so adding
any a + b x to y changes no residual and no statistic, and y -> -y changes none either (every
statistic is a quadratic form). So printed statistics can only ever determine y up to a line and a
reflection: a search for tables runs in the (n - 2)-dimensional complement of span{1, x}
(``line_complement_basis``), tables that differ by a line and a sign are one class
(``table_class``), and a class is written by one chosen member (``closest_to_line``, ``align_to``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np


def line_complement_basis(x) -> np.ndarray:
    """An orthonormal basis (n x (n - 2)) of the vectors orthogonal to 1 and x: the only part of y
    the statistics can see."""
    x = np.asarray(x, dtype=float)
    q, _ = np.linalg.qr(np.column_stack([np.ones_like(x), x]), mode="complete")
    return q[:, 2:]


def line_part(y, x) -> np.ndarray:
    """The least-squares line through (x, y), evaluated at x: the part of y no statistic sees."""
    x = np.asarray(x, dtype=float)
    design = np.column_stack([np.ones_like(x), x])
    return design @ np.linalg.lstsq(design, np.asarray(y, dtype=float), rcond=None)[0]


def align_to(tables, reference, x) -> np.ndarray:
    """Tables moved onto the reference's line and reflected to its side (the statistics cannot tell):
    y -> line(reference) +/- (y - line(y)), the sign that agrees with the reference's residuals."""
    x = np.asarray(x, dtype=float)
    reference = np.asarray(reference, dtype=float)
    ref_line = line_part(reference, x)
    ref_resid = reference - ref_line
    tables = np.atleast_2d(tables)
    resid = tables - np.array([line_part(t, x) for t in tables])
    signs = np.where(resid @ ref_resid >= 0, 1.0, -1.0)
    return ref_line + signs[:, None] * resid


def table_class(table, x) -> tuple:
    """What the statistics can see of a table: its residuals from its own least-squares line, up to
    sign (the first residual larger than 1e-6 made positive), to 6 decimals. Two tables with the same
    class reproduce exactly the same figures."""
    resid = np.asarray(table, dtype=float) - line_part(table, x)
    big = np.flatnonzero(np.abs(resid) > 1e-6)
    if big.size and resid[big[0]] < 0:
        resid = -resid
    return tuple(float(v) for v in np.round(resid, 6) + 0.0)


def closest_to_line(table, x, slope: float, decimals: int) -> np.ndarray:
    """Among the tables the statistics cannot tell from ``table`` and written with the same decimals
    (y + a + b x with a, b multiples of 10^-decimals, and the reflections about y = slope x), the one
    whose own least-squares line is closest to y = slope x (sum of squares over the x values).

    Reflection about y = slope x keeps that distance, so the two tie: the one whose first
    deviation from slope x that is not zero is positive is taken (an arbitrary, stated choice).
    """
    x = np.asarray(x, dtype=float)
    step = 10.0**-decimals
    table = np.asarray(table, dtype=float)
    design = np.column_stack([np.ones_like(x), x])
    intercept, gradient = np.linalg.lstsq(design, table - slope * x, rcond=None)[0]
    best, best_distance = None, np.inf
    for i0 in (math.floor(-intercept / step), math.ceil(-intercept / step)):
        for j0 in (math.floor(-gradient / step), math.ceil(-gradient / step)):
            for di, dj in itertools.product(range(-2, 3), repeat=2):
                a, b = (i0 + di) * step, (j0 + dj) * step
                candidate = np.round(table + a + b * x, decimals)
                distance = distance_from_line(candidate, x, slope)
                if distance < best_distance - 1e-12:
                    best, best_distance = candidate, distance
    mirror = np.round(2 * slope * x - best, decimals)
    deviation = best - slope * x
    first = deviation[np.flatnonzero(np.abs(deviation) > step / 2)]
    return best if first.size == 0 or first[0] > 0 else mirror


def distance_from_line(table, x, slope: float) -> float:
    """Sum of squares, over the x values, between the table's least-squares line and y = slope x."""
    return float(np.sum((line_part(table, x) - slope * np.asarray(x, dtype=float)) ** 2))
