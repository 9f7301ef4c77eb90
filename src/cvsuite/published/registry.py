"""The registry of published numbers: one row per number a document prints, and where it stands.

Columns (all text; empty where not applicable):

- ``id``: stable identifier, lower case, dots and dashes (``rcv.path.lam-1e-08.train-risk``)
- ``document``: the title of the document (or cited work) that prints the number
- ``section``: the section or block it stands in
- ``where``: table row and column, or the sentence quoted
- ``published``: the figure exactly as printed (sign, digits, separators, percent kept)
- ``comparison``: how the reproduced value is judged, one of COMPARISONS
- ``reading``: for a judged claim (``JUDGED``: ``exact``, ``within_se``, ``significant``), the
  proposition tested, in one sentence: the reading the document's own context supports (its
  definitions, its examples, its other sentences saying the same); where a second reading is
  plausible, the note names it and what it would give
- ``evidence``: for a judged claim, the kind of claim and the tables and columns its verdict reads,
  ``<kind>: <study>/<table>.csv[<row>]:<column>,<column>`` (the row selector optional, several
  tables joined by ``;``; the kinds are ``EVIDENCE_KINDS``): rows with the same evidence are judged
  by one rule
- ``table``: the result table that holds the reproduced value, relative to ``results/``
- ``row``: which row, as ``column=value`` conditions joined by ``&``; empty for one-row tables
- ``column``: which column of that row
- ``alternative``: for ``within_se``, the value the claim argues against, in the printed units
  (50% for a CV error on data with no signal): what the test must be able to tell it from
- ``by_construction``: when the number matches because it was an input of the computation (the
  recovered table was solved to reproduce it, a parameter was calibrated on it, a setting was
  inferred from it), what made it so; a match then reads ``reproduced by construction``
- ``erratum``: where the suite finds the document wrong under the reading above (a figure no
  computation gives, a rounding that contradicts the document's own, a conclusion its numbers do
  not carry, two places of a document that contradict each other), the finding in one line; such a
  row is expected to read ``differs``, and the tests fail if it stops doing so or if any other row
  differs. Only the documents' own claims can be errata, never a cited work's (``DOCUMENTS``)
- ``remark``: what is true but imprecise, or true only under a stricter reading than the one
  tested, or worded beyond what its numbers carry: shown apart from the errata, never counted as one
- ``figure``: the figure (relative to ``figures/``) that shows the number, if one does
- ``note``: why the comparison is what it is; required for ``not_reproducible`` and ``within_se``

``note``, ``reading``, ``remark`` and ``erratum`` name the numbers they rest on as placeholders
(``published/templates.py``), which the comparison fills from the run's own tables.

The file is checked whole before any job runs (``read_registry``): its quoting line by line, every
field, and, against the tables and columns the studies declare (studies.yaml), every row's table,
column and row selector, so that a misspelt column stops the run in a second, naming the row.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from cvsuite.published.column_patterns import declares_column
from cvsuite.published.printed_numbers import parse_printed
from cvsuite.published.templates import check_placeholders

COLUMNS = (
    "id",
    "document",
    "section",
    "where",
    "published",
    "comparison",
    "reading",
    "evidence",
    "table",
    "row",
    "column",
    "alternative",
    "by_construction",
    "erratum",
    "remark",
    "figure",
    "note",
)

# The documents whose claims the suite judges; a cited work's number is registered only where a
# document quotes it, and is never an erratum of the cited work.
DOCUMENTS = ("Cross-Validation", "Regularization and Cross-Validation", "Estimating Out-of-Sample Error")

# What a judged claim asserts of its evidence: rows reading the same evidence for the same kind of
# assertion must be judged by one rule (tests/test_registry.py).
EVIDENCE_KINDS = {
    "identity": "an exact fact of a procedure or a formula (a closed form, a count of fits, a fold assignment)",
    "sign": "the direction of an effect or a difference (above, below, upward)",
    "ordering": "how a quantity moves along a parameter (falls with K, rises past the optimum)",
    "shape": "where a curve turns (an interior minimum, turns and climbs)",
    "size": "an effect's size against a stated bound (a few percent, negligible, nearly three times)",
    "systematic": "an effect is systematic rather than the noise of one draw",
    "dependence": "something exists or depends on something (never refuted by a non-detection)",
    "figure": "a printed figure against a re-simulated estimate",
}

# The fields whose numbers are placeholders filled from the run's tables.
WORDED_FIELDS = ("note", "reading", "remark", "erratum")

COMPARISONS = {
    "rounded": "the reproduced value written at the printed precision reads the same",
    "significant": "the reproduced value rounded to the significant figures the printed digits show (an "
    "integer's trailing zeros do not count: 81,050 shows four) reads the same; for a number printed beside "
    "others at that many figures",
    "exact": "the reproduced text equals the printed text (True, False, a label)",
    "within_se": "a re-simulation: the published figure lies within the suite's allowance of standard errors "
    "of the reproduced value (the standard error is read from the column named <column>_se)",
    "not_reproducible": "the document does not give what the number needs; the note says why",
}

# The comparisons that judge a claim under a reading, which the row must state.
JUDGED = ("exact", "within_se", "significant")

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
    reading: str
    evidence: str
    table: str
    row: str
    column: str
    alternative: str
    by_construction: str
    erratum: str
    remark: str
    figure: str
    note: str

    @property
    def judged(self) -> bool:
        """A claim the suite judges by a test of its own: a claim in words, a re-simulated figure, or a
        number whose precision is read from its context (``significant``)."""
        return self.comparison in JUDGED

    @property
    def study(self) -> str:
        """The study that produces the number: the first folder of its table."""
        return self.table.split("/", 1)[0] if self.table else ""


def quoting_problem(line: str) -> str | None:
    """What is wrong with one CSV line's quoting (RFC 4180), or None.

    A quote may only open a field, close it (followed by a comma or the end of the line), or stand
    doubled inside a quoted field; csv.reader would silently take a stray one as text.
    """
    quoted, at_start, i = False, True, 0
    while i < len(line):
        char = line[i]
        if quoted:
            if char == '"':
                if i + 1 < len(line) and line[i + 1] == '"':
                    i += 1
                elif i + 1 < len(line) and line[i + 1] != ",":
                    return f"a closing quote at column {i + 1} is followed by '{line[i + 1]}', not a comma"
                else:
                    quoted = False
        elif char == '"':
            if not at_start:
                return f"a stray quote at column {i + 1} inside an unquoted field"
            quoted = True
        at_start = char == "," and not quoted
        i += 1
    return "a quoted field is not closed on its line" if quoted else None


def read_registry(path: str | Path, declared: dict[str, list[str]] | None = None) -> list[Claim]:
    """Read and check the whole registry; RegistryError naming the first bad row and what is wrong.

    ``declared`` maps every table the studies write (``<study>/<table>.csv``) to its declared
    columns (studies.yaml); a row that points at another table, or at a column (to read or to
    select on) the table does not declare, is refused.
    """
    path = Path(path)
    if not path.exists():
        raise RegistryError(f"{path}: the registry of published numbers is missing")
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines:
        raise RegistryError(f"{path}: the registry is empty")
    header = next(csv.reader([lines[0]]))
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise RegistryError(f"{path}: header lacks column(s) {', '.join(missing)}")
    unknown = [c for c in header if c not in COLUMNS]
    if unknown:
        raise RegistryError(f"{path}: header has unknown column(s) {', '.join(unknown)}")
    claims: list[Claim] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = next(csv.reader([line]))
        ident = fields[0].strip() if fields and fields[0].strip() else f"at line {number}"
        problem = quoting_problem(line)
        if problem:
            raise RegistryError(f"{path}: row '{ident}' (line {number}): malformed quoting: {problem}")
        if len(fields) != len(header):
            raise RegistryError(
                f"{path}: row '{ident}' (line {number}) has the wrong number of fields "
                f"({len(fields)}, not {len(header)})"
            )
        claim = _validated(path, number, {k: v.strip() for k, v in zip(header, fields)}, declared)
        if claim.id in seen:
            raise RegistryError(f"{path}: row '{claim.id}' (line {number}) repeats the id of line {seen[claim.id]}")
        seen[claim.id] = number
        claims.append(claim)
    if not claims:
        raise RegistryError(f"{path}: the registry has no rows")
    return claims


def _validated(path: Path, line: int, row: dict[str, str], declared: dict[str, list[str]] | None) -> Claim:
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
    if comparison == "within_se":
        if not row["note"]:
            raise refuse("a 'within_se' row needs a note saying what the reproduced value is")
        try:
            parse_printed(row["alternative"])
        except ValueError:
            raise refuse(
                f"a 'within_se' row needs the value the claim argues against as 'alternative' "
                f"(got '{row['alternative']}')"
            ) from None
    elif row["alternative"]:
        raise refuse(f"an alternative is given but comparison '{comparison}' does not test against one")
    if row["erratum"] and comparison == "not_reproducible":
        raise refuse("an erratum needs a comparison that can say 'differs'")
    if row["erratum"] and row["document"] not in DOCUMENTS:
        raise refuse(
            f"an erratum must be a claim of one of the documents ({', '.join(DOCUMENTS)}), not of a cited work"
        )
    if comparison in JUDGED:
        for field in ("reading", "evidence"):
            if not row[field]:
                raise refuse(f"a judged claim ('{comparison}') needs its '{field}'")
    if row["evidence"]:
        try:
            _, evidence = parse_evidence(row["evidence"])
        except ValueError as err:
            raise refuse(str(err)) from None
        if declared is not None:
            for table, selector, columns in evidence:
                if table not in declared:
                    raise refuse(f"evidence: no study produces the table '{table}'")
                wanted = columns + [key for key, _ in parse_row_selector(selector)]
                missing = [c for c in wanted if not declares_column(declared[table], c)]
                if missing:
                    raise refuse(f"evidence: table '{table}' has no column {', '.join(missing)}")
    for field in WORDED_FIELDS:
        problem = check_placeholders(row[field], declared)
        if problem:
            raise refuse(f"{field}: {problem}")
    if comparison == "not_reproducible":
        if not row["note"]:
            raise refuse("a 'not_reproducible' row needs a note saying why")
        if row["table"] or row["column"]:
            raise refuse("a 'not_reproducible' row points at no result")
    else:
        if not row["table"] or not row["column"]:
            raise refuse("the fields 'table' and 'column' must say which result holds the number")
        try:
            selector = parse_row_selector(row["row"])
        except ValueError as err:
            raise refuse(str(err)) from None
        if declared is not None:
            _check_declared(refuse, row, selector, comparison, declared)
    return Claim(**{name: row[name] for name in COLUMNS if name != "comparison"}, comparison=comparison)


def _check_declared(refuse, row: dict[str, str], selector, comparison: str, declared: dict[str, list[str]]) -> None:
    table = row["table"]
    if table not in declared:
        raise refuse(f"no study produces the table '{table}'")
    columns = declared[table]
    wanted = [row["column"]] + ([f"{row['column']}_se"] if comparison == "within_se" else [])
    wanted += [key for key, _ in selector]
    for column in wanted:
        if not declares_column(columns, column):
            raise refuse(f"table '{table}' has no column '{column}' (studies.yaml declares {', '.join(columns)})")


_EVIDENCE_PART = re.compile(r"^(?P<table>[a-z0-9_]+/[a-z0-9_]+\.csv)(?:\[(?P<row>[^\]]*)\])?:(?P<columns>.+)$")


def parse_evidence(text: str) -> tuple[str, list[tuple[str, str, list[str]]]]:
    """``sign: a/b.csv[K=2]:x,y; c/d.csv:z`` -> ("sign", [("a/b.csv", "K=2", ["x", "y"]), ("c/d.csv", "", ["z"])])."""
    form = "<kind>: <study>/<table>.csv[<row>]:<column>,<column>; ..."
    kind, sep, rest = text.partition(":")
    kind = kind.strip()
    if not sep or kind not in EVIDENCE_KINDS:
        raise ValueError(f"evidence '{text}' must start with its kind, one of {', '.join(EVIDENCE_KINDS)} ({form})")
    parts = []
    for part in rest.split(";"):
        match = _EVIDENCE_PART.match(part.strip())
        names = [c.strip() for c in match["columns"].split(",") if c.strip()] if match else []
        if not match or not names:
            raise ValueError(f"evidence '{text}' is not of the form {form}")
        parse_row_selector(match["row"] or "")
        parts.append((match["table"], match["row"] or "", names))
    return kind, parts


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
