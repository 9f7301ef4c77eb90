"""The figures of study nested_optimism ("Cross-Validation", section Example, Part 2)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from cvsuite.figures import style


def estimates_against_truth(rows: pd.DataFrame, full: int) -> Figure:
    """Per dataset, the winner's CV score and the nested estimate against the chosen model's truth."""
    fig, ax = style.subplots(figsize=(5.8, 5.4))
    ax.plot(
        rows["true_accuracy"],
        rows["non_nested_score"],
        "o",
        color=style.EXPECTED,
        label="winner's CV score (non-nested)",
    )
    ax.plot(rows["true_accuracy"], rows["nested_estimate"], "s", color=style.TRAIN, mfc="none", label="nested estimate")
    low = min(rows[["true_accuracy", "non_nested_score", "nested_estimate"]].min()) - 0.02
    high = max(rows[["true_accuracy", "non_nested_score", "nested_estimate"]].max()) + 0.02
    ax.plot([low, high], [low, high], color=style.REFERENCE, linestyle=":", label="estimate = truth")
    above = int((rows["non_nested_score"] > rows["true_accuracy"]).sum())
    ax.set(
        xlim=(low, high),
        ylim=(low, high),
        aspect="equal",
        xlabel="true accuracy of the chosen model (4,000 fresh images)",
        ylabel="estimated accuracy",
        title=f"Selecting from {full} settings: the winner's score is too high on {above} of {len(rows)} datasets",
    )
    ax.legend(loc="upper left")
    return fig


def optimism_by_candidates(growth: pd.DataFrame) -> Figure:
    """Optimism of the winner's score and error of the nested estimate against the number of candidates."""
    fig, ax = style.subplots(figsize=(7, 4.2))
    n = growth["n_candidates"]
    for column, fmt, colour, label in (
        ("optimism", "o-", style.EXPECTED, "optimism: winner's CV score - truth"),
        ("nested_error", "s-", style.TRAIN, "nested estimate - truth"),
    ):
        mean, se = growth[f"{column}_mean"], growth[f"{column}_mean_se"]
        ax.errorbar(n, mean, yerr=2 * se, fmt=fmt, capsize=3, color=colour, label=label)
    ax.axhline(0, color=style.REFERENCE, linestyle=":")
    ax.set_xscale("log")
    ax.set_xticks(n, [str(v) for v in n])
    ax.xaxis.set_minor_formatter(NullFormatter())
    optimism = growth["optimism_mean"]
    title = (
        f"The winner's optimism grows from {optimism.iloc[0]:+.3f} to {optimism.iloc[-1]:+.3f}; nesting stays near 0"
    )
    ax.set(
        xlabel="number of candidate settings (log scale)", ylabel="mean over datasets (± 2 Monte Carlo SE)", title=title
    )
    ax.legend(loc="upper left")
    return fig
