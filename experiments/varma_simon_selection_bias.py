"""Study varma_simon_selection_bias: the winner's cross-validation error against nested CV.

Re-simulates Varma and Simon (2006), as "Cross-Validation" quotes it in Evidence and Impact (and
Pitfalls: 'Reporting the winner's cross-validation score'): per dataset the minimum
cross-validation error of shrunken centroids (10-fold) and of an SVM (leave-one-out), the nested
estimate (the tuning repeated inside leave-one-out) and the tuned classifier's true error, on null
data and on data with a class difference. Writes the per-dataset values, their means with Monte
Carlo standard errors, the design, and one figure of the distributions.
"""

import numpy as np

from cvsuite.figures import style
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.registry import published_value
from cvsuite.published.registry import read_registry
from cvsuite.studies.varma_simon_selection_bias import CLASSIFIERS, selection_bias_design, selection_bias_simulation, selection_bias_summary

CLASSIFIER_NAMES = {"shrunken_centroids": "shrunken centroids, 10-fold CV", "svm": "SVM, leave-one-out"}
# The paper's figures drawn as references, by registry row: a published number lives in the registry only.
PAPER_ROWS = {
    ("no_difference", "shrunken_centroids"): {"min_cv": "vs2006.table1.sc-min-cv", "nested_cv": "vs2006.nested.sc-null", "true_error": "vs2006.design.null-true-error"},
    ("no_difference", "svm"): {"min_cv": "vs2006.table1.svm-min-cv", "true_error": "vs2006.design.null-true-error"},
    ("class_difference", "svm"): {"nested_cv": "vs2006.nested.svm-signal", "true_error": "vs2006.nested.svm-signal-true"},
}
ESTIMATES = (  # (column, axis label, key in PAPER_ROWS, colour)
    ("min_cv_error_percent", "minimum CV error", "min_cv", style.TRAIN),
    ("nested_cv_error_percent", "nested estimate", "nested_cv", style.EXPECTED),
)


def main(params: dict, registry: str, out) -> None:
    sc, svm = params["shrunken_centroids"], params["svm"]
    per_dataset = selection_bias_simulation(
        scenarios=params["scenarios"],
        datasets=params["datasets"],
        per_class=params["per_class"],
        n_features=params["n_features"],
        n_thresholds=sc["thresholds"],
        n_folds=sc["folds"],
        prior_rule=sc["prior"],
        costs=np.array(svm["costs"], dtype=float),
        gene_counts=list(svm["gene_counts"]),
        ties=params["ties"],
    )
    summary = selection_bias_summary(per_dataset, params["low_error_percent"])
    setup = selection_bias_design(params["per_class"], params["n_features"], params["datasets"])
    write_table(per_dataset, out.per_dataset)
    write_table(summary, out.summary)
    write_table(setup, out.setup)
    write_provenance(out.provenance, "varma_simon_selection_bias", params)
    claims = read_registry(registry)
    paper_percent = {scenario: {} for scenario, _ in PAPER_ROWS}
    for (scenario, classifier), rows in PAPER_ROWS.items():
        paper_percent[scenario][classifier] = {key: published_value(claims, claim_id) for key, claim_id in rows.items()}
    draw_distributions(per_dataset, summary, paper_percent, [out.figure, out.figure_svg])


def draw_distributions(per_dataset, summary, paper_percent: dict, paths) -> None:
    """One panel per scenario and classifier: each dataset's minimum CV error and nested estimate
    as dots with their mean, the mean true error of the tuned classifier, and the paper's figures."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    style.apply_style()
    scenarios = list(dict.fromkeys(per_dataset["scenario"]))
    fig, axes = plt.subplots(len(scenarios), len(CLASSIFIERS), figsize=(11, 2.9 * len(scenarios) + 0.9), squeeze=False, sharex=True)
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
                    ax.text(50, level, f"{label}: not computed here (config 'nested')", ha="center", va="center", fontsize=8, color="0.4")
                    continue
                ax.plot(values[column], level + jitter.uniform(-0.18, 0.18, len(values)), "o", color=colour, alpha=0.5, markersize=5)
                ax.plot([stats[column]] * 2, [level - 0.32, level + 0.32], color=colour, linewidth=3)
                ax.annotate(f"{stats[column]:.1f} ± {stats[column + '_se']:.1f}", (stats[column], level + 0.34), ha="center", fontsize=8, color=colour)
                if key in paper:
                    ax.plot([paper[key]] * 2, [level - 0.4, level + 0.4], linestyle="--", color=style.PUBLISHED, linewidth=2)
            nested = stats["nested_bias_points"]
            finding = f"minimum {stats['min_cv_optimism_points']:+.1f} points" + ("" if np.isnan(nested) else f", nested {nested:+.1f} points")
            ax.set(xlim=(0, 100), ylim=(-0.6, 1.7), yticks=[0, 1], yticklabels=[e[1] for e in ESTIMATES],
                   title=f"{scenario.replace('_', ' ')}, {CLASSIFIER_NAMES[classifier]}:\n{finding} from the true error")
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
    nested_text = "; the nested estimate is off by " + " and ".join(f"{v:+.1f}" for v in nested) + " points" if len(nested) else ""
    fig.suptitle(
        f"With no class difference the winner's CV error understates the true 50% by "
        f"{optimism.min():.0f} to {optimism.max():.0f} points{nested_text} (over {int(first['datasets'].iloc[0])} datasets)"
    )
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.input.registry, snakemake.output)  # noqa: F821
