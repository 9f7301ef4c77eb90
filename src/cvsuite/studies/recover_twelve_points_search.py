"""Searching for tables whose statistics read as printed: the inverse problem of a lost table.

"Estimating Out-of-Sample Error" prints the statistics of its twelve-point worked example but not
the y values. A table y = slope x + basis z (z in the line complement, ``table_symmetries``)
reproduces the printed figures when every recomputed statistic reads as printed. This module solves
for such tables from many starts (``search_tables``: deterministic local least-squares solves on the
misses in printed units), draws the starts (``broad_starts``, ``local_starts_and_aims``), looks for
short-decimal tables near the continuous solutions (``short_decimal_tables``, ``lattice_neighbours``),
and measures how far apart the solutions lie (``spread_over_solutions``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import (
    DIFFERENCE,
    FLAT_PARTS,
    PLAIN,
    RATIO,
    Convention,
    Design,
    flat_statistics,
    statistic_plan,
    statistic_values,
    statistics_from_sums,
)
from cvsuite.methods.printed_targets import PrintedTargets, misses_in_printed_units, reads_as_printed
from cvsuite.methods.table_symmetries import (
    align_to,
    closest_to_line,
    distance_from_line,
    line_complement_basis,
    table_class,
)


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a multi-start search: every start's end point and largest miss."""

    tables: np.ndarray  # (starts, n) end points, y = slope x + basis z
    largest_miss: np.ndarray  # (starts,) largest |recomputed - printed| in printed units
    consistent: np.ndarray  # (starts,) every figure reads as printed

    @property
    def consistent_tables(self) -> np.ndarray:
        return self.tables[self.consistent]


class SearchObjective:
    """Misses (recomputed - aim) / scale of the named statistics at z, and their Jacobian, for the
    table y = slope x + basis z; one evaluation serves both (the optimiser asks for them apart).

    The same arithmetic as ``statistic_values``, laid out as small matrix products for speed: the
    training errors, fold errors and CVs are linear in the sums of squares, the fold s.d. is the
    norm of the centred fold errors, and each named statistic is a plain value, a difference or a
    ratio of those. ``forms_z`` are the sum-of-squares forms in z coordinates (basis' A basis).
    """

    def __init__(self, design: Design, convention: Convention, names, forms_z):
        m_count, parts, dim, _ = forms_z.shape
        k = parts - 1
        self.forms_z = forms_z.reshape(m_count * parts, dim, dim)
        # Linear part: q (M (1 + K)) -> the flat layout of ``flat_statistics``; its sd and se rows are
        # not linear in q and are overwritten at each evaluation.
        probe = np.eye(m_count * parts).reshape(m_count * parts, m_count, parts)
        stats = statistics_from_sums(probe, design, convention)
        self.linear = flat_statistics(stats, (m_count * parts,)).T  # (nb, M (1 + K))
        centred = stats["folds"] - stats["folds"].mean(axis=-1, keepdims=True)  # (M(1+K), M, K)
        self.centring = np.transpose(centred, (1, 2, 0))  # (M, K, M (1 + K))
        self.sd_rows = FLAT_PARTS.index("sd") * m_count + np.arange(m_count)
        self.se_rows = FLAT_PARTS.index("se") * m_count + np.arange(m_count)
        self.sd_den, self.root_k = k - convention.fold_sd_ddof, math.sqrt(k)
        kind, i, j = statistic_plan(names, design)
        nb = self.linear.shape[0]
        self.numerator = np.eye(nb)[i] - np.where((kind == DIFFERENCE)[:, None], np.eye(nb)[j], 0.0)
        self.denominator = np.where((kind == RATIO)[:, None], np.eye(nb)[j], 0.0)
        self.denominator_offset = np.where(kind == RATIO, 0.0, 1.0)
        self.plain = kind == PLAIN
        self._z = None

    def _evaluate(self, z):
        if self._z is None or not (z == self._z).all():  # np.array_equal, for two points of one shape
            half = self.forms_z @ z  # (M (1 + K), D)
            q, dq = half @ z, 2.0 * half
            b, db = self.linear @ q, self.linear @ dq
            centred, d_centred = self.centring @ q, self.centring @ dq  # (M, K), (M, K, D)
            sd = np.sqrt((centred**2).sum(axis=1) / self.sd_den)
            d_sd = np.einsum("mk,mkd->md", centred, d_centred) / (self.sd_den * np.maximum(sd, 1e-300)[:, None])
            b[self.sd_rows], db[self.sd_rows] = sd, d_sd
            b[self.se_rows], db[self.se_rows] = sd / self.root_k, d_sd / self.root_k
            num, d_num = self.numerator @ b, self.numerator @ db
            den, d_den = self.denominator @ b + self.denominator_offset, self.denominator @ db
            self._values = num / den
            # The quotient rule, (d_num den - num d_den) / den^2, in place.
            grads = d_num * den[:, None]
            grads -= num[:, None] * d_den
            grads /= (den**2)[:, None]
            self._grads = grads
            self._z = np.array(z)
        return self._values, self._grads

    def misses(self, z, aim, scale):
        return (self._evaluate(z)[0] - aim) / scale

    def jacobian(self, z, aim, scale):
        return self._evaluate(z)[1] / scale[:, None]


