"""The figure of study robustness: each conclusion at the documents' scale and on fresh datasets."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.studies.robustness import PassRegion

SCALES = (  # (columns' prefix, label, colour, row)
    ("document", "at the document's scale", "0.55", 0),
    ("new", "on fresh datasets (decides 'held')", "black", 1),
)
PASS = "#a1d99b"  # the criterion, in green
PASS_LINE = "#238b45"


def _criterion(ax, region: PassRegion) -> None:
    """The pass region shaded, or the line the fresh error bar must clear or cover; the axis
    reaches every threshold, so that the criterion's edge is in view."""
    edges = [v for v in (region.low, region.high, region.reference) if v is not None and np.isfinite(v)]
    left, right = ax.get_xlim()
    pad = 0.08 * (max(right, *edges) - min(left, *edges))
    left, right = min(left, min(edges) - pad), max(right, max(edges) + pad)
    if region.bar is not None:
        label, line = {
            "above": ("criterion: the whole bar must lie right of this line", "--"),
            "around": ("criterion: the bar must cover this line", "-."),
        }[region.bar]
        style.reference_line(ax, region.reference, label, vertical=True, color=PASS_LINE, linestyle=line)
    elif region.low is not None and region.low == region.high:
        style.reference_line(ax, region.low, "criterion: exactly this value", vertical=True, color=PASS_LINE)
    else:
        low = region.low if region.low is not None else -np.inf
        high = region.high if region.high is not None else np.inf
        ax.axvspan(max(low, left), min(high, right), color=PASS, alpha=0.5, label="criterion: where it holds", zorder=0)
    ax.set_xlim(left, right)


def conclusions(table: pd.DataFrame, regions: dict[str, PassRegion]) -> Figure:
    """Each conclusion's statistic at the document's scale and at the new scale, with error bars
    and its criterion (``regions``, by conclusion, as the fresh scale reads it), so that whether it
    holds can be judged by eye."""
    fig, axes = style.subplots(len(table), 1, figsize=(9, 1.45 * len(table) + 1.6))
    for ax, row in zip(axes, table.itertuples()):
        for prefix, label, colour, y in SCALES:
            est, se, n = (getattr(row, f"{prefix}_{c}") for c in ("estimate", "se", "datasets"))
            se = 0.0 if not np.isfinite(se) else se  # one sample: no standard error
            style.error_bars(ax, y, est, se, horizontal=True, fmt="o", color=colour, label=label)
            ax.text(
                1.01,
                y,
                f"{n} dataset{'s' if n != 1 else ''}",
                transform=ax.get_yaxis_transform(),
                va="center",
            )
        ax.margins(x=0.15)
        ax.autoscale_view()
        _criterion(ax, regions[row.conclusion])
        ax.set_yticks([])
        ax.set_ylim(-0.8, 1.8)
        verdict = "held" if row.held else "NOT held"
        ax.set_title(f"{row.conclusion}: {verdict} ({row.criterion})", loc="left")
    axes[-1].set_xlabel("statistic of the conclusion (units in its row of results/robustness/conclusions.csv)")
    style.figure_legend(fig)
    fig.suptitle(f"{int(table['held'].sum())} of {len(table)} conclusions hold on fresh datasets")
    return fig
