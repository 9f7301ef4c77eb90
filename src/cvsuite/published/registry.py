"""The registry of published numbers: one row per number a document prints, and where it stands.

Columns (all text; empty where not applicable):

- ``id``: stable identifier, lower case, dots and dashes (``rcv.path.lam-1e-08.train-risk``)
- ``document``: the title of the document (or cited work) that prints the number
- ``section``: the section or block it stands in
- ``where``: table row and column, or the sentence quoted
- ``published``: the figure exactly as printed (sign, digits, separators, percent kept)
- ``comparison``: how the reproduced value is judged, one of COMPARISONS
- ``tolerance``: for ``within`` an absolute tolerance, for ``within_se`` a number of standard errors
- ``table``: the result table that holds the reproduced value, relative to ``results/``
- ``row``: which row, as ``column=value`` conditions joined by ``&``; empty for one-row tables
- ``column``: which column of that row
- ``figure``: the figure (relative to ``figures/``) that shows the number, if one does
- ``note``: why the comparison is what it is; required for ``not_reproducible`` and tolerances
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from cvsuite.published.printed_numbers import parse_printed

COLUMNS = (
    "id",
    "document",
    "section",
    "where",
    "published",
    "comparison",
    "tolerance",
    "table",
    "row",
    "column",
    "figure",
    "note",
)

COMPARISONS = {
    "rounded": "the reproduced value written at the printed precision reads the same",
    "truncated": "as rounded, but digits are cut where the document truncates (81,050 for 81,050.6)",
    "exact": "the reproduced text equals the printed text (True, False, a label)",
    "within": "a statistical claim: |reproduced - published| <= tolerance",
    "within_se": "a re-simulation: |reproduced - published| <= tolerance Monte Carlo standard errors "
    "(read from the column named <column>_se)",
    "not_reproducible": "the document does not give what the number needs; the note says why",
}

_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


class RegistryError(ValueError):
    """A registry row that cannot be used; the message names the file and the row's id."""


@dataclass(frozen=True)
class Claim:
    """One registry row, validated."""

    id: str
    document: str
    section: str
    where: str
    published: str
    comparison: str
    tolerance: float | None
    table: str
    row: str
    column: str
    figure: str
    note: str

    @property
    def study(self) -> str:
        """The study that produces the number: the first folder of its table."""
        return self.table.split("/", 1)[0] if self.table else ""


def read_registry(path: str | Path, known_tables: set[str] | None = None) -> list[Claim]:
    """Read and validate the registry; raise RegistryError naming the first bad row.

    ``known_tables`` (paths relative to results/) are the tables the studies produce; a row that
    points anywhere else is refused.
    """
    path = Path(path)
    if not path.exists():
        raise RegistryError(f"{path}: the registry of published numbers is missing")
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        header = reader.fieldnames or []
        missing = [c for c in COLUMNS if c not in header]
        if missing:
            raise RegistryError(f"{path}: header lacks column(s) {', '.join(missing)}")
        unknown = [c for c in header if c not in COLUMNS]
        if unknown:
            raise RegistryError(f"{path}: header has unknown column(s) {', '.join(unknown)}")
        claims: list[Claim] = []
        seen: dict[str, int] = {}
        for line, raw in enumerate(reader, start=2):
            if None in raw or any(v is None for v in raw.values()):
                ident = (raw.get("id") or "").strip() or f"at line {line}"
                raise RegistryError(f"{path}: row '{ident}' (line {line}) has the wrong number of fields")
            claim = _validated(path, line, {k: v.strip() for k, v in raw.items()}, known_tables)
            if claim.id in seen:
                raise RegistryError(f"{path}: row '{claim.id}' (line {line}) repeats the id of line {seen[claim.id]}")
            seen[claim.id] = line
            claims.append(claim)
    if not claims:
        raise RegistryError(f"{path}: the registry has no rows")
    return claims


def _validated(path: Path, line: int, row: dict[str, str], known_tables: set[str] | None) -> Claim:
    ident = row["id"]

    def refuse(why: str) -> RegistryError:
        return RegistryError(f"{path}: row '{ident or f'at line {line}'}' (line {line}): {why}")

    if not ident:
        raise refuse("the id is empty")
    if not _ID.match(ident):
        raise refuse("the id may hold only lower-case letters, digits, '.', '_' and '-'")
    for field in ("document", "where", "published"):
        if not row[field]:
            raise refuse(f"the field '{field}' is empty")
    comparison = row["comparison"] or "rounded"
    if comparison not in COMPARISONS:
        raise refuse(f"comparison '{comparison}' is not one of {', '.join(sorted(COMPARISONS))}")
    if comparison not in ("exact", "not_reproducible"):
        try:
            parse_printed(row["published"])
        except ValueError as err:
            raise refuse(f"published figure {err}") from None
    tolerance = None
    if comparison in ("within", "within_se"):
        try:
            tolerance = float(row["tolerance"])
        except ValueError:
            raise refuse(f"comparison '{comparison}' needs a numeric tolerance, got '{row['tolerance']}'") from None
        if not tolerance > 0:
            raise refuse("the tolerance must be positive")
        if not row["note"]:
            raise refuse("a tolerance needs a note giving its reason")
    elif row["tolerance"]:
        raise refuse(f"a tolerance is given but comparison '{comparison}' does not use one")
    if comparison == "not_reproducible":
        if not row["note"]:
            raise refuse("a 'not_reproducible' row needs a note saying why")
        if row["table"] or row["column"]:
            raise refuse("a 'not_reproducible' row points at no result")
    else:
        if not row["table"] or not row["column"]:
            raise refuse("the fields 'table' and 'column' must say which result holds the number")
        if known_tables is not None and row["table"] not in known_tables:
            raise refuse(f"no study produces the table '{row['table']}'")
        try:
            parse_row_selector(row["row"])
        except ValueError as err:
            raise refuse(str(err)) from None
    return Claim(
        id=ident,
        document=row["document"],
        section=row["section"],
        where=row["where"],
        published=row["published"],
        comparison=comparison,
        tolerance=tolerance,
        table=row["table"],
        row=row["row"],
        column=row["column"],
        figure=row["figure"],
        note=row["note"],
    )


def parse_row_selector(text: str) -> list[tuple[str, str]]:
    """``K=2&statistic=mean`` -> [("K", "2"), ("statistic", "mean")]; empty text selects the only row."""
    if not text:
        return []
    conditions = []
    for part in text.split("&"):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"row selector '{text}' is not of the form column=value&column=value")
        conditions.append((key.strip(), value.strip()))
    return conditions


def published_value(claims: list[Claim], claim_id: str) -> float:
    """The value of registry row ``claim_id`` as printed ("0%" -> 0.0, "0.007581" -> 0.007581).

    A figure that draws a published number as a reference asks for it by the row's id, so the line
    moves if the registry is corrected and nothing is typed twice.
    """
    for claim in claims:
        if claim.id == claim_id:
            return parse_printed(claim.published).value
    raise KeyError(f"the registry has no row '{claim_id}' (a figure draws it as the published reference)")
