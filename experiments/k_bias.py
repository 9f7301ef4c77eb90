"""Study k_bias: the bias of K-fold cross-validation, "Regularization and Cross-Validation" §8.2.4.

Writes the K table (truth, CV estimate, bias, standard error, spread over shuffles, training
sizes), the standard-error range, and the K = 5 partition of Figure 8.4; draws the document's
second figure and the partition grid.
"""

import numpy as np
import pandas as pd

from cvsuite import figure_style as style
from cvsuite.folds import canonical_partition, shuffled_partition
from cvsuite.kfold_bias import k_bias_table, std_error_range
from cvsuite.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.sine_data import sine_sample


def main(data: dict, params: dict, out) -> None:
    x, y = sine_sample(data["train_size"], data["train_seed"], data["noise"], data["half_width"])
    x_test, y_test = sine_sample(data["test_size"], data["test_seed"], data["noise"], data["half_width"])
    table = k_bias_table(x, y, x_test, y_test, params["degree"], data["half_width"],
                         params["folds"], params["shuffles"], params["first_seed"])
    se_range = std_error_range(table, params["std_error_min_folds"])

    grid_k = params["partition_grid_folds"]
    folds = canonical_partition(shuffled_partition(len(y), grid_k, params["first_seed"]))
    grid = pd.DataFrame(
        [{"run": run + 1, "point": int(i) + 1, "role": "validation" if i in set(fold.tolist()) else "training"}
         for run, fold in enumerate(folds) for i in range(len(y))]
    )
    validated = grid[grid["role"] == "validation"].groupby("point").size()
    if not (len(validated) == len(y) and (validated == 1).all()):
        raise RuntimeError("partition grid: some point is not validated exactly once")

    write_table(table, out.table)
    write_table(se_range, out.std_error_range)
    write_table(grid, out.partition_grid)
    write_provenance(out.provenance, "k_bias", {"sine_data": data, "k_bias": params})
    draw_bias(table, params["shuffles"], [out.bias_figure, out.bias_figure_svg])
    draw_partition_grid(grid, grid_k, [out.grid_figure, out.grid_figure_svg])


def draw_bias(table: pd.DataFrame, shuffles: int, paths) -> None:
    """The document's second figure: the estimate against K, and bias, standard error, spread."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    style.apply_style()
    fig, (est_ax, parts_ax) = plt.subplots(1, 2, figsize=(10, 4))
    k = table["K"]
    est_ax.plot(k, table["cv_estimate"], "o-", color="black", label=f"CV estimate (mean over {shuffles} shuffles)")
    est_ax.axhline(table["truth"].iloc[0], color=style.REFERENCE, linestyle=":",
                   label=f"truth: full-data risk {table['truth'].iloc[0]:.6f}")
    est_ax.set(xscale="log", yscale="log", xlabel="number of folds K (log scale)",
               ylabel="estimated risk, squared error (log scale)", title="Equation 8.13 against the truth")
    est_ax.set_xticks(k, [str(v) for v in k])
    est_ax.xaxis.set_minor_formatter(NullFormatter())
    est_ax.legend()
    parts_ax.plot(k, table["bias"], "o-", color=style.BIAS, label="bias")
    parts_ax.plot(k, table["std_error"], "s-", color=style.STD_ERROR, label="standard error σ/√K (one partition)")
    parts_ax.plot(k, table["spread_over_shuffles"], "^-", color=style.SPREAD, label=f"spread over {shuffles} shuffles")
    parts_ax.set(xscale="log", yscale="symlog", xlabel="number of folds K (log scale)",
                 ylabel="squared error (symmetric log scale)", title="Bias falls with K; spread vanishes at K = N")
    parts_ax.set_yscale("symlog", linthresh=1e-4)
    parts_ax.set_ylim(bottom=0)
    parts_ax.set_xticks(k, [str(v) for v in k])
    parts_ax.xaxis.set_minor_formatter(NullFormatter())
    parts_ax.legend()
    first = table.iloc[0]
    fig.suptitle(f"{int(first['K'])}-fold cross-validation overestimates the risk {first['cv_over_truth']:.1f}x")
    save_figure(fig, paths)


def draw_partition_grid(grid: pd.DataFrame, n_folds: int, paths) -> None:
    """Figure 8.4 with its accounting: K runs, each point hatched (validated) exactly once."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    style.apply_style()
    n_points = grid["point"].max()
    fig, ax = plt.subplots(figsize=(10, 0.55 * n_folds + 1.2))
    for row in grid.itertuples():
        validation = row.role == "validation"
        ax.add_patch(Rectangle((row.point - 1, n_folds - row.run), 1, 1, facecolor="white" if validation else "#cfe2f3",
                               edgecolor="black", hatch="///" if validation else None, linewidth=0.6))
    ax.set(xlim=(0, n_points), ylim=(0, n_folds), xlabel="data point (index)", ylabel="run k",
           title=f"K = {n_folds}: every point is validated (hatched) exactly once and trained on {n_folds - 1} times")
    ax.set_yticks(np.arange(n_folds) + 0.5, [str(n_folds - i) for i in range(n_folds)])
    ax.set_xticks(np.arange(n_points) + 0.5, [str(i + 1) for i in range(n_points)], fontsize=7)
    ax.grid(False)
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.data, snakemake.params.study, snakemake.output)  # noqa: F821
