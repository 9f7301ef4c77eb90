"""Study nested_optimism: Part 2 of the shape-image study ("Cross-Validation", section Example).

Gathers the shards' selection rows; writes the document's Part 2 block (the whole grid) and how
optimism and nested error grow with the number of candidates; draws the per-dataset estimates
against the truth and optimism against the number of candidates.
"""

import pandas as pd

from cvsuite.figures import style
from cvsuite.workflow.outputs import logged_to, read_tables, save_figure, write_provenance, write_table
from cvsuite.studies.nested_optimism import candidate_growth, growth_findings, selection_summary


def main(blocks: dict, shards, out) -> None:
    selection = read_tables(shards.selection)
    grid = blocks["shape_images"]["grid"]
    full = len(grid["sigmas"]) * len(grid["ks"])
    write_table(selection, out.per_dataset)
    write_table(selection_summary(selection, full), out.summary)
    growth = candidate_growth(selection)
    write_table(growth, out.candidates)
    write_table(growth_findings(selection), out.growth_findings)
    write_provenance(out.provenance, "nested_optimism", blocks)
    draw_estimates(selection[selection["n_candidates"] == full], full, [out.estimates_figure, out.estimates_figure_svg])
    draw_growth(growth, [out.growth_figure, out.growth_figure_svg])


def draw_estimates(rows: pd.DataFrame, full: int, paths) -> None:
    """Per dataset, the winner's CV score and the nested estimate against the chosen model's truth."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(5.8, 5.4))
    ax.plot(rows["true_accuracy"], rows["non_nested_score"], "o", color=style.EXPECTED, label="winner's CV score (non-nested)")
    ax.plot(rows["true_accuracy"], rows["nested_estimate"], "s", color=style.TRAIN, mfc="none", label="nested estimate")
    low = min(rows[["true_accuracy", "non_nested_score", "nested_estimate"]].min()) - 0.02
    high = max(rows[["true_accuracy", "non_nested_score", "nested_estimate"]].max()) + 0.02
    ax.plot([low, high], [low, high], color=style.REFERENCE, linestyle=":", label="estimate = truth")
    above = int((rows["non_nested_score"] > rows["true_accuracy"]).sum())
    ax.set(xlim=(low, high), ylim=(low, high), aspect="equal", xlabel="true accuracy of the chosen model (4,000 fresh images)",
           ylabel="estimated accuracy", title=f"Selecting from {full} settings: the winner's score is too high on {above} of {len(rows)} datasets")
    ax.legend(loc="upper left")
    save_figure(fig, paths)


def draw_growth(growth: pd.DataFrame, paths) -> None:
    """Optimism of the winner's score and error of the nested estimate against the number of candidates."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    style.apply_style()
    fig, ax = plt.subplots(figsize=(7, 4.2))
    n = growth["n_candidates"]
    ax.errorbar(n, growth["optimism_mean"], yerr=2 * growth["optimism_mean_se"], fmt="o-", capsize=3, color=style.EXPECTED,
                label="optimism: winner's CV score - truth")
    ax.errorbar(n, growth["nested_error_mean"], yerr=2 * growth["nested_error_mean_se"], fmt="s-", capsize=3, color=style.TRAIN,
                label="nested estimate - truth")
    ax.axhline(0, color=style.REFERENCE, linestyle=":")
    ax.set_xscale("log")
    ax.set_xticks(n, [str(v) for v in n])
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set(xlabel="number of candidate settings (log scale)", ylabel="mean over datasets (± 2 Monte Carlo SE)",
           title=f"The winner's optimism grows from {growth['optimism_mean'].iloc[0]:+.3f} to {growth['optimism_mean'].iloc[-1]:+.3f}; nesting stays near 0")
    ax.legend(loc="upper left")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.blocks, snakemake.input, snakemake.output)  # noqa: F821
