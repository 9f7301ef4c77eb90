"""The figures of study recover_twelve_points: the lost table of "Estimating Out-of-Sample Error"'s worked example."""

from __future__ import annotations

import re
import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.methods.fold_statistics import Convention


def recovered_table(recovered: pd.DataFrame, solutions: pd.DataFrame, summary: pd.Series, slope: float) -> Figure:
    """The recovered table as deviations from y = slope x, over the cloud of consistent solutions."""
    fig, ax = style.subplots(figsize=(9, 5.2))
    x = recovered["x"].to_numpy()
    for source, colour, size, label in (
        ("local", "0.6", 6, "consistent tables found near it"),
        ("broad", style.STD_ERROR, 10, "consistent tables found from broad starts"),
    ):
        sub = solutions[solutions["source"] == source]
        if len(sub):
            ax.scatter(
                sub["x"] + (0.12 if source == "broad" else -0.12),
                sub["y"] - slope * sub["x"],
                s=size,
                color=colour,
                alpha=0.5,
                linewidths=0,
                label=f"{label} ({sub['solution'].nunique()})",
            )
    ax.plot(x, recovered["y_minus_slope_x"], "o", color="black", label="recovered table")
    ax.plot(
        x,
        recovered["y_mirror"] - slope * x,
        "o",
        mfc="none",
        color=style.EXPECTED,
        label=f"its mirror about y = {slope:g}x (equally consistent)",
    )
    style.reference_line(ax, 0, f"y = {slope:g}x exactly", linestyle="-", linewidth=0.8)
    ax.set_xticks(x)
    style.integer_axis(ax, "x")
    ax.set(xlabel="x (observation number)", ylabel=f"y − {slope:g}x (units of y)")
    style.figure_legend(fig)
    decimals = int(summary["table_decimals"])
    words = {1: "A one-decimal table", 2: "A two-decimal table"}.get(decimals, "A table")
    fig.suptitle(
        f"{words} reproduces all {int(summary['printed_figures'])} printed figures;\ntables consistent with them "
        f"span up to {summary['local_y_range_max']:.2f} in one y"
    )
    return fig


def _in_words(arithmetic: str) -> str:
    """An ``arithmetic_problems`` reason as a reader says it: "polynomial: ... and polynomial_fold_4
    = 0.5755, polynomial_fold_3 = 0.1568" becomes "for the polynomial, ..., fold 4 error 0.5755 and
    fold 3 error 0.1568"."""
    said = []
    for problem in arithmetic.split("; "):
        problem = re.sub(r"^(\w+): ", r"for the \1, ", problem)
        listed = re.search(r"the printed mean, s\.d\. and (.+)$", problem)
        if listed:
            folds = [re.sub(r"^\w+_fold_(\d+) = ", r"fold \1 error ", item) for item in listed[1].split(", ")]
            folds = ", ".join(folds[:-1]) + " and " + folds[-1] if len(folds) > 1 else folds[0]
            problem = problem[: listed.start()] + "the printed mean, s.d., " + folds
        said.append(problem.replace("_", " "))
    return "; ".join(said)


def convention_screen(screen: pd.DataFrame, settled: Convention) -> Figure:
    """The smallest largest miss (printed units) each convention's search reached, over its random
    starting points; the conventions arithmetic rules out, with the reason in words.

    A convention that gives the same figures as another on every start (pooled CV and the mean of
    the folds, over equal folds: ``same_figures_as``) shares its row.
    """
    count, total = int((screen["screen_outcome"] == "consistent").sum()), len(screen)
    twins = screen["same_figures_as"].fillna("").astype(str)
    shared = set(twins[twins != ""])
    screen = screen[twins == ""]
    labels = [
        label.replace("CV mean of folds", "CV mean of folds or pooled") if label in shared else label
        for label in screen["label"]
    ]
    fig, ax = style.subplots(figsize=(10.5, 0.5 * len(screen) + 2.6))
    y = np.arange(len(screen))[::-1]
    best = screen["best_largest_miss_printed_units"].to_numpy(dtype=float)
    searched = ~np.isnan(best)
    low, high = 0.05, 3 * np.nanmax(best)
    consistent = (screen["screen_outcome"] == "consistent").to_numpy()
    verdicts = (
        (consistent, style.TRAIN, "reproduces every printed figure"),
        (~consistent, style.EXPECTED, "misses a printed figure by more than half a last digit"),
    )
    for chosen, colour, label in verdicts:
        rows = searched & chosen
        ax.barh(y[rows], best[rows] - low, left=low, color=colour, label=label)
    for yi, text in zip(y[~searched], screen.loc[~searched, "arithmetic"]):
        wrapped = textwrap.fill("ruled out by arithmetic: " + _in_words(text), 80)
        ax.text(low * 1.1, yi, wrapped, va="center", fontsize=style.SMALL_PT, color="0.3")
    # The line is the criterion of the searched conventions only: it stops above the ones
    # arithmetic rules out, whose reasons are written across their rows.
    reads = "half a last digit: a miss below it reads as printed"
    ax.vlines(0.5, y[searched].min() - 0.5, len(screen), **style.LINES["reference"], label=reads)
    ax.set_yticks(y, [label.replace(", s.d.", ",\ns.d.") for label in labels])
    ax.set_ylim(-0.7, len(screen) - 0.3)
    starts = int(screen["starts_searched"].max())
    ax.set_xlim(low, high)
    style.log_axis(ax, "x", (0.1, 0.5, 1, 5, 10, 50, 100))
    ax.set(
        xlim=(low, high),
        xlabel=f"largest miss of the printed figures, in units of their last digit, for the best\n"
        f"of the search's {starts} random starting points (log scale)",
    )
    style.figure_legend(fig)
    training = "RSS / n" if settled.training_error == "mean" else "RSS / (n - p)"
    fig.suptitle(
        f"{count} of {total} conventions reproduce the printed figures, all with the same numbers:\n"
        f"fold error = {settled.fold_error} squared error, fold s.d. with ddof {settled.fold_sd_ddof}, "
        f"training error = {training}\n"
        f"(over equal folds, pooled CV gives the same figures as the mean of folds: {len(shared)} pairs share a row)"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    tables, slope = inputs.tables, inputs.config["twelve_observations"]["slope"]
    summary = tables["summary"].iloc[0]
    # The summary records the convention the screen settled; reading it there spares the figure the
    # recovery's search code (settled_convention), whose edits would otherwise redraw it.
    settled = Convention(summary["fold_error"], summary["cv"], int(summary["fold_sd_ddof"]), summary["training_error"])
    return {
        "recovered_table": recovered_table(tables["recovered_table"], tables["solutions"], summary, slope),
        "convention_screen": convention_screen(tables["conventions"], settled),
    }
