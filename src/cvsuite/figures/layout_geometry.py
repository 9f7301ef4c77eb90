"""What the layout checks measure on a drawn figure: what was drawn, the saved area, markers in
display pixels, visible colour, and names a reader can find.

Kept apart from the checks themselves (layout_checks.py) so that each check reads as its rule.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
from matplotlib import rcParams
from matplotlib.collections import Collection, PathCollection
from matplotlib.colors import to_hex, to_rgba
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, Bbox

NO_MARKER = (None, "None", "none", "", " ")
NO_LINE = ("None", "none", "", " ")


@dataclass
class Drawn:
    """What one draw of a figure put on the canvas, measured in that draw's display pixels."""

    renderer: object = None
    area: Bbox | None = None  # the part of the canvas the saved file shows
    texts: list = field(default_factory=list)
    roles: dict = field(default_factory=dict)  # see layout_geometry.text_roles
    artists: set = field(default_factory=set)  # ids of the lines, collections and patches drawn
    ended: bool = False  # the draw is over: later draws are not recorded

    def was_drawn(self, artist) -> bool:
        return id(artist) in self.artists


def lay_out(fig) -> Bbox | None:
    """Lay ``fig`` out once, at the resolution it is saved with, as its draw would (its layout engine),
    and keep that layout: the engine is dropped (not "none", which keeps a placeholder engine), so
    savefig neither lays it out again nor draws it to measure it. Return the box it is saved with
    (inches; None: the whole figure), the tight box as savefig measures it, so that the saved files
    have the bytes savefig's own tight box gives them, with one draw per format."""
    screen_dpi = fig.dpi
    fig.set_dpi(rcParams["savefig.dpi"])  # text widths do not scale exactly with the resolution
    try:
        renderer = fig.canvas.get_renderer()
        engine = fig.get_layout_engine()
        if fig.axes and engine is not None:
            engine.execute(fig)
        fig.set_layout_engine(None)
        if rcParams["savefig.bbox"] != "tight":
            return None
        return fig.get_tightbbox(renderer).padded(rcParams["savefig.pad_inches"])
    finally:
        fig.set_dpi(screen_dpi)


@contextmanager
def first_draw_recorded(fig, measure):
    """While the block runs, record every text, line, collection and patch the first draw of ``fig``
    puts on the canvas, and call ``measure(drawn)`` as that draw ends, while its positions hold:
    savefig draws the saved box moved to the canvas's origin (positions the draw sets, such as an
    axis label's, are in those pixels) and moves it back afterwards. There the part the file
    shows is the figure's whole box."""
    drawn = Drawn()
    originals = {cls: cls.draw for cls in (Text, Line2D, Collection, Patch)}

    def recorder(cls):
        def draw(self, renderer, *args, **kwargs):
            if drawn.ended or not self.get_visible():
                pass
            elif cls is not Text:
                drawn.artists.add(id(self))
            elif self.get_text().strip() and self not in drawn.texts:
                drawn.texts.append(self)
            return originals[cls](self, renderer, *args, **kwargs)

        return draw

    def ended(event):
        if not drawn.ended:
            drawn.ended = True
            drawn.renderer, drawn.area, drawn.roles = event.renderer, fig.bbox.frozen(), text_roles(fig)
            measure(drawn)

    listening = fig.canvas.mpl_connect("draw_event", ended)
    try:
        for cls in originals:
            cls.draw = recorder(cls)
        yield drawn
    finally:
        for cls, draw in originals.items():
            cls.draw = draw
        fig.canvas.mpl_disconnect(listening)


def overlap(a: Bbox, b: Bbox) -> tuple[float, float]:
    return min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0)


def inside(inner: Bbox, outer: Bbox, tolerance: float) -> bool:
    return (
        inner.x0 >= outer.x0 - tolerance
        and inner.y0 >= outer.y0 - tolerance
        and inner.x1 <= outer.x1 + tolerance
        and inner.y1 <= outer.y1 + tolerance
    )


def _alpha(colour, alpha) -> float:
    return (
        to_rgba(colour, alpha)[3] if colour is not None and not (isinstance(colour, str) and colour == "none") else 0.0
    )


def visible_colour(artist) -> bool:
    """Whether ``artist`` puts any visible colour on the canvas (a line, marker, fill, edge or hatch)."""
    alpha = artist.get_alpha()
    if isinstance(artist, Line2D):
        line = artist.get_linestyle() not in NO_LINE and artist.get_linewidth() > 0
        marker = artist.get_marker() not in NO_MARKER
        return (line and _alpha(artist.get_color(), alpha) > 0) or (
            marker and max(_alpha(artist.get_markerfacecolor(), alpha), _alpha(artist.get_markeredgecolor(), alpha)) > 0
        )
    if isinstance(artist, Collection):
        faces = artist.get_facecolor()
        edges = artist.get_edgecolor() if np.any(np.asarray(artist.get_linewidth()) > 0) else []
        return any(len(c) and np.asarray(c).reshape(-1, 4)[:, 3].max() > 0 for c in (faces, edges))
    if isinstance(artist, Patch):
        face = artist.get_fill() and artist.get_facecolor()[3] > 0
        edge = artist.get_linewidth() > 0 and artist.get_edgecolor()[3] > 0
        return bool(face or edge or artist.get_hatch())
    return False


