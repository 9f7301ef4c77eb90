"""One look for every figure of the suite, set in one place: sizes, colours, error bars, shared marks.

The conventions a reader can rely on in every figure:

- **Sizes.** REPORT.md shows a figure ``REPORT_WIDTH_PX`` wide; every text must stay at least
  ``MIN_TEXT_PX`` high at that width (the layout check ``readable`` measures it). A figure
  ``w`` inches wide shows a ``p``-point font at ``p * REPORT_WIDTH_PX / (72 w)`` pixels, so the
  suite's fonts (11 pt, ticks and legends 10 pt) allow figures up to about ``MAX_WIDTH_IN``.
- **Colours.** A document's number (the registry) is ``PUBLISHED``, drawn dashed; our number for
  the same quantity is ``REPRODUCED``, solid; the quantity an estimate is after (a true risk, a
  true accuracy) is ``TRUTH``, a wide pale line that a published or reproduced line can be seen
  on when they coincide; other marks (zero, chance, a chosen lambda) are
  ``REFERENCE``, thin and dotted. The remaining colours name the quantity they show.
- **Error bars** are ``ERROR_BAR_SE`` Monte Carlo standard errors each side, drawn by
  ``error_bars``; every figure with error bars says so in the words ``ERROR_BARS`` (``legend``
  adds them as a legend entry; the layout check ``error_bars_said`` looks for them).
- **Every mark is explained**: by a legend entry (give it a label and call ``legend``), or, for a
  mark the title or an axis label explains, by ``explained(artist, how)``. Axes of counts carry
  ``integer_axis`` so that no fractional tick appears on them.
"""

from __future__ import annotations

import weakref

import matplotlib

matplotlib.use("Agg")  # no screen: figures are files
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import FixedLocator, MaxNLocator, NullFormatter, NullLocator  # noqa: E402

# How the report shows a figure, and the smallest text a reader should have to read there.
REPORT_WIDTH_PX = 800
MIN_TEXT_PX = 10.0
SAVE_DPI = 150
FONT_PT = 11.0
SMALL_PT = 10.0  # ticks, legends, notes
MAX_WIDTH_IN = SMALL_PT * REPORT_WIDTH_PX / (72 * MIN_TEXT_PX)  # 11.1 in

# Colours named for the quantity they show, used the same way in every study.
TRAIN = "#1f77b4"
EXPECTED = "#d62728"
BIAS = "#ff9f1c"
STD_ERROR = "#7b2cbf"
SPREAD = "#d62728"
PUBLISHED = "#2a9d8f"  # a document's number
REPRODUCED = "black"  # our number for the same quantity
TRUTH = "#8c564b"  # what an estimate is after
REFERENCE = "0.45"  # zero, chance, a chosen setting

LINES = {
    "published": {"color": PUBLISHED, "linestyle": "--", "linewidth": 1.6},
    "reproduced": {"color": REPRODUCED, "linestyle": "-", "linewidth": 1.4},
    "truth": {"color": TRUTH, "linestyle": "-", "linewidth": 3.0, "alpha": 0.5},  # wide and pale: others show on it
    "reference": {"color": REFERENCE, "linestyle": ":", "linewidth": 1.2},
}

# Error bars: this many Monte Carlo standard errors each side, and the words that say so.
ERROR_BAR_SE = 2
ERROR_BARS = f"error bars: ± {ERROR_BAR_SE} s.e."

# Marks the layout checks must know about; weak, so a closed figure takes its marks with it.
_EXPLAINED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_INTEGER_AXES: weakref.WeakSet = weakref.WeakSet()


def apply_style() -> None:
    """Readable sizes, light grid, no top/right spines; deterministic SVG output."""
    matplotlib.rcParams.update(
        {
            "figure.dpi": 110,
            "savefig.dpi": SAVE_DPI,
            "savefig.bbox": "tight",
            "font.size": FONT_PT,
            "axes.titlesize": FONT_PT,
            "axes.labelsize": FONT_PT,
            "figure.titlesize": FONT_PT + 1,
            "xtick.labelsize": SMALL_PT,
            "ytick.labelsize": SMALL_PT,
            "legend.fontsize": SMALL_PT,
            "axes.grid": True,
            "grid.alpha": 0.3,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "legend.frameon": False,
            "svg.hashsalt": "cvsuite",
        }
    )


def figure(*, layout="constrained", **kwargs) -> Figure:
    """A new empty figure in the suite's style, for layouts ``subplots`` cannot make, laid out by
    matplotlib's constrained layout unless ``layout`` says otherwise; the keywords are
    ``Figure``'s. Drawn by Agg, as pyplot's would be, but without pyplot, which would cost each
    figure job 0.02 s of CPU for windows it never opens."""
    apply_style()
    fig = Figure(layout=layout, **kwargs)
    FigureCanvasAgg(fig)
    return fig


