"""The lost table of "Estimating Out-of-Sample Error"'s worked example, recovered from its printed statistics.

The worked example after "Checks" prints the statistics of twelve observations (x = 1..12, "close
to y = 2x"; a line and a degree-5 polynomial, four folds by position) but not the observations.
``search_for_table`` treats the table as an inverse problem:

1. settle the conventions (``screen_conventions``): rule out by arithmetic what the printed
   summaries alone forbid, search the rest from the same deterministic starts, and keep the
   convention some start reproduces every printed figure under (``settled_convention``);
2. search broadly under it, and prefer the simplest table: the fewest decimals, then the one whose
   own line is closest to y = slope x (``short_tables``, ``pick_table``);
3. solve again from near that table, aiming anywhere inside the printed precision, to measure how
   far apart consistent tables lie; and check the lattice neighbours of the table found.

The statistics determine y only up to a line and a reflection (``cvsuite.methods.table_symmetries``),
so the table is written with its mirror (``recovery_tables``), and every table says that it was
recovered, not given.
The printed figures aimed at are passed in (``PrintedTargets``); the published numbers are never read here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import Convention, Design, statistic_values
from cvsuite.methods.printed_targets import PrintedTargets, arithmetic_problems, printed_check
from cvsuite.methods.table_symmetries import align_to, line_complement_basis
from cvsuite.studies.recover_twelve_points_search import (
    SearchResult,
    broad_starts,
    lattice_neighbours,
    local_starts_and_aims,
    search_tables,
    short_decimal_tables,
    spread_over_solutions,
)

RECOVERED_NOTE = (
    "recovered from the statistics printed in 'Estimating Out-of-Sample Error' (worked example) "
    "by recover_twelve_points; the document does not give these values"
)
RULED_OUT_BY_ARITHMETIC = "ruled out by arithmetic"


def screen_conventions(
    design: Design, conventions, targets: PrintedTargets, slope: float, starts: np.ndarray
) -> tuple[pd.DataFrame, dict[str, SearchResult]]:
    """Each convention: ruled out by arithmetic (``arithmetic_problems``), or searched from the
    same starts; consistent if any start ends at a table reading every figure as printed.

    A convention that gives the same figures (to 1e-12 relative) as an earlier one on every start (pooled CV
    and the mean of fold means, over equal folds) is not searched again: it shares that outcome.
    Returns the screen table and, per convention label, the SearchResult of those searched.
    """
    basis = line_complement_basis(design.x)
    probe = slope * design.x + starts @ basis.T
    rows, searches, fingerprints = [], {}, []
    for convention in conventions:
        problems = arithmetic_problems(targets, design, convention)
        row = {
            "fold_error": convention.fold_error,
            "cv": convention.cv,
            "fold_sd_ddof": convention.fold_sd_ddof,
            "training_error": convention.training_error,
            "label": convention.label,
            "arithmetic": "; ".join(problems) if problems else "possible",
            "same_figures_as": "",
            "starts_searched": 0,
            "consistent_solutions": 0,
            "best_largest_miss_printed_units": np.nan,
        }
        fingerprint = statistic_values(probe, targets.names, design, convention)
        twin = next((label for label, seen in fingerprints if np.allclose(seen, fingerprint, rtol=1e-12, atol=0)), None)
        fingerprints.append((convention.label, fingerprint))
        if not problems:
            if twin is not None and twin in searches:
                result = searches[twin]
                row["same_figures_as"] = twin
            else:
                result = search_tables(design, convention, targets, slope, starts)
            searches[convention.label] = result
            row.update(
                starts_searched=len(starts),
                consistent_solutions=int(result.consistent.sum()),
                best_largest_miss_printed_units=float(result.largest_miss.min()),
            )
        if problems:
            row["screen_outcome"] = RULED_OUT_BY_ARITHMETIC
        elif row["consistent_solutions"]:
            row["screen_outcome"] = "consistent"
        else:
            row["screen_outcome"] = "ruled out by search"
        rows.append(row)
    return pd.DataFrame(rows), searches


def settled_convention(screen: pd.DataFrame) -> Convention:
    """The first consistent convention of a screen (``screen_conventions``).

    Any other consistent one must give the very same figures (pooled CV with mean fold errors over
    equal folds is the mean of the fold errors); two conventions that differ and both fit would
    leave the question open, and stop the study.
    """
    consistent = screen[screen["screen_outcome"] == "consistent"]
    if consistent.empty:
        raise RuntimeError("no convention admits a table reproducing the printed figures:\n" + screen.to_string())
    row = consistent.iloc[0]
    first = Convention(row["fold_error"], row["cv"], int(row["fold_sd_ddof"]), row["training_error"])
    for _, other in consistent.iloc[1:].iterrows():
        if other["same_figures_as"] != first.label:
            raise RuntimeError(
                f"two conventions with different figures are both consistent: {first.label} and {other['label']}"
            )
    return first


def short_tables(
    solutions, design: Design, convention: Convention, targets: PrintedTargets, *, slope: float, decimals_list
) -> pd.DataFrame:
    """Short-decimal tables found from the solutions, one row per class (tables the statistics cannot
    tell apart), listed at the fewest decimals it was found with, then closest to y = slope x."""
    found, seen = [], set()
    for d in sorted(decimals_list):
        tables = short_decimal_tables(solutions, design, convention, targets, slope, decimals=d)
        tables = tables[~tables["class_key"].isin(seen)]
        seen |= set(tables["class_key"])
        found.append(tables)
    return pd.concat(found, ignore_index=True)


def pick_table(found: pd.DataFrame, fallback: np.ndarray) -> np.ndarray:
    """The simplest table found (first row), else the continuous solution given."""
    if len(found):
        return found.iloc[0].filter(like="y_").to_numpy(dtype=float)
    return np.asarray(fallback, dtype=float)


def recovered_table(table, design: Design, slope: float, decimals: int | None) -> pd.DataFrame:
    """The recovered y per observation, with its fold, its deviation from y = slope x, and its mirror
    about that line (which reproduces every printed figure equally), each row marked as recovered."""
    mirror = 2 * slope * design.x - table
    if decimals is not None:
        mirror = np.round(mirror, decimals)
    return pd.DataFrame(
        {
            "observation": np.arange(1, design.n + 1),
            "x": design.x,
            "y": table,
            "fold": design.fold_numbers,
            "y_minus_slope_x": table - slope * design.x,
            "y_mirror": mirror,
            "provenance": RECOVERED_NOTE,
        }
    )


def recovered_y(recovered: pd.DataFrame, design: Design, source: str = "the recovered table") -> np.ndarray:
    """The y column of a ``recovered_table``, refused unless its x are the design's (1..n, in order)."""
    if not np.array_equal(recovered["x"].to_numpy(dtype=float), design.x):
        raise ValueError(f"{source}: x is not 1..{design.n}; the recovered table does not match the design")
    return recovered["y"].to_numpy(dtype=float)


