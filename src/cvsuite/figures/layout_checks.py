"""Checks that a figure reads cleanly, made on the drawn figure with matplotlib's own geometry.

The checks are made on the draw that saves the figure's PNG (``checked_when_saved``): it records
which texts, lines, collections and patches the draw actually put on the canvas (a tick outside
the view, an empty or invisible text is not drawn) and, as the draw ends, measures them in display
pixels (``get_window_extent``, the artists' transforms, the renderer), never by looking at pixels.
One row per check: figure, check, passed, detail; the detail names the offending artists. The
figure jobs (``cvsuite.workflow.figure_job``) check every figure so as they save it and write the
rows beside the study's tables; the comparison gathers them into results/figure_checks.csv, and
the tests fail on any row not passed.

The checks:

- ``text_overlap``: no two drawn texts (titles, suptitle, axis and tick labels, legend texts,
  annotations, texts) overlap by more than ``TOLERANCE_PT`` in both directions, and no text runs
  into the plotting area of an axes it does not belong to.
- ``legend_over_data``: no legend's box (its frame, drawn or not) covers data: a line or curve
  crossing it, a marker (with its size) or a filled patch (bar, histogram bin, band) inside it,
  in any axes, within that axes' clipping box; nor does a note written in an axes (``ax.text``,
  an annotation) cover that axes' data. Images and colour bars are not data here.
- ``clipped``: every text lies inside the saved area (the tight bounding box the figure is saved
  with), inside its clipping box when it has one, and inside its cell in a table; every marker of
  a clipped line or scatter lies wholly inside its axes (a marker whose centre is within its size
  of the edge is cut, one outside is hidden); an unclipped marker lies inside the saved area.
- ``integer_ticks``: an axis declared with ``style.integer_axis`` shows no tick label at a
  fractional position and none written with a decimal point.
- ``unexplained_colour``: every line, collection and patch drawn in a visible colour is explained:
  its label (or the label of the container it belongs to, for error bars and bars) is an entry of
  a legend of its axes or of the figure, or it was declared explained with
  ``style.explained(artist, how)`` (for a mark the title or an axis label explains). Grid lines,
  spines, the axes background, legends' own marks, images and colour bars are exempt.
- ``readable``: every drawn text is at least ``style.MIN_TEXT_PX`` high when the saved PNG is shown
  ``style.REPORT_WIDTH_PX`` wide, as REPORT.md shows it.
- ``error_bars_said``: a figure with error bars carries the words ``style.ERROR_BARS``.
"""

from __future__ import annotations

import io
from collections import Counter
from contextlib import contextmanager

from matplotlib import rcParams
from matplotlib.collections import Collection, LineCollection, PathCollection, QuadMesh
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.transforms import Bbox

from cvsuite.figures import style
from cvsuite.figures.layout_geometry import (
    Drawn,
    artist_name,
    describe_text,
    first_draw_recorded,
    inside,
    lay_out,
    marker_offsets,
    overlap,
    visible_colour,
)

CHECK_COLUMNS = ["figure", "check", "passed", "detail"]
TOLERANCE_PT = 1.0  # overlaps or cuts smaller than this are not seen
MAX_NAMED = 6  # offending artists named in one detail


def _pixels(fig, points: float) -> float:
    return points * fig.dpi / 72.0


def text_overlap(fig, drawn: Drawn) -> list[str]:
    """Pairs of drawn texts whose boxes overlap, and texts running into another axes' plotting
    area (a tick label of the right panel over the left one); see the module's docstring."""
    tol = _pixels(fig, TOLERANCE_PT)
    boxes = [t.get_window_extent(drawn.renderer) for t in drawn.texts]
    problems = []
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            dx, dy = overlap(a, boxes[j])
            if dx > tol and dy > tol:
                first, second = (describe_text(fig, drawn.texts[k], drawn.roles) for k in (i, j))
                problems.append(f"{first} overlaps {second}")
    for text, box in zip(drawn.texts, boxes):
        owner = drawn.roles.get(id(text), ("text", None))[1]
        for ax in fig.axes:
            if ax is owner or _is_colour_bar(ax) or not ax.get_visible():
                continue
            dx, dy = overlap(box, ax.bbox)
            if dx > tol and dy > tol:
                problems.append(f"{describe_text(fig, text, drawn.roles)} runs into {artist_name(fig, ax)}")
    return problems


def _legends(fig) -> list:
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    return legends + list(fig.legends)


def _data_artists(ax, drawn: Drawn) -> list:
    """The axes' lines, collections and patches that the draw put on the canvas (not images)."""
    return [
        a
        for a in [*ax.lines, *ax.collections, *ax.patches]
        if drawn.was_drawn(a) and not isinstance(a, (QuadMesh, AxesImage)) and visible_colour(a)
    ]


def _is_colour_bar(ax) -> bool:
    return getattr(ax, "_colorbar", None) is not None


