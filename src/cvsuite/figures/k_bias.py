"""The figures of study k_bias ("Regularization and Cross-Validation", §8.2.4)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs

# The words of the document's "Compare" table (K, bias, cost, when to use), whose bias column the
# figure fills from the measured table; "N" is leave-one-out.
WHEN_TO_USE = {
    2: "essentially never\nfor small N",
    5: "the usual default",
    10: "when fits are cheap",
    "N": "small N, cheap model",
}


def cv_estimate_against_k(table: pd.DataFrame, shuffles: int, summary: pd.DataFrame) -> Figure:
    """The document's second figure: the estimate against K, and bias, standard error, spread. The
    title says what the smallest K's overestimate rests on: its sign over the shuffles (``summary``),
    and its mean's few standard errors (a heavy tail)."""
    fig, (est_ax, parts_ax) = style.subplots(1, 2, figsize=(10, 4.8))
    k = table["K"]
    estimate, spread = table["cv_estimate"], style.ERROR_BAR_SE * table["cv_estimate_se"]
    # A bar reaching below zero has no place on a log scale: it stops at the axis' foot, and says so.
    foot = 0.1
    est_ax.errorbar(
        k,
        estimate,
        yerr=[np.minimum(spread, estimate - foot), spread],
        fmt="o-",
        color="black",
        capsize=3,
        label=f"CV estimate (mean over {shuffles} shuffles;\nbars cut at the axis where they reach below it)",
    )
    truth = table["truth"].iloc[0]
    style.reference_line(est_ax, truth, f"truth: full-data risk {truth:.6f}", kind="truth")
    est_ax.set(ylabel="estimated risk, squared error (log scale)", title="Equation 8.13 against the truth")
    style.log_axis(est_ax, "y", (0.1, 0.15, 0.2, 0.3, 0.5, 1, 2, 5, 10, 20, 50))
    est_ax.set_ylim(bottom=foot)
    parts = (
        ("bias", "o-", style.BIAS, "bias"),
        ("std_error", "s-", style.STD_ERROR, "standard error σ/√K (one partition)"),
        ("spread_over_shuffles", "^-", style.SPREAD, f"spread over {shuffles} shuffles"),
    )
    for column, fmt, colour, label in parts:
        parts_ax.plot(k, table[column], fmt, color=colour, label=label)
    # Leave-one-out's spread is exactly 0: the linear part of the scale below 1e-4 shows it, and
    # the axis reaches a little below 0 so that its marker is not cut in half.
    parts_ax.set_yscale("symlog", linthresh=1e-4)
    parts_ax.set_ylim(bottom=-3e-5)
    parts_ax.set(ylabel="squared error (symmetric log scale)", title="Bias falls with K; spread vanishes at K = N")
    for ax in (est_ax, parts_ax):
        style.log_axis(ax, "x", k)
        style.integer_axis(ax, "x")
        ax.set_xlabel("number of folds K (log scale)")
    style.figure_legend(fig)
    first = table.iloc[0]
    above = summary.set_index("K").loc[first["K"], "shuffles_above_truth"]
    fig.suptitle(
        f"{int(first['K'])}-fold cross-validation averages {first['cv_over_truth']:.1f}x the true risk over {shuffles} "
        f"shuffles: {int(above)} of them read above the truth,\nthough a heavy tail leaves the mean only "
        f"{first['bias_over_se']:.2f} of its standard errors above it"
    )
    return fig


def _bias_text(bias: float, over_truth: float) -> str:
    """The bias as the document prints it: two decimals from 1 up, two significant digits below."""
    if abs(bias) >= 1:
        return f"{bias:+.2f}, i.e.\n{over_truth:.1f}x the truth"
    return np.format_float_positional(bias, precision=2, unique=False, fractional=False, sign=True)


def _compare_rows(table: pd.DataFrame) -> list[list[str]]:
    """The document's table: K, bias, cost, when to use; K = 2, 5, 10 and N (leave-one-out)."""
    n = int(table["K"].max())
    rows = []
    for key, words in WHEN_TO_USE.items():
        k = n if key == "N" else key
        row = table[table["K"] == k].iloc[0]
        name = f"N = {n}\n(leave-one-out)" if key == "N" else str(k)
        rows.append([name, _bias_text(row["bias"], row["bias_over_truth"]), f"{int(row['fits'])} fits", words])
    return rows


def partition_grid(grid: pd.DataFrame, n_folds: int, table: pd.DataFrame) -> Figure:
    """Figure 8.4 as the book draws it, with the table beside it.

    Left: the K = ``n_folds`` runs, the points ordered by the fold that validates them, so each
    run's validation fold is one hatched chunk and every column is hatched exactly once. Right: the
    document's "Compare" table (K, bias, cost, when to use), its bias column read from ``table``
    (the k_bias table)."""
    fig, (grid_ax, table_ax) = style.subplots(1, 2, figsize=(10.5, 4.4), gridspec_kw={"width_ratios": [1.3, 1]})
    validated_in = grid[grid["role"] == "validation"].set_index("point")["run"]
    order = validated_in.sort_values(kind="stable").index.to_numpy()  # points by fold, then by index
    column = {point: i for i, point in enumerate(order)}
    for row in grid.itertuples():
        validation = row.role == "validation"
        grid_ax.add_patch(
            Rectangle(
                (column[row.point], n_folds - row.run),
                1,
                1,
                facecolor="white" if validation else "#cfe2f3",
                edgecolor="black",
                hatch="///" if validation else None,
                linewidth=0.6,
                label="validated in this run (hatched)" if validation else "trained on in this run",
            )
        )
    grid_ax.set(
        xlim=(0, len(order)),
        ylim=(0, n_folds),
        xlabel="data point (its index), grouped by the fold that validates it",
        ylabel="run k",
        title=f"K = {n_folds}: every point validated once, trained on {n_folds - 1} times",
    )
    grid_ax.set_yticks(np.arange(n_folds) + 0.5, [str(n_folds - i) for i in range(n_folds)])
    grid_ax.set_xticks(np.arange(len(order)) + 0.5, [str(p) for p in order], rotation=90)
    grid_ax.grid(False)
    style.legend(grid_ax, loc="upper center", bbox_to_anchor=(0.5, -0.28), ncols=2)

    table_ax.axis("off")
    cells = table_ax.table(
        cellText=_compare_rows(table),
        colLabels=["K", "bias", "cost", "when to use"],
        cellLoc="left",
        loc="center",
    )
    cells.auto_set_font_size(False)
    cells.set_fontsize(style.SMALL_PT)
    cells.auto_set_column_width(range(4))
    for (row, _), cell in cells.get_celld().items():
        cell.set_height(0.2 if row else 0.12)  # room for the two-line cells
    table_ax.set_title("Choosing K: the document's table, bias measured here")
    fig.suptitle(f"Figure 8.4: {n_folds}-fold cross-validation uses every point for validation exactly once")
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    params, table = inputs.config["k_bias"], inputs.tables["k_bias"]
    return {
        "cv_estimate_against_k": cv_estimate_against_k(table, params["shuffles"], inputs.tables["shuffle_summary"]),
        "partition_grid": partition_grid(inputs.tables["partition_grid"], params["partition_grid_folds"], table),
    }
