"""The site's tables: every study table as a page a person can read, each row with an anchor a
published number's evidence links to, its CSV beside it, and one archive of every table.

A record's statistic (``k_bias/k_bias.csv[K=2].bias``) names the table, the rows and the column it
reads; the number's evidence link opens that table's page at the cell of the first of those rows
(``#row-<n>-<column>``, the row's number in the CSV counting from 1), and every row and cell any
number reads is marked, so the reader sees which cells carry a verdict.
"""

from __future__ import annotations

import io
import math
import numbers
import zipfile
from pathlib import PurePosixPath

import pandas as pd

from cvsuite.published.statistics import BadReference, parse_reference, select_rows

ARCHIVE = "tables.zip"
# Past this many rows a page shows the cited rows and the head of the table, and the CSV the rest: a
# page stays quick to open on a phone.
MAX_PAGE_ROWS = 400


def table_page_name(table: str) -> str:
    """``k_bias/k_bias.csv`` -> ``table-k_bias-k_bias.html``."""
    study, name = PurePosixPath(table).with_suffix("").parts[-2:]
    return f"table-{study}-{name}.html"


def csv_file(table: str) -> str:
    """The site's copy of a table's CSV."""
    return f"tables/{table}"


def cited_rows(
    statistic: str, tables: dict[str, pd.DataFrame], cache: dict | None = None
) -> list[tuple[str, list[int], str]]:
    """The (table, row positions, column) a record's statistic reads, as a list of one; none for no
    statistic, a table the run lacks or rows it cannot select. ``cache`` is ``select_rows``'s: many
    records read the same rows."""
    if not statistic:
        return []
    try:
        reference = parse_reference(str(statistic))
        table = tables[reference.table]
        rows = select_rows(table, reference.rows, cache)
    except (BadReference, KeyError):
        return []
    return [(reference.table, [int(i) for i in table.index.get_indexer(rows.index)], reference.column)]


def evidence_link(cited: list[tuple[str, list[int], str]]) -> str:
    """The page and row a number's evidence opens at (``cited``, what ``cited_rows`` found for its
    statistic), or "" when it reads no table."""
    for table, rows, column in cited:
        return table_page_name(table) + (f"#{cell_anchor(rows[0], column)}" if rows else "")
    return ""


def cell_anchor(position: int, column: str) -> str:
    """The anchor of a cell a number reads: its row's anchor and its column (``row-3-bias``), so a link
    opens the page scrolled to the cell, whichever side of a wide table it stands."""
    return f"{row_anchor(position)}-{column}"


def evidence_words(cited: list[tuple[str, list[int], str]]) -> str:
    """Where the evidence stands, as a reader reads it: "row 3 of k_bias/k_bias.csv, column bias"."""
    for table, rows, column in cited:
        if not rows:
            return f"{table}, column {column}"
        where = f"row {rows[0] + 1}" if len(rows) == 1 else f"rows {rows[0] + 1} to {rows[-1] + 1}"
        if len(rows) > 1 and rows != list(range(rows[0], rows[-1] + 1)):
            where = f"{len(rows)} rows"
        return f"{where} of {table}, column {column}"
    return ""


def row_anchor(position: int) -> str:
    """The anchor of a table's row at ``position`` (0 = the CSV's first data row): ``row-1``, as a
    person counts."""
    return f"row-{position + 1}"


def readable(value) -> str:
    """A cell as a person reads it: a float to four significant figures, anything else as written."""
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral):
        value = float(value)
        if math.isnan(value):
            return ""
        if abs(value) < 1e15 and value == int(value):
            return f"{int(value)}"
        return f"{value:.4g}"
    return str(value)


def reads_of(comparison: pd.DataFrame, tables: dict[str, pd.DataFrame]) -> dict[str, list]:
    """{claim: the (table, row positions) its statistic reads}."""
    cache: dict = {}
    return {
        claim: cited_rows(statistic, tables, cache)
        for claim, statistic in zip(comparison["claim"], comparison["statistic"].fillna(""))
    }


def cited_by_table(reads: dict[str, list]) -> dict[str, dict[int, list]]:
    """{table: {row position: [the claims that read the row]}}, from ``reads_of``."""
    cited: dict[str, dict[int, list]] = {}
    for claim, found in reads.items():
        for table, positions, _ in found:
            for p in positions:
                cited.setdefault(table, {}).setdefault(p, []).append(claim)
    return cited


def read_columns(reads: dict[str, list]) -> dict[str, dict[int, set]]:
    """{table: {row position: the columns the numbers read there}}."""
    read: dict[str, dict[int, set]] = {}
    for found in reads.values():
        for table, positions, column in found:
            for p in positions:
                read.setdefault(table, {}).setdefault(p, set()).add(column)
    return read


def table_views(
    tables: dict[str, pd.DataFrame], citing: dict[str, dict[int, list[dict]]], read: dict[str, dict[int, set]]
) -> list[dict]:
    """What each table page shows: its header, its rows (position, cells, full values, which cells a
    number reads, the numbers that cite it), and how many rows the page leaves to the CSV. ``citing``
    maps a table to {row position: [the site's rows of the numbers that read it]}, ``read`` to
    {row position: the columns they read}."""
    views = []
    for name, table in sorted(tables.items()):
        cited = citing.get(name, {})
        values = list(table.itertuples(index=False, name=None))
        keep = [i for i in range(len(table)) if i < MAX_PAGE_ROWS or i in cited]
        rows = [
            {
                "anchor": row_anchor(i),
                "number": i + 1,
                "cells": [readable(v) for v in values[i]],
                "full": [str(v) for v in values[i]],
                "numeric": [isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values[i]],
                "read": [cell_anchor(i, c) if c in read.get(name, {}).get(i, ()) else "" for c in table.columns],
                "cited": cited.get(i, []),
            }
            for i in keep
        ]
        views.append(
            {
                "name": name,
                "page": table_page_name(name),
                "csv": csv_file(name),
                "study": name.split("/", 1)[0],
                "columns": list(table.columns),
                "read_columns": sorted({c for by_row in read.get(name, {}).values() for c in by_row}),
                "rows": rows,
                "total": len(table),
                "left_out": len(table) - len(keep),
            }
        )
    return views


def tables_archive(files: dict[str, bytes]) -> bytes:
    """One zip of every table ({path inside: CSV bytes}), with fixed dates so that the same tables give
    the same archive byte for byte."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
