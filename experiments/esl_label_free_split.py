"""Study esl_label_free_split: ESL §7.10.3 "Does Cross-Validation Really Work?".

Cited by "Cross-Validation", How It Works ('for a classifier that picks the best of 500 predictors
unrelated to the labels, five-fold cross-validation averaged about the true 50% error over 50
simulated datasets'). Re-simulates the best single split (stump) among 500 noise predictors on 20
samples: the stump fitted to all samples, the full-data predictor with its split re-estimated in
each fold, and cross-validation done right. Writes the per-dataset and per-fold results, the
book-design summary, the statistics the book prints with the standard error of a comparison, the
open fold construction, Figure 7.11's top panels for one dataset, and the document's claim as
verdicts; draws Figure 7.11's bottom right and top panels, with the published values read from the
registry.
"""

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.registry import published_value
from cvsuite.published.registry import read_registry
from cvsuite.studies.esl_label_free_split import (
    PROCEDURES,
    claim_verdicts,
    fold_sizes,
    heldout_error_distribution,
    one_dataset_stumps,
    published_statistics,
    setting_summary,
    simulate_label_free_split,
    summarise_procedures,
)

# Registry rows drawn as the published references.
PUBLISHED_CV_ERROR = "esl.7103.cv-error"
PUBLISHED_REFIT_ERRORS = "esl.7103.fig711.refit-split-errors"

LABELS = {
    "full_data_stump": "predictor and split\nfrom all 20 samples",
    "full_data_predictor": "predictor from all 20,\nsplit refitted per fold",
    "cross_validated_stump": "both re-chosen\nin each fold (CV)",
}


def main(params: dict, inputs, out) -> None:
    design = params["datasets"]
    constructions = [params["stratified"], not params["stratified"]]
    per_dataset, per_fold = simulate_label_free_split(
        params["samples"], params["predictors"], params["folds"], max(design, params["precision_datasets"]),
        params["seed"], constructions, params["test_points"])
    default = per_dataset[per_dataset["setting"] == 0].reset_index(drop=True)
    book_design = default[default["dataset"] < design]

    summary = summarise_procedures(book_design)
    published = published_statistics(default, per_fold, design)
    distribution = heldout_error_distribution(per_fold)
    choices = setting_summary(per_dataset, constructions, design)
    one_dataset = one_dataset_stumps(params["samples"], params["predictors"], params["folds"], params["seed"],
                                     params["figure_dataset"], params["stratified"], params["marked_predictors"])
    verdicts = claim_verdicts(default, params["verdict_standard_errors"])

    write_table(per_dataset, out.datasets)
    write_table(per_fold, out.heldout_folds)
    write_table(summary, out.summary)
    write_table(published, out.published_statistics)
    write_table(distribution, out.heldout_error_distribution)
    write_table(fold_sizes(params["samples"], params["folds"]), out.folds)
    write_table(choices, out.settings)
    write_table(one_dataset, out.one_dataset)
    write_table(verdicts, out.verdicts)
    write_provenance(out.provenance, "esl_label_free_split", {"esl_label_free_split": params})

    claims = read_registry(inputs.registry)
    published_cv = published_value(claims, PUBLISHED_CV_ERROR)
    published_refit = published_value(claims, PUBLISHED_REFIT_ERRORS)
    draw_cv_errors(book_design, published, choices, published_cv, params, [out.errors_figure, out.errors_figure_svg])
    draw_one_dataset(one_dataset, published, published_refit, params, [out.stumps_figure, out.stumps_figure_svg])


