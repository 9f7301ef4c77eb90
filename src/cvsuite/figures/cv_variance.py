"""The figure of study cv_variance ("Cross-Validation", The choice of K and the variance of the estimate)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style

TERM_COLOURS = ("#9ecae1", "#fdae6b", "#a1d99b")
STEP = 0.2  # horizontal offset of each term's bar within its group


def _terms(table: pd.DataFrame) -> dict[str, pd.Series]:
    """Bengio and Grandvalet's three terms of Var[CV], per K."""
    n = table["fold_size"] * table["K"]
    return {
        "σ²/n (one error)": table["sigma2"] / n,
        "(m−1)ω/n (same fold)": ((table["fold_size"] - 1) / n * table["omega"]).fillna(0),
        "(n−m)γ/n (other folds)": (n - table["fold_size"]) / n * table["gamma"],
    }


def _waterfall(ax, x: np.ndarray, table: pd.DataFrame) -> None:
    """Each term as a bar from the running total to the running total plus the term: a positive
    term rises, a negative one (hatched) falls, and the last bar ends at their sum."""
    total = np.zeros(len(x))
    for i, ((name, values), colour) in enumerate(zip(_terms(table).items(), TERM_COLOURS)):
        values = values.to_numpy()
        at = x + (i - 1.5) * STEP
        rising = values >= 0
        ax.bar(at[rising], values[rising], STEP, bottom=total[rising], color=colour, label=name)
        if (~rising).any():
            ax.bar(
                at[~rising],
                values[~rising],
                STEP,
                bottom=total[~rising],
                color=colour,
                hatch="xx",
                edgecolor="0.3",
                label=f"{name}, negative: the total falls",
            )
        total += values


def variance_by_k(table: pd.DataFrame, sigma: float, k: int) -> Figure:
    """Var[CV] with Bengio and Grandvalet's three terms per K, and the naive standard error against the true spread."""
    fig, (var_ax, se_ax) = style.subplots(1, 2, figsize=(10.5, 5.6))
    labels = [("leave-one-out" if m == 1 else f"K = {folds}") for folds, m in zip(table["K"], table["fold_size"])]
    x = np.arange(len(table))
    _waterfall(var_ax, x, table)
    style.error_bars(
        var_ax,
        x + 1.5 * STEP,
        table["cv_variance"],
        table["cv_variance_se"],
        fmt="o",
        color="black",
        label="Var[CV] measured over datasets",
    )
    var_ax.hlines(
        table["binomial_variance"], x - 2 * STEP, x + 2 * STEP, color=style.EXPECTED, label="Kohavi: a(1−a)/n"
    )
    var_ax.set_xticks(x, labels)
    var_ax.set(
        xlabel="number of folds",
        ylabel="variance of the CV accuracy over datasets",
        title="The three terms, added in turn, reach Var[CV]",
    )
    se_ax.bar(x - 0.18, table["cv_sd"], 0.36, color="0.3", label="true spread: s.d. of CV over datasets")
    se_ax.bar(
        x + 0.18, table["naive_std_error_rms"], 0.36, color=style.STD_ERROR, label="naive standard error σ/√K (rms)"
    )
    se_ax.set_xticks(x, labels)
    ratio = table["naive_over_true_sd"]
    se_ax.set(
        xlabel="number of folds",
        ylabel="accuracy (s.d. units)",
        title=f"The naive standard error is {100 * (1 - ratio.max()):.0f}-{100 * (1 - ratio.min()):.0f}% too small",
    )
    style.figure_legend(fig)
    fig.suptitle(f"{int(table['datasets'].iloc[0])} shape-image datasets, blur {sigma}, k = {k}")
    return fig
