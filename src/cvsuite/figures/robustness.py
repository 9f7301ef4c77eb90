"""The figures of study robustness: each conclusion at the documents' scale and on fresh datasets.

One figure per topic (``TOPICS``), each a screenful when shown 800 px wide: the 18 conclusions in one
figure made an image 3,917 px tall, which no reader takes in.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.studies.robustness_regions import PassRegion, regions_from_arrays

UNDECIDED = "undecided"  # TRANSITIONAL: a claims table that cannot decide

SCALES = (  # (columns' prefix, label, colour, row)
    ("document", "at the document's scale", "0.55", 0),
    ("new", "on fresh datasets (decides 'held')", "black", 1),
)
PASS = "#a1d99b"  # the criterion, in green
PASS_LINE = "#238b45"
COLUMNS = 2  # 15 panels in one column made a figure 2.4 times as tall as wide
WRAP = 60  # characters of a panel's title or axis label per line, at half the figure's width
# The figures, by name: the topic their title names and the conclusions (ids of the conclusions table)
# they show, in the table's order. A conclusion in no topic is an error, not a panel left out.
TOPICS = {
    "conclusions_estimators": (
        "Part 1's four estimators",
        (
            "no_estimator_bias", "holdout_twice_as_variable", "larger_k_less_bias", "loo_less_biased_than_kfold",
            "larger_k_less_bias_in_total", "loo_pessimism_is_class_imbalance", "cv_weakly_correlated_with_truth",
            "cv_negatively_correlated_with_truth",
        ),
    ),
    "conclusions_selection": (
        "selecting among candidates (Part 2)",
        ("winner_overstates", "nested_as_often_high_as_low", "nested_no_upward_bias", "gap_grows_with_candidates"),
    ),
    "conclusions_regression": (
        "the K-bias table and the ridge path",
        (
            "cv_biased_upward", "cv_estimates_smaller_training_sets", "bias_falls_with_k", "loo_zero_spread",
            "std_error_understates_spread", "penalty_trades_train_for_expected",
        ),
    ),
}  # fmt: skip


def _wrap(text: str) -> str:
    return "\n".join(textwrap.wrap(text, WRAP))


def _criterion(ax, region: PassRegion, reference: float) -> None:
    """The pass region shaded, or the line the fresh error bar must clear or cover; the axis
    reaches every threshold and the finding's ``reference`` value, and an open region reaches on
    past its edge, so that the criterion and what the finding measures from are in view."""
    edges = [v for v in (region.low, region.high, region.reference, reference) if v is not None and np.isfinite(v)]
    left, right = ax.get_xlim()
    span = max(right, *edges) - min(left, *edges)
    pad = 0.08 * span
    left, right = min(left, min(edges) - pad), max(right, max(edges) + pad)
    if region.bar is None and region.low is not None and region.high is None:  # open to the right
        right = max(right, region.low + 0.3 * span)
    if region.bar is None and region.high is not None and region.low is None:  # open to the left
        left = min(left, region.high - 0.3 * span)
    if region.bar == "above":
        # A one-sided region of its own look (hatched, not filled): the whole bar, not only the
        # point, must lie in it; a dashed line beside the dash-dot "around" was hard to tell apart.
        ax.axvspan(
            region.reference,
            right,
            facecolor="none",
            edgecolor=PASS_LINE,
            hatch="//",
            linewidth=0,
            alpha=0.45,
            zorder=0,
            label="criterion: the whole bar must lie in the hatched side",
        )
        style.reference_line(ax, region.reference, None, vertical=True, color=PASS_LINE, linestyle="-", linewidth=1.6)
        style.explained(ax.lines[-1], "the edge of the hatched region of the legend")
    elif region.bar == "around":
        label = "criterion: the bar must cover this line"
        style.reference_line(ax, region.reference, label, vertical=True, color=PASS_LINE, linestyle="-.", linewidth=1.6)
    elif region.low is not None and region.low == region.high:
        style.reference_line(ax, region.low, "criterion: exactly this value", vertical=True, color=PASS_LINE)
    else:
        low = region.low if region.low is not None else -np.inf
        high = region.high if region.high is not None else np.inf
        ax.axvspan(max(low, left), min(high, right), color=PASS, alpha=0.5, label="criterion: where it holds", zorder=0)
    ax.set_xlim(left, right)


VERDICTS = {True: "HELD", False: "NOT HELD", UNDECIDED: "UNDECIDED"}


def _title(row) -> str:
    """The conclusion in its document's words, what the study finds, and the criterion."""
    verdict = VERDICTS[row.held if isinstance(row.held, str) else bool(row.held)]
    return "\n".join(
        (
            _wrap(f"{verdict}: “{row.words}” ({row.document})"),
            _wrap(f"finding: {row.finding}"),
            _wrap(f"criterion: {row.criterion}"),
        )
    )


