"""The figures of study knn_estimators ("Cross-Validation", section Example, Part 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.data.shape_images import SHAPE_NAMES, ShapeImageDesign
from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs


def shapes(masks: np.ndarray, images: np.ndarray, labels: np.ndarray, seed: int) -> Figure:
    """The four shapes clean (top) and as the first noisy image of each class in one dataset."""
    fig, axes = style.subplots(2, len(masks), figsize=(2.2 * len(masks), 5.2))
    for c, name in enumerate(SHAPE_NAMES[: len(masks)]):
        axes[0, c].imshow(masks[c], cmap="gray", vmin=-1.5, vmax=2.5)
        axes[0, c].set_title(f"{name} (label {c})")
        axes[1, c].imshow(images[np.flatnonzero(labels == c)[0]], cmap="gray", vmin=-1.5, vmax=2.5)
        for ax in axes[:, c]:
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
    axes[0, 0].set_ylabel("clean shape")
    axes[1, 0].set_ylabel(f"dataset {seed}'s first\nimage of the class")
    fig.suptitle(
        "The four shapes, clean and as drawn (shift, contrast, noise):\n"
        "the noise (s.d. 0.6) is as strong as the shapes (contrast 0.5-1.0)"
    )
    return fig


def estimator_errors(estimates: pd.DataFrame, summary: pd.DataFrame, names: list[str], sigma: float, k: int) -> Figure:
    """Per estimator, the distribution over datasets of estimate - true accuracy, and its mean with
    ``ERROR_BAR_SE`` standard errors (the summary's ``mean_error_se``)."""
    fig, ax = style.subplots(figsize=(8, 5))
    data = [estimates.loc[estimates["estimator"] == n, "error"] for n in names]
    parts = ax.boxplot(data, whis=(0, 100), medianprops={"color": "black"})
    for lines in parts.values():
        style.explained(lines, "the x axis label: box quartiles, whiskers range")
    ax.set_xticks(range(1, len(names) + 1), names)
    for i, values in enumerate(data, start=1):
        jitter = np.linspace(-0.12, 0.12, len(values))
        label = f"one dataset (blur {sigma}, k = {k}; {len(values)} datasets)"
        ax.plot(i + jitter, values, "o", color="0.3", markersize=3, alpha=0.6, label=label)
    stats = summary.set_index("estimator").loc[names]
    style.error_bars(
        ax,
        range(1, len(names) + 1),
        stats["mean_error"],
        stats["mean_error_se"],
        fmt="^",
        color=style.EXPECTED,
        markersize=8,
        zorder=3,
        label="mean error over the datasets",
    )
    style.reference_line(ax, 0, "0: estimate = true accuracy", kind="truth")
    ax.set(
        xlabel="estimator (box: quartiles; whiskers: range)",
        ylabel="estimate − true accuracy",
        title=_errors_title(stats, names),
    )
    style.figure_legend(fig)
    return fig


def _errors_title(stats: pd.DataFrame, names: list[str]) -> str:
    """What these datasets show of the mean errors (distinguishable from zero: the drawn error bar of
    ``ERROR_BAR_SE`` s.e. excludes it) and of the spreads; not that an estimator is unbiased, which
    more datasets could refute."""
    n = int(stats["n_datasets"].iloc[0])
    ratio = stats["mean_error_over_se"].abs()
    distinguishable = list(stats.index[ratio > style.ERROR_BAR_SE])
    if distinguishable:
        means = ", ".join(f"{e} {stats.loc[e, 'mean_error']:+.3f} ({ratio[e]:.1f} s.e.)" for e in distinguishable)
        first = f"Over {n} datasets a mean error distinguishable from zero: {means}"
    else:
        first = (
            f"Over {n} datasets no estimator's mean error is distinguishable from zero\n"
            f"(largest: {ratio.idxmax()}'s, {ratio.max():.1f} s.e.)"
        )
    spread = stats["sd_error"]
    return f"{first}; the holdout's error spreads {spread[names[0]] / spread[names[1]]:.1f}x as much as {names[1]}'s"


def repartition_spread(
    repartitions: pd.DataFrame, estimates: pd.DataFrame, chosen_dataset: int, n_partitions: int
) -> Figure:
    """One dataset's estimates over repeated random partitions, holdout against K-fold."""
    fig, ax = style.subplots(figsize=(8, 4.6))
    if repartitions.empty:
        ax.text(
            0.5, 0.5, f"dataset {chosen_dataset} is not among the datasets run", ha="center", transform=ax.transAxes
        )
        return fig
    dataset = int(repartitions["dataset"].iloc[0])
    names = list(dict.fromkeys(repartitions["estimator"]))
    for i, (name, colour) in enumerate(zip(names, (style.TRAIN, style.BIAS))):
        values = repartitions.loc[repartitions["estimator"] == name, "estimate"]
        ax.plot(values, np.full(len(values), i) + np.linspace(-0.15, 0.15, len(values)), "o", color=colour)
        style.explained(ax.lines[-1], "the y tick label names the estimator")
        ax.hlines(i, values.min(), values.max(), color="0.5", label="range over the partitions")
    true = estimates.loc[estimates["dataset"] == dataset, "true_accuracy"].iloc[0]
    style.reference_line(ax, true, f"true accuracy {true:.3f}", kind="truth", vertical=True)
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(-0.5, len(names) - 0.5)
    spread = {n: np.ptp(repartitions.loc[repartitions["estimator"] == n, "estimate"]) for n in names}
    first = dataset == estimates["dataset"].min()
    which = f"The first dataset (dataset {dataset})" if first else f"Dataset {dataset}"
    title = (  # ranges in the axis' own unit, accuracy as a fraction
        f"{which}, {n_partitions} random partitions: the holdout's estimated\n"
        f"accuracy ranges over {spread[names[0]]:.3g}, {names[1]}'s over {spread[names[1]]:.3g}"
    )
    ax.set(xlabel="estimated accuracy (one point per partition)", ylabel="estimator", title=title)
    style.figure_legend(fig)
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables and the first image of each class of its first
    dataset (its figure rule, ``cvsuite.workflow.figure_job``)."""
    shape_images, p1 = inputs.config["shape_images"], inputs.config["knn_estimators"]
    estimates, summary = inputs.tables["per_dataset"], inputs.tables["summary"]
    # The summary has one row per estimator, in the study's draw order.
    names = list(summary["estimator"])
    # One image per class, in label order: image c is its class c's first.
    examples = inputs.arrays["example_images"]
    return {
        "shapes": shapes(
            ShapeImageDesign.from_config(shape_images["images"]).masks(),
            examples,
            np.arange(len(examples)),
            shape_images["first_seed"],
        ),
        "estimator_errors": estimator_errors(estimates, summary, names, p1["sigma"], p1["k"]),
        "repartition_spread": repartition_spread(
            inputs.tables["repartitions"], estimates, p1["repartition_seed"], p1["repartitions"]
        ),
    }
