"""The figures of study recover_twelve_points: the lost table of "Estimating Out-of-Sample Error"'s worked example."""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
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
        f"differ from it by up to {summary['local_y_range_max']:.2f} in one y"
    )
    return fig


def convention_screen(screen: pd.DataFrame, settled: Convention) -> Figure:
    """Best largest miss (printed units) per convention searched; the ones arithmetic rules out named."""
    fig, ax = style.subplots(figsize=(10.5, 0.62 * len(screen) + 2.4))
    y = np.arange(len(screen))[::-1]
    best = screen["best_largest_miss_printed_units"].to_numpy(dtype=float)
    searched = ~np.isnan(best)
    low, high = 0.05, 3 * np.nanmax(best)
    consistent = (screen["verdict"] == "consistent").to_numpy()
    verdicts = (
        (consistent, style.TRAIN, "reproduces every printed figure"),
        (~consistent, style.EXPECTED, "misses a printed figure by more than half a last digit"),
    )
    for chosen, colour, label in verdicts:
        rows = searched & chosen
        ax.barh(y[rows], best[rows] - low, left=low, color=colour, label=label)
    for yi, text in zip(y[~searched], screen.loc[~searched, "arithmetic"]):
        wrapped = textwrap.fill("ruled out by arithmetic: " + text, 75)
        ax.text(low * 1.1, yi, wrapped, va="center", fontsize=style.SMALL_PT, color="0.3")
    # The line is the criterion of the searched conventions only: it stops above the ones
    # arithmetic rules out, whose reasons are written across their rows.
    reads = "0.5 of a last digit: reads as printed"
    ax.vlines(0.5, y[searched].min() - 0.5, len(screen), **style.LINES["published"], label=reads)
    ax.set_yticks(y, [label.replace(", s.d.", ",\ns.d.") for label in screen["label"]])
    ax.set_ylim(-0.7, len(screen) - 0.3)
    ax.set(
        xscale="log",
        xlim=(low, high),
        xlabel="best largest miss of the printed figures over the starts,\nin units of their last digit (log scale)",
    )
    style.figure_legend(fig)
    count = int((screen["verdict"] == "consistent").sum())
    training = "RSS / n" if settled.training_error == "mean" else "RSS / (n - p)"
    fig.suptitle(
        f"{count} of {len(screen)} conventions reproduce the printed figures, all with the same numbers:\n"
        f"fold error = {settled.fold_error} squared error, fold s.d. with ddof {settled.fold_sd_ddof}, "
        f"training error = {training}"
    )
    return fig
