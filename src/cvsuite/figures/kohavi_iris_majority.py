"""The figure of study kohavi_iris_majority (Kohavi 1995, cited by "Cross-Validation", Variants)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.published.published_values import published_value

PUBLISHED_LOO = "kohavi1995.loo.accuracy"  # registry row drawn as the published reference


def fold_scores(
    estimates: pd.DataFrame, runs: pd.DataFrame, folds: pd.DataFrame, tie_break: str, published_loo: float
) -> Figure:
    """Left: every fold's score in each protocol's first partition. Right: the estimates over
    partitions. Both under the tie-breaking rule ``tie_break``."""
    shown = estimates[estimates["tie_break"] == tie_break].set_index("scheme")
    loo, strat, shuf = shown.loc["leave-one-out"], shown.loc["stratified"], shown.loc["shuffled"]
    truth = float(loo["full_data_accuracy_percent"])
    fig, (fold_ax, part_ax) = style.subplots(1, 2, figsize=(10.5, 5.6), gridspec_kw={"width_ratios": [1, 1.2]})

    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    for x, scheme in enumerate(["leave-one-out", "stratified", "shuffled"]):
        protocol = shown.loc[scheme, "protocol"]
        scores = folds[(folds["protocol"] == protocol) & (folds["tie_break"] == tie_break)]["accuracy_percent"]
        fold_ax.scatter(
            x + jitter.uniform(-0.25, 0.25, len(scores)),
            scores,
            s=12,
            alpha=0.6,
            color="black",
            label="one fold's accuracy (left)",
        )
        first = runs[(runs["protocol"] == protocol) & (runs["tie_break"] == tie_break) & (runs["partition"] == 0)]
        estimate = first["accuracy_percent"].iloc[0]
        fold_ax.plot(
            [x - 0.32, x + 0.32], [estimate] * 2, color=style.EXPECTED, linewidth=2, label="the partition's CV estimate"
        )
    loo_label = f"leave-one-out, published: {published_loo:g}% (reproduced: {loo['accuracy_percent']:g}%)"
    # The published figure is leave-one-out's alone: drawn across its column only.
    fold_ax.plot([-0.45, 0.45], [published_loo] * 2, **style.LINES["published"], label=loo_label)
    truth_label = f"trained on all 150: {truth:.1f}% expected"
    style.reference_line(fold_ax, truth, truth_label, kind="truth")
    fold_ax.set_xticks(
        [0, 1, 2],
        [
            f"leave-one-out\n({int(loo['n_folds'])} folds)",
            f"{strat['protocol']}\n(first partition)",
            f"{shuf['protocol']}\n(first partition)",
        ],
    )
    fold_ax.set(
        ylabel="accuracy of the fold's majority\npredictor (%)",
        ylim=(-4, 45),
        title=_per_fold_title(loo, strat),
    )

    shuffled = runs[(runs["scheme"] == "shuffled") & (runs["tie_break"] == tie_break)]["accuracy_percent"]
    step = 100.0 / int(loo["n_folds"])  # estimates move in steps of one hit out of n
    bins = np.arange(shuffled.min() - step / 2, shuffled.max() + step, step)
    label = f"{shuf['protocol']}, {int(shuf['partitions'])} shuffles (right)"
    part_ax.hist(shuffled, bins=bins, color=style.TRAIN, alpha=0.75, label=label)
    expected = shuf["expected_accuracy_percent"]
    exact = f"{shuf['protocol']}: exact expectation {expected:.2f}%"
    style.reference_line(part_ax, expected, exact, kind="reproduced", vertical=True, color=style.TRAIN, linestyle="-.")
    label = f"{strat['protocol']}: {strat['accuracy_percent']:.1f}% in all {int(strat['partitions'])} partitions"
    # Not red: red marks a partition's CV estimate on the left; this is one protocol's value.
    style.reference_line(part_ax, strat["accuracy_percent"], label, kind="reproduced", vertical=True, linewidth=2)
    style.reference_line(part_ax, published_loo, loo_label, kind="published", vertical=True)
    style.integer_axis(part_ax, "y")
    part_ax.set(
        xlabel="cross-validated accuracy of\nthe majority predictor (%)",
        ylabel="partitions",
        title=f"Over partitions: shuffled {int(shuf['n_folds'])}-fold spreads\n"
        f"(s.d. {shuf['spread_over_partitions_percent']:.2f} points)",
    )
    part_ax.set_xlim(-2, 40)
    style.figure_legend(fig)

    rules = estimates.groupby("protocol")["accuracy_percent"].nunique()
    same = "identical under every tie-breaking rule" if (rules == 1).all() else "depends on the tie-breaking rule"
    fig.suptitle(
        f"Majority class on Iris: leave-one-out {loo['accuracy_percent']:.0f}% with zero fold spread,\n"
        f"stratified {strat['accuracy_percent']:.1f}%, shuffled {shuf['accuracy_percent']:.1f}% "
        f"(truth {truth:.1f}%)\n{same.capitalize()} (shown: {tie_break.replace('_', ' ')})"
    )
    return fig


def _per_fold_title(loo: pd.Series, strat: pd.Series) -> str:
    """What the folds of leave-one-out and stratified CV score: one value each when every fold of
    every partition scores alike (fold range and spread over partitions zero), else the mean range."""

    def scores(row: pd.Series, name: str) -> str:
        if row["fold_range_percent"] == 0 and row["spread_over_partitions_percent"] == 0:
            return f"every {name} fold scores {row['accuracy_percent']:.3g}%"
        return f"{name} folds differ by {row['fold_range_percent']:.1f} points on average"

    return f"Per fold: {scores(loo, 'leave-one-out')},\n{scores(strat, 'stratified')}"


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    tables = inputs.tables
    # The figure shows the first tie-breaking rule; the tables hold every rule.
    tie_break = inputs.config["kohavi_iris_majority"]["tie_breaks"][0]
    published_loo = published_value(inputs.published, PUBLISHED_LOO)
    return {
        "fold_scores": fold_scores(tables["estimates"], tables["partitions"], tables["folds"], tie_break, published_loo)
    }
