"""Monte Carlo means drawn with their error bars, the way every simulation figure of the suite does.

The studies' summary tables carry each mean in a column ``<name>`` and its Monte Carlo standard
error in ``<name>_se``; a figure draws the mean with bars of ``z`` standard errors each side, ``z``
being the study's ``decision_standard_errors`` (the same bound its verdict uses).
"""

from __future__ import annotations

from matplotlib.axes import Axes


def error_bars(ax: Axes, x, table, column: str, *, z: float, fmt: str = "o-", **kwargs):
    """Draw ``table[column]`` against ``x`` with bars of ``z`` times ``table[column + "_se"]``.

    ``table`` may be a data frame (one point per row) or one row of it; the other keyword
    arguments go to ``Axes.errorbar`` (colour, label, marker style).
    """
    return ax.errorbar(x, table[column], yerr=z * table[f"{column}_se"], fmt=fmt, capsize=3, **kwargs)
