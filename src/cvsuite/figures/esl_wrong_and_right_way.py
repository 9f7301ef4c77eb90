"""The figures of study esl_wrong_and_right_way (ESL §7.10.2 and its Figure 7.10)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.data.null_predictors import NullDesign
from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.figures.marks import replicate_columns
from cvsuite.published.published_values import published_value
from cvsuite.studies.esl_wrong_and_right_way import Setting, open_choice_settings
from cvsuite.studies.esl_wrong_and_right_way_summaries import PUBLISHED, book_reading_runs


def setting_label(setting: Setting, default: Setting, samples: int) -> str:
    """How a setting differs from the book's reading, for a tick label."""
    if setting == default:
        return f"as the book reads:\n{setting.selection} selection,\nrandom folds, K = {setting.folds}"
    if setting.selection != default.selection:
        return (
            f"{setting.selection} |correlation|\nselection" if setting.selection == "absolute" else "signed selection"
        )
    if setting.stratified != default.stratified:
        return "stratified folds" if setting.stratified else "random (unstratified) folds"
    return f"K = {setting.folds}" + (" (leave-one-out)" if setting.folds == samples else "")


def cv_error_wrong_and_right(
    book_design: pd.DataFrame,
    choices: pd.DataFrame,
    published: pd.DataFrame,
    settings: list[Setting],
    references: dict,
    *,
    null: NullDesign,
    selected: int,
) -> Figure:
    """Left: every dataset's CV error both ways and the final model's error on fresh data (the book's
    50 datasets). Right: both ways under each open choice, over all datasets, mean +- 2 SE.
    ``references`` holds the published "wrong_way" CV error and "true_error" (percent)."""
    fig, (data_ax, choice_ax) = style.subplots(1, 2, figsize=(10.5, 5.6), gridspec_kw={"width_ratios": [1.15, 1]})
    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    columns = [
        ("wrong_way_cv_error_percent", "wrong way\n(CV): screened\non all", style.EXPECTED),
        ("right_way_cv_error_percent", "right way\n(CV): screened\nin each fold", style.TRAIN),
        ("true_error_percent", "final model,\nfresh\nsamples", style.TRUTH),
    ]
    replicate_columns(data_ax, book_design, columns, jitter)
    shown = {column: book_design[column].mean() for column, _, _ in columns}
    for x, (column, _, _) in enumerate(columns):  # each mean's value beside it: the title quotes it
        data_ax.annotate(
            f"{shown[column]:.1f}%",
            (x + 0.32, shown[column]),
            xytext=(6, 4),
            textcoords="offset points",
            va="bottom",
            fontsize=style.SMALL_PT,
        )
    lines = (
        (references["wrong_way"], f"ESL: wrong-way CV error {references['wrong_way']:g}%", {}),
        (references["true_error"], f"ESL: true error {references['true_error']:g}%", {"linestyle": ":"}),
    )
    for value, label, how in lines:
        style.reference_line(data_ax, value, label, kind="published", **how)
        style.reference_line(choice_ax, value, label, kind="published", vertical=True, **how)
    data_ax.set(
        ylabel="misclassification error (%)",
        ylim=(-3, 103),
        title=f"{len(book_design)} datasets (the book's count),\none point each",
    )

    everything = choices[choices["datasets_used"] == "all"].reset_index(drop=True)
    rows = np.arange(len(everything))[::-1]
    for procedure, colour, name in (
        ("wrong_way", style.EXPECTED, "wrong way"),
        ("right_way", style.TRAIN, "right way"),
    ):
        mean, se = everything[f"{procedure}_cv_error_percent"], everything[f"{procedure}_cv_error_percent_se"]
        style.error_bars(choice_ax, rows, mean, se, horizontal=True, fmt="o", color=colour, label=f"{name}: mean")
    choice_ax.set_yticks(rows, [setting_label(s, settings[0], null.samples) for s in settings])
    choice_ax.set_ylim(rows.min() - 0.5, rows.max() + 0.5)
    choice_ax.set(
        xlabel="5-fold CV error (%)" if all(s.folds == 5 for s in settings) else "CV error (%)",
        xlim=(-3, 65),
        title=f"Open choices, each on the\nsame {int(everything['datasets'].iloc[0])} datasets",
    )
    style.figure_legend(fig)

    by = published.set_index("statistic")
    wrong, right = by.loc["wrong_way_cv_error_percent"], by.loc["right_way_cv_error_percent"]
    # The title's means are over all the datasets (the right panel's top row); the left panel's
    # are over the book's count, so both are stated.
    fig.suptitle(
        f"Screening {selected} of {null.predictors:,} noise predictors on all {null.samples} "
        f"samples: CV error {wrong['expected']:.1f}% (ESL: {references['wrong_way']:g}%);\n"
        f"inside each fold: {right['expected']:.1f}%; true error {references['true_error']:g}% "
        f"({int(wrong['replicates'])} datasets: right, top row; the {len(book_design)} shown left: "
        f"{shown['wrong_way_cv_error_percent']:.1f}%, {shown['right_way_cv_error_percent']:.1f}%)"
    )
    return fig