def solve_from(z0, objective: SearchObjective, targets: PrintedTargets, *, aim=None, relative_first: bool = True):
    """One deterministic local solve from ``z0``, in two runs of scipy's ``least_squares`` (trust
    region reflective, exact trust-region solves, analytic Jacobian): first on the relative misses
    of the directly printed statistics alone (a smoother landscape: more starts reach a solution than
    when the differences and ratios pull too), at most 40 evaluations; then on the misses of all of
    them in printed units (what must end below 0.5), at most 20 more.

    Why not Levenberg-Marquardt (``method="lm"``, MINPACK), which is faster: its internal linear
    algebra runs in work arrays whose memory alignment changes from run to run, so its steps differ
    in the last bits and, over a search with many starts, some solves end elsewhere on the set of
    solutions; "trf" gives the same bytes on every run (with one BLAS thread, as every job has).

    ``aim`` replaces the printed values as the point aimed at (to sample inside the printed precision);
    ``relative_first=False`` skips the first run (for starts already near a solution).
    """
    # Imported here: the study twelve_points imports this module's neighbours but never solves, and
    # should not pay for importing scipy.optimize.
    from scipy.optimize import least_squares

    aim = targets.values if aim is None else np.asarray(aim, dtype=float)
    relative = np.where(objective.plain & (aim != 0), np.abs(aim), np.inf)

    def run(z, scale, evaluations):
        return least_squares(
            objective.misses,
            z,
            jac=objective.jacobian,
            args=(aim, scale),
            method="trf",
            tr_solver="exact",
            xtol=1e-12,
            ftol=1e-12,
            gtol=1e-12,
            max_nfev=evaluations,
        ).x

    z = np.asarray(z0, dtype=float)
    return run(run(z, relative, 40) if relative_first else z, targets.units, 20)


def search_tables(
    design: Design,
    convention: Convention,
    targets: PrintedTargets,
    slope: float,
    starts: np.ndarray,
    *,
    aims: np.ndarray | None = None,
    relative_first: bool = True,
) -> SearchResult:
    """Solve from each start (rows of ``starts``, points in the line complement) with ``solve_from``
    and judge each end point: y = slope x + basis z, recomputed and compared with the printed figures.
    Row s of ``aims``, if given, is the point start s aims at instead of the printed values."""
    if len(starts) == 0:
        return SearchResult(np.empty((0, design.n)), np.empty(0), np.zeros(0, dtype=bool))
    basis = line_complement_basis(design.x)
    forms = design.forms()
    objective = SearchObjective(design, convention, targets.names, np.einsum("ia,mkij,jb->mkab", basis, forms, basis))
    ends = np.array(
        [
            solve_from(z0, objective, targets, aim=None if aims is None else aims[i], relative_first=relative_first)
            for i, z0 in enumerate(starts)
        ]
    )
    tables = slope * design.x + ends @ basis.T
    values = statistic_values(tables, targets.names, design, convention, forms)
    misses = misses_in_printed_units(values, targets)
    return SearchResult(tables, misses.max(axis=1), reads_as_printed(values, targets).all(axis=1))


def broad_starts(design: Design, targets: PrintedTargets, count: int, seed: int) -> np.ndarray:
    """Deterministic starting points: y = slope x + noise, projected on the line complement.

    Draw order: one ``default_rng(seed).standard_normal((count, n))``, row s for start s, observation
    order x = 1..n; scaled by the line's residual s.d. implied by the printed line training error
    (sqrt(e n / (n - 2))), so the starts have about the right size.
    """
    line_training_error = dict(zip(targets.names, targets.values)).get("line_training_error", 0.1)
    scale = math.sqrt(line_training_error * design.n / (design.n - 2))
    noise = np.random.default_rng(seed).standard_normal((count, design.n))
    return scale * noise @ line_complement_basis(design.x)


def local_starts_and_aims(table, design: Design, targets: PrintedTargets, *, count: int, seed: int, start_sd: float):
    """Starts near a consistent table and aims spread over the printed precision, for sampling the
    consistent set around it.

    Draw order from ``default_rng(seed)``: first ``standard_normal((count, n))`` (start offsets,
    scaled by ``start_sd``, projected on the line complement), then ``uniform(-0.5, 0.5, (count, S))``
    (each aim = printed value + that many units of its last digit).
    """
    rng = np.random.default_rng(seed)
    basis = line_complement_basis(design.x)
    z_table = basis.T @ np.asarray(table, dtype=float)
    starts = z_table + start_sd * rng.standard_normal((count, design.n)) @ basis
    aims = targets.values + rng.uniform(-0.5, 0.5, (count, len(targets.names))) * targets.units
    return starts, aims


