"""The figures of study knn_estimators ("Cross-Validation", section Example, Part 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.data.shape_images import SHAPE_NAMES
from cvsuite.figures import style


def shapes(masks: np.ndarray, images: np.ndarray, labels: np.ndarray, seed: int) -> Figure:
    """The four shapes clean (top) and as the first noisy image of each class in one dataset."""
    fig, axes = style.subplots(2, len(masks), figsize=(2.2 * len(masks), 4.8))
    for c, name in enumerate(SHAPE_NAMES[: len(masks)]):
        axes[0, c].imshow(masks[c], cmap="gray", vmin=-1.5, vmax=2.5)
        axes[0, c].set_title(f"{name} (label {c})")
        axes[1, c].imshow(images[np.flatnonzero(labels == c)[0]], cmap="gray", vmin=-1.5, vmax=2.5)
        axes[1, c].set_title(f"noisy sample, dataset {seed}")
        for ax in axes[:, c]:
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
    axes[0, 0].set_ylabel("clean shape")
    axes[1, 0].set_ylabel("as drawn (shift, contrast, noise)")
    fig.suptitle("The four shapes: the noise (s.d. 0.6) is as strong as the shapes (contrast 0.5-1.0)")
    return fig


def estimator_errors(estimates: pd.DataFrame, summary: pd.DataFrame, names: list[str], sigma: float, k: int) -> Figure:
    """Per estimator, the distribution over datasets of estimate - true accuracy."""
    fig, ax = style.subplots(figsize=(8, 4.5))
    data = [estimates.loc[estimates["estimator"] == n, "error"] for n in names]
    ax.boxplot(data, showmeans=True, whis=(0, 100))
    ax.set_xticks(range(1, len(names) + 1), names)
    for i, values in enumerate(data, start=1):
        jitter = np.linspace(-0.12, 0.12, len(values))
        ax.plot(i + jitter, values, "o", color="0.3", markersize=3, alpha=0.6)
    ax.axhline(0, color=style.REFERENCE, linestyle=":")
    sd = summary.set_index("estimator")["sd_error"]
    ax.set(
        xlabel="estimator",
        ylabel="estimate - true accuracy",
        title=f"No estimator is biased; the holdout's error spreads {sd[names[0]] / sd[names[1]]:.1f}x "
        f"as much as {names[1]}'s",
    )
    ax.text(
        0.01,
        0.02,
        f"blur {sigma}, k = {k}; {len(data[0])} datasets; box: quartiles, whiskers: range, triangle: mean",
        transform=ax.transAxes,
        fontsize=8,
    )
    return fig


def repartition_spread(
    repartitions: pd.DataFrame, estimates: pd.DataFrame, chosen_dataset: int, n_partitions: int
) -> Figure:
    """One dataset's estimates over repeated random partitions, holdout against K-fold."""
    fig, ax = style.subplots(figsize=(7, 4))
    if repartitions.empty:
        ax.text(
            0.5, 0.5, f"dataset {chosen_dataset} is not among the datasets run", ha="center", transform=ax.transAxes
        )
        return fig
    dataset = int(repartitions["dataset"].iloc[0])
    names = list(dict.fromkeys(repartitions["estimator"]))
    for i, name in enumerate(names):
        values = repartitions.loc[repartitions["estimator"] == name, "estimate"]
        ax.plot(values, np.full(len(values), i) + np.linspace(-0.15, 0.15, len(values)), "o", label=name)
        ax.hlines(i, values.min(), values.max(), color="0.5")
    true = estimates.loc[estimates["dataset"] == dataset, "true_accuracy"].iloc[0]
    ax.axvline(true, color=style.REFERENCE, linestyle=":", label=f"true accuracy {true:.3f}")
    ax.set_yticks(range(len(names)), names)
    spread = {n: 100 * np.ptp(repartitions.loc[repartitions["estimator"] == n, "estimate"]) for n in names}
    title = (
        f"Dataset {dataset}, {n_partitions} partitions: the holdout moves across {spread[names[0]]:.0f} points, "
        f"{names[1]} {spread[names[1]]:.1f}"
    )
    ax.set(xlabel="estimated accuracy", ylabel="estimator", title=title)
    ax.legend(loc="lower right")
    return fig
