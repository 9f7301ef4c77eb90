"""Study esl_wrong_and_right_way: ESL §7.10.2 "The Wrong and Right Way to Do Cross-validation".

Cited by "Cross-Validation" (Pitfalls, 'Selecting before cross-validating') and "Estimating
Out-of-Sample Error" ('Variable selection on the full dataset ...'). Re-simulates screening 100 of
5000 noise predictors before or inside 5-fold CV of a 1-nearest-neighbour classifier. Writes the
per-dataset results under every setting, the book-design summary, the statistics the book prints
with the standard error of a comparison, the held-out correlation histogram (Figure 7.10), the
open choices, and the documents' claims as verdicts; draws the CV errors and Figure 7.10, with the
published values read from the registry.
"""

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.registry import published_value
from cvsuite.published.registry import read_registry
from cvsuite.studies.esl_wrong_and_right_way import (
    Setting,
    claim_verdicts,
    correlation_histogram,
    fold_sizes,
    published_statistics,
    setting_summary,
    simulate_wrong_and_right_way,
    summarise_procedures,
)

# Registry rows drawn as the published references.
PUBLISHED_WRONG_WAY = "esl.7102.wrong-way-cv-error"
PUBLISHED_TRUE_ERROR = "esl.7102.true-error"
PUBLISHED_WRONG_CORRELATION = "esl.7102.fig710.wrong-way-correlation"
PUBLISHED_RIGHT_CORRELATION = "esl.7102.fig710.right-way-correlation"


def settings_from(params: dict) -> list[Setting]:
    """The default setting first, then each open choice changed on its own."""
    default = Setting(params["selection"], params["stratified"], params["folds"])
    other_selection = "absolute" if default.selection == "signed" else "signed"
    settings = [default, Setting(other_selection, default.stratified, default.folds),
                Setting(default.selection, not default.stratified, default.folds)]
    settings += [Setting(default.selection, default.stratified, k) for k in params["sensitivity_folds"] if k != default.folds]
    return settings


def main(params: dict, inputs, out) -> None:
    settings = settings_from(params)
    design = params["datasets"]
    per_dataset, correlations = simulate_wrong_and_right_way(
        params["samples"], params["predictors"], params["selected"], max(design, params["precision_datasets"]),
        params["seed"], settings, params["test_points"])
    default = per_dataset[per_dataset["setting"] == 0].reset_index(drop=True)
    book_design = default[default["dataset"] < design]

    summary = summarise_procedures(book_design)
    published = published_statistics(default, correlations, design)
    histogram = correlation_histogram(correlations[:design], params["histogram_bins"])
    choices = setting_summary(per_dataset, settings, design)
    verdicts = claim_verdicts(default, params["verdict_standard_errors"], params["respectable_error_percent"])

    write_table(per_dataset, out.datasets)
    write_table(summary, out.summary)
    write_table(published, out.published_statistics)
    write_table(fold_sizes(params["samples"], params["folds"]), out.folds)
    write_table(histogram, out.histogram)
    write_table(choices, out.settings)
    write_table(verdicts, out.verdicts)
    write_provenance(out.provenance, "esl_wrong_and_right_way", {"esl_wrong_and_right_way": params})

    claims = read_registry(inputs.registry)
    references = {key: published_value(claims, claim) for key, claim in (
        ("wrong_way", PUBLISHED_WRONG_WAY), ("true_error", PUBLISHED_TRUE_ERROR),
        ("wrong_correlation", PUBLISHED_WRONG_CORRELATION), ("right_correlation", PUBLISHED_RIGHT_CORRELATION))}
    draw_cv_errors(book_design, summary, choices, published, settings, references, params,
                   [out.errors_figure, out.errors_figure_svg])
    draw_heldout_correlations(histogram, design, published, references, params,
                              [out.correlation_figure, out.correlation_figure_svg])


def setting_label(setting: Setting, default: Setting, samples: int) -> str:
    if setting == default:
        return f"as the book reads:\n{setting.selection} selection, random folds, K = {setting.folds}"
    if setting.selection != default.selection:
        return f"{setting.selection} |correlation| selection" if setting.selection == "absolute" else "signed selection"
    if setting.stratified != default.stratified:
        return "stratified folds" if setting.stratified else "random (unstratified) folds"
    return f"K = {setting.folds}" + (" (leave-one-out)" if setting.folds == samples else "")


