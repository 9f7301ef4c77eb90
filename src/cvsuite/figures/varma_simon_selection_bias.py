"""The figure of study varma_simon_selection_bias ("Cross-Validation", Evidence and Impact, citing
Varma and Simon, 2006): the winner's cross-validation error against nested cross-validation."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from cvsuite.figures import style
from cvsuite.studies.varma_simon_selection_bias import CLASSIFIERS

CLASSIFIER_NAMES = {"shrunken_centroids": "shrunken centroids, 10-fold CV", "svm": "SVM, leave-one-out"}
ESTIMATES = (  # (column, axis label, key of the paper's figures, colour)
    ("min_cv_error_percent", "minimum CV error", "min_cv", style.TRAIN),
    ("nested_cv_error_percent", "nested estimate", "nested_cv", style.EXPECTED),
)


def min_cv_and_nested(per_dataset: pd.DataFrame, summary: pd.DataFrame, paper_percent: dict) -> Figure:
    """One panel per scenario and classifier: each dataset's minimum CV error and nested estimate
    as dots with their mean, the mean true error of the tuned classifier, and the paper's figures.

    ``paper_percent[scenario][classifier]`` maps ``min_cv``, ``nested_cv`` and ``true_error`` to
    the published percentages that exist (from the registry).
    """
    scenarios = list(dict.fromkeys(per_dataset["scenario"]))
    fig, axes = style.subplots(
        len(scenarios), len(CLASSIFIERS), figsize=(11, 2.9 * len(scenarios) + 0.9), squeeze=False, sharex=True
    )
    jitter = np.random.default_rng(0)  # only spreads overlapping dots; no result depends on it
    for row, scenario in enumerate(scenarios):
        for col, classifier in enumerate(CLASSIFIERS):
            ax = axes[row, col]
            values = per_dataset[(per_dataset["scenario"] == scenario) & (per_dataset["classifier"] == classifier)]
            stats = summary[(summary["scenario"] == scenario) & (summary["classifier"] == classifier)].iloc[0]
            paper = paper_percent.get(scenario, {}).get(classifier, {})
            ax.axvline(stats["true_error_percent"], color=style.REFERENCE, linewidth=1.5)
            if "true_error" in paper:
                ax.axvline(paper["true_error"], color=style.PUBLISHED, linestyle=":", linewidth=1.8)
            for level, (column, label, key, colour) in enumerate(ESTIMATES):
                if values[column].isna().all():
                    ax.text(
                        50,
                        level,
                        f"{label}: not computed here (config 'nested')",
                        ha="center",
                        va="center",
                        fontsize=8,
                        color="0.4",
                    )
                    continue
                ax.plot(
                    values[column],
                    level + jitter.uniform(-0.18, 0.18, len(values)),
                    "o",
                    color=colour,
                    alpha=0.5,
                    markersize=5,
                )
                ax.plot([stats[column]] * 2, [level - 0.32, level + 0.32], color=colour, linewidth=3)
                ax.annotate(
                    f"{stats[column]:.1f} ± {stats[column + '_mc_se']:.1f}",
                    (stats[column], level + 0.34),
                    ha="center",
                    fontsize=8,
                    color=colour,
                )
                if key in paper:
                    ax.plot(
                        [paper[key]] * 2, [level - 0.4, level + 0.4], linestyle="--", color=style.PUBLISHED, linewidth=2
                    )
            nested = stats["nested_bias_points"]
            finding = f"minimum {stats['min_cv_optimism_points']:+.1f} points" + (
                "" if np.isnan(nested) else f", nested {nested:+.1f} points"
            )
            ax.set(
                xlim=(0, 100),
                ylim=(-0.6, 1.7),
                yticks=[0, 1],
                yticklabels=[e[1] for e in ESTIMATES],
                title=f"{scenario.replace('_', ' ')}, {CLASSIFIER_NAMES[classifier]}:\n{finding} from the true error",
            )
            if row == len(scenarios) - 1:
                ax.set_xlabel("misclassification error (%)")
    legend = [
        Line2D([], [], marker="o", linestyle="", color=style.TRAIN, alpha=0.6, label="minimum CV error, one dataset"),
        Line2D([], [], marker="o", linestyle="", color=style.EXPECTED, alpha=0.6, label="nested estimate, one dataset"),
        Line2D([], [], color="0.2", linewidth=3, label="mean over datasets (± Monte Carlo SE)"),
        Line2D([], [], color=style.REFERENCE, linewidth=1.5, label="true error of the tuned classifier, mean"),
        Line2D([], [], color=style.PUBLISHED, linestyle="--", linewidth=2, label="Varma and Simon (2006): estimate"),
        Line2D([], [], color=style.PUBLISHED, linestyle=":", linewidth=1.8, label="Varma and Simon (2006): true error"),
    ]
    fig.legend(handles=legend, loc="lower center", ncol=3, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    first = summary[summary["scenario"] == scenarios[0]]
    optimism = -first["min_cv_optimism_points"]
    nested = first["nested_bias_points"].dropna()
    nested_text = (
        "; the nested estimate is off by " + " and ".join(f"{v:+.1f}" for v in nested) + " points"
        if len(nested)
        else ""
    )
    fig.suptitle(
        f"With no class difference the winner's CV error understates the true 50% by "
        f"{optimism.min():.0f} to {optimism.max():.0f} points{nested_text} "
        f"(over {int(first['datasets'].min())} to {int(first['datasets'].max())} datasets)"
    )
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig
