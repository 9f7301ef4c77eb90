"""Study recover_twelve_points: the lost table of "Estimating Out-of-Sample Error"'s worked example.

The document prints the statistics of twelve observations (x = 1..12, close to y = 2x) but not the
observations. This treats the table as an inverse problem: it settles which conventions the printed
figures allow (screening each, by arithmetic and then by search from deterministic starts), finds
tables that reproduce every printed figure at its printed precision, prefers the simplest (fewest
decimals), and measures how unique the recovery is. The printed figures it aims at are registry rows
named in config (a published number lives in the registry only); twelve_points is later compared
with the same rows, which it reproduces by construction, and says so.

Writes the recovered table (with a note that it was recovered, not given), the convention screen,
the printed-figure check, the short-decimal tables found, the spread of y over consistent tables,
the lattice-neighbour check and every consistent solution; draws the recovered table with its
spread, and the convention screen.
"""

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from cvsuite.figures import style
from cvsuite.studies import twelve_points as tp
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.registry import read_registry

RECOVERED_NOTE = ("recovered from the statistics printed in 'Estimating Out-of-Sample Error' (worked example) "
                  "by recover_twelve_points; the document does not give these values")


def main(data: dict, params: dict, registry: str, out) -> None:
    # One BLAS thread: with more, the last bits of the small matrix products vary from run to run,
    # and the search's local solves carry such differences into the 1e-10 digits of what they find.
    # One thread makes reruns byte-identical (and is no slower at these sizes).
    with threadpool_limits(limits=1):
        study(data, params, registry, out)


def study(data: dict, params: dict, registry: str, out) -> None:
    design = tp.Design.of(data["observations"], data["line_degree"], data["polynomial_degree"], data["folds"])
    slope = data["slope"]
    claims = {c.id: c for c in read_registry(registry)}
    targets = tp.PrintedTargets.of({name: claims[claim_id].published for name, claim_id in params["printed"].items()})
    conventions = tp.conventions_grid(**params["conventions"])
    if params["screen_starts"] > params["starts"]:
        raise ValueError(f"recover_twelve_points.screen_starts = {params['screen_starts']} is above starts = {params['starts']} "
                         "(the screen's starts are the first rows of the full search's)")

    # 1. Which conventions admit a table at all.
    all_starts = tp.broad_starts(design, targets, params["starts"], params["start_seed"])
    screen_starts = all_starts[: params["screen_starts"]]
    screen, searches = tp.screen_conventions(design, conventions, targets, slope, screen_starts)
    settled = settled_convention(screen, conventions)

    # 2. The full search under the settled convention (the screen's starts come first, reused).
    first = searches[settled.label]
    rest = tp.search_tables(design, settled, targets, slope, all_starts[len(screen_starts):])
    broad = np.vstack([first.consistent_tables, rest.consistent_tables])
    broad_count = int(first.consistent.sum() + rest.consistent.sum())
    if broad_count == 0:
        raise RuntimeError(f"no start reached a consistent table under {settled.label}")

    # 3. The simplest table: short decimals first, from the broad solutions.
    found = short_tables(broad, design, settled, targets, slope, params["short_decimals"])
    reference = pick_table(found, broad[0])

    # 4. Spread: solves near the reference aiming anywhere inside the printed precision.
    starts, aims = tp.local_starts_and_aims(reference, design, targets, params["local_solutions"],
                                            params["local_seed"], params["local_start_sd"])
    local = tp.search_tables(design, settled, targets, slope, starts, aims, relative_first=False)
    everything = np.vstack([broad, local.consistent_tables])
    found = short_tables(everything, design, settled, targets, slope, params["short_decimals"])
    table = pick_table(found, reference)
    decimals = int(found.iloc[0]["decimals"]) if len(found) else None

    # The conventions the search ruled out, searched once more from the recovered table itself:
    # a table consistent with them, if there were one, would have to be reached from here too.
    z_table = (tp.line_complement_basis(design.x).T @ table)[None, :]
    screen["largest_miss_from_recovered_table_printed_units"] = [
        float(tp.search_tables(design, c, targets, slope, z_table, relative_first=False).largest_miss[0]) if verdict != "ruled out by arithmetic" else np.nan
        for c, verdict in zip(conventions, screen["verdict"])
    ]

    recovered = recovered_table(table, design, slope, decimals)
    check = tp.printed_check(table, design, settled, targets)
    if not check["reads_the_same"].all():
        raise RuntimeError("the recovered table does not reproduce every printed figure:\n" + check.to_string())
    local_spread = tp.spread_over_solutions(local.consistent_tables, table, design.x)
    broad_spread = tp.spread_over_solutions(broad, table, design.x)
    spread = pd.DataFrame({"observation": np.arange(1, design.n + 1), "x": design.x, "y_recovered": table,
                           **{f"local_{c}": local_spread[c] for c in local_spread},
                           **{f"broad_{c}": broad_spread[c] for c in broad_spread}})
    neighbours = pd.DataFrame([tp.lattice_neighbours(table, design, settled, targets, d) for d in params["short_decimals"]])
    solutions = solutions_table(broad, local.consistent_tables, table, design.x)
    summary = pd.DataFrame([{
        "settled_convention": settled.label,
        "fold_error": settled.fold_error, "cv": settled.cv, "fold_sd_ddof": settled.fold_sd_ddof,
        "training_error": settled.training_error,
        "std_error": "fold s.d. / sqrt(k)",
        "conventions_consistent": int((screen["verdict"] == "consistent").sum()),
        "broad_starts": len(all_starts), "broad_consistent": broad_count,
        "broad_success_percent": 100.0 * broad_count / len(all_starts),
        "local_solves": len(starts), "local_consistent": int(local.consistent.sum()),
        "table_decimals": decimals if decimals is not None else -1,
        **{f"short_tables_{d}_decimals": int((found["decimals"] == d).sum()) if len(found) else 0 for d in params["short_decimals"]},
        "local_y_sd_max": float(local_spread["y_sd"].max()),
        "local_y_range_max": float((local_spread["y_max"] - local_spread["y_min"]).max()),
        "broad_y_range_max": float((broad_spread["y_max"] - broad_spread["y_min"]).max()),
        "printed_figures": len(check),
        "closest_printed_margin_printed_units": float(0.5 - check["miss_in_printed_units"].max()),
        "provenance": RECOVERED_NOTE,
    }])

    write_table(recovered, out.table)
    write_table(screen, out.conventions)
    write_table(check, out.printed_check)
    write_table(found, out.short_tables)
    write_table(spread, out.spread)
    write_table(neighbours, out.neighbours)
    write_table(solutions, out.solutions)
    write_table(summary, out.summary)
    write_provenance(out.provenance, "recover_twelve_points",
                     {"twelve_observations": data, "recover_twelve_points": params, "note": RECOVERED_NOTE})
    draw_table(recovered, solutions, summary.iloc[0], slope, [out.table_figure, out.table_figure_svg])
    draw_screen(screen, settled, [out.screen_figure, out.screen_figure_svg])


