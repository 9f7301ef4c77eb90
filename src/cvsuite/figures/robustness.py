"""The figures of study robustness: each conclusion's statistic at the documents' scale and on fresh
datasets, with the bound its record's judge holds it to.

One figure per topic (``TOPICS``), each a screenful when shown 800 px wide: the 18 conclusions in one
figure made an image 3,917 px tall, which no reader takes in. The figures draw statistics, their
reference values and the bounds; whether a conclusion holds is the registry's to say (its records,
in results/comparison.csv and the report), not the figures'.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs

SCALES = (  # (columns' prefix, label, colour, row)
    ("document", "at the document's scale", "0.55", 0),
    ("new", "on fresh datasets", "black", 1),
)
PASS = "#a1d99b"  # the bound, in green
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


@dataclass(frozen=True)
class Bound:
    """Where the judge of a conclusion's record wants its statistic, drawn beside it.

    Either a fixed interval (``low`` <= statistic, statistic below ``high``; None is open; ``low ==
    high`` means exactly that value), the bounds of a vague ``word`` of registry/scales.yaml
    (tests/test_robustness.py holds them to the list), or, with ``bar``, a test of the statistic's
    2-SE bar against ``reference``: "above" or "below" (the whole bar on that side) or "around" (the
    bar covers it). ``document_scale``: the interval of 2 standard errors of a mean over the
    document's datasets, around ``reference``, computed from the row."""

    low: float | None = None
    high: float | None = None
    bar: str | None = None
    reference: float | None = None
    word: str = ""
    document_scale: bool = False


# Each conclusion's bound, as its record's judge reads it (the record's `judge:` in registry/*.yaml).
BOUNDS = {
    "no_estimator_bias": Bound(reference=0.0, document_scale=True),
    "holdout_twice_as_variable": Bound(low=1.5, high=2.5, word="about twice"),
    "winner_overstates": Bound(low=0.8, word="almost every"),
    "nested_as_often_high_as_low": Bound(bar="around", reference=0.5),
    "larger_k_less_bias": Bound(bar="above", reference=0.0),
    "loo_less_biased_than_kfold": Bound(high=0.25, word="little"),
    "larger_k_less_bias_in_total": Bound(bar="above", reference=0.0),
    "loo_pessimism_is_class_imbalance": Bound(bar="above", reference=0.0),
    "nested_no_upward_bias": Bound(bar="below", reference=0.25),  # a quarter of the winner's: 'no such bias'
    "cv_weakly_correlated_with_truth": Bound(low=-0.3, high=0.3, word="only weakly"),
    "cv_negatively_correlated_with_truth": Bound(),  # ESL's simulation, not the example's: no judge
    "gap_grows_with_candidates": Bound(bar="above", reference=0.0),
    "cv_biased_upward": Bound(bar="above", reference=0.0),
    "cv_estimates_smaller_training_sets": Bound(bar="above", reference=0.0),
    "bias_falls_with_k": Bound(low=0.8, word="almost every"),
    "loo_zero_spread": Bound(low=0.0, high=0.0),
    "std_error_understates_spread": Bound(bar="above", reference=0.5),
    "penalty_trades_train_for_expected": Bound(low=0.8, word="almost every"),
}


def _wrap(text: str) -> str:
    return "\n".join(textwrap.wrap(text, WRAP))


def _interval(bound: Bound, row) -> tuple[float | None, float | None]:
    """The bound's fixed interval; for ``document_scale``, 2 standard errors of a mean over the
    document's datasets either side of ``reference``: the fresh estimate's s.e. scaled from the fresh
    datasets' count to the document's."""
    if not bound.document_scale:
        return bound.low, bound.high
    half = 2 * row.new_estimate_se * np.sqrt(row.new_datasets / row.document_datasets)
    return bound.reference - half, bound.reference + half


def _label(bound: Bound, row) -> str:
    if bound.word:
        return f"'{bound.word}': where it must lie"
    if bound.document_scale:
        return f"within 2 s.e. of a {row.document_datasets}-dataset mean"
    return "where it must lie"


