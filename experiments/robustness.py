"""Study robustness: the documents' conclusions at their own scale and on many fresh datasets.

Reads the shape-image rows of the document's 40 datasets and of the fresh ones, the document's
regression sample and the fresh samples; writes one row per conclusion (the document's words,
the estimate at both scales with its Monte Carlo standard error, held or not) and draws them.
"""

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.workflow.outputs import logged_to, read_tables, save_figure, write_provenance, write_table
from cvsuite.studies.robustness import k_bias_conclusions, ridge_conclusions, shape_image_conclusions, side_by_side

EX = "Cross-Validation"
RC = "Regularization and Cross-Validation"
WORDS = {
    "no_estimator_bias": {"document": EX, "words": "none of the four estimators shows a bias that 40 datasets can distinguish from zero"},
    "holdout_twice_as_variable": {"document": EX, "words": "its error varies about twice as much as that of 5-fold cross-validation"},
    "winner_overstates": {"document": EX, "words": "The winner's cross-validation score overstates the chosen model's accuracy on almost every dataset"},
    "nested_as_often_high_as_low": {"document": EX, "words": "The nested estimate ... shows no such bias: it is as often too high as too low"},
    "gap_grows_with_candidates": {"document": "Estimating Out-of-Sample Error", "words": "the gap grows with the number of candidates tried"},
    "cv_biased_upward": {"document": RC, "words": "The bias is always upward, so it makes every model look worse"},
    "bias_falls_with_k": {"document": RC, "words": "The bias falls monotonically"},
    "loo_zero_spread": {"document": RC, "words": "the spread across shuffles (red) collapses to exactly zero at K = N"},
    "std_error_understates_spread": {"document": RC, "words": "the spread across 40 different shuffles was 0.075755 — nearly three times larger [than the standard error]"},
    "penalty_trades_train_for_expected": {"document": RC, "words": "a 49 percent rise in training risk bought a 75 percent fall in expected risk"},
}


def main(blocks: dict, inputs, out) -> None:
    rob = blocks["robustness"]
    p1 = blocks["knn_estimators"]
    holdout, kfold = f"holdout {round(100 / p1['holdout_folds'])}%", f"{p1['repartition_folds']}-fold"
    doc_datasets = blocks["shape_images"]["datasets"]
    shape_args = (holdout, kfold, rob["almost_every"], rob["bootstrap"], rob["bootstrap_seed"], doc_datasets)
    doc_estimates, doc_selection = read_tables(inputs.document_estimates), read_tables(inputs.document_selection)
    new_estimates, new_selection = read_tables(inputs.fresh_estimates), read_tables(inputs.fresh_selection)
    doc_bias = pd.read_csv(inputs.document_k_bias).assign(dataset=0)
    doc_exchange = pd.read_csv(inputs.document_exchange)
    new_exchange, new_bias = read_tables(inputs.fresh_exchange), read_tables(inputs.fresh_k_bias)

    document = shape_image_conclusions(doc_estimates, doc_selection, *shape_args) + k_bias_conclusions(doc_bias, rob["almost_every"]) + ridge_conclusions(doc_exchange)
    fresh = shape_image_conclusions(new_estimates, new_selection, *shape_args) + k_bias_conclusions(new_bias, rob["almost_every"]) + ridge_conclusions(new_exchange)
    n_shape = (doc_estimates["dataset"].nunique(), new_estimates["dataset"].nunique())
    n_sine = (1, new_bias["dataset"].nunique())
    datasets = {c["conclusion"]: (n_shape if i < 5 else n_sine) for i, c in enumerate(document)}
    table = side_by_side(document, fresh, WORDS, datasets)
    write_table(table, out.conclusions)
    write_provenance(out.provenance, "robustness", blocks)
    draw(table, [out.figure, out.figure_svg])
    print(table[["conclusion", "document_estimate", "new_estimate", "new_se", "held"]].to_string())


def draw(table: pd.DataFrame, paths) -> None:
    """Each conclusion's statistic at the document's scale and at the new scale, with 2 SE bars."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, axes = plt.subplots(len(table), 1, figsize=(9, 1.05 * len(table) + 1))
    for ax, row in zip(axes, table.itertuples()):
        for y, (label, est, se, n, colour) in enumerate(
            [("document", row.document_estimate, row.document_se, row.document_datasets, "0.5"),
             ("fresh", row.new_estimate, row.new_se, row.new_datasets, style.PUBLISHED)]
        ):
            ax.errorbar(est, y, xerr=0 if not np.isfinite(se) else 2 * se, fmt="o", color=colour, capsize=3)
            ax.text(1.01, y, f"{label}: {n} dataset{'s' if n != 1 else ''}", transform=ax.get_yaxis_transform(), va="center", fontsize=7)
        ax.set_yticks([])
        ax.set_ylim(-0.8, 1.8)
        verdict = "held" if row.held else "NOT held"
        ax.set_title(f"{row.conclusion}: {verdict} — {row.criterion}", fontsize=8, loc="left")
        ax.tick_params(axis="x", labelsize=7)
    axes[-1].set_xlabel("statistic of the conclusion (units in its row of results/robustness/conclusions.csv); bars ± 2 Monte Carlo SE")
    fig.suptitle(f"{int(table['held'].sum())} of {len(table)} conclusions hold on fresh datasets")
    fig.tight_layout()
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.blocks, snakemake.input, snakemake.output)  # noqa: F821
