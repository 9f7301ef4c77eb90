"""The figure of study varma_simon_selection_bias ("Cross-Validation", Evidence and Impact, citing
Varma and Simon, 2006): the winner's cross-validation error against nested cross-validation."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.published.published_values import published_value

# The paper's figures drawn as references, by registry row: a published number lives in the registry only.
PAPER_ROWS = {
    ("no_difference", "shrunken_centroids"): {
        "min_cv": "vs2006.table1.sc-min-cv",
        "nested_cv": "vs2006.nested.sc-null",
        "true_error": "vs2006.design.null-true-error",
    },
    ("no_difference", "svm"): {"min_cv": "vs2006.table1.svm-min-cv", "true_error": "vs2006.design.null-true-error"},
    ("class_difference", "svm"): {
        "nested_cv": "vs2006.nested.svm-signal",
        "true_error": "vs2006.nested.svm-signal-true",
    },
}

SHORT_NAMES = {"shrunken_centroids": "shrunken centroids", "svm": "SVM"}
CLASSIFIER_NAMES = {"shrunken_centroids": "shrunken centroids, 10-fold CV", "svm": "SVM, leave-one-out"}
ESTIMATES = (  # (column, axis label, key of the paper's figures, colour, legend entry and face of its mean)
    ("min_cv_error_percent", "minimum CV error", "min_cv", style.TRAIN, "minimum CV error: mean of the dots", "black"),
    # The nested loop runs on the first datasets only; its mean is the summary's control-variate
    # mean, which uses every dataset's minimum CV error: not the mean of the dots drawn.
    (
        "nested_cv_error_percent",
        "nested estimate",
        "nested_cv",
        style.EXPECTED,
        "nested estimate: control-variate mean (not the mean of its dots)",
        "white",
    ),
)
# Where a published figure was an input of the simulation (config.yaml; the registry's note): the
# shrunken centroids' equal class prior was inferred from the paper's nested estimate on null data.
PRIOR_INFERRED_FROM = {("no_difference", "shrunken_centroids"): "nested_cv"}


def min_cv_and_nested(per_dataset: pd.DataFrame, summary: pd.DataFrame, paper_percent: dict) -> Figure:
    """One panel per scenario and classifier: each dataset's minimum CV error and nested estimate
    as dots with their mean, the mean true error of the tuned classifier, and the paper's figures.

    ``paper_percent[scenario][classifier]`` maps ``min_cv``, ``nested_cv`` and ``true_error`` to
    the published percentages that exist (from the registry).
    """
    scenarios = list(dict.fromkeys(per_dataset["scenario"]))
    # In the rows' order, which is the study's order of its classifiers (``gather_shards``): the
    # study's own list would import its simulation, and scipy with it, into the figure job.
    classifiers = list(dict.fromkeys(per_dataset["classifier"]))
    fig, axes = style.subplots(
        len(scenarios), len(classifiers), figsize=(10.5, 3 * len(scenarios) + 1.8), squeeze=False, sharex=True
    )
    jitter = np.random.default_rng(0)  # only spreads overlapping dots; no result depends on it
    for row, scenario in enumerate(scenarios):
        for col, classifier in enumerate(classifiers):
            ax = axes[row, col]
            values = per_dataset[(per_dataset["scenario"] == scenario) & (per_dataset["classifier"] == classifier)]
            stats = summary[(summary["scenario"] == scenario) & (summary["classifier"] == classifier)].iloc[0]
            paper = paper_percent.get(scenario, {}).get(classifier, {})
            true_error = "true error of the tuned classifier, mean"
            ax.axvline(stats["true_error_percent"], **style.LINES["truth"], label=true_error)
            if "true_error" in paper:
                published_true = "Varma and Simon (2006): true error"
                ax.axvline(paper["true_error"], **{**style.LINES["published"], "linestyle": ":"}, label=published_true)
            # Only the estimates computed for this classifier get a row (config 'nested' says which).
            shown = [e for e in ESTIMATES if not values[e[0]].isna().all()]
            for level, (column, label, key, colour, mean_label, face) in enumerate(shown):
                ax.plot(
                    values[column],
                    level + jitter.uniform(-0.25, 0.25, len(values)),
                    "o",
                    color=colour,
                    alpha=float(np.clip(20 / values[column].notna().sum(), 0.1, 0.5)),  # fainter when many
                    markersize=5,
                    label=f"{label}, one dataset",
                )
                # The Monte Carlo s.e. of the mean (the summary's own column where it has one).
                se = stats.get(column + "_mc_se", stats[column + "_se"])
                style.error_bars(
                    ax,
                    level,
                    stats[column],
                    se,
                    horizontal=True,
                    fmt="D",
                    color="black",
                    markerfacecolor=face,
                    label=mean_label,
                    zorder=3,
                )
                if key in paper:
                    ax.plot(
                        [paper[key]] * 2,
                        [level - 0.4, level + 0.4],
                        **style.LINES["published"],
                        label="Varma and Simon (2006): estimate",
                    )
            nested = stats["nested_bias_points"]
            nested_text = (
                "(no nested estimate at these settings)"
                if np.isnan(nested)
                else f"nested {nested:+.1f} ± {style.ERROR_BAR_SE * stats['nested_bias_points_mc_se']:.1f} points "
                f"({int(stats['nested_datasets'])} nested datasets)"
            )
            ax.set(
                xlim=(0, 100),
                ylim=(-0.6, len(shown) - 0.3),
                yticks=range(len(shown)),
                yticklabels=[e[1] for e in shown],
                title=f"{scenario.replace('_', ' ')}, {CLASSIFIER_NAMES[classifier]}:\n"
                f"minimum {stats['min_cv_optimism_points']:+.1f} points from the true error;\n{nested_text}",
            )
            if row == len(scenarios) - 1:
                ax.set_xlabel("misclassification error (%)")
    legend = style.figure_legend(fig, ncols=2)
    for handle, text in zip(legend.legend_handles, legend.get_texts()):
        if text.get_text().endswith("one dataset"):
            handle.set_alpha(0.6)  # the dots fade as datasets grow many; their entry need not
    fig.suptitle(_suptitle(summary[summary["scenario"] == scenarios[0]], paper_percent.get(scenarios[0], {})))
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables and the paper's figures in the registry (its figure
    rule, ``cvsuite.workflow.figure_job``)."""
    paper_percent = {scenario: {} for scenario, _ in PAPER_ROWS}
    for (scenario, classifier), rows in PAPER_ROWS.items():
        paper_percent[scenario][classifier] = {
            key: published_value(inputs.published, claim_id) for key, claim_id in rows.items()
        }
    tables = inputs.tables
    return {"min_cv_and_nested": min_cv_and_nested(tables["per_dataset"], tables["summary"], paper_percent)}


