"""The figures of study sklearn_nested_iris (scikit-learn's gallery, nested versus non-nested CV on iris)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style


def scores_by_trial(gallery: pd.DataFrame) -> Figure:
    """The gallery's first panel: each trial's non-nested and nested score."""
    fig, ax = style.subplots(figsize=(9, 3.8))
    for column, marker, colour, label in (
        ("non_nested_score", "o-", style.EXPECTED, "non-nested: the winner's own CV score"),
        ("nested_score", "s-", style.TRAIN, "nested: the selection assessed on outer folds"),
    ):
        ax.plot(gallery["trial"], gallery[column], marker, color=colour, markersize=4, label=label)
    higher = int((gallery["difference"] > 0).sum())
    equal = int((gallery["difference"] == 0).sum())
    below = len(gallery) - higher - equal
    counts = f"{higher} of {len(gallery)} trials, equal in {equal}, below in {below}"
    title = f"Iris, RBF SVC: non-nested above nested in {counts}"
    ax.set(xlabel="trial (random_state of both KFold splitters)", ylabel="accuracy (fraction of items)", title=title)
    ax.legend(loc="lower right")
    return fig


def difference_by_trial(gallery: pd.DataFrame, summary: pd.DataFrame, reference: str, published: dict) -> Figure:
    """The gallery's second panel: the per-trial difference, with its mean beside the printed one.

    ``published`` holds the gallery's printed ``mean`` and ``sd`` (from the registry).
    """
    row = summary[(summary["inner_combine"] == reference) & (summary["outer_combine"] == reference)].iloc[0]
    fig, ax = style.subplots(figsize=(9, 3.8))
    ax.bar(gallery["trial"], gallery["difference"], color=style.BIAS, label="non-nested minus nested score")
    ax.axhline(
        row["mean_difference"], color="black", linewidth=1.2, label=f"mean, reproduced: {row['mean_difference']:.6f}"
    )
    ax.axhline(
        published["mean"],
        color=style.PUBLISHED,
        linestyle="--",
        linewidth=1.5,
        label=f"mean, printed by the gallery: {published['mean']:.6f}",
    )
    ax.axhspan(
        row["mean_difference"] - row["sd_difference"],
        row["mean_difference"] + row["sd_difference"],
        color=style.REFERENCE,
        alpha=0.12,
        label=f"± s.d. {row['sd_difference']:.6f} (printed {published['sd']:.6f})",
    )
    ax.set(
        xlabel="trial (random_state of both KFold splitters)",
        ylabel="score difference (accuracy)",
        title=f"Average difference of {row['mean_difference']:.6f} with std. dev. of {row['sd_difference']:.6f} "
        f"over {int(row['trials'])} trials",
    )
    ax.set_ylim(top=1.8 * gallery["difference"].max())  # room for the legend above the bars
    ax.legend(loc="upper left", fontsize=8, ncol=2)
    return fig


def combining_rules(
    trials: pd.DataFrame, summary: pd.DataFrame, reference: str, published: dict, fold_sizes: str
) -> Figure:
    """What pooling changes: the mean difference under each pair of rules, and the trials it moves.

    ``published`` holds the gallery's printed ``mean`` today and ``mean_iid`` before 0.22 (from the
    registry); ``fold_sizes`` describes the folds (``studies.sklearn_nested_iris.fold_sizes``).
    """
    fig, (mean_ax, trial_ax) = style.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [1, 1.4]})
    short = {"mean_of_folds": "mean", "pooled": "pooled"}
    labels = [f"{short[r.inner_combine]} /\n{short[r.outer_combine]}" for r in summary.itertuples()]
    positions = np.arange(len(summary))
    mean_ax.errorbar(
        positions,
        summary["mean_difference"],
        yerr=summary["mean_difference_se"],
        fmt="o",
        color="black",
        capsize=4,
        label="mean difference ± Monte Carlo SE",
    )
    mean_ax.axhline(
        published["mean"], color=style.PUBLISHED, linestyle="--", label=f"gallery today: {published['mean']:.6f}"
    )
    mean_ax.axhline(
        published["mean_iid"],
        color=style.PUBLISHED,
        linestyle=":",
        label=f"gallery before 0.22 (iid=True): {published['mean_iid']:.6f}",
    )
    mean_ax.set_xticks(positions, labels)
    mean_ax.set_xlim(-0.5, len(summary) - 0.5)
    moved_by = summary["mean_difference"].max() - summary["mean_difference"].min()
    mean_ax.set(
        xlabel="inner rule (selection) / outer rule (estimate)",
        ylabel="mean of non-nested minus nested score",
        title=f"The rules move the mean by {moved_by:.6f}",
    )
    mean_ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.28))

    names = {"mean_of_folds": "mean of fold scores (GridSearchCV)", "pooled": "pooled hits (the document's rule)"}

    def pair(how):
        return trials[(trials["inner_combine"] == how) & (trials["outer_combine"] == how)].set_index("trial")

    base = pair(reference)
    trial_ax.plot(base.index, base["difference"], "o", color=style.BIAS, label=names[reference])
    other = [how for how in summary["inner_combine"].unique() if how != reference]
    title = f"The difference per trial under {names[reference]}"
    if other:
        alternative = pair(other[0])
        trial_ax.plot(alternative.index, alternative["difference"], "x", color=style.STD_ERROR, label=names[other[0]])
        for trial in base.index[base["non_nested_setting"] != alternative["non_nested_setting"]]:
            trial_ax.axvline(trial, color=style.REFERENCE, alpha=0.3, linewidth=6)
        changed = summary[(summary["inner_combine"] == other[0]) & (summary["outer_combine"] == other[0])].iloc[0]
        doing = {"pooled": "Pooling", "mean_of_folds": "Averaging fold scores"}[other[0]]
        title = (
            f"{doing} moves the non-nested winner in "
            f"{int(changed['non_nested_winner_changes'])} trials (shaded) and {int(changed['nested_choice_changes'])} "
            f"outer-fold choices"
        )
    trial_ax.set(xlabel="trial", ylabel="non-nested minus nested score", title=title)
    trial_ax.legend(fontsize=8)
    fig.suptitle(f"GridSearchCV averages unequal folds ({fold_sizes}) unweighted; pooling weighs them by size", y=1.03)
    return fig


def optimism_side_by_side(by_replicate: pd.DataFrame, side_by_side: pd.DataFrame) -> Figure:
    """The optimism of non-nested selection on iris beside the shape images'."""
    fig, ax = style.subplots(figsize=(8, 4.2))
    jitter = np.random.default_rng(0)  # display only
    for x, row in enumerate(side_by_side.itertuples()):
        values = by_replicate[by_replicate["study"] == row.study]["optimism"]
        ax.scatter(x + jitter.uniform(-0.18, 0.18, len(values)), values, s=14, alpha=0.6, color=style.BIAS)
        ax.errorbar(
            [x + 0.3],
            [row.mean_optimism],
            yerr=[2 * row.mean_optimism_se],
            fmt="D",
            color="black",
            capsize=4,
            label="mean ± 2 Monte Carlo SE" if x == 0 else None,
        )
    ax.axhline(0.0, color=style.REFERENCE, linewidth=0.8)
    ax.set_xticks(range(len(side_by_side)), [s.replace(" (", "\n(") for s in side_by_side["study"]], fontsize=8)
    ax.set(
        ylabel="optimism: non-nested minus nested score",
        title="Non-nested optimism: "
        + ", ".join(f"{r.mean_optimism:+.4f} ({r.n_candidates} settings)" for r in side_by_side.itertuples()),
    )
    ax.legend(loc="upper left")
    return fig