def draw_cv_errors(book_design: pd.DataFrame, summary: pd.DataFrame, choices: pd.DataFrame, published: pd.DataFrame,
                   settings: list[Setting], references: dict, params: dict, paths) -> None:
    """Left: every dataset's CV error both ways and the final model's error on fresh data (the book's
    50 datasets). Right: both ways under each open choice, over all datasets, mean +- 2 SE."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (data_ax, choice_ax) = plt.subplots(1, 2, figsize=(13, 4.8), gridspec_kw={"width_ratios": [1.1, 1]})
    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    columns = [("wrong_way_cv_error_percent", "wrong way (CV):\nscreened on all", style.EXPECTED),
               ("right_way_cv_error_percent", "right way (CV):\nscreened in each fold", style.TRAIN),
               ("true_error_percent", "final model,\nfresh samples", style.REFERENCE)]
    for x, (column, _, colour) in enumerate(columns):
        values = book_design[column]
        data_ax.scatter(x + jitter.uniform(-0.22, 0.22, len(values)), values, s=14, alpha=0.6, color=colour)
        mean = values.mean()
        se = values.std(ddof=1) / np.sqrt(len(values))
        data_ax.errorbar(x + 0.32, mean, yerr=2 * se, fmt="o", color="black", capsize=3,
                         label="mean ± 2 Monte Carlo SE" if x == 0 else None)
    data_ax.axhline(references["wrong_way"], color=style.PUBLISHED, linestyle="--", linewidth=1.2,
                    label=f"ESL: wrong-way CV error {references['wrong_way']:g}%")
    data_ax.axhline(references["true_error"], color=style.PUBLISHED, linestyle=":", linewidth=1.2,
                    label=f"ESL: true error {references['true_error']:g}%")
    data_ax.set_xticks(range(len(columns)), [label for _, label, _ in columns], fontsize=9)
    data_ax.set(ylabel="misclassification error (%)", ylim=(-3, 103),
                title=f"{len(book_design)} datasets (the book's count), one point each")
    data_ax.legend(loc="upper left", fontsize=8)

    everything = choices[choices["datasets_used"] == "all"].reset_index(drop=True)
    rows = np.arange(len(everything))[::-1]
    for procedure, colour, name in (("wrong_way", style.EXPECTED, "wrong way"), ("right_way", style.TRAIN, "right way")):
        choice_ax.errorbar(everything[f"{procedure}_cv_error_percent"], rows,
                           xerr=2 * everything[f"{procedure}_cv_error_percent_se"], fmt="o", color=colour,
                           capsize=3, label=f"{name}, mean ± 2 SE")
    choice_ax.axvline(references["wrong_way"], color=style.PUBLISHED, linestyle="--", linewidth=1.2)
    choice_ax.axvline(references["true_error"], color=style.PUBLISHED, linestyle=":", linewidth=1.2)
    choice_ax.set_yticks(rows, [setting_label(s, settings[0], params["samples"]) for s in settings], fontsize=8)
    choice_ax.set(xlabel="5-fold CV error (%)" if all(s.folds == 5 for s in settings) else "CV error (%)",
                  xlim=(-3, 65), title=f"Open choices, each on the same {int(everything['datasets'].iloc[0])} datasets")
    choice_ax.legend(loc="center right", fontsize=8)

    by = published.set_index("statistic")
    wrong, right = by.loc["wrong_way_cv_error_percent"], by.loc["right_way_cv_error_percent"]
    fig.suptitle(f"Screening {params['selected']} of {params['predictors']:,} noise predictors on all {params['samples']} "
                 f"samples: CV error {wrong['expected']:.1f}% (ESL: {references['wrong_way']:g}%); "
                 f"inside each fold: {right['expected']:.1f}%; true error {references['true_error']:g}% "
                 f"({int(wrong['replicates'])} datasets)", y=1.02)
    save_figure(fig, paths)


def draw_heldout_correlations(histogram: pd.DataFrame, book_datasets: int, published: pd.DataFrame,
                              references: dict, params: dict, paths) -> None:
    """Figure 7.10: the selected predictors' correlations with the labels on the held-out fold, over
    the book's datasets, with the expected mean of one fold (over all datasets) and the book's."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, axes = plt.subplots(2, 1, figsize=(8, 6.4), sharex=True)
    by = published.set_index("statistic")
    panels = [("wrong_way", "Wrong way: predictors screened on all samples", style.EXPECTED, "wrong_correlation"),
              ("right_way", "Right way: predictors screened on the fold's training samples", style.TRAIN,
               "right_correlation")]
    for ax, (procedure, title, colour, reference) in zip(axes, panels):
        bins = histogram[histogram["procedure"] == procedure]
        ax.bar(bins["bin_lower"], bins["share_percent"], width=bins["bin_upper"] - bins["bin_lower"], align="edge",
               color=colour, alpha=0.7, edgecolor="white",
               label=f"every held-out correlation, {book_datasets} datasets x {params['folds']} folds")
        row = by.loc[f"{procedure}_mean_heldout_correlation"]
        ax.axvline(row["expected"], color="black", linewidth=1.5,
                   label=f"one fold's mean: expected {row['expected']:+.3f}, s.d. {row['design_sd']:.3f}")
        ax.axvline(references[reference], color=style.PUBLISHED, linestyle="--", linewidth=1.5,
                   label=f"ESL (one fold): about {references[reference]:g}")
        ax.set(ylabel="share of correlations (%)", title=title, ylim=(0, 1.45 * bins["share_percent"].max()))
        ax.legend(loc="upper left", fontsize=8)
    axes[1].set(xlabel=f"correlation with the class labels on the held-out fold "
                       f"({params['samples'] // params['folds']} samples)", xlim=(-1, 1))
    wrong = by.loc["wrong_way_mean_heldout_correlation"]
    right = by.loc["right_way_mean_heldout_correlation", "expected"]
    fig.suptitle(f"On the held-out fold the {params['selected']} selected predictors correlate {wrong['expected']:.2f} "
                 f"with the labels the wrong way (ESL: {references['wrong_correlation']:g}), {right:+.3f} the right way\n"
                 f"(expected means of one fold from {int(wrong['replicates'])} folds)")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.input, snakemake.output)  # noqa: F821
