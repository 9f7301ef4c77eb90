"""The layout checks: for each, a small figure that must fail it and one that must pass it."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from cvsuite.figures import style
from cvsuite.figures.layout_checks import CHECK_COLUMNS, CHECKS, check_figure


def verdict(fig, check: str) -> dict:
    """The row of ``check`` for ``fig`` (the figure is closed afterwards)."""
    rows = {row["check"]: row for row in check_figure(fig, "test/figure")}
    plt.close(fig)
    return rows[check]


def small(**kwargs):
    fig, ax = style.subplots(figsize=(4, 3), **kwargs)
    return fig, ax


def test_every_check_gives_one_row_with_the_declared_columns():
    fig, ax = small()
    rows = check_figure(fig, "test/figure")
    plt.close(fig)
    assert [row["check"] for row in rows] == list(CHECKS)
    assert all(list(row) == CHECK_COLUMNS and row["figure"] == "test/figure" for row in rows)


# text_overlap


def test_two_texts_on_one_spot_overlap():
    fig, ax = small()
    ax.text(0.3, 0.5, "first label", transform=ax.transAxes)
    ax.text(0.35, 0.5, "second label", transform=ax.transAxes)
    row = verdict(fig, "text_overlap")
    assert not row["passed"] and "'first label'" in row["detail"] and "'second label'" in row["detail"]


def test_texts_apart_and_empty_or_invisible_texts_do_not_overlap():
    fig, ax = small()
    ax.text(0.05, 0.2, "first label", transform=ax.transAxes)
    ax.text(0.05, 0.7, "second label", transform=ax.transAxes)
    ax.text(0.06, 0.2, "hidden", transform=ax.transAxes, visible=False)
    ax.text(0.06, 0.7, "   ", transform=ax.transAxes)
    assert verdict(fig, "text_overlap")["passed"]


def test_a_tick_label_running_into_the_next_panel_fails():
    fig, (left, right) = style.subplots(1, 2, figsize=(6, 3), layout=None, gridspec_kw={"wspace": 0.05})
    right.set_yticks([0.5], ["a very long tick label for the right panel"])
    row = verdict(fig, "text_overlap")
    assert not row["passed"] and "runs into" in row["detail"]


# legend_over_data


def test_a_line_through_the_legend_fails():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], label="diagonal")
    ax.axhline(0.5, color="0.5", label="half")
    ax.legend(loc="center")
    row = verdict(fig, "legend_over_data")
    assert not row["passed"] and "'diagonal'" in row["detail"]


def test_a_marker_under_a_figure_legend_fails():
    fig, ax = small()
    ax.scatter([0.5], [0.5], s=40, label="one point")
    ax.set(xlim=(0, 1), ylim=(0, 1))
    fig.legend(loc="center")
    assert not verdict(fig, "legend_over_data")["passed"]


def test_a_legend_beside_the_data_passes():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], "o-", label="diagonal")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1))
    assert verdict(fig, "legend_over_data")["passed"]


def test_a_legend_in_an_empty_corner_passes():
    fig, ax = small()
    ax.plot([0, 1], [0, 0.2], "o-", label="low line")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left")
    assert verdict(fig, "legend_over_data")["passed"]


def test_a_note_written_on_a_line_fails_and_one_beside_it_passes():
    for y, passes in ((0.5, False), (0.9, True)):
        fig, ax = small()
        ax.plot([0, 1], [0.5, 0.5], color="red", label="flat")
        ax.text(0.3, y, "a note", transform=ax.transAxes, va="center")
        ax.set_ylim(0, 1)
        ax.legend(loc="lower right")
        row = verdict(fig, "legend_over_data")
        assert row["passed"] == passes and (passes or "'a note'" in row["detail"])


# clipped


def test_a_marker_on_the_axes_edge_is_cut():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], "o-", label="line")
    ax.set(xlim=(0, 1), ylim=(0, 1))
    row = verdict(fig, "clipped")
    assert not row["passed"] and "2 marker(s)" in row["detail"]


def test_a_scatter_marker_outside_the_view_is_hidden():
    fig, ax = small()
    ax.scatter([0.5, 2.0], [0.5, 0.5], s=30)
    ax.set(xlim=(0, 1), ylim=(0, 1))
    row = verdict(fig, "clipped")
    assert not row["passed"] and "1 marker(s)" in row["detail"]


def test_a_clipped_text_across_the_axes_edge_is_cut():
    fig, ax = small()
    ax.text(0.9, 0.5, "runs past the edge", transform=ax.transAxes, clip_on=True)
    row = verdict(fig, "clipped")
    assert not row["passed"] and "'runs past the edge'" in row["detail"]


def test_a_table_cell_too_narrow_for_its_text_overflows():
    fig, ax = small()
    ax.axis("off")
    table = ax.table(cellText=[["a rather long sentence in a cell"]], colWidths=[0.2], loc="center")
    table.auto_set_font_size(False)  # matplotlib would otherwise shrink the text until it fits
    table.set_fontsize(10)
    row = verdict(fig, "clipped")
    assert not row["passed"] and "overflows its cell" in row["detail"]


def test_markers_inside_their_axes_and_unclipped_texts_pass():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], "o-")
    ax.text(0.9, 0.5, "outside, but saved", transform=ax.transAxes)
    assert verdict(fig, "clipped")["passed"]


# integer_ticks


def test_a_fractional_tick_on_an_integer_axis_fails():
    fig, ax = small()
    ax.plot([0, 5], [0, 1])
    ax.set_xticks([0, 2.5, 5])
    style.integer_axis(ax, "x")
    row = verdict(fig, "integer_ticks")
    assert not row["passed"] and "'2.5'" in row["detail"]


def test_an_integer_axis_gets_whole_ticks_and_other_axes_may_be_fractional():
    fig, ax = small()
    ax.plot([0, 3], [0, 1])  # the default locator would put ticks at 0.5, 1.5, ...
    style.integer_axis(ax, "x")
    assert verdict(fig, "integer_ticks")["passed"]


# unexplained_colour


def test_a_coloured_line_without_legend_entry_fails():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], color="red", label="in a legend")
    ax.plot([0, 1], [1, 0], color="blue")
    ax.legend()
    row = verdict(fig, "unexplained_colour")
    assert not row["passed"] and "#0000ff" in row["detail"] and "#ff0000" not in row["detail"]


def test_a_labelled_line_without_a_legend_fails():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], color="red", label="never shown")
    assert not verdict(fig, "unexplained_colour")["passed"]


def test_legend_entries_explanations_and_containers_explain_marks():
    fig, ax = small()
    ax.plot([0, 1], [0, 1], color="red", label="in a legend")
    style.explained(ax.axhline(0.5, color="0.5"), "the title says: the line at 0.5 is chance")
    style.error_bars(ax, np.arange(2), np.array([0.2, 0.4]), np.array([0.01, 0.02]), label="means")
    ax.bar([0, 1], [0.1, 0.1], label="bars")
    ax.grid(True)
    style.legend(ax)
    assert verdict(fig, "unexplained_colour")["passed"]


# readable


def test_small_text_in_a_wide_figure_is_unreadable_at_the_report_width():
    fig, ax = style.subplots(figsize=(14, 3))
    ax.set_title("a title in 10 pt", fontsize=10)
    row = verdict(fig, "readable")
    assert not row["passed"] and "'a title in 10 pt'" in row["detail"]


@pytest.mark.parametrize("width", [4.0, 10.0])
def test_the_suite_fonts_are_readable_up_to_its_widest_figures(width):
    fig, ax = style.subplots(figsize=(width, 3))
    ax.plot([0, 1], [0, 1], label="a line")
    ax.set(title="a title", xlabel="x", ylabel="y")
    ax.legend()
    assert verdict(fig, "readable")["passed"]


# error_bars_said


def test_error_bars_without_the_words_fail():
    fig, ax = small()
    ax.errorbar([0, 1], [0.2, 0.4], yerr=[0.1, 0.1], label="means")
    ax.legend()
    assert not verdict(fig, "error_bars_said")["passed"]


def test_the_suite_legend_says_what_the_error_bars_are():
    fig, ax = small()
    style.error_bars(ax, np.arange(2), np.array([0.2, 0.4]), np.array([0.01, 0.02]), label="means")
    legend = style.legend(ax)
    assert style.ERROR_BARS in [t.get_text() for t in legend.get_texts()]
    assert verdict(fig, "error_bars_said")["passed"]


def test_error_bars_span_the_conventional_number_of_standard_errors():
    fig, ax = small()
    bars = style.error_bars(ax, np.array([0.0]), np.array([1.0]), np.array([0.25]))
    (segment,) = bars.lines[2][0].get_segments()
    plt.close(fig)
    assert segment[:, 1].tolist() == [1.0 - style.ERROR_BAR_SE * 0.25, 1.0 + style.ERROR_BAR_SE * 0.25]


# the box the figure is saved with


def test_saving_with_the_laid_out_box_gives_the_bytes_of_savefigs_own_tight_box():
    """A figure job lays a figure out and measures its box once, without drawing it; the PNG saved
    with that box must be the one savefig makes when it draws the figure to measure the box itself
    (a legend outside the axes and a suptitle widen the box)."""
    import io

    from cvsuite.figures.layout_geometry import lay_out

    def figure():
        fig, ax = small()
        ax.plot([0, 1, 2], [1, 0, 2], label="a line")
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
        fig.suptitle("a title wider than the axes it stands over, to widen the box")
        return fig

    own, given = io.BytesIO(), io.BytesIO()
    fig = figure()
    fig.savefig(own, format="png")
    plt.close(fig)
    fig = figure()
    saved_inches = lay_out(fig)
    assert fig.get_layout_engine() is None  # savefig then neither lays it out nor draws it before the box
    fig.savefig(given, format="png", bbox_inches=saved_inches)
    plt.close(fig)
    assert saved_inches.width > 4.0  # the legend outside the axes is inside the box
    assert given.getvalue() == own.getvalue()


def test_the_checks_are_made_on_the_draw_that_saves_the_figure_and_measure_where_it_shows_them():
    """Checked on savefig's draw, whose box starts at the canvas's origin: a text just inside the
    saved box passes, and the rows come from the first draw alone."""
    import io

    from cvsuite.figures.layout_checks import checked_when_saved
    from cvsuite.figures.layout_geometry import lay_out

    fig, ax = small()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.set_xlabel("an x label at the bottom of the saved box")
    style.legend(ax, loc="upper left")
    page = lay_out(fig)
    with checked_when_saved(fig, "test/figure") as rows:
        fig.savefig(io.BytesIO(), format="png", bbox_inches=page)
        fig.savefig(io.BytesIO(), format="svg", bbox_inches=page)
    plt.close(fig)
    assert [row["check"] for row in rows] == list(CHECKS)
    assert all(row["passed"] for row in rows), rows


def test_a_figure_never_drawn_is_not_taken_for_checked():
    from cvsuite.figures.layout_checks import checked_when_saved

    fig, _ = small()
    with pytest.raises(RuntimeError, match="not drawn"):
        with checked_when_saved(fig, "test/figure"):
            pass
    plt.close(fig)
