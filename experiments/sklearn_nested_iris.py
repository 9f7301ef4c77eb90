"""Study sklearn_nested_iris: scikit-learn's gallery "Nested versus non-nested cross-validation" on our code.

Iris, an RBF support vector classifier, a 3 x 2 grid of (C, gamma), 30 trials of shuffled 4-fold
inner and outer loops, run by cvsuite.methods.nested_selection under each pair of combining rules
(GridSearchCV's unweighted mean of fold scores, or pooled hits over all held-out items). Writes
every trial's scores, the gallery's two printed statistics per pair of rules, and the optimism
beside the shape-image study's; draws the gallery's two figures, the effect of pooling, and the
side-by-side optimism.
"""

import hashlib

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.studies.sklearn_nested_iris import difference_summary, gallery_trials, optimism_side_by_side, shape_image_optimism
from cvsuite.methods.nested_selection import estimator_scorer, parameter_grid
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.registry import published_value
from cvsuite.published.registry import read_registry

# Registry rows drawn as published references (the gallery's printed output, current and pre-0.22).
PUBLISHED_MEAN = "sklearn-gallery.nested.average-difference"
PUBLISHED_SD = "sklearn-gallery.nested.std-dev"
PUBLISHED_MEAN_IID = "sklearn-gallery.nested.iid.average-difference"


def main(params: dict, inputs, out) -> None:
    import sklearn
    from sklearn.datasets import load_iris  # ships with scikit-learn: no download
    from sklearn.svm import SVC

    X, y = load_iris(return_X_y=True)
    _check(params, len(y))
    settings = parameter_grid(params["grid"])
    fit_and_score = estimator_scorer(lambda setting: SVC(kernel=params["kernel"], **setting))
    # Skipping scikit-learn's input and parameter checks (iris is finite, the grid fixed) saves about
    # a fifth of the time of the SVC fits and changes no arithmetic.
    with sklearn.config_context(assume_finite=True, skip_parameter_validation=True):
        trials = gallery_trials(X, y, settings, fit_and_score, params["trials"], params["outer_folds"],
                                params["inner_folds"], params["first_random_state"], params["combines"])
    reference = params["reference_combine"]
    summary = difference_summary(trials, reference)

    gallery = trials[(trials["inner_combine"] == reference) & (trials["outer_combine"] == reference)]
    shapes = pd.read_csv(inputs.shape_images)
    shape_optimism = shape_image_optimism(shapes, params["shape_images_candidates"])
    by_replicate, side_by_side = optimism_side_by_side({
        f"iris, SVC ({len(settings)} settings, {len(y)} items, {params['trials']} trials)":
            (gallery["difference"].to_numpy(), len(settings), len(y)),
        f"shape images, kNN ({params['shape_images_candidates']} settings, {params['shape_images_items']} items, "
        f"{len(shape_optimism)} datasets)":
            (shape_optimism, params["shape_images_candidates"], params["shape_images_items"]),
    })

    write_table(trials, out.trials)
    write_table(summary, out.summary)
    write_table(by_replicate, out.optimism_by_replicate)
    write_table(side_by_side, out.optimism_side_by_side)
    write_provenance(out.provenance, "sklearn_nested_iris", {
        "sklearn_nested_iris": params,
        "inputs": {"shape_images": str(inputs.shape_images), "shape_images_sha256": _sha256(inputs.shape_images)},
    })

    claims = read_registry(inputs.registry)
    published = {name: published_value(claims, claim) for name, claim in
                 [("mean", PUBLISHED_MEAN), ("sd", PUBLISHED_SD), ("mean_iid", PUBLISHED_MEAN_IID)]}
    draw_scores_by_trial(gallery, [out.scores_figure, out.scores_figure_svg])
    draw_difference_by_trial(gallery, summary, reference, published, [out.difference_figure, out.difference_figure_svg])
    draw_combining_rules(trials, summary, reference, published, _fold_sizes(len(y), params["outer_folds"], params["inner_folds"]),
                         [out.rules_figure, out.rules_figure_svg])
    draw_side_by_side(by_replicate, side_by_side, [out.side_figure, out.side_figure_svg])


