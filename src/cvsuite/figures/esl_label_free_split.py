"""The figures of study esl_label_free_split (ESL §7.10.3 and its Figure 7.11)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.data.null_predictors import NullDesign
from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.figures.marks import replicate_columns
from cvsuite.published.published_values import published_value
from cvsuite.studies.esl_label_free_split import PROCEDURES, PUBLISHED_CV_ERROR, PUBLISHED_REFIT_ERRORS
from cvsuite.studies.esl_wrong_and_right_way_summaries import book_reading_runs

LABELS = {
    "full_data_stump": "predictor\nand split\nfrom all 20",
    "full_data_predictor": "predictor\nfrom all 20,\nsplit refitted",
    "cross_validated_stump": "both\nre-chosen in\neach fold (CV)",
}


def cv_error_by_procedure(
    book_design: pd.DataFrame,
    published: pd.DataFrame,
    choices: pd.DataFrame,
    published_cv: float,
    *,
    null: NullDesign,
    stratified: bool,
) -> Figure:
    """Left: each dataset's 5-fold CV error under the three procedures, and the full-data stump's
    error on fresh samples. Right: Figure 7.11's bottom right, the CV errors of the 50 datasets.
    ``stratified`` is the fold construction of the book's reading; the other one is drawn too."""
    fig, (data_ax, hist_ax) = style.subplots(1, 2, figsize=(10.5, 5.8), gridspec_kw={"width_ratios": [1.3, 1]})
    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    colours = {
        "full_data_stump": style.EXPECTED,
        "full_data_predictor": style.BIAS,
        "cross_validated_stump": style.TRAIN,
    }
    columns = [(f"{p}_cv_error_percent", LABELS[p], colours[p]) for p in PROCEDURES]
    columns.append(("true_error_percent", "full-data\nstump, fresh\nsamples", style.TRUTH))
    replicate_columns(data_ax, book_design, columns, jitter)
    esl = f"ESL: CV error about {published_cv:g}%"
    style.reference_line(data_ax, published_cv, esl, kind="published")
    data_ax.set(
        ylabel="misclassification error (%)",
        ylim=(-3, 103),
        title=f"{len(book_design)} datasets (the book's count),\none point each",
    )

    cv = book_design["cross_validated_stump_cv_error_percent"]
    step = 100.0 / null.samples  # a CV error moves in steps of one sample
    bins = np.arange(0.0 - step / 2, 100.0 + step, step)
    label = f"the {len(cv)} datasets' CV errors (right)"
    hist_ax.hist(cv, bins=bins, color=style.TRAIN, alpha=0.75, label=label)
    everything = choices[choices["datasets_used"] == "all"].set_index("stratified")
    for construction, line in ((stratified, "-"), (not stratified, "-.")):
        value, count = everything.loc[construction, ["cross_validated_stump_cv_error_percent", "datasets"]]
        name = "stratified" if construction else "random"
        label = f"expected, {name} folds: {value:.1f}% ({int(count)} datasets)"
        style.reference_line(hist_ax, value, label, kind="reproduced", vertical=True, linestyle=line)
    style.reference_line(hist_ax, published_cv, esl, kind="published", vertical=True)
    style.integer_axis(hist_ax, "y")
    hist_ax.set(
        xlabel="5-fold CV error of the\ncross-validated stump (%)",
        ylabel="datasets",
        xlim=(0, 100),
        title="Figure 7.11, bottom right",
    )
    style.figure_legend(fig)

    by = published.set_index("statistic")
    fig.suptitle(
        f"Best of {null.predictors} noise stumps on {null.samples} samples: "
        f"{by.loc['full_data_stump_cv_error_percent', 'expected']:.0f}% error scored with the full-data split,\n"
        f"{by.loc['full_data_predictor_cv_error_percent', 'expected']:.0f}% with the split refitted, "
        f"{by.loc['cross_validated_stump_cv_error_percent', 'expected']:.1f}% when the predictor is re-chosen too "
        f"(ESL: about {published_cv:g}%)"
    )
    return fig


