"""The figure of study ordered_folds ("Cross-Validation", Pitfalls: Ordered data without shuffling)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import PowerNorm
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
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
# The three schemes that keep every class in every fold score alike: each has its own marker and
# line, and sits a little to its side of K (display only), so that none hides the others.
MARKS = {
    "unshuffled": ("o", "-", 1.0),
    "shuffled": ("o", "-", 0.95),
    "stratified": ("s", "--", 1.0),
    "stratified_unshuffled": ("^", ":", 1.05),
}


def _composition(subfig, composition: pd.DataFrame, per_class: int) -> None:
    """Fold-by-class counts of three schemes as grey maps sharing one colour bar beside them."""
    axes = subfig.subplots(1, 3)
    # A square-root scale: the stratified folds' 3 of 30 would be a barely visible grey on a linear one.
    norm = PowerNorm(0.5, vmin=0, vmax=per_class)
    for ax, scheme in zip(axes, ("unshuffled", "shuffled", "stratified")):
        table = composition[composition["scheme"] == scheme].pivot(index="fold", columns="class", values="held_out")
        counts = table.to_numpy()
        image = ax.imshow(counts, cmap="Greys", norm=norm, aspect="auto")
        whole = int((counts == per_class).sum())
        ax.set(  # classes keep their labels (from 0), folds the table's numbers (from 1): both said
            xlabel=f"class label ({table.columns.min()}–{table.columns.max()})",
            ylabel=f"fold number ({table.index.min()}–{table.index.max()})",
            title=f"{LABELS[scheme]}:\n{whole} whole class{'es' if whole != 1 else ''} held out;\n"
            f"a fold holds {_span(counts)} of each class",
        )
        ax.set_xticks(range(table.shape[1]), [str(c) for c in table.columns])
        ax.set_yticks(range(table.shape[0]), [str(k) for k in table.index])
        ax.grid(False)
    bar = subfig.colorbar(image, ax=axes, location="right", shrink=0.85)
    bar.set_label(f"class members held out\nin the fold (of {per_class})")
    bar.set_ticks([0, 1, 3, 10, 20, per_class])


def fold_composition_and_collapse(composition: pd.DataFrame, summary: pd.DataFrame, at_k_row: pd.Series) -> Figure:
    """Fold-by-class counts under three schemes; CV accuracy against K; the collapse and its cause.

    ``at_k_row`` is the row of the schemes side by side at the document's K (its K, classes and class size).
    """
    n_folds, n_classes, per_class = int(at_k_row["folds"]), int(at_k_row["classes"]), int(at_k_row["per_class"])
    fig = style.figure(figsize=(10.5, 11))
    top, bottom = fig.subfigures(2, 1, height_ratios=[1, 1.2])
    _composition(top, composition, per_class)
    k_ax, zoom_ax, bar_ax = bottom.subplots(1, 3, gridspec_kw={"width_ratios": [1, 1, 1.1]})
    truth = summary.groupby("folds")["true_accuracy_percent"].first()
    unshuffled = summary[summary["scheme"] == "unshuffled"]
    collapsed = unshuffled.loc[unshuffled["cv_accuracy_percent"] < at_k_row["chance_accuracy_percent"], "folds"]
    keeping = [s for s in SCHEMES if s != "unshuffled"]
    for ax, schemes in ((k_ax, SCHEMES), (zoom_ax, keeping)):
        for scheme in schemes:
            rows = summary[summary["scheme"] == scheme]
            marker, line, shift = MARKS[scheme]
            style.error_bars(
                ax,
                rows["folds"] * shift,
                rows["cv_accuracy_percent"],
                rows["cv_accuracy_percent_se"],
                fmt=marker + line,
                color=COLOURS[scheme],
                label=f"CV: {LABELS[scheme]}",
            )
        truth_label = "true accuracy of the model fitted on all data"
        ax.plot(truth.index, truth.to_numpy(), **style.LINES["truth"], label=truth_label)
        style.log_axis(ax, "x", truth.index)
        style.integer_axis(ax, "x")
        ax.set(xlabel="number of folds K (log scale)", ylabel="accuracy (%)")
    style.reference_line(k_ax, at_k_row["chance_accuracy_percent"], "chance (1 / classes)")
    # A fold is at least one class long while n / K >= per_class, that is K <= classes.
    whole = f"K = {n_classes}: a fold is one whole class"
    style.reference_line(k_ax, n_classes, whole, vertical=True, linestyle="-", linewidth=0.8)
    if len(collapsed):
        scores = unshuffled.loc[unshuffled["folds"].isin(collapsed), "cv_accuracy_percent"]
        span = _span(scores.round().astype(int).to_numpy()) + "%"
        k_ax.set_title(
            f"All four schemes: unshuffled KFold\nscores {span} for K ≤ {collapsed.max()},\n"
            f"below chance ({at_k_row['chance_accuracy_percent']:.0f}%)"
        )
    else:
        k_ax.set_title("All four schemes: unshuffled KFold\nnever scores below chance here")
    zoom_ax.set_title("The other three, enlarged:\nclose to the truth and to each other")

    at_k = summary[summary["folds"] == n_folds].set_index("scheme").loc[list(SCHEMES)]
    x = np.arange(len(SCHEMES))
    colours = [COLOURS[s] for s in SCHEMES]
    reported = bar_ax.bar(x - 0.2, at_k["cv_accuracy_percent"], width=0.4, color=colours, label="what CV reports")
    achieved = bar_ax.bar(
        x + 0.2,
        at_k["fold_models_true_accuracy_percent"],
        width=0.4,
        color="white",
        edgecolor=colours,
        hatch="//",
        label="what the models it scored achieve (hatched)",
    )
    for bars, column in ((reported, "cv_accuracy_percent"), (achieved, "fold_models_true_accuracy_percent")):
        centres = [b.get_x() + b.get_width() / 2 for b in bars]
        errors = style.error_bars(bar_ax, centres, at_k[column], at_k[f"{column}_se"], fmt="none", color="black")
        style.explained(errors, "the bars' legend entries")
    for bar, value in zip(reported, at_k["cv_accuracy_percent"]):
        if value < 2:  # a bar this low cannot be seen: its value is written at the baseline
            bar_ax.annotate(
                f"{value:.0f}%",
                (bar.get_x() + bar.get_width() / 2, 0),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=style.SMALL_PT,
            )
    style.explained(
        reported, "the colour of its scheme, as in the left panel; the legend entry shows the fill or the hatch"
    )
    bar_ax.set_xticks(
        x, [LABELS[s].replace(", ", ",\n").replace("StratifiedKFold", "Stratified-\nKFold") for s in SCHEMES]
    )
    bar_ax.set(
        ylabel="accuracy (%)",
        ylim=(0, 100),
        title=f"K = {n_folds}: unshuffled fold models\nreach "
        f"{at_k_row['unshuffled_fold_models_true_accuracy_percent']:.0f}%, yet are scored\n"
        "only on classes they never saw",
    )
    legend = style.figure_legend(fig, axes=[k_ax, bar_ax])
    for handle, text in zip(legend.legend_handles, legend.get_texts()):
        if text.get_text() in (reported.get_label(), achieved.get_label()):
            # The bars take their scheme's colour; the entry shows only the fill or the hatch.
            handle.set_facecolor("0.55" if text.get_text() == reported.get_label() else "white")
            handle.set_edgecolor("0.3")

    fig.suptitle(
        f"Stored class by class, {n_folds} unshuffled folds hold out "
        f"{at_k_row['unshuffled_whole_classes_held_out']:.0f} whole classes\nand the CV accuracy reads "
        f"{at_k_row['unshuffled_cv_accuracy_percent']:.0f}% (truth {at_k_row['true_accuracy_percent']:.0f}%, "
        f"chance {at_k_row['chance_accuracy_percent']:.0f}%; {int(at_k_row['datasets'])} data sets)"
    )
    return fig


def _span(counts) -> str:
    low, high = int(counts.min()), int(counts.max())
    return str(low) if low == high else f"{low}–{high}"


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    tables = inputs.tables
    figure = fold_composition_and_collapse(
        tables["fold_composition"], tables["summary"], tables["schemes_at_k"].iloc[0]
    )
    return {"fold_composition_and_collapse": figure}
