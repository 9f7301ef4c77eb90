"""Markdown for the report: a value as a table cell, and a small table with the digits its columns need."""

from __future__ import annotations

import numpy as np
import pandas as pd


def markdown_cell(text) -> str:
    """A value as a Markdown table cell: empty for a missing one, and a '|' of its own escaped."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return ""
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown_table(table: pd.DataFrame) -> list[str]:
    """A small table as Markdown: floats to four significant digits, or as many more (up to ten) as
    a column needs for values that differ to read differently (the solvers' norms 81,050.6 and
    81,049.0 both read 8.105e+04 at four); a missing value as a dash."""
    digits = {name: _digits_that_separate(table[name]) for name in table.columns}

    def cell(value, name) -> str:
        if isinstance(value, float):
            return "—" if np.isnan(value) else f"{value:.{digits[name]}g}"
        return markdown_cell(value)

    out = ["| " + " | ".join(map(str, table.columns)) + " |", "|" + "---|" * len(table.columns)]
    out += [
        "| " + " | ".join(cell(v, name) for v, name in zip(row, table.columns)) + " |"
        for row in table.itertuples(index=False)
    ]
    return out + [""]


def _digits_that_separate(column: pd.Series, least: int = 4, most: int = 10) -> int:
    values = [v for v in column if isinstance(v, float) and not np.isnan(v)]
    for digits in range(least, most):
        if len({f"{v:.{digits}g}" for v in values}) == len(set(values)):
            return digits
    return most