def one_dataset_stumps(
    one: pd.DataFrame, published: pd.DataFrame, published_refit: float, *, null: NullDesign, dataset: int
) -> Figure:
    """Figure 7.11's top panels: every stump's full-data training errors, and on one fold its
    errors on the training folds against its errors on the held-out fold (``dataset`` names it)."""
    fig, (full_ax, fold_ax) = style.subplots(1, 2, figsize=(10.5, 5.2))
    plain, marked = one[~one["marked"]], one[one["marked"]]
    others = "the other predictors"
    full_ax.scatter(plain["predictor"], plain["full_data_training_errors"], s=8, color="0.6", label=others)
    full_ax.scatter(
        marked["predictor"],
        marked["full_data_training_errors"],
        s=40,
        color=style.EXPECTED,
        label=f"the {len(marked)} predictors of fewest training errors",
    )
    full_ax.set(
        xlabel="predictor",
        ylabel=f"training errors of its best stump (of {null.samples})",
        title="Stumps fitted to all samples",
        ylim=(-0.5, one["full_data_training_errors"].max() + 0.5),
    )

    jitter = np.random.default_rng(1)  # display only: error counts are integers
    train_n, test_n = int(one["training_samples"].iloc[0]), int(one["heldout_samples"].iloc[0])
    for rows, size, colour, label in (
        (plain, 8, "0.6", others),
        (marked, 40, style.EXPECTED, f"the {len(marked)} predictors of fewest training errors"),
    ):
        fold_ax.scatter(
            rows["fold_training_errors"] + jitter.uniform(-0.2, 0.2, len(rows)),
            rows["fold_heldout_errors"] + jitter.uniform(-0.2, 0.2, len(rows)),
            s=size,
            color=colour,
            alpha=0.7,
            label=label,
        )
    row = published.set_index("statistic").loc["full_data_predictor_heldout_errors"]
    expected = (
        f"full-data best predictor, split refitted:\n"
        f"{row['expected']:.2f} held-out errors expected (s.d. {row['design_sd']:.2f})"
    )
    style.reference_line(fold_ax, row["expected"], expected, kind="reproduced")
    style.reference_line(fold_ax, published_refit, f"ESL's one fold: {published_refit:g} of {test_n}", kind="published")
    fold_ax.set(
        xlabel=f"errors on the {train_n} training samples of fold 1",
        ylabel=f"errors on the {test_n} held-out samples",
        ylim=(-0.5, test_n + 0.5),
        title="Stumps refitted on 4/5 of the samples,\ntested on 1/5",
    )
    for ax in (full_ax, fold_ax):
        for which in ("x", "y"):
            style.integer_axis(ax, which)
    style.figure_legend(fig)

    best = marked.sort_values(["full_data_training_errors", "predictor"]).iloc[0]
    fig.suptitle(
        f"Dataset {dataset}: the best of {len(one)} stumps makes {int(best['full_data_training_errors'])} "
        f"of {null.samples} training errors;\nrefitted on {train_n} samples it makes "
        f"{int(best['fold_heldout_errors'])} of {test_n} held-out errors"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables and the published values in the registry (its
    figure rule, ``cvsuite.workflow.figure_job``)."""
    params, tables = inputs.config["esl_label_free_split"], inputs.tables
    null = NullDesign.from_block(params)
    _, book_design = book_reading_runs(tables["datasets"], params["datasets"])
    published = tables["published_statistics"]
    return {
        "cv_error_by_procedure": cv_error_by_procedure(
            book_design,
            published,
            tables["settings"],
            published_value(inputs.published, PUBLISHED_CV_ERROR),
            null=null,
            stratified=params["stratified"],
        ),
        "one_dataset_stumps": one_dataset_stumps(
            tables["one_dataset"],
            published,
            published_value(inputs.published, PUBLISHED_REFIT_ERRORS),
            null=null,
            dataset=params["figure_dataset"],
        ),
    }