def marker_offsets(artist, renderer) -> tuple[np.ndarray, Bbox | None]:
    """The display positions of ``artist``'s markers (finite ones, N x 2 pixels) and the extent of
    one marker around its centre in pixels (with half its edge width); (empty, None) without markers."""
    empty = np.empty((0, 2))
    if isinstance(artist, Line2D):
        if artist.get_marker() in NO_MARKER:
            return empty, None
        marker = MarkerStyle(artist.get_marker(), artist.get_fillstyle())
        transform = marker.get_transform()
        if artist.get_marker() != ",":
            transform = transform.scale(renderer.points_to_pixels(artist.get_markersize()))
        extents = marker.get_path().get_extents(transform)
        extents = extents.padded(renderer.points_to_pixels(artist.get_markeredgewidth()) / 2)
        centres = artist.get_transform().transform(np.asarray(artist.get_xydata(), dtype=float))
    elif isinstance(artist, PathCollection):
        offsets = np.ma.filled(np.ma.asarray(artist.get_offsets(), dtype=float), np.nan)
        paths, transforms = artist.get_paths(), artist.get_transforms()
        if not len(offsets) or not len(paths):
            return empty, None
        boxes = [
            paths[i % len(paths)].get_extents(Affine2D(transforms[i % len(transforms)]) if len(transforms) else None)
            for i in range(max(len(paths), len(transforms), 1))
        ]
        widths = np.asarray(artist.get_linewidths(), dtype=float)
        extents = Bbox.union(boxes).padded(renderer.points_to_pixels(widths.max() if len(widths) else 0) / 2)
        centres = artist.get_offset_transform().transform(offsets)
    else:
        return empty, None
    return centres[np.isfinite(centres).all(axis=1)], extents


def artist_name(fig, artist) -> str:
    """A short name a reader can find: the axes by title or number, a mark by kind, label, colour."""
    if artist in fig.axes:
        title = artist.get_title() or artist.get_title("left") or artist.get_ylabel()
        return f"axes '{_short(title)}'" if title else f"axes {fig.axes.index(artist) + 1}"
    kind = {Line2D: "line", PathCollection: "scatter"}.get(type(artist), type(artist).__name__.lower())
    label = artist.get_label()
    label = f" '{_short(label)}'" if isinstance(label, str) and label and not label.startswith("_") else ""
    where = f" in {artist_name(fig, artist.axes)}" if getattr(artist, "axes", None) in fig.axes else ""
    return f"{kind}{label} ({_colour(artist)}){where}"


def _colour(artist) -> str:
    try:
        if isinstance(artist, Line2D):
            return to_hex(artist.get_color())
        if isinstance(artist, Collection):
            colours = artist.get_facecolor() if len(artist.get_facecolor()) else artist.get_edgecolor()
            return to_hex(colours[0]) if len(colours) else "no colour"
        if isinstance(artist, Patch):
            return to_hex(artist.get_facecolor() if artist.get_fill() else artist.get_edgecolor())
    except (ValueError, TypeError):
        pass
    return "colour"


def _short(text: str, length: int = 40) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= length else text[: length - 1] + "…"


def text_roles(fig) -> dict[int, tuple[str, object]]:
    """Each text of ``fig`` (by id) -> (its role: suptitle, title, x label, tick label, legend
    text, text; the axes it belongs to, or None for the figure's own texts)."""
    roles = {id(text): ("figure text", None) for text in fig.texts}
    for name in ("_suptitle", "_supxlabel", "_supylabel"):
        if getattr(fig, name, None) is not None:
            roles[id(getattr(fig, name))] = ("suptitle" if name == "_suptitle" else "figure label", None)
    for legend in fig.legends:
        for text in [*legend.get_texts(), legend.get_title()]:
            roles[id(text)] = ("figure legend text", None)
    for ax in fig.axes:
        for name in ("title", "_left_title", "_right_title"):
            if getattr(ax, name, None) is not None:
                roles[id(getattr(ax, name))] = ("title", ax)
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            roles[id(axis.label)] = (f"{name} label", ax)
            roles[id(axis.get_offset_text())] = (f"{name} offset text", ax)
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                roles[id(tick.label1)] = roles[id(tick.label2)] = (f"{name} tick label", ax)
        legend = ax.get_legend()
        if legend is not None:
            for text in [*legend.get_texts(), legend.get_title()]:
                roles[id(text)] = ("legend text", ax)
        for text in ax.texts:
            roles[id(text)] = ("text", ax)
        for table in ax.tables:
            for cell in table.get_celld().values():
                roles[id(cell.get_text())] = ("table cell", ax)
    return roles


def describe_text(fig, text, roles: dict) -> str:
    """What a text is (``roles`` from ``text_roles``) and where: "x tick label '2.5' of axes 'Risk'"."""
    role, ax = roles.get(id(text), ("text", None))
    where = "" if ax is None else (" in " if role == "text" else " of ") + artist_name(fig, ax)
    return f"{role} '{_short(text.get_text())}'{where}"
