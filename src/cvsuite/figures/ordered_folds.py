"""The figure of study ordered_folds ("Cross-Validation", Pitfalls: Ordered data without shuffling)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.error_bars import error_bars
from cvsuite.studies.ordered_folds import SCHEMES

LABELS = {
    "unshuffled": "KFold, unshuffled",
    "shuffled": "KFold, shuffled",
    "stratified": "StratifiedKFold, shuffled",
    "stratified_unshuffled": "StratifiedKFold, unshuffled",
}
COLOURS = {
    "unshuffled": style.EXPECTED,
    "shuffled": style.TRAIN,
    "stratified": style.STD_ERROR,
    "stratified_unshuffled": style.BIAS,
}


def fold_composition_and_collapse(
    composition: pd.DataFrame, summary: pd.DataFrame, verdict: pd.Series, *, decision_standard_errors: float
) -> Figure:
    """Fold-by-class counts under three schemes; CV accuracy against K; the collapse and its cause.

    ``verdict`` is the verdict table's row (its K, classes and class size); error bars are
    ``decision_standard_errors`` Monte Carlo SEs.
    """
    z = decision_standard_errors
    n_folds, n_classes, per_class = verdict["folds"], verdict["classes"], verdict["per_class"]
    # A grid whose lower-left panel spans two columns: pyplot.figure with a gridspec, in the suite's style.
    fig = style.figure(figsize=(15, 9), layout="constrained")
    grid = fig.add_gridspec(2, 3)
    for i, scheme in enumerate(("unshuffled", "shuffled", "stratified")):
        ax = fig.add_subplot(grid[0, i])
        table = composition[composition["scheme"] == scheme].pivot(index="fold", columns="class", values="held_out")
        image = ax.imshow(table.to_numpy(), cmap="Greys", vmin=0, vmax=per_class, aspect="auto")
        counts = table.to_numpy()
        whole = int((counts == per_class).sum())
        ax.set(
            xlabel="class",
            ylabel="fold",
            title=f"{LABELS[scheme]}: {whole} whole class{'es' if whole != 1 else ''} held out\n"
            f"(each fold holds {_span(counts)} of each class)",
        )
        ax.set_xticks(range(table.shape[1]), [str(c) for c in table.columns])
        ax.set_yticks(range(table.shape[0]), [str(k) for k in table.index])
        ax.grid(False)
    scale = f"members of the class held out in the fold (of {per_class})"
    fig.colorbar(image, ax=fig.axes, location="right", shrink=0.9, label=scale)

    k_ax = fig.add_subplot(grid[1, :2])
    for scheme in SCHEMES:
        rows = summary[summary["scheme"] == scheme]
        error_bars(
            k_ax, rows["folds"], rows, "cv_accuracy_percent", z=z, color=COLOURS[scheme], label=f"CV: {LABELS[scheme]}"
        )
    truth = summary.groupby("folds")["true_accuracy_percent"].first()
    k_ax.plot(truth.index, truth.to_numpy(), "--", color="black", label="true accuracy of the model fitted on all data")
    k_ax.axhline(verdict["chance_accuracy_percent"], color=style.REFERENCE, linestyle=":", label="chance (1 / classes)")
    # A fold is at least one class long while n / K >= per_class, that is K <= classes.
    k_ax.axvline(n_classes, color=style.REFERENCE, linewidth=0.6)
    unshuffled = summary[summary["scheme"] == "unshuffled"]
    collapsed = unshuffled.loc[unshuffled["cv_accuracy_percent"] < verdict["chance_accuracy_percent"], "folds"]
    k_ax.set(
        xscale="log",
        xlabel="number of folds K (log scale)",
        ylabel="accuracy (%)",
        title=(
            f"Unshuffled folds score below chance for K ≤ {collapsed.max()} "
            f"(a fold is a whole class at K = {n_classes})"
            if len(collapsed)
            else "Unshuffled folds never score below chance here"
        ),
    )
    k_ax.set_xticks(truth.index, [str(k) for k in truth.index])
    k_ax.minorticks_off()
    k_ax.legend(fontsize=8, loc="center left")

    bar_ax = fig.add_subplot(grid[1, 2])
    at_k = summary[summary["folds"] == n_folds].set_index("scheme")
    x = np.arange(len(SCHEMES))
    bar_ax.bar(
        x - 0.2,
        at_k.loc[list(SCHEMES), "cv_accuracy_percent"],
        width=0.4,
        yerr=z * at_k.loc[list(SCHEMES), "cv_accuracy_percent_se"],
        color=[COLOURS[s] for s in SCHEMES],
        capsize=3,
        label="what CV reports",
    )
    bar_ax.bar(
        x + 0.2,
        at_k.loc[list(SCHEMES), "fold_models_true_accuracy_percent"],
        width=0.4,
        yerr=z * at_k.loc[list(SCHEMES), "fold_models_true_accuracy_percent_se"],
        color="white",
        edgecolor=[COLOURS[s] for s in SCHEMES],
        hatch="//",
        capsize=3,
        label="what the models it scored achieve",
    )
    bar_ax.set_xticks(x, [LABELS[s].replace(", ", ",\n") for s in SCHEMES], fontsize=8)
    bar_ax.set(
        ylabel="accuracy (%)",
        ylim=(0, 118),
        title=f"K = {n_folds}: the unshuffled fold models reach "
        f"{verdict['unshuffled_fold_models_true_accuracy_percent']:.0f}%,\n"
        "yet are scored only on classes they never saw",
    )
    bar_ax.legend(fontsize=8, loc="upper center", ncol=2)

    collapse = "collapses" if verdict["unshuffled_estimate_collapses"] else "does not collapse"
    fig.suptitle(
        f"Stored class by class, {n_folds} unshuffled folds hold out "
        f"{verdict['unshuffled_whole_classes_held_out']:.0f} whole classes and the CV accuracy {collapse} to "
        f"{verdict['unshuffled_cv_accuracy_percent']:.0f}% (truth {verdict['true_accuracy_percent']:.0f}%; "
        f"{int(verdict['datasets'])} data sets, bars ±{z:g} MC SE)"
    )
    return fig


def _span(counts) -> str:
    low, high = int(counts.min()), int(counts.max())
    return str(low) if low == high else f"{low}–{high}"
