"""Where a record's number lives in the run's tables: a statistic reference and the rows it selects.

A reference names a column of a study's table and, optionally, which rows:

- ``k_bias/k_bias.csv[K=5].bias_over_truth``: the K = 5 row's ``bias_over_truth``;
- ``k_bias/k_bias.csv[K>=5].std_error``: every row with K at least 5;
- ``k_bias/k_bias.csv.bias``: every row of the table.

The row selector is conditions joined by ``&``, each ``column`` ``=``, ``!=``, ``<``, ``<=``, ``>`` or
``>=`` a value; a value compares as a number when both sides read as one, else as text. Records,
their placeholders and the judges all read tables through this one module.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cvsuite.published.column_patterns import declares_column

if TYPE_CHECKING:  # pandas only names the tables' type: the Snakefile checks references without it
    import pandas as pd

_REFERENCE = re.compile(r"^(?P<table>[a-z0-9_]+/[a-z0-9_]+\.csv)(?:\[(?P<rows>[^\]]*)\])?\.(?P<column>[A-Za-z0-9_]+)$")
_CONDITION = re.compile(r"^\s*(?P<key>[A-Za-z0-9_]+)\s*(?P<op><=|>=|!=|=|<|>)\s*(?P<value>.*?)\s*$")
_OPERATORS = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class BadReference(ValueError):
    """A statistic reference that names no table, rows or column the way a record can."""


@dataclass(frozen=True)
class Reference:
    """A parsed statistic reference: the table (``<study>/<table>.csv``), the row conditions, the column."""

    table: str
    rows: str
    column: str

    @property
    def study(self) -> str:
        return self.table.split("/", 1)[0]

    @property
    def conditions(self) -> list[tuple[str, str, str]]:
        return parse_rows(self.rows)

    def __str__(self) -> str:
        return f"{self.table}[{self.rows}].{self.column}" if self.rows else f"{self.table}.{self.column}"


def parse_reference(text: str) -> Reference:
    """``k_bias/k_bias.csv[K=2].bias`` -> Reference("k_bias/k_bias.csv", "K=2", "bias")."""
    match = _REFERENCE.match(text.strip())
    if not match:
        raise BadReference(f"'{text}' is not of the form <study>/<table>.csv[<rows>].<column>")
    rows = match["rows"] or ""
    parse_rows(rows)
    return Reference(match["table"], rows, match["column"])


def parse_rows(text: str) -> list[tuple[str, str, str]]:
    """``K=2&statistic=mean`` -> [("K", "=", "2"), ("statistic", "=", "mean")]; empty text selects every row."""
    if not text:
        return []
    conditions = []
    for part in text.split("&"):
        match = _CONDITION.match(part)
        if not match:
            raise BadReference(f"row selector '{text}' is not of the form column=value&column>=value")
        conditions.append((match["key"], match["op"], match["value"]))
    return conditions


def reference_problem(reference: Reference, declared: dict[str, list[str]] | None, extra: tuple[str, ...] = ()) -> str:
    """What is wrong with ``reference`` against the tables the studies declare (studies.yaml), or "":
    its table, its column, the columns it selects on and ``extra`` (the columns a judge reads beside
    it, ``<column>_se``) must all be declared."""
    if declared is None:
        return ""
    if reference.table not in declared:
        return f"no study produces the table '{reference.table}'"
    wanted = [reference.column, *extra] + [key for key, _, _ in reference.conditions]
    missing = [c for c in wanted if not declares_column(declared[reference.table], c)]
    if missing:
        return f"table '{reference.table}' has no column {', '.join(repr(c) for c in missing)}"
    return ""


def select_rows(table: pd.DataFrame, rows: str, cache: dict | None = None) -> pd.DataFrame:
    """The rows of ``table`` that a row selector chooses, in table order; all of them for an empty one.
    KeyError naming a selector column the table lacks. ``cache`` (a dict kept while ``table`` lives)
    remembers each choice: many records and placeholders share one."""
    if cache is not None:
        key = (id(table), rows)
        if key not in cache:
            cache[key] = (table, select_rows(table, rows))  # the table kept, so its id stays its own
        return cache[key][1]
    import pandas as pd

    mask = pd.Series(True, index=table.index)
    for key, op, wanted in parse_rows(rows):
        if key not in table.columns:
            raise KeyError(key)
        mask &= table[key].map(lambda cell, op=op, wanted=wanted: _compare(cell, op, wanted))
    return table[mask]


def _compare(cell, op: str, wanted: str) -> bool:
    try:
        return bool(_OPERATORS[op](float(cell), float(wanted)))
    except (TypeError, ValueError):
        if op in ("=", "!="):
            return _OPERATORS[op](str(cell), wanted)
        return False
