"""The figure of study cv_variance ("Cross-Validation", The choice of K and the variance of the estimate)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style


def variance_by_k(table: pd.DataFrame, sigma: float, k: int) -> Figure:
    """Var[CV] with Bengio and Grandvalet's three terms per K, and the naive standard error against the true spread."""
    fig, (var_ax, se_ax) = style.subplots(1, 2, figsize=(11, 4.3))
    labels = [("leave-one-out" if m == 1 else f"K = {folds}") for folds, m in zip(table["K"], table["fold_size"])]
    x = np.arange(len(table))
    n = table["fold_size"] * table["K"]
    parts = {
        "σ²/n (one error)": table["sigma2"] / n,
        "(m−1)ω/n (same fold)": ((table["fold_size"] - 1) / n * table["omega"]).fillna(0),
        "(n−m)γ/n (other folds)": (n - table["fold_size"]) / n * table["gamma"],
    }
    bottom_pos, bottom_neg = np.zeros(len(x)), np.zeros(len(x))
    for (name, values), colour in zip(parts.items(), ("#9ecae1", "#fdae6b", "#a1d99b")):
        values = values.to_numpy()
        base = np.where(values >= 0, bottom_pos, bottom_neg)
        var_ax.bar(x, values, 0.6, bottom=base, color=colour, label=name)
        bottom_pos += np.where(values >= 0, values, 0)
        bottom_neg += np.where(values < 0, values, 0)
    var_ax.errorbar(
        x,
        table["cv_variance"],
        yerr=2 * table["cv_variance_se"],
        fmt="o",
        color="black",
        capsize=3,
        label="Var[CV] measured (± 2 MC SE)",
    )
    var_ax.plot(x, table["binomial_variance"], "_", markersize=30, color=style.EXPECTED, label="Kohavi: a(1−a)/n")
    var_ax.set_xticks(x, labels)
    var_ax.set(
        xlabel="number of folds",
        ylabel="variance of the CV accuracy over datasets",
        title="Bengio and Grandvalet's three terms add up to Var[CV]",
    )
    var_ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(0, -0.16), ncol=2)
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
    se_ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(0, -0.16))
    fig.suptitle(f"{int(table['datasets'].iloc[0])} shape-image datasets, blur {sigma}, k = {k}")
    return fig