def draw_cv_errors(book_design: pd.DataFrame, published: pd.DataFrame, choices: pd.DataFrame, published_cv: float,
                   params: dict, paths) -> None:
    """Left: each dataset's 5-fold CV error under the three procedures, and the full-data stump's
    error on fresh samples. Right: Figure 7.11's bottom right, the CV errors of the 50 datasets."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (data_ax, hist_ax) = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [1.3, 1]})
    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    colours = {"full_data_stump": style.EXPECTED, "full_data_predictor": style.BIAS, "cross_validated_stump": style.TRAIN}
    columns = [(f"{p}_cv_error_percent", LABELS[p], colours[p]) for p in PROCEDURES]
    columns.append(("true_error_percent", "full-data stump,\nfresh samples", style.REFERENCE))
    for x, (column, _, colour) in enumerate(columns):
        values = book_design[column]
        data_ax.scatter(x + jitter.uniform(-0.22, 0.22, len(values)), values, s=14, alpha=0.6, color=colour)
        se = values.std(ddof=1) / np.sqrt(len(values))
        data_ax.errorbar(x + 0.32, values.mean(), yerr=2 * se, fmt="o", color="black", capsize=3,
                         label="mean ± 2 Monte Carlo SE" if x == 0 else None)
    data_ax.axhline(published_cv, color=style.PUBLISHED, linestyle="--", linewidth=1.2,
                    label=f"ESL: CV error about {published_cv:g}%")
    data_ax.set_xticks(range(len(columns)), [label for _, label, _ in columns], fontsize=9)
    data_ax.set(ylabel="misclassification error (%)", ylim=(-3, 103),
                title=f"{len(book_design)} datasets (the book's count), one point each")
    data_ax.legend(loc="upper left", fontsize=8)

    cv = book_design["cross_validated_stump_cv_error_percent"]
    step = 100.0 / params["samples"]  # a CV error moves in steps of one sample
    bins = np.arange(0.0 - step / 2, 100.0 + step, step)
    heights, _, _ = hist_ax.hist(cv, bins=bins, color=style.TRAIN, alpha=0.75, label=f"{len(cv)} datasets")
    everything = choices[choices["datasets_used"] == "all"].set_index("stratified")
    for stratified, line in ((params["stratified"], "-"), (not params["stratified"], "-.")):
        name = "stratified" if stratified else "random"
        value = everything.loc[stratified, "cross_validated_stump_cv_error_percent"]
        hist_ax.axvline(value, color="black", linestyle=line, linewidth=1.3,
                        label=f"expected, {name} folds: {value:.1f}% ({int(everything.loc[stratified, 'datasets'])} datasets)")
    hist_ax.axvline(published_cv, color=style.PUBLISHED, linestyle="--", linewidth=1.5, label=f"ESL: about {published_cv:g}%")
    hist_ax.set(xlabel="5-fold CV error of the cross-validated stump (%)", ylabel="datasets", xlim=(0, 100),
                ylim=(0, 1.6 * heights.max()), title="Figure 7.11, bottom right")
    hist_ax.legend(loc="upper left", fontsize=8)

    by = published.set_index("statistic")
    fig.suptitle(f"Best of {params['predictors']} noise stumps on {params['samples']} samples: "
                 f"{by.loc['full_data_stump_cv_error_percent', 'expected']:.0f}% error scored with the full-data split, "
                 f"{by.loc['full_data_predictor_cv_error_percent', 'expected']:.0f}% with the split refitted, "
                 f"{by.loc['cross_validated_stump_cv_error_percent', 'expected']:.1f}% when the predictor is re-chosen too "
                 f"(ESL: about {published_cv:g}%)", y=1.02)
    save_figure(fig, paths)


def draw_one_dataset(one: pd.DataFrame, published: pd.DataFrame, published_refit: float, params: dict, paths) -> None:
    """Figure 7.11's top panels: every stump's full-data training errors, and on one fold its
    errors on the training folds against its errors on the held-out fold."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (full_ax, fold_ax) = plt.subplots(1, 2, figsize=(12, 4.4))
    plain, marked = one[~one["marked"]], one[one["marked"]]
    full_ax.scatter(plain["predictor"], plain["full_data_training_errors"], s=8, color="0.6")
    full_ax.scatter(marked["predictor"], marked["full_data_training_errors"], s=40, color=style.EXPECTED,
                    label=f"the {len(marked)} predictors of fewest errors")
    full_ax.set(xlabel="predictor", ylabel=f"training errors of its best stump (of {params['samples']})",
                title="Stumps fitted to all samples", ylim=(-0.5, one["full_data_training_errors"].max() + 2.5))
    full_ax.legend(loc="upper left", fontsize=8)

    jitter = np.random.default_rng(1)  # display only: error counts are integers
    train_n, test_n = int(one["training_samples"].iloc[0]), int(one["heldout_samples"].iloc[0])
    for rows, size, colour, label in ((plain, 8, "0.6", None), (marked, 40, style.EXPECTED, "the same marked predictors")):
        fold_ax.scatter(rows["fold_training_errors"] + jitter.uniform(-0.2, 0.2, len(rows)),
                        rows["fold_heldout_errors"] + jitter.uniform(-0.2, 0.2, len(rows)), s=size, color=colour,
                        alpha=0.7, label=label)
    row = published.set_index("statistic").loc["full_data_predictor_heldout_errors"]
    fold_ax.axhline(row["expected"], color="black", linewidth=1.2,
                    label=f"full-data best predictor, split refitted: {row['expected']:.2f} errors expected (s.d. {row['design_sd']:.2f})")
    fold_ax.axhline(published_refit, color=style.PUBLISHED, linestyle="--", linewidth=1.2,
                    label=f"ESL's one fold: {published_refit:g} of {test_n}")
    fold_ax.set(xlabel=f"errors on the {train_n} training samples of fold 1", ylabel=f"errors on the {test_n} held-out samples",
                ylim=(-0.5, test_n + 1.6), title="Stumps refitted on 4/5 of the samples, tested on 1/5")
    fold_ax.legend(loc="upper left", fontsize=8)

    best = marked.sort_values(["full_data_training_errors", "predictor"]).iloc[0]
    fig.suptitle(f"Dataset {params['figure_dataset']}: the best of {len(one)} stumps makes {int(best['full_data_training_errors'])} "
                 f"of {params['samples']} training errors; refitted on {train_n} samples it makes "
                 f"{int(best['fold_heldout_errors'])} of {test_n} held-out errors", y=1.02)
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.input, snakemake.output)  # noqa: F821
