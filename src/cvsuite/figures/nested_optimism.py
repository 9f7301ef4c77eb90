"""The figures of study nested_optimism ("Cross-Validation", section Example, Part 2)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style


def estimates_against_truth(rows: pd.DataFrame, full: int) -> Figure:
    """Per dataset, the winner's CV score and the nested estimate against the chosen model's truth."""
    fig, ax = style.subplots(figsize=(6.4, 6.6))
    ax.plot(
        rows["true_accuracy"],
        rows["non_nested_score"],
        "o",
        color=style.EXPECTED,
        label="winner's CV score (non-nested)",
    )
    ax.plot(rows["true_accuracy"], rows["nested_estimate"], "s", color=style.TRAIN, mfc="none", label="nested estimate")
    columns = ["true_accuracy", "non_nested_score", "nested_estimate"]
    low, high = min(rows[columns].min()) - 0.02, max(rows[columns].max()) + 0.02
    ax.plot([low, high], [low, high], **style.LINES["truth"], label="estimate = truth")
    above = int((rows["non_nested_score"] > rows["true_accuracy"]).sum())
    ax.set(
        xlim=(low, high),
        ylim=(low, high),
        aspect="equal",
        xlabel="true accuracy of the chosen model (4,000 fresh images)",
        ylabel="estimated accuracy",
        title=f"Selecting from {full} settings: the winner's score\nis too high on {above} of {len(rows)} datasets",
    )
    style.figure_legend(fig, ncols=1)
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
