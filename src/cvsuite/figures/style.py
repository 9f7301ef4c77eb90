"""One look for every figure of the suite, set in one place: colours, sizes, a new figure."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # no screen: figures are files
import matplotlib.pyplot as plt  # noqa: E402

# Colours named for the quantity they show, used the same way in every study.
TRAIN = "#1f77b4"
EXPECTED = "#d62728"
BIAS = "#ff9f1c"
STD_ERROR = "#7b2cbf"
SPREAD = "#d62728"
REFERENCE = "0.35"
PUBLISHED = "#2a9d8f"


def apply_style() -> None:
    """Readable sizes, light grid, no top/right spines; deterministic SVG output."""
    plt.rcParams.update(
        {
            "figure.dpi": 110,
            "savefig.dpi": 150,
            "savefig.bbox": "tight",
            "font.size": 10,
            "axes.titlesize": 11,
            "axes.labelsize": 10,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.frameon": False,
            "svg.hashsalt": "cvsuite",
        }
    )


def subplots(*args, **kwargs):
    """A new figure and its axes in the suite's style (``pyplot.subplots`` after ``apply_style``)."""
    apply_style()
    return plt.subplots(*args, **kwargs)


def figure(*args, **kwargs):
    """A new empty figure in the suite's style, for layouts ``subplots`` cannot make (``pyplot.figure``)."""
    apply_style()
    return plt.figure(*args, **kwargs)