def subplots(nrows: int = 1, ncols: int = 1, *, figsize=None, layout="constrained", **kwargs):
    """A new figure and its axes in the suite's style, as ``pyplot.subplots`` gives them: ``figure``
    of that size and layout, and its ``Figure.subplots`` (the other keywords: sharex, gridspec_kw, ...)."""
    fig = figure(figsize=figsize, layout=layout)
    return fig, fig.subplots(nrows, ncols, **kwargs)


def explained(artist, how: str):
    """Record that ``artist`` is explained without a legend entry (``how``: "in the title", ...).

    ``artist`` may be a container (the bars of ``bar``, the parts of ``errorbar``, a list): each
    of its marks is then explained."""
    stack = [artist]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):  # containers are tuples of their marks
            stack.extend(item)
            stack.append(getattr(item, "errorbar", None))
        elif item is not None:
            _EXPLAINED[item] = how
    return artist


def explanation(artist) -> str | None:
    """How ``artist`` was declared explained, or None."""
    return _EXPLAINED.get(artist)


def integer_axis(ax, which: str) -> None:
    """Declare the ``which`` ("x" or "y") axis of ``ax`` one of whole numbers (counts, K, degrees,
    folds, observation numbers): integer ticks on a linear scale, and the layout check refuses any
    fractional tick label on it. Explicit ticks (``set_xticks``) are kept."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    if axis.get_scale() == "linear" and not isinstance(axis.get_major_locator(), FixedLocator):
        axis.set_major_locator(MaxNLocator(integer=True))
    _INTEGER_AXES.add(axis)


def is_integer_axis(axis) -> bool:
    """Whether ``integer_axis`` declared this axis one of whole numbers."""
    return axis in _INTEGER_AXES


def log_axis(ax, which: str, ticks, labels=None) -> None:
    """A log scale on ``which`` with ticks at those of ``ticks`` inside the data's range, labelled
    plainly (``labels``, or the values as written), and no minor labels: "2, 5, 10" rather than
    "2x10^0". Ticks outside the range are dropped rather than stretching the axis to them."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")
    ax.autoscale_view()
    low, high = sorted(axis.get_view_interval())
    keep = [low <= t <= high for t in ticks]
    ticks = [t for t, k in zip(ticks, keep) if k]
    labels = None if labels is None else [label for label, k in zip(labels, keep) if k]
    axis.set_ticks(ticks, labels if labels is not None else [f"{t:g}" for t in ticks])
    axis.set_minor_locator(NullLocator())
    axis.set_minor_formatter(NullFormatter())


def reference_line(ax, value: float, label: str | None, *, kind: str = "reference", vertical: bool = False, **kw):
    """``value`` as a horizontal (or ``vertical``) line across ``ax`` in the style of ``kind``
    ("published", "reproduced", "truth" or "reference"); ``label`` is its legend entry."""
    draw = ax.axvline if vertical else ax.axhline
    return draw(value, **{**LINES[kind], **kw}, label=label if label is not None else "_nolegend_")


def error_bars(ax, x, mean, se, *, horizontal: bool = False, **kwargs):
    """Means with bars of ``ERROR_BAR_SE`` standard errors ``se`` each side (``horizontal``: along x).

    The other keyword arguments go to ``Axes.errorbar`` (fmt, colour, label, ...)."""
    spread = {"xerr" if horizontal else "yerr": ERROR_BAR_SE * se}
    kwargs.setdefault("fmt", "o-")
    kwargs.setdefault("capsize", 3)
    points = (mean, x) if horizontal else (x, mean)
    return ax.errorbar(*points, **spread, **kwargs)


def has_error_bars(ax) -> bool:
    """Whether ``ax`` holds error bars (of ``errorbar`` or of ``bar(..., yerr=...)``)."""
    from matplotlib.container import BarContainer, ErrorbarContainer

    return any(
        isinstance(c, ErrorbarContainer) or (isinstance(c, BarContainer) and c.errorbar is not None)
        for c in ax.containers
    )


def _error_bar_handle() -> Line2D:
    return Line2D([], [], color="black", marker="|", markersize=12, linestyle="none", label=ERROR_BARS)


def legend(where, axes=None, **kwargs):
    """A legend on ``where`` (an axes, or the figure for a figure legend) of every labelled mark of
    ``axes`` (default: ``where`` itself, or all the figure's axes), one entry per label, and the
    words ``ERROR_BARS`` as a last entry when those axes hold error bars."""
    if axes is None:
        axes = where.axes if hasattr(where, "legends") else [where]
    handles, labels = [], []
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    if any(has_error_bars(ax) for ax in axes):
        handles.append(_error_bar_handle())
        labels.append(ERROR_BARS)
    return where.legend(handles, labels, **kwargs)


def figure_legend(fig, ncols: int = 2, **kwargs):
    """One legend for the whole figure, below its panels (where it covers no data), of every
    labelled mark of every axes; needs the constrained layout ``subplots`` gives."""
    return legend(fig, loc="outside lower center", ncols=ncols, **kwargs)