def settled_convention(screen: pd.DataFrame, conventions) -> tp.Convention:
    """The first consistent convention. Any other consistent one must give the very same figures
    (pooled CV with mean fold errors over equal folds is the mean of the fold errors); two
    conventions that differ and both fit would leave the question open, and stop the study."""
    consistent = screen.index[screen["verdict"] == "consistent"].tolist()
    if not consistent:
        raise RuntimeError("no convention admits a table reproducing the printed figures:\n" + screen.to_string())
    first = conventions[consistent[0]]
    for i in consistent[1:]:
        if screen.loc[i, "same_figures_as"] != first.label:
            raise RuntimeError(f"two conventions with different figures are both consistent: {first.label} and {conventions[i].label}")
    return first


def short_tables(solutions, design, convention, targets, slope, decimals_list) -> pd.DataFrame:
    """Short-decimal tables found from the solutions, one row per class (tables the statistics cannot
    tell apart), listed at the fewest decimals it was found with, then closest to y = slope x."""
    found, seen = [], set()
    for d in sorted(decimals_list):
        tables = tp.short_decimal_tables(solutions, design, convention, targets, slope, d)
        tables = tables[~tables["class_key"].isin(seen)]
        seen |= set(tables["class_key"])
        found.append(tables)
    return pd.concat(found, ignore_index=True)


def pick_table(found: pd.DataFrame, fallback: np.ndarray) -> np.ndarray:
    """The simplest table found (first row), else the continuous solution given."""
    if len(found):
        return found.iloc[0].filter(like="y_").to_numpy(dtype=float)
    return np.asarray(fallback, dtype=float)