def _bound_drawn(ax, bound: Bound, row) -> None:
    """The bound shaded, or the line the fresh error bar must clear or cover; the axis reaches every
    edge and the row's ``reference`` value, and an open interval reaches on past its edge, so that
    the bound and what the z columns measure from are in view. A conclusion with no bound gets its
    reference line alone."""
    low, high = _interval(bound, row)
    edges = [v for v in (low, high, bound.reference, row.reference) if v is not None and np.isfinite(v)]
    left, right = ax.get_xlim()
    if not edges:
        return
    span = max(right, *edges) - min(left, *edges)
    pad = 0.08 * span
    left, right = min(left, min(edges) - pad), max(right, max(edges) + pad)
    if bound.bar is None and low is not None and high is None:  # open to the right
        right = max(right, low + 0.3 * span)
    if bound.bar is None and high is not None and low is None:  # open to the left
        left = min(left, high - 0.3 * span)
    if bound.bar in ("above", "below"):
        # A one-sided region of its own look (hatched, not filled): the whole bar, not only the
        # point, must lie in it; a dashed line beside the dash-dot "around" was hard to tell apart.
        side = (bound.reference, right) if bound.bar == "above" else (left, bound.reference)
        ax.axvspan(
            *side,
            facecolor="none",
            edgecolor=PASS_LINE,
            hatch="//",
            linewidth=0,
            alpha=0.45,
            zorder=0,
            label="the whole bar must lie in the hatched side",
        )
        style.reference_line(ax, bound.reference, None, vertical=True, color=PASS_LINE, linestyle="-", linewidth=1.6)
        style.explained(ax.lines[-1], "the edge of the hatched region of the legend")
    elif bound.bar == "around":
        label = "the bar must cover this line"
        style.reference_line(ax, bound.reference, label, vertical=True, color=PASS_LINE, linestyle="-.", linewidth=1.6)
    elif low is not None and low == high:
        style.reference_line(ax, low, "exactly this value", vertical=True, color=PASS_LINE)
    elif low is not None or high is not None:
        shown = (max(low if low is not None else -np.inf, left), min(high if high is not None else np.inf, right))
        ax.axvspan(*shown, color=PASS, alpha=0.5, label=_label(bound, row), zorder=0)
    ax.set_xlim(left, right)


def _title(row) -> str:
    """The conclusion in its document's words."""
    return _wrap(f"“{row.words}” ({row.document})")


def conclusion_figures(table: pd.DataFrame, bounds: dict[str, Bound] = BOUNDS) -> dict[str, Figure]:
    """The conclusions drawn one topic to a figure (``TOPICS``), by figure name."""
    placed = {c for _, ids in TOPICS.values() for c in ids}
    unplaced = sorted(set(table["conclusion"]) - placed)
    if unplaced:
        raise ValueError(f"conclusions in no figure of cvsuite.figures.robustness.TOPICS: {unplaced}")
    return {
        name: conclusions(table[table["conclusion"].isin(ids)], bounds, topic) for name, (topic, ids) in TOPICS.items()
    }


def conclusions(table: pd.DataFrame, bounds: dict[str, Bound], topic: str) -> Figure:
    """Each conclusion's statistic at the document's scale and at the new scale, with error bars
    and the bound its record's judge holds the fresh statistic to (``bounds``). Each panel is titled
    with the document's words, its x axis with the statistic (its unit); the row's reference value
    (0, 0.5, 2: what its z columns count from) is drawn where it is not already the bound's line."""
    if table.empty:  # a config under which no conclusion of this topic is computed
        fig = Figure(figsize=(10.5, 1.5))
        fig.text(0.5, 0.5, f"{topic[0].upper()}{topic[1:]}: no conclusion computed at this config", ha="center")
        return fig
    rows = -(-len(table) // COLUMNS)
    fig, grid = style.subplots(rows, COLUMNS, figsize=(10.5, 3.0 * rows + 0.8))
    cells = list(grid.flat)
    axes = cells[: len(table)]
    for ax, row in zip(axes, table.itertuples()):
        ticks = []
        for prefix, label, colour, y in SCALES:
            est, se, n = (getattr(row, f"{prefix}_{c}") for c in ("estimate", "estimate_se", "datasets"))
            se = 0.0 if not np.isfinite(se) else se  # one sample: no standard error
            style.error_bars(ax, y, est, se, horizontal=True, fmt="o", color=colour, label=label)
            ticks.append(f"{n} dataset{'s' if n != 1 else ''}")
        ax.margins(x=0.15)
        ax.autoscale_view()
        bound = bounds[row.conclusion]
        _bound_drawn(ax, bound, row)
        if np.isfinite(row.reference) and row.reference != bound.reference:
            label = "the value the z columns measure from"
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
        f"{topic[0].upper()}{topic[1:]}: each conclusion's statistic and the bound its record holds it to\n"
        "(grey: the document's own scale; black: fresh datasets)"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its conclusions table (its figure rule, ``cvsuite.workflow.figure_job``)."""
    return conclusion_figures(inputs.tables["conclusions"])