def _suptitle(first: pd.DataFrame, paper: dict) -> str:
    """The first scenario's finding, read from the summary: how far the winner's CV error falls
    below the truth, over how many datasets; and each nested estimate as the control-variate mean
    it is, with its ± 2 s.e. and the few datasets its nested loop ran on, saying where the paper's
    figure was an input (then agreeing with it is no evidence)."""
    scenario = first["scenario"].iloc[0]
    optimism = -first["min_cv_optimism_points"]
    datasets = " and ".join(str(n) for n in dict.fromkeys(first["datasets"].astype(int)))
    truth = first["true_error_percent"].iloc[0]
    lines = [
        f"{scenario.replace('_', ' ').capitalize()}: the winner's CV error is {optimism.min():.0f} to "
        f"{optimism.max():.0f} points below the true {truth:.0f}% ({datasets} datasets)"
    ]
    for _, row in first[first["nested_datasets"] > 0].iterrows():
        lines.append(
            f"Nested estimate, {SHORT_NAMES[row['classifier']]}: {row['nested_cv_error_percent']:.1f}% "
            f"± {style.ERROR_BAR_SE * row['nested_cv_error_percent_mc_se']:.1f} over "
            f"{int(row['nested_datasets'])} nested datasets (control-variate mean)"
            + _by_construction(scenario, row["classifier"], paper)
        )
    return "\n".join(lines)


def _by_construction(scenario: str, classifier: str, paper: dict) -> str:
    key = PRIOR_INFERRED_FROM.get((scenario, classifier))
    if key is None or key not in paper.get(classifier, {}):
        return ""
    return f";\nthe class prior was inferred from the paper's {paper[classifier][key]:g}%"