def _covers(artist, box: Bbox, drawn: Drawn) -> bool:
    """Whether ``artist`` puts ink inside ``box`` (display pixels)."""
    if isinstance(artist, (Line2D, PathCollection)):
        centres, extents = marker_offsets(artist, drawn.renderer)
        if len(centres) and extents is not None:
            # A marker touches the box when its centre is within its own extent of the box.
            x, y = centres[:, 0], centres[:, 1]
            hit = (
                (x + extents.x1 > box.x0)
                & (x + extents.x0 < box.x1)
                & (y + extents.y1 > box.y0)
                & (y + extents.y0 < box.y1)
            )
            if hit.any():
                return True
        if isinstance(artist, PathCollection):
            return False
        if artist.get_linestyle() in ("None", "", " ") or artist.get_linewidth() <= 0:
            return False
        path = artist.get_transform().transform_path(artist.get_path()).cleaned(remove_nans=True)
        return path.intersects_bbox(box, filled=False)
    if isinstance(artist, Collection):
        filled = not isinstance(artist, LineCollection) and len(artist.get_facecolor()) > 0
        transform = artist.get_transform()
        return any(transform.transform_path(p).intersects_bbox(box, filled=filled) for p in artist.get_paths())
    if isinstance(artist, Patch):
        filled = artist.get_fill() and artist.get_facecolor()[3] > 0
        return artist.get_transform().transform_path(artist.get_path()).intersects_bbox(box, filled=filled)
    return False


def legend_over_data(fig, drawn: Drawn) -> list[str]:
    """Legends whose box covers data of any axes, and notes written in an axes (``ax.text``,
    annotations) that sit on its data (see the module's docstring)."""
    boxes = [
        (
            legend.get_window_extent(drawn.renderer),
            "figure legend" if legend in fig.legends else f"legend of {artist_name(fig, legend.axes)}",
            list(fig.axes),
        )
        for legend in _legends(fig)
        if legend.get_visible()
    ]
    for ax in fig.axes:
        for text in ax.texts:
            if text in drawn.texts:
                boxes.append((text.get_window_extent(drawn.renderer), describe_text(fig, text, drawn.roles), [ax]))
    problems = []
    for box, name, axes in boxes:
        for ax in axes:
            if _is_colour_bar(ax):
                continue
            for artist in _data_artists(ax, drawn):
                target = box
                if artist.get_clip_on():
                    target = Bbox.intersection(box, ax.bbox)
                    if target is None or target.width <= 0 or target.height <= 0:
                        continue
                if _covers(artist, target, drawn):
                    problems.append(f"{name} covers {artist_name(fig, artist)}")
    return problems


def clipped(fig, drawn: Drawn) -> list[str]:
    """Texts outside the saved area or their clip box; markers cut or hidden by their axes."""
    tol = _pixels(fig, TOLERANCE_PT)
    area = drawn.area
    problems = []
    for text in drawn.texts:
        box = text.get_window_extent(drawn.renderer)
        if not inside(box, area, tol):
            problems.append(f"{describe_text(fig, text, drawn.roles)} lies outside the saved figure")
        elif text.get_clip_on() and text.get_clip_box() is not None and not inside(box, text.get_clip_box(), tol):
            problems.append(f"{describe_text(fig, text, drawn.roles)} is cut by its axes")
    for ax in fig.axes:
        for table in ax.tables:
            for cell in table.get_celld().values():
                text = cell.get_text()
                if text in drawn.texts and not inside(
                    text.get_window_extent(drawn.renderer), cell.get_window_extent(drawn.renderer), tol
                ):
                    problems.append(f"{describe_text(fig, text, drawn.roles)} overflows its cell")
        for artist in ax.lines + ax.collections:
            if not (drawn.was_drawn(artist) and isinstance(artist, (Line2D, PathCollection))):
                continue
            centres, extents = marker_offsets(artist, drawn.renderer)
            if not len(centres) or extents is None:
                continue
            frame = artist.get_clip_box() if artist.get_clip_on() and artist.get_clip_box() is not None else area
            x, y = centres[:, 0], centres[:, 1]
            cut = (
                (x + extents.x0 < frame.x0 - tol)
                | (x + extents.x1 > frame.x1 + tol)
                | (y + extents.y0 < frame.y0 - tol)
                | (y + extents.y1 > frame.y1 + tol)
            )
            if cut.any():
                where = "its axes" if frame is not area else "the saved figure"
                problems.append(f"{int(cut.sum())} marker(s) of {artist_name(fig, artist)} cut or hidden by {where}")
    return problems


def _decimal(label: str) -> bool:
    digits = label.replace("−", "-").replace(",", "").strip()
    try:
        value = float(digits)
    except ValueError:
        return False
    return "." in digits or value != round(value)


