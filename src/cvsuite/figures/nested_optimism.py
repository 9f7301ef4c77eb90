"""The figures of study nested_optimism ("Cross-Validation", section Example, Part 2)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs


def estimates_against_truth(rows: pd.DataFrame, full: int) -> Figure:
    """Per dataset, the winner's CV score and the nested estimate against the chosen model's truth,
    the two estimates of one dataset joined by a thin line (both drawn at the dataset's true accuracy).

    The axes run over the data only, each its own range: the estimates spread far wider than the
    truths, so an equal-aspect square would leave most of the width empty."""
    fig, ax = style.subplots(figsize=(7.2, 6.0))
    truth, winner, nested = rows["true_accuracy"], rows["non_nested_score"], rows["nested_estimate"]
    ax.plot(truth, winner, "o", color=style.EXPECTED, label="winner's CV score (non-nested)", zorder=3)
    ax.plot(truth, nested, "s", color=style.TRAIN, mfc="white", label="nested estimate", zorder=3)
    # Drawn after the points (for the legend's order) but beneath them.
    ax.vlines(
        truth,
        np.minimum(winner, nested),
        np.maximum(winner, nested),
        color="0.6",
        linewidth=0.8,
        zorder=1,
        label="one dataset's two estimates",
    )
    pad = 0.015
    x_low, x_high = truth.min() - pad, truth.max() + pad
    y_low, y_high = min(winner.min(), nested.min()) - pad, max(winner.max(), nested.max()) + pad
    ends = [min(x_low, y_low), max(x_high, y_high)]
    ax.plot(ends, ends, **style.LINES["truth"], label="estimate = truth", zorder=2)
    above = int((winner > truth).sum())
    ax.set(
        xlim=(x_low, x_high),
        ylim=(y_low, y_high),
        xlabel="true accuracy of the chosen model (4,000 fresh images)",
        ylabel="estimated accuracy",
        title=f"Selecting from {full} settings: the winner's score\nis too high on {above} of {len(rows)} datasets",
    )
    style.figure_legend(fig, ncols=2)
    return fig


def optimism_by_candidates(growth: pd.DataFrame) -> Figure:
    """Optimism of the winner's score and error of the nested estimate against the number of candidates."""
    fig, ax = style.subplots(figsize=(8, 5))
    n = growth["n_candidates"]
    for column, fmt, colour, label, shift in (
        ("optimism", "o-", style.EXPECTED, "optimism: winner's CV score − truth", 0.97),
        ("nested_error", "s-", style.TRAIN, "nested estimate − truth", 1.03),
    ):
        # Each series a little to its side (display only), so that coinciding bars stay apart.
        mean, se = growth[f"{column}_mean"], growth[f"{column}_mean_se"]
        style.error_bars(ax, n * shift, mean, se, fmt=fmt, color=colour, label=label)
    style.reference_line(ax, 0, "0: no optimism", kind="truth")
    style.log_axis(ax, "x", n)
    style.integer_axis(ax, "x")
    optimism = growth["optimism_mean"]
    title = (
        f"The winner's optimism grows from {optimism.iloc[0]:+.3f} to {optimism.iloc[-1]:+.3f}; nesting stays near 0"
    )
    ax.set(xlabel="number of candidate settings (log scale)", ylabel="mean over datasets (accuracy)", title=title)
    style.figure_legend(fig)
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    grid, selection = inputs.config["shape_images"]["grid"], inputs.tables["per_dataset"]
    full = len(grid["sigmas"]) * len(grid["ks"])  # the document's selection: the whole grid
    return {
        "estimates_against_truth": estimates_against_truth(selection[selection["n_candidates"] == full], full),
        "optimism_by_candidates": optimism_by_candidates(inputs.tables["candidates"]),
    }