def heldout_correlations(
    histogram: pd.DataFrame,
    published: pd.DataFrame,
    references: dict,
    *,
    null: NullDesign,
    book_datasets: int,
    folds: int,
    selected: int,
) -> Figure:
    """Figure 7.10: the selected predictors' correlations with the labels on the held-out fold, over
    the book's datasets, with the expected mean of one fold (over all datasets) and the book's.
    ``references`` holds the published "wrong_correlation" and "right_correlation"."""
    fig, axes = style.subplots(2, 1, figsize=(10, 7), sharex=True)
    by = published.set_index("statistic")
    panels = [
        ("wrong_way", "Wrong way: predictors screened on all samples", style.EXPECTED, "wrong_correlation"),
        (
            "right_way",
            "Right way: predictors screened on the fold's training samples",
            style.TRAIN,
            "right_correlation",
        ),
    ]
    for ax, (procedure, title, colour, reference) in zip(axes, panels):
        bins = histogram[histogram["procedure"] == procedure]
        ax.bar(
            bins["bin_lower"],
            bins["share_percent"],
            width=bins["bin_upper"] - bins["bin_lower"],
            align="edge",
            color=colour,
            alpha=0.7,
            edgecolor="white",
            label=f"every held-out correlation,\n{book_datasets} datasets x {folds} folds",
        )
        row = by.loc[f"{procedure}_mean_heldout_correlation"]
        expected = f"one fold's mean: expected\n{row['expected']:+.3f}, s.d. {row['design_sd']:.3f}"
        # Wide black under the thin teal dashes: where the two coincide (the right way, near 0)
        # the black shows on both sides of the teal and between its dashes.
        style.reference_line(ax, row["expected"], expected, kind="reproduced", vertical=True, linewidth=3.5)
        label = f"ESL (one fold): about {references[reference]:g}"
        style.reference_line(ax, references[reference], label, kind="published", vertical=True, zorder=3)
        ax.set(ylabel="share of correlations (%)", title=title, ylim=(0, 1.1 * bins["share_percent"].max()))
        style.legend(ax, loc="upper left", bbox_to_anchor=(1.02, 1))
    axes[1].set(
        xlabel=f"correlation with the class labels on the held-out fold ({null.samples // folds} samples)", xlim=(-1, 1)
    )
    wrong = by.loc["wrong_way_mean_heldout_correlation"]
    right = by.loc["right_way_mean_heldout_correlation", "expected"]
    fig.suptitle(
        f"On the held-out fold the {selected} selected predictors correlate {wrong['expected']:.2f} "
        f"with the labels the wrong way (ESL: {references['wrong_correlation']:g}),\n{right:+.3f} the right way "
        f"(expected means of one fold from {int(wrong['replicates'])} folds)"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables and the published values in the registry (its
    figure rule, ``cvsuite.workflow.figure_job``)."""
    params, tables = inputs.config["esl_wrong_and_right_way"], inputs.tables
    null = NullDesign.from_block(params)
    settings = open_choice_settings(
        Setting(params["selection"], params["stratified"], params["folds"]), params["sensitivity_folds"]
    )
    _, book_design = book_reading_runs(tables["datasets"], params["datasets"])
    published = tables["published_statistics"]
    references = {name: published_value(inputs.published, claim) for name, claim in PUBLISHED.items()}
    return {
        "cv_error_wrong_and_right": cv_error_wrong_and_right(
            book_design, tables["settings"], published, settings, references, null=null, selected=params["selected"]
        ),
        "heldout_correlations": heldout_correlations(
            tables["heldout_correlation_histogram"],
            published,
            references,
            null=null,
            book_datasets=params["datasets"],
            folds=params["folds"],
            selected=params["selected"],
        ),
    }
