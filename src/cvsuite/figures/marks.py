"""Marks the simulation figures of the ESL and Kohavi studies share.

A published value (read from the registry) drawn as a reference line, and replicated results drawn
as one column of points per quantity with the mean ± 2 Monte Carlo SE beside it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.methods.monte_carlo import mean_and_se


def published_line(
    ax, value: float, label: str | None = None, *, vertical: bool = False, linestyle: str = "--", linewidth: float = 1.2
) -> None:
    """``value`` as a horizontal (or ``vertical``) reference line across ``ax``, in the published colour."""
    draw = ax.axvline if vertical else ax.axhline
    draw(value, color=style.PUBLISHED, linestyle=linestyle, linewidth=linewidth, label=label)


def replicate_columns(ax, table: pd.DataFrame, columns, jitter: np.random.Generator) -> None:
    """For each (column, tick label, colour) of ``columns``, every row of ``table`` as a point,
    jittered sideways by ``jitter`` (display only), and beside them their mean ± 2 Monte Carlo SE."""
    for x, (column, _, colour) in enumerate(columns):
        values = table[column]
        ax.scatter(x + jitter.uniform(-0.22, 0.22, len(values)), values, s=14, alpha=0.6, color=colour)
        mean, se = mean_and_se(values)
        label = "mean ± 2 Monte Carlo SE" if x == 0 else None
        ax.errorbar(x + 0.32, mean, yerr=2 * se, fmt="o", color="black", capsize=3, label=label)
    ax.set_xticks(range(len(columns)), [label for _, label, _ in columns], fontsize=9)
