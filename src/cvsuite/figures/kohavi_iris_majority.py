"""The figure of study kohavi_iris_majority (Kohavi 1995, cited by "Cross-Validation", Variants)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.marks import published_line


def fold_scores(
    estimates: pd.DataFrame, runs: pd.DataFrame, folds: pd.DataFrame, tie_break: str, published_loo: float
) -> Figure:
    """Left: every fold's score in each protocol's first partition. Right: the estimates over
    partitions. Both under the tie-breaking rule ``tie_break``."""
    shown = estimates[estimates["tie_break"] == tie_break].set_index("scheme")
    loo, strat, shuf = shown.loc["leave-one-out"], shown.loc["stratified"], shown.loc["shuffled"]
    truth = float(loo["full_data_accuracy_percent"])
    fig, (fold_ax, part_ax) = style.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1, 1.25]})

    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    for x, scheme in enumerate(["leave-one-out", "stratified", "shuffled"]):
        protocol = shown.loc[scheme, "protocol"]
        scores = folds[(folds["protocol"] == protocol) & (folds["tie_break"] == tie_break)]["accuracy_percent"]
        label = "one fold's accuracy" if x == 0 else None
        fold_ax.scatter(
            x + jitter.uniform(-0.25, 0.25, len(scores)), scores, s=12, alpha=0.6, color="black", label=label
        )
        first = runs[(runs["protocol"] == protocol) & (runs["tie_break"] == tie_break) & (runs["partition"] == 0)]
        label = "the partition's CV estimate" if x == 0 else None
        estimate = first["accuracy_percent"].iloc[0]
        fold_ax.plot([x - 0.32, x + 0.32], [estimate] * 2, color=style.EXPECTED, linewidth=2, label=label)
    published_line(fold_ax, published_loo, f"published: {published_loo:g}% under leave-one-out")
    fold_ax.axhline(truth, color=style.REFERENCE, linestyle=":", label=f"trained on all 150: {truth:.1f}% expected")
    fold_ax.set_xticks(
        [0, 1, 2],
        [
            f"leave-one-out\n({int(loo['n_folds'])} folds)",
            f"{strat['protocol']}\n(first partition)",
            f"{shuf['protocol']}\n(first partition)",
        ],
    )
    fold_ax.set(
        ylabel="accuracy of the fold's majority predictor (%)",
        ylim=(-4, 60),
        title="Per fold: leave-one-out and stratified folds never disagree",
    )
    fold_ax.legend(loc="upper left", fontsize=8)

    shuffled = runs[(runs["scheme"] == "shuffled") & (runs["tie_break"] == tie_break)]["accuracy_percent"]
    step = 100.0 / int(loo["n_folds"])  # estimates move in steps of one hit out of n
    bins = np.arange(shuffled.min() - step / 2, shuffled.max() + step, step)
    label = f"{shuf['protocol']}, {int(shuf['partitions'])} shuffles"
    heights, _, _ = part_ax.hist(shuffled, bins=bins, color=style.TRAIN, alpha=0.75, label=label)
    expected = shuf["expected_accuracy_percent"]
    part_ax.axvline(expected, color=style.TRAIN, linestyle="-.", label=f"exact expectation {expected:.2f}%")
    label = f"{strat['protocol']}: {strat['accuracy_percent']:.1f}% in all {int(strat['partitions'])} partitions"
    part_ax.axvline(strat["accuracy_percent"], color=style.EXPECTED, linewidth=2, label=label)
    label = f"leave-one-out, published: {published_loo:g}% (reproduced: {loo['accuracy_percent']:g}%)"
    published_line(part_ax, published_loo, label, vertical=True)
    part_ax.set(
        xlabel="cross-validated accuracy of the majority predictor (%)",
        ylabel="partitions",
        title=f"Over partitions: shuffled {int(shuf['n_folds'])}-fold spreads "
        f"(s.d. {shuf['spread_over_partitions_percent']:.2f} points)",
    )
    part_ax.set_xlim(-2, 58)
    part_ax.set_ylim(0, 1.7 * heights.max())  # room for the legend above the bars
    part_ax.legend(loc="upper right", fontsize=8)

    rules = estimates.groupby("protocol")["accuracy_percent"].nunique()
    same = "identical under every tie-breaking rule" if (rules == 1).all() else "depends on the tie-breaking rule"
    fig.suptitle(
        f"Majority class on Iris: leave-one-out {loo['accuracy_percent']:.0f}% with zero fold spread, "
        f"stratified {strat['accuracy_percent']:.1f}%, shuffled {shuf['accuracy_percent']:.1f}% "
        f"(truth {truth:.1f}%)\n{same.capitalize()} (shown: {tie_break.replace('_', ' ')})",
        y=1.04,
    )
    return fig
