"""The figures of study k_bias ("Regularization and Cross-Validation", §8.2.4)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.ticker import NullFormatter

from cvsuite.figures import style


def cv_estimate_against_k(table: pd.DataFrame, shuffles: int) -> Figure:
    """The document's second figure: the estimate against K, and bias, standard error, spread."""
    fig, (est_ax, parts_ax) = style.subplots(1, 2, figsize=(10, 4))
    k = table["K"]
    est_ax.plot(k, table["cv_estimate"], "o-", color="black", label=f"CV estimate (mean over {shuffles} shuffles)")
    est_ax.axhline(
        table["truth"].iloc[0],
        color=style.REFERENCE,
        linestyle=":",
        label=f"truth: full-data risk {table['truth'].iloc[0]:.6f}",
    )
    est_ax.set(
        xscale="log",
        yscale="log",
        xlabel="number of folds K (log scale)",
        ylabel="estimated risk, squared error (log scale)",
        title="Equation 8.13 against the truth",
    )
    est_ax.set_xticks(k, [str(v) for v in k])
    est_ax.xaxis.set_minor_formatter(NullFormatter())
    est_ax.legend()
    parts_ax.plot(k, table["bias"], "o-", color=style.BIAS, label="bias")
    parts_ax.plot(k, table["std_error"], "s-", color=style.STD_ERROR, label="standard error σ/√K (one partition)")
    parts_ax.plot(k, table["spread_over_shuffles"], "^-", color=style.SPREAD, label=f"spread over {shuffles} shuffles")
    parts_ax.set(
        xscale="log",
        yscale="symlog",
        xlabel="number of folds K (log scale)",
        ylabel="squared error (symmetric log scale)",
        title="Bias falls with K; spread vanishes at K = N",
    )
    parts_ax.set_yscale("symlog", linthresh=1e-4)
    parts_ax.set_ylim(bottom=0)
    parts_ax.set_xticks(k, [str(v) for v in k])
    parts_ax.xaxis.set_minor_formatter(NullFormatter())
    parts_ax.legend()
    first = table.iloc[0]
    fig.suptitle(f"{int(first['K'])}-fold cross-validation overestimates the risk {first['cv_over_truth']:.1f}x")
    return fig


def partition_grid(grid: pd.DataFrame, n_folds: int) -> Figure:
    """Figure 8.4 with its accounting: K runs, each point hatched (validated) exactly once."""
    n_points = grid["point"].max()
    fig, ax = style.subplots(figsize=(10, 0.55 * n_folds + 1.2))
    for row in grid.itertuples():
        validation = row.role == "validation"
        ax.add_patch(
            Rectangle(
                (row.point - 1, n_folds - row.run),
                1,
                1,
                facecolor="white" if validation else "#cfe2f3",
                edgecolor="black",
                hatch="///" if validation else None,
                linewidth=0.6,
            )
        )
    ax.set(
        xlim=(0, n_points),
        ylim=(0, n_folds),
        xlabel="data point (index)",
        ylabel="run k",
        title=f"K = {n_folds}: every point is validated (hatched) exactly once and trained on {n_folds - 1} times",
    )
    ax.set_yticks(np.arange(n_folds) + 0.5, [str(n_folds - i) for i in range(n_folds)])
    ax.set_xticks(np.arange(n_points) + 0.5, [str(i + 1) for i in range(n_points)], fontsize=7)
    ax.grid(False)
    return fig