# ----------------------------------------------------------------------------------------------
# Short-decimal tables near the continuous solutions


def short_decimal_tables(
    solutions,
    design: Design,
    convention: Convention,
    targets: PrintedTargets,
    slope: float,
    *,
    decimals: int,
    gauge_steps: int = 5,
) -> pd.DataFrame:
    """Tables written with ``decimals`` decimals that reproduce every printed figure, found by
    rounding consistent continuous solutions.

    A lattice table y* is found from a solution y_c when y_c + a + b (x - centre), for the right a and
    b, lies within half a lattice step of y* in every coordinate; a and b run over a grid of
    ``gauge_steps`` values across one lattice step (b scaled by the half-width of x), so the grid
    itself costs at most about 0.2 of a step. Found tables are grouped into classes (equal up to a
    line and a reflection) and each class written as its ``closest_to_line`` member.

    Returns one row per class: its y values, how many rounded candidates hit it, and its distance
    from y = slope x.
    """
    x = design.x
    step = 10.0**-decimals
    centre, half = (x.max() + x.min()) / 2, (x.max() - x.min()) / 2
    a_grid = np.arange(gauge_steps) / gauge_steps * step
    b_count = math.ceil(gauge_steps * half)
    b_grid = np.arange(b_count) / b_count * step
    shifts = np.array([a + b * (x - centre) for a in a_grid for b in b_grid])
    solutions = np.atleast_2d(solutions)
    candidates = np.round((solutions[:, None, :] + shifts[None, :, :]).reshape(-1, design.n), decimals)
    candidates, hits = np.unique(candidates, axis=0, return_counts=True)
    values = statistic_values(candidates, targets.names, design, convention)
    screened = (misses_in_printed_units(values, targets) <= 0.5 + 1e-9).all(axis=1)
    good = np.flatnonzero(screened)
    good = good[reads_as_printed(values[good], targets).all(axis=1)] if good.size else good
    classes: dict[tuple, dict] = {}
    for i in good:
        entry = classes.setdefault(table_class(candidates[i], x), {"member": candidates[i], "hits": 0})
        entry["hits"] += int(hits[i])
    rows = []
    for key, entry in classes.items():
        representative = closest_to_line(entry["member"], x, slope, decimals)
        rows.append(
            {
                "decimals": decimals,
                "candidates_hit": entry["hits"],
                "class_key": " ".join(f"{v:.6f}" for v in key),
                "line_distance": distance_from_line(representative, x, slope),
                **{f"y_{j + 1}": float(v) for j, v in enumerate(representative)},
            }
        )
    columns = ["decimals", "candidates_hit", "class_key", "line_distance"] + [f"y_{j + 1}" for j in range(design.n)]
    table = pd.DataFrame(rows, columns=columns)
    return table.sort_values(["line_distance", "candidates_hit"], ascending=[True, False], kind="stable").reset_index(
        drop=True
    )


def lattice_neighbours(
    table, design: Design, convention: Convention, targets: PrintedTargets, *, decimals: int
) -> dict:
    """How many tables one or two lattice steps (10^-decimals) away from ``table`` also reproduce
    every printed figure: every single-coordinate move (+/- one step) and every pair of moves."""
    step = 10.0**-decimals
    n = design.n
    moves = []
    for i in range(n):
        for s in (-1, 1):
            m = np.zeros(n)
            m[i] = s * step
            moves.append(m)
    for i, j in itertools.combinations(range(n), 2):
        for si, sj in itertools.product((-1, 1), repeat=2):
            m = np.zeros(n)
            m[i], m[j] = si * step, sj * step
            moves.append(m)
    candidates = np.round(np.asarray(table, dtype=float) + np.array(moves), decimals)
    values = statistic_values(candidates, targets.names, design, convention)
    consistent = reads_as_printed(values, targets).all(axis=1)
    return {
        "decimals": decimals,
        "step": step,
        "neighbours_tried": len(moves),
        "neighbours_consistent": int(consistent.sum()),
        "closest_neighbour_largest_miss_printed_units": float(
            misses_in_printed_units(values, targets).max(axis=1).min()
        ),
    }


def spread_over_solutions(tables, reference, x) -> pd.DataFrame:
    """Per observation: the s.d., min and max over ``tables`` once aligned to the reference's line
    and side (``align_to``)."""
    aligned = align_to(tables, reference, x)
    return pd.DataFrame(
        {
            "y_sd": aligned.std(axis=0, ddof=1) if len(aligned) > 1 else np.zeros(len(reference)),
            "y_min": aligned.min(axis=0),
            "y_max": aligned.max(axis=0),
        }
    )