def _check(params: dict, n: int) -> None:
    """Relations between keys that the schema cannot state; the message names the key."""
    if params["reference_combine"] not in params["combines"]:
        raise ValueError(f"config.yaml: sklearn_nested_iris.reference_combine = {params['reference_combine']} "
                         f"is not among sklearn_nested_iris.combines = {params['combines']}")
    smallest_train = n - -(-n // params["outer_folds"])
    if params["inner_folds"] > smallest_train:
        raise ValueError(f"config.yaml: sklearn_nested_iris.inner_folds = {params['inner_folds']} exceeds the "
                         f"smallest outer training set ({smallest_train} items with outer_folds = {params['outer_folds']})")


def _sha256(path) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def _fold_sizes(n: int, outer: int, inner: int) -> str:
    """"outer folds 38/38/37/37, inner folds 28-29 items": the sizes that make the two rules differ."""
    outer_sizes = [len(c) for c in np.array_split(np.arange(n), outer)]
    inner_sizes = {len(c) for size in set(outer_sizes) for c in np.array_split(np.arange(n - size), inner)}
    return (f"outer folds {'/'.join(map(str, outer_sizes))} items, inner folds "
            f"{min(inner_sizes)}-{max(inner_sizes)} items")


def draw_scores_by_trial(gallery: pd.DataFrame, paths) -> None:
    """The gallery's first panel: each trial's non-nested and nested score."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(9, 3.8))
    ax.plot(gallery["trial"], gallery["non_nested_score"], "o-", color=style.EXPECTED, markersize=4,
            label="non-nested: the winner's own CV score")
    ax.plot(gallery["trial"], gallery["nested_score"], "s-", color=style.TRAIN, markersize=4,
            label="nested: the selection assessed on outer folds")
    higher = int((gallery["difference"] > 0).sum())
    equal = int((gallery["difference"] == 0).sum())
    ax.set(xlabel="trial (random_state of both KFold splitters)", ylabel="accuracy (fraction of items)",
           title=f"Iris, RBF SVC: non-nested above nested in {higher} of {len(gallery)} trials, equal in {equal}, below in "
                 f"{len(gallery) - higher - equal}")
    ax.legend(loc="lower right")
    save_figure(fig, paths)


def draw_difference_by_trial(gallery: pd.DataFrame, summary: pd.DataFrame, reference: str, published: dict, paths) -> None:
    """The gallery's second panel: the per-trial difference, with its mean beside the printed one."""
    import matplotlib.pyplot as plt

    style.apply_style()
    row = summary[(summary["inner_combine"] == reference) & (summary["outer_combine"] == reference)].iloc[0]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    ax.bar(gallery["trial"], gallery["difference"], color=style.BIAS, label="non-nested minus nested score")
    ax.axhline(row["mean_difference"], color="black", linewidth=1.2, label=f"mean, reproduced: {row['mean_difference']:.6f}")
    ax.axhline(published["mean"], color=style.PUBLISHED, linestyle="--", linewidth=1.5,
               label=f"mean, printed by the gallery: {published['mean']:.6f}")
    ax.axhspan(row["mean_difference"] - row["sd_difference"], row["mean_difference"] + row["sd_difference"],
               color=style.REFERENCE, alpha=0.12, label=f"± s.d. {row['sd_difference']:.6f} (printed {published['sd']:.6f})")
    ax.set(xlabel="trial (random_state of both KFold splitters)", ylabel="score difference (accuracy)",
           title=f"Average difference of {row['mean_difference']:.6f} with std. dev. of {row['sd_difference']:.6f} "
                 f"over {int(row['trials'])} trials")
    ax.set_ylim(top=1.8 * gallery["difference"].max())  # room for the legend above the bars
    ax.legend(loc="upper left", fontsize=8, ncol=2)
    save_figure(fig, paths)


def draw_combining_rules(trials: pd.DataFrame, summary: pd.DataFrame, reference: str, published: dict, fold_sizes: str,
                         paths) -> None:
    """What pooling changes: the mean difference under each pair of rules, and the trials it moves."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (mean_ax, trial_ax) = plt.subplots(1, 2, figsize=(12, 4.2), gridspec_kw={"width_ratios": [1, 1.4]})
    short = {"mean_of_folds": "mean", "pooled": "pooled"}
    labels = [f"{short[r.inner_combine]} /\n{short[r.outer_combine]}" for r in summary.itertuples()]
    positions = np.arange(len(summary))
    mean_ax.errorbar(positions, summary["mean_difference"], yerr=summary["mean_difference_se"], fmt="o", color="black",
                     capsize=4, label="mean difference ± Monte Carlo SE")
    mean_ax.axhline(published["mean"], color=style.PUBLISHED, linestyle="--", label=f"gallery today: {published['mean']:.6f}")
    mean_ax.axhline(published["mean_iid"], color=style.PUBLISHED, linestyle=":",
                    label=f"gallery before 0.22 (iid=True): {published['mean_iid']:.6f}")
    mean_ax.set_xticks(positions, labels)
    mean_ax.set_xlim(-0.5, len(summary) - 0.5)
    moved_by = summary["mean_difference"].max() - summary["mean_difference"].min()
    mean_ax.set(xlabel="inner rule (selection) / outer rule (estimate)", ylabel="mean of non-nested minus nested score",
                title=f"The rules move the mean by {moved_by:.6f}")
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
        title = (f"{doing} moves the non-nested winner in "
                 f"{int(changed['non_nested_winner_changes'])} trials (shaded) and {int(changed['nested_choice_changes'])} "
                 f"outer-fold choices")
    trial_ax.set(xlabel="trial", ylabel="non-nested minus nested score", title=title)
    trial_ax.legend(fontsize=8)
    fig.suptitle(f"GridSearchCV averages unequal folds ({fold_sizes}) unweighted; pooling weighs them by size", y=1.03)
    save_figure(fig, paths)


def draw_side_by_side(by_replicate: pd.DataFrame, side_by_side: pd.DataFrame, paths) -> None:
    """The optimism of non-nested selection on iris beside the shape images'."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(8, 4.2))
    jitter = np.random.default_rng(0)  # display only
    for x, row in enumerate(side_by_side.itertuples()):
        values = by_replicate[by_replicate["study"] == row.study]["optimism"]
        ax.scatter(x + jitter.uniform(-0.18, 0.18, len(values)), values, s=14, alpha=0.6, color=style.BIAS)
        ax.errorbar([x + 0.3], [row.mean_optimism], yerr=[2 * row.mean_optimism_se], fmt="D", color="black", capsize=4,
                    label="mean ± 2 Monte Carlo SE" if x == 0 else None)
    ax.axhline(0.0, color=style.REFERENCE, linewidth=0.8)
    ax.set_xticks(range(len(side_by_side)), [s.replace(" (", "\n(") for s in side_by_side["study"]], fontsize=8)
    ax.set(ylabel="optimism: non-nested minus nested score",
           title="Non-nested optimism: " + ", ".join(f"{r.mean_optimism:+.4f} ({r.n_candidates} settings)"
                                                     for r in side_by_side.itertuples()))
    ax.legend(loc="upper left")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.input, snakemake.output)  # noqa: F821