def solutions_table(broad, local, table, x) -> pd.DataFrame:
    """Every consistent continuous solution, moved onto the recovered table's line and side."""
    rows = []
    for source, tables in (("broad", broad), ("local", local)):
        aligned = align_to(tables, table, x)
        for s, ys in enumerate(aligned):
            rows += [
                {"source": source, "solution": s + 1, "observation": i + 1, "x": x[i], "y": ys[i]}
                for i in range(len(x))
            ]
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class SearchPlan:
    """How the recovery searches (the config block recover_twelve_points, less the printed figures and
    the conventions): ``starts`` broad starts (``broad_starts`` with ``start_seed``), of which the
    first ``screen_starts`` screen the conventions; ``local_solutions`` solves near the table found
    (``local_starts_and_aims`` with ``local_seed`` and ``local_start_sd``); short tables tried with
    each of ``short_decimals`` decimals."""

    starts: int
    screen_starts: int
    start_seed: int
    local_solutions: int
    local_seed: int
    local_start_sd: float
    short_decimals: tuple[int, ...]

    def __post_init__(self):
        object.__setattr__(self, "short_decimals", tuple(self.short_decimals))  # config gives a list
        if self.screen_starts > self.starts:
            raise ValueError(
                f"screen_starts = {self.screen_starts} is above starts = {self.starts} "
                "(the screen's starts are the first rows of the full search's)"
            )


@dataclass(frozen=True)
class Recovery:
    """What the search found: the convention screen, the consistent tables, and the table chosen."""

    plan: SearchPlan
    slope: float  # the reference line y = slope x of the starts and of the simplest table
    screen: pd.DataFrame  # one row per convention (``screen_conventions``), re-searched from the table
    convention: Convention  # the settled convention
    broad: np.ndarray  # (solutions, n) consistent tables reached from the broad starts
    local: SearchResult  # the solves started near the chosen table
    short_tables: pd.DataFrame  # short-decimal tables found (``short_tables``)
    table: np.ndarray  # the chosen table: the first short table, else a continuous solution
    decimals: int | None  # its decimals, None for a continuous solution