def conclusion_figures(table: pd.DataFrame, regions: dict[str, PassRegion]) -> dict[str, Figure]:
    """The conclusions drawn one topic to a figure (``TOPICS``), by figure name."""
    placed = {c for _, ids in TOPICS.values() for c in ids}
    unplaced = sorted(set(table["conclusion"]) - placed)
    if unplaced:
        raise ValueError(f"conclusions in no figure of cvsuite.figures.robustness.TOPICS: {unplaced}")
    return {
        name: conclusions(table[table["conclusion"].isin(ids)], regions, topic) for name, (topic, ids) in TOPICS.items()
    }


def conclusions(table: pd.DataFrame, regions: dict[str, PassRegion], topic: str) -> Figure:
    """Each conclusion's statistic at the document's scale and at the new scale, with error bars
    and its criterion (``regions``, by conclusion, as the fresh scale reads it), so that whether it
    holds can be judged by eye. Each panel is titled with the document's words and the study's
    finding, its x axis with the statistic (its unit); the finding's reference value (0, 0.5, 2:
    what its "SE from" counts from) is drawn where it is not already the criterion's line."""
    if table.empty:  # a config under which no conclusion of this topic is computed
        fig = Figure(figsize=(10.5, 1.5))
        fig.text(0.5, 0.5, f"{topic[0].upper()}{topic[1:]}: no conclusion computed at this config", ha="center")
        return fig
    rows = -(-len(table) // COLUMNS)
    fig, grid = style.subplots(rows, COLUMNS, figsize=(10.5, 3.15 * rows + 0.8))
    cells = list(grid.flat)
    axes = cells[: len(table)]
    for ax, row in zip(axes, table.itertuples()):
        ticks = []
        for prefix, label, colour, y in SCALES:
            est, se, n = (getattr(row, f"{prefix}_{c}") for c in ("estimate", "se", "datasets"))
            se = 0.0 if not np.isfinite(se) else se  # one sample: no standard error
            style.error_bars(ax, y, est, se, horizontal=True, fmt="o", color=colour, label=label)
            ticks.append(f"{n} dataset{'s' if n != 1 else ''}")
        ax.margins(x=0.15)
        ax.autoscale_view()
        region = regions[row.conclusion]
        _criterion(ax, region, row.reference)
        if np.isfinite(row.reference) and row.reference != region.reference:
            label = "the value the finding measures from (its 'SE from')"
            style.reference_line(ax, row.reference, label, vertical=True, zorder=1.5)
        ax.set_yticks([y for *_, y in SCALES], ticks)
        ax.tick_params(axis="y", length=0)
        ax.set_ylim(-0.8, 1.8)
        ax.set_title(_title(row), loc="left", fontsize=style.SMALL_PT)
        ax.set_xlabel(_wrap(row.statistic), fontsize=style.SMALL_PT)
    spare = cells[len(table) :]
    for ax in spare:
        ax.set_visible(False)  # laid out, not drawn
    if spare:  # the figure's legend in the empty cell, where it covers nothing
        style.legend(fig, axes=axes, loc="center", bbox_to_anchor=(0, 0, 1, 1), bbox_transform=spare[-1].transAxes)
    else:
        style.figure_legend(fig)
    fig.suptitle(
        f"{topic[0].upper()}{topic[1:]}: {sum(not isinstance(v, str) and bool(v) for v in table['held'])} of "
        f"{len(table)} conclusions hold on fresh datasets\n(grey: the document's own scale; black: fresh datasets)"
    )
    return fig


def _verdict(held):
    """A verdict as the study gave it: read back from CSV, True and False are text when the column
    also holds UNDECIDED, and text is what ``_title`` takes for undecided."""
    return held == "True" if isinstance(held, str) and held != UNDECIDED else held


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its conclusions table and the criteria's regions it saved as arrays
    (its figure rule, ``cvsuite.workflow.figure_job``)."""
    table = inputs.tables["conclusions"]
    return conclusion_figures(table.assign(held=table["held"].map(_verdict)), regions_from_arrays(inputs.arrays))