def recovered_table(table, design, slope, decimals) -> pd.DataFrame:
    fold_of = np.zeros(design.n, dtype=int)
    for j, fold in enumerate(design.folds):
        fold_of[fold] = j + 1
    mirror = 2 * slope * design.x - table
    if decimals is not None:
        mirror = np.round(mirror, decimals)
    return pd.DataFrame({
        "observation": np.arange(1, design.n + 1), "x": design.x, "y": table, "fold": fold_of,
        "y_minus_slope_x": table - slope * design.x,
        "y_mirror": mirror,  # the reflection about y = slope x: every printed figure reads the same
        "provenance": RECOVERED_NOTE,
    })


def solutions_table(broad, local, table, x) -> pd.DataFrame:
    """Every consistent continuous solution, moved onto the recovered table's line and side."""
    rows = []
    for source, tables in (("broad", broad), ("local", local)):
        aligned = tp.align_to(tables, table, x)
        for s, ys in enumerate(aligned):
            rows += [{"source": source, "solution": s + 1, "observation": i + 1, "x": x[i], "y": ys[i]} for i in range(len(x))]
    return pd.DataFrame(rows)


def draw_table(recovered, solutions, summary, slope, paths) -> None:
    """The recovered table as deviations from y = slope x, over the cloud of consistent solutions."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(9, 4.2))
    x = recovered["x"].to_numpy()
    for source, colour, size, label in (("local", "0.6", 6, "consistent tables found near it"),
                                        ("broad", style.STD_ERROR, 10, "consistent tables found from broad starts")):
        sub = solutions[solutions["source"] == source]
        if len(sub):
            ax.scatter(sub["x"] + (0.12 if source == "broad" else -0.12), sub["y"] - slope * sub["x"], s=size,
                       color=colour, alpha=0.5, linewidths=0, label=f"{label} ({sub['solution'].nunique()})")
    ax.plot(x, recovered["y_minus_slope_x"], "o", color="black", label="recovered table")
    ax.plot(x, recovered["y_mirror"] - slope * x, "o", mfc="none", color=style.EXPECTED,
            label=f"its mirror about y = {slope:g}x (equally consistent)")
    ax.axhline(0, color=style.REFERENCE, linewidth=0.8)
    ax.set_xticks(x)
    ax.set(xlabel="x (observation number)", ylabel=f"y − {slope:g}x (units of y)")
    fig.legend(loc="lower center", ncols=2, fontsize=8, bbox_to_anchor=(0.5, -0.1))
    decimals = int(summary["table_decimals"])
    words = {1: "A one-decimal table", 2: "A two-decimal table"}.get(decimals, "A table")
    fig.suptitle(f"{words} reproduces all {int(summary['printed_figures'])} printed figures; tables consistent with them "
                 f"differ from it by up to {summary['local_y_range_max']:.2f} in one y")
    save_figure(fig, paths)


def draw_screen(screen: pd.DataFrame, settled: tp.Convention, paths) -> None:
    """Best largest miss (printed units) per convention searched; the ones arithmetic rules out named."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(10, 0.4 * len(screen) + 1.6))
    y = np.arange(len(screen))[::-1]
    best = screen["best_largest_miss_printed_units"].to_numpy(dtype=float)
    searched = ~np.isnan(best)
    low, high = 0.05, 3 * np.nanmax(best)
    colours = np.array([style.TRAIN if v == "consistent" else style.EXPECTED for v in screen["verdict"]])
    ax.barh(y[searched], best[searched] - low, left=low, color=colours[searched])
    for yi, text in zip(y[~searched], screen.loc[~searched, "arithmetic"]):
        ax.text(low * 1.1, yi, "ruled out by arithmetic: " + text, va="center", fontsize=7, color=style.REFERENCE)
    ax.axvline(0.5, color=style.PUBLISHED, linestyle="--")
    ax.set_yticks(y, screen["label"], fontsize=7)
    ax.set_ylim(-0.7, len(screen) - 0.3)
    ax.set(xscale="log", xlim=(low, high),
           xlabel="best (over the starts) largest miss of the printed figures, in units of their last digit "
                  "(log scale; dashed: 0.5, reads as printed)")
    count = int((screen["verdict"] == "consistent").sum())
    training = "RSS / n" if settled.training_error == "mean" else "RSS / (n - p)"
    fig.suptitle(f"{count} of {len(screen)} conventions reproduce the printed figures, all with the same numbers: "
                 f"fold error = {settled.fold_error} squared error, fold s.d. with ddof {settled.fold_sd_ddof}, "
                 f"training error = {training}", fontsize=10)
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.data, snakemake.params.study, snakemake.input.registry, snakemake.output)  # noqa: F821