def search_for_table(
    design: Design, targets: PrintedTargets, conventions: list[Convention], plan: SearchPlan, slope: float
) -> Recovery:
    """Steps 1-3 of the module's docstring, with the starts and solves of ``plan``."""
    short_decimals = plan.short_decimals
    # 1. Which conventions admit a table at all.
    all_starts = broad_starts(design, targets, plan.starts, plan.start_seed)
    screen, searches = screen_conventions(design, conventions, targets, slope, all_starts[: plan.screen_starts])
    settled = settled_convention(screen)

    # 2. The full search under the settled convention (the screen's starts come first, reused).
    first = searches[settled.label]
    rest = search_tables(design, settled, targets, slope, all_starts[plan.screen_starts :])
    broad = np.vstack([first.consistent_tables, rest.consistent_tables])
    if len(broad) == 0:
        raise RuntimeError(f"no start reached a consistent table under {settled.label}")
    found = short_tables(broad, design, settled, targets, slope=slope, decimals_list=short_decimals)
    reference = pick_table(found, broad[0])

    # 3. Spread: solves near the reference aiming anywhere inside the printed precision.
    local_starts, aims = local_starts_and_aims(
        reference, design, targets, count=plan.local_solutions, seed=plan.local_seed, start_sd=plan.local_start_sd
    )
    local = search_tables(design, settled, targets, slope, local_starts, aims=aims, relative_first=False)
    found = short_tables(
        np.vstack([broad, local.consistent_tables]), design, settled, targets, slope=slope, decimals_list=short_decimals
    )
    table = pick_table(found, reference)

    # The conventions the search ruled out, searched once more from the recovered table itself:
    # a table consistent with them, if there were one, would have to be reached from here too.
    z_table = (line_complement_basis(design.x).T @ table)[None, :]
    screen["largest_miss_from_recovered_table_printed_units"] = [
        float(search_tables(design, c, targets, slope, z_table, relative_first=False).largest_miss[0])
        if outcome != RULED_OUT_BY_ARITHMETIC
        else np.nan
        for c, outcome in zip(conventions, screen["screen_outcome"])
    ]
    decimals = int(found.iloc[0]["decimals"]) if len(found) else None
    return Recovery(plan, slope, screen, settled, broad, local, found, table, decimals)


def recovery_tables(recovery: Recovery, design: Design, targets: PrintedTargets) -> dict[str, pd.DataFrame]:
    """The study's tables of a recovery, by name: recovered_table, conventions, printed_check,
    short_decimal_tables, spread, lattice_neighbours, solutions, summary. Refuses a table that does
    not reproduce every printed figure."""
    table, settled, found = recovery.table, recovery.convention, recovery.short_tables
    slope, short_decimals, starts = recovery.slope, recovery.plan.short_decimals, recovery.plan.starts
    check = printed_check(table, design, settled, targets)
    if not check["reads_the_same"].all():
        raise RuntimeError("the recovered table does not reproduce every printed figure:\n" + check.to_string())
    local_spread = spread_over_solutions(recovery.local.consistent_tables, table, design.x)
    broad_spread = spread_over_solutions(recovery.broad, table, design.x)
    spread = pd.DataFrame(
        {
            "observation": np.arange(1, design.n + 1),
            "x": design.x,
            "y_recovered": table,
            **{f"local_{c}": local_spread[c] for c in local_spread},
            **{f"broad_{c}": broad_spread[c] for c in broad_spread},
        }
    )
    broad_count = len(recovery.broad)
    summary = {
        "settled_convention": settled.label,
        "fold_error": settled.fold_error,
        "cv": settled.cv,
        "fold_sd_ddof": settled.fold_sd_ddof,
        "training_error": settled.training_error,
        "std_error": "fold s.d. / sqrt(k)",
        "conventions_consistent": int((recovery.screen["screen_outcome"] == "consistent").sum()),
        "broad_starts": starts,
        "broad_consistent": broad_count,
        "broad_success_percent": 100.0 * broad_count / starts,
        "local_solves": len(recovery.local.tables),
        "local_consistent": int(recovery.local.consistent.sum()),
        "table_decimals": recovery.decimals if recovery.decimals is not None else -1,
        **{
            f"short_tables_{d}_decimals": int((found["decimals"] == d).sum()) if len(found) else 0
            for d in short_decimals
        },
        "local_y_sd_max": float(local_spread["y_sd"].max()),
        "local_y_range_max": float((local_spread["y_max"] - local_spread["y_min"]).max()),
        "broad_y_range_max": float((broad_spread["y_max"] - broad_spread["y_min"]).max()),
        "printed_figures": len(check),
        "closest_printed_margin_printed_units": float(0.5 - check["miss_in_printed_units"].max()),
        "provenance": RECOVERED_NOTE,
    }
    neighbours = [lattice_neighbours(table, design, settled, targets, decimals=d) for d in short_decimals]
    return {
        "recovered_table": recovered_table(table, design, slope, recovery.decimals),
        "conventions": recovery.screen,
        "printed_check": check,
        "short_decimal_tables": found,
        "spread": spread,
        "lattice_neighbours": pd.DataFrame(neighbours),
        "solutions": solutions_table(recovery.broad, recovery.local.consistent_tables, table, design.x),
        "summary": pd.DataFrame([summary]),
    }
