"""The figures of study sklearn_nested_iris (scikit-learn's gallery, nested versus non-nested CV on iris)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.published.published_values import published_value
from cvsuite.studies.sklearn_nested_iris import PUBLISHED_REFERENCES, fold_sizes


def scores_by_trial(gallery: pd.DataFrame) -> Figure:
    """The gallery's first panel: each trial's non-nested and nested score."""
    fig, ax = style.subplots(figsize=(9, 4.6))
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
    style.integer_axis(ax, "x")
    style.figure_legend(fig)
    return fig


def difference_by_trial(gallery: pd.DataFrame, summary: pd.DataFrame, reference: str, published: dict) -> Figure:
    """The gallery's second panel: the per-trial difference, with its mean beside the printed one.

    ``published`` holds the gallery's printed ``mean`` and ``sd`` (from the registry).
    """
    row = summary[(summary["inner_combine"] == reference) & (summary["outer_combine"] == reference)].iloc[0]
    fig, ax = style.subplots(figsize=(9, 5))
    ax.bar(gallery["trial"], gallery["difference"], color=style.BIAS, label="non-nested minus nested score")
    mean, sd = row["mean_difference"], row["sd_difference"]
    style.reference_line(ax, mean, f"mean, reproduced: {mean:.6f}", kind="reproduced")
    style.reference_line(
        ax, published["mean"], f"mean, printed by the gallery: {published['mean']:.6f}", kind="published"
    )
    band = f"mean ± s.d. {sd:.6f} (printed {published['sd']:.6f})"
    # Below the bars (zorder 1): drawn over them, the band would give each bar two tones.
    ax.axhspan(mean - sd, mean + sd, color=style.REFERENCE, alpha=0.12, label=band, zorder=0.5)
    ax.set(
        xlabel="trial (random_state of both KFold splitters)",
        ylabel="score difference (accuracy)",
        title=f"Average difference of {mean:.6f} with std. dev. of {sd:.6f} over {int(row['trials'])} trials",
    )
    style.integer_axis(ax, "x")
    style.figure_legend(fig)
    return fig


def _outer_choices_differ(base: pd.DataFrame, alternative: pd.DataFrame, trial: int) -> bool:
    """Whether some outer fold of the nested estimate chose another setting under the other rule."""
    return base.loc[trial, "nested_settings"].split("; ") != alternative.loc[trial, "nested_settings"].split("; ")


def combining_rules(
    trials: pd.DataFrame, summary: pd.DataFrame, reference: str, published: dict, fold_sizes: str
) -> Figure:
    """What pooling changes: the mean difference under each pair of rules, and the trials it moves.

    ``published`` holds the gallery's printed ``mean`` today and ``mean_iid`` before 0.22 (from the
    registry); ``fold_sizes`` describes the folds (``studies.sklearn_nested_iris.fold_sizes``).
    """
    fig, (mean_ax, trial_ax) = style.subplots(1, 2, figsize=(10.5, 5.8), gridspec_kw={"width_ratios": [1, 1.4]})
    short = {"mean_of_folds": "mean", "pooled": "pooled"}
    labels = [f"{short[r.inner_combine]} /\n{short[r.outer_combine]}" for r in summary.itertuples()]
    positions = np.arange(len(summary))
    style.error_bars(
        mean_ax,
        positions,
        summary["mean_difference"],
        summary["mean_difference_se"],
        fmt="o",
        color="black",
        label="mean difference over the trials",
    )
    style.reference_line(mean_ax, published["mean"], f"gallery today: {published['mean']:.6f}", kind="published")
    before = f"gallery before 0.22 (iid=True): {published['mean_iid']:.6f}"
    style.reference_line(mean_ax, published["mean_iid"], before, kind="published", linestyle=":")
    mean_ax.set_xticks(positions, labels)
    mean_ax.set_xlim(-0.5, len(summary) - 0.5)
    moved_by = summary["mean_difference"].max() - summary["mean_difference"].min()
    mean_ax.set(
        xlabel="inner rule (selection) /\nouter rule (estimate)",
        ylabel="mean of non-nested minus nested score",
        title=f"The rules move the mean\nby {moved_by:.6f}",
    )

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
        winner_moves = base.index[base["non_nested_setting"] != alternative["non_nested_setting"]]
        for trial in winner_moves:
            trial_ax.axvline(trial, color=style.REFERENCE, alpha=0.3, linewidth=6, label="the winner moves (shaded)")
        # The nested estimate's outer folds choose again too: in trial 6 that, not the winner,
        # moves the difference by a whole item. Mark those trials and name the largest move.
        choice_moves = [t for t in base.index if _outer_choices_differ(base, alternative, t)]
        trial_ax.plot(
            choice_moves,
            np.full(len(choice_moves), 0.95),
            "v",
            color="0.3",
            transform=trial_ax.get_xaxis_transform(),
            label="an outer fold of the nested estimate\nchooses another setting (▼)",
        )
        changed = summary[(summary["inner_combine"] == other[0]) & (summary["outer_combine"] == other[0])].iloc[0]
        doing = {"pooled": "Pooling", "mean_of_folds": "Averaging fold scores"}[other[0]]
        title = (
            f"{doing} moves the non-nested winner in {int(changed['non_nested_winner_changes'])} trials (shaded)\n"
            f"and {int(changed['nested_choice_changes'])} outer-fold choices in {len(choice_moves)} trials (▼)"
        )
        moved = (alternative["difference"] - base["difference"]).abs().idxmax()
        if moved in choice_moves and moved not in winner_moves:
            title += (
                f"; the largest move,\ntrial {moved}: {base.loc[moved, 'difference']:.4f} → "
                f"{alternative.loc[moved, 'difference']:.4f}, is an outer-fold choice"
            )
    trial_ax.set(xlabel="trial", ylabel="non-nested minus nested score", title=title)
    style.integer_axis(trial_ax, "x")
    style.figure_legend(fig)
    fig.suptitle(f"GridSearchCV averages unequal folds ({fold_sizes}) unweighted;\npooling weighs them by size")
    return fig


def optimism_side_by_side(by_replicate: pd.DataFrame, side_by_side: pd.DataFrame) -> Figure:
    """The optimism of non-nested selection on iris beside the shape images'.

    Optimism here is the non-nested score minus the nested estimate (the gallery's difference), not
    nested_optimism's winner's score minus the chosen model's true accuracy; iris's replicates are
    the gallery's trials, resplits of its one dataset."""
    fig, ax = style.subplots(figsize=(8, 5))
    jitter = np.random.default_rng(0)  # display only
    for x, row in enumerate(side_by_side.itertuples()):
        values = by_replicate[by_replicate["study"] == row.study]["optimism"]
        ax.scatter(
            x + jitter.uniform(-0.18, 0.18, len(values)),
            values,
            s=14,
            alpha=0.6,
            color=style.BIAS,
            label="one trial or dataset",
        )
        style.error_bars(
            ax, x + 0.3, row.mean_optimism, row.mean_optimism_se, fmt="D", color="black", capsize=4, label="mean"
        )
    style.reference_line(ax, 0.0, "0: no optimism", kind="truth")
    ax.set_xticks(range(len(side_by_side)), [s.replace(" (", "\n(") for s in side_by_side["study"]])
    iris = side_by_side[side_by_side["study"].str.startswith("iris")]
    resplits = (
        f"\niris's error bar: {int(iris['replicates'].iloc[0])} resplits of one dataset, not fresh datasets"
        if len(iris)
        else ""
    )
    ax.set(
        ylabel="optimism here: non-nested minus nested score\n(not the winner's score minus the truth)",
        title="Non-nested optimism: "
        + ", ".join(f"{r.mean_optimism:+.4f} ({r.n_candidates} settings)" for r in side_by_side.itertuples())
        + resplits,
    )
    style.figure_legend(fig)
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables and the gallery's printed numbers in the registry
    (its figure rule, ``cvsuite.workflow.figure_job``)."""
    params, trials, summary = inputs.config["sklearn_nested_iris"], inputs.tables["trials"], inputs.tables["summary"]
    reference = params["reference_combine"]
    gallery = trials[(trials["inner_combine"] == reference) & (trials["outer_combine"] == reference)]
    published = {name: published_value(inputs.published, claim) for name, claim in PUBLISHED_REFERENCES.items()}
    side_by_side = inputs.tables["optimism_side_by_side"]
    # Iris's items, which the folds' sizes follow, as the side-by-side table records them.
    items = int(side_by_side.loc[side_by_side["study"].str.startswith("iris"), "n_items"].iloc[0])
    sizes = fold_sizes(items, params["outer_folds"], params["inner_folds"])
    return {
        "scores_by_trial": scores_by_trial(gallery),
        "difference_by_trial": difference_by_trial(gallery, summary, reference, published),
        "combining_rules": combining_rules(trials, summary, reference, published, sizes),
        "optimism_side_by_side": optimism_side_by_side(inputs.tables["optimism_by_replicate"], side_by_side),
    }