def integer_ticks(fig, drawn: Drawn) -> list[str]:
    """Fractional tick labels on axes declared integer (see the module's docstring)."""
    shown = {id(t) for t in drawn.texts}
    problems = []
    for ax in fig.axes:
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            if not style.is_integer_axis(axis):
                continue
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                for label in (tick.label1, tick.label2):
                    if id(label) not in shown:
                        continue
                    loc = tick.get_loc()
                    if abs(loc - round(loc)) > 1e-9 or _decimal(label.get_text()):
                        problems.append(
                            f"{name} tick label '{label.get_text()}' at {loc:g} on the integer {name} axis "
                            f"of {artist_name(fig, ax)}"
                        )
    return problems


def _container_labels(ax) -> dict[int, list]:
    """Each mark of a container (error bars, bars and their error bars, a histogram) -> the labels
    of the container and of all its marks: a histogram labels only its first bar."""
    labels = {}
    for container in ax.containers:
        marks, stack = [], [container, getattr(container, "errorbar", None)]
        while stack:
            item = stack.pop()
            if isinstance(item, (list, tuple)):
                stack.extend(item)
            elif item is not None:
                marks.append(item)
        names = [container.get_label()] + [m.get_label() for m in marks]
        for mark in marks:
            labels[id(mark)] = names
    return labels


def _real(label) -> bool:
    return isinstance(label, str) and bool(label.strip()) and not label.startswith("_")


def unexplained_colour(fig, drawn: Drawn) -> list[str]:
    """Coloured marks that no legend entry and no declared explanation accounts for."""
    figure_labels = {t.get_text() for legend in fig.legends for t in legend.get_texts()}
    problems = []
    for ax in fig.axes:
        if _is_colour_bar(ax):
            continue
        legend = ax.get_legend()
        labels = figure_labels | ({t.get_text() for t in legend.get_texts()} if legend is not None else set())
        shared = _container_labels(ax)
        for artist in _data_artists(ax, drawn):
            if style.explanation(artist) is not None:
                continue
            names = [artist.get_label(), *shared.get(id(artist), [])]
            if any(_real(n) and n in labels for n in names):
                continue
            problems.append(f"{artist_name(fig, artist)} has no legend entry or explanation")
    return problems


def readable(fig, drawn: Drawn) -> list[str]:
    """Texts smaller than ``style.MIN_TEXT_PX`` at the report's width (see the module's docstring)."""
    area = drawn.area
    saved_px = area.width / fig.dpi * rcParams["savefig.dpi"]
    scale = min(1.0, style.REPORT_WIDTH_PX / saved_px)
    problems = []
    for text in drawn.texts:
        shown = text.get_fontsize() * rcParams["savefig.dpi"] / 72.0 * scale
        if shown < style.MIN_TEXT_PX - 1e-9:
            problems.append(
                f"{describe_text(fig, text, drawn.roles)} is {shown:.1f} px high at {style.REPORT_WIDTH_PX} px wide"
            )
    return problems


def error_bars_said(fig, drawn: Drawn) -> list[str]:
    """A figure with error bars that does not say what they are."""
    with_bars = [ax for ax in fig.axes if style.has_error_bars(ax)]
    if not with_bars or any(style.ERROR_BARS in t.get_text() for t in drawn.texts):
        return []
    return [f"{artist_name(fig, with_bars[0])} has error bars but no text says '{style.ERROR_BARS}'"]


CHECKS = {
    "text_overlap": text_overlap,
    "legend_over_data": legend_over_data,
    "clipped": clipped,
    "integer_ticks": integer_ticks,
    "unexplained_colour": unexplained_colour,
    "readable": readable,
    "error_bars_said": error_bars_said,
}


@contextmanager
def checked_when_saved(fig, name: str):
    """Every layout check of one figure, one row each, made on the first draw of the block (the
    figure jobs save the PNG first; see layout_geometry.first_draw_recorded): what is checked is
    what the reader sees, and the checks cost no draw of their own. Yields the list the rows are
    added to as that draw ends."""
    rows = []
    with first_draw_recorded(fig, lambda drawn: rows.extend(_rows(fig, drawn, name))):
        yield rows
    if not rows:
        raise RuntimeError(f"{name}: the figure was not drawn, so its layout was not checked")


def check_figure(fig, name: str) -> list[dict]:
    """Every layout check of one figure, one row each, laid out and drawn as a figure job saves it
    (``layout_geometry.lay_out``, then a PNG, here in memory)."""
    page = lay_out(fig)
    with checked_when_saved(fig, name) as rows:
        fig.savefig(io.BytesIO(), format="png", bbox_inches=page)
    return rows


def _rows(fig, drawn: Drawn, name: str) -> list[dict]:
    rows = []
    for check, find in CHECKS.items():
        counts = Counter(find(fig, drawn))  # one line per kind of problem, with how often
        problems = [p if n == 1 else f"{p} (x{n})" for p, n in counts.items()]
        named = problems[:MAX_NAMED] + ([f"and {len(problems) - MAX_NAMED} more"] if len(problems) > MAX_NAMED else [])
        rows.append({"figure": name, "check": check, "passed": not problems, "detail": "; ".join(named)})
    return rows
