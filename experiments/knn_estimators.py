"""Study knn_estimators: Part 1 of the shape-image study ("Cross-Validation", section Example).

Gathers the shards' estimates; writes the true-accuracy range, the estimator table (mean and s.d.
of estimate - true), the repartition spread of the chosen dataset, the prose's comparisons, and
the scikit-learn cross-check; draws the shapes, the error distributions and the repartition spread.
"""

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.methods.folds import stratified_round_robin_folds
from cvsuite.methods.knn import blurred_features
from cvsuite.workflow.outputs import logged_to, read_tables, save_figure, write_provenance, write_table
from cvsuite.studies.shape_image_datasets import ShapeStudySettings
from cvsuite.studies.knn_estimators import estimator_summary, repartition_summary, spread_findings, true_accuracy_range
from cvsuite.data.shape_images import SHAPE_NAMES, draw_shape_images, shape_masks
from cvsuite.studies.knn_estimators import sklearn_crosscheck


def main(blocks: dict, shards, out) -> None:
    settings = ShapeStudySettings.from_config(blocks["shape_images"], blocks["knn_estimators"], blocks["nested_optimism"])
    p1 = blocks["knn_estimators"]
    names = settings.estimator_names()
    estimates = read_tables(shards.estimates)
    repartitions = read_tables(shards.repartitions)
    summary = estimator_summary(estimates, names)
    repeated = repartition_summary(repartitions, [names[0], f"{p1['repartition_folds']}-fold"])
    findings = spread_findings(summary, repeated, names[0], f"{p1['repartition_folds']}-fold")

    img = blocks["shape_images"]["images"]
    rng = np.random.default_rng(p1["crosscheck_seed"])
    masks = shape_masks(img["size"])
    images, labels = draw_shape_images(img["per_class"], rng, masks, img["max_shift"], (img["contrast_low"], img["contrast_high"]), img["noise_sd"])
    folds = stratified_round_robin_folds(labels, p1["crosscheck_folds"], rng)
    crosscheck = pd.DataFrame([sklearn_crosscheck(blurred_features(images, p1["sigma"]), labels, folds, p1["k"], p1["crosscheck_seed"])])

    write_table(estimates, out.per_dataset)
    write_table(true_accuracy_range(estimates), out.true_accuracy)
    write_table(summary, out.summary)
    write_table(repartitions, out.repartitions)
    write_table(repeated, out.repartition_summary)
    write_table(findings, out.findings)
    write_table(crosscheck, out.crosscheck)
    write_provenance(out.provenance, "knn_estimators", blocks)

    first = blocks["shape_images"]["first_seed"]
    sample_rng = np.random.default_rng(first)
    noisy, noisy_labels = draw_shape_images(img["per_class"], sample_rng, masks, img["max_shift"], (img["contrast_low"], img["contrast_high"]), img["noise_sd"])
    draw_shapes(masks, noisy, noisy_labels, first, [out.shapes_figure, out.shapes_figure_svg])
    draw_errors(estimates, summary, names, p1, [out.errors_figure, out.errors_figure_svg])
    draw_repartitions(repartitions, estimates, p1, [out.repartition_figure, out.repartition_figure_svg])


def draw_shapes(masks, noisy, labels, seed, paths) -> None:
    """The four shapes clean (top) and as the first noisy image of each class in one dataset."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, axes = plt.subplots(2, len(masks), figsize=(2.2 * len(masks), 4.8))
    for c, name in enumerate(SHAPE_NAMES[: len(masks)]):
        axes[0, c].imshow(masks[c], cmap="gray", vmin=-1.5, vmax=2.5)
        axes[0, c].set_title(f"{name} (label {c})")
        axes[1, c].imshow(noisy[np.flatnonzero(labels == c)[0]], cmap="gray", vmin=-1.5, vmax=2.5)
        axes[1, c].set_title(f"noisy sample, dataset {seed}")
        for ax in axes[:, c]:
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
    axes[0, 0].set_ylabel("clean shape")
    axes[1, 0].set_ylabel("as drawn (shift, contrast, noise)")
    fig.suptitle("The four shapes: the noise (s.d. 0.6) is as strong as the shapes (contrast 0.5-1.0)")
    save_figure(fig, paths)


def draw_errors(estimates, summary, names, p1, paths) -> None:
    """Per estimator, the distribution over datasets of estimate - true accuracy."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    data = [estimates.loc[estimates["estimator"] == n, "error"] for n in names]
    ax.boxplot(data, showmeans=True, whis=(0, 100))
    ax.set_xticks(range(1, len(names) + 1), names)
    for i, values in enumerate(data, start=1):
        jitter = np.linspace(-0.12, 0.12, len(values))
        ax.plot(i + jitter, values, "o", color="0.3", markersize=3, alpha=0.6)
    ax.axhline(0, color=style.REFERENCE, linestyle=":")
    sd = summary.set_index("estimator")["sd_error"]
    ax.set(xlabel="estimator", ylabel="estimate - true accuracy",
           title=f"No estimator is biased; the holdout's error spreads {sd[names[0]] / sd[names[1]]:.1f}x as much as {names[1]}'s")
    ax.text(0.01, 0.02, f"blur {p1['sigma']}, k = {p1['k']}; {len(data[0])} datasets; box: quartiles, whiskers: range, triangle: mean",
            transform=ax.transAxes, fontsize=8)
    save_figure(fig, paths)


def draw_repartitions(repartitions, estimates, p1, paths) -> None:
    """One dataset's estimates over repeated random partitions, holdout against K-fold."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(7, 4))
    if repartitions.empty:
        ax.text(0.5, 0.5, f"dataset {p1['repartition_seed']} is not among the datasets run", ha="center", transform=ax.transAxes)
    else:
        dataset = int(repartitions["dataset"].iloc[0])
        names = list(dict.fromkeys(repartitions["estimator"]))
        for i, name in enumerate(names):
            values = repartitions.loc[repartitions["estimator"] == name, "estimate"]
            ax.plot(values, np.full(len(values), i) + np.linspace(-0.15, 0.15, len(values)), "o", label=name)
            ax.hlines(i, values.min(), values.max(), color="0.5")
        true = estimates.loc[estimates["dataset"] == dataset, "true_accuracy"].iloc[0]
        ax.axvline(true, color=style.REFERENCE, linestyle=":", label=f"true accuracy {true:.3f}")
        ax.set_yticks(range(len(names)), names)
        spread = {n: 100 * np.ptp(repartitions.loc[repartitions['estimator'] == n, 'estimate']) for n in names}
        ax.set(xlabel="estimated accuracy", ylabel="estimator",
               title=f"Dataset {dataset}, {p1['repartitions']} partitions: the holdout moves across {spread[names[0]]:.0f} points, {names[1]} {spread[names[1]]:.1f}")
        ax.legend(loc="lower right")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.blocks, snakemake.input, snakemake.output)  # noqa: F821
