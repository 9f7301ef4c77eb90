"""Marks the simulation figures of the two ESL studies share.

Replicated results drawn as one column of points per quantity, with their mean and its error bars
(the suite's convention, ``style.error_bars``) beside them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.methods.monte_carlo import mean_and_se


def replicate_columns(ax, table: pd.DataFrame, columns, jitter: np.random.Generator) -> None:
    """For each (column, tick label, colour) of ``columns``, every row of ``table`` as a point,
    jittered sideways by ``jitter`` (display only), and beside them their mean with error bars."""
    for x, (column, _, colour) in enumerate(columns):
        values = table[column]
        dots = ax.scatter(x + jitter.uniform(-0.22, 0.22, len(values)), values, s=14, alpha=0.6, color=colour)
        style.explained(dots, "one dot per dataset; the x tick label names the quantity")
        mean, se = mean_and_se(values)
        style.error_bars(ax, x + 0.32, mean, se, fmt="o", color="black", label="mean over the datasets")
    ax.set_xticks(range(len(columns)), [label for _, label, _ in columns])
