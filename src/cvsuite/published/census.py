"""The census: every clause of the three documents that states something, judged or not, in order.

A clause is judged when a record quotes it: the records that share one quote (and one table cell)
are one clause. The clauses no record judges are listed in registry/left_out.yaml, each either
``not_checkable`` (with the reason no computation can judge it) or ``not_judged`` (checkable, with
the computation that would judge it: the list a later change empties). The census merges the two
in the order the documents print them and gives each clause the section it stands in (from the
words that open each section, listed in the same file). ``coverage`` counts it per document and
section beside the run's verdicts. The documents are read by the caller (experiments/write_census.py); the census
it writes, registry/census.csv and docs/census.md, is what the workflow and the tests read.

No sentence may be missed: ``clause_spans`` places every clause in its document's text as the census
does, and ``units_no_clause_covers`` names the units of the text (``document_units``) that no clause
covers; tests/test_census.py fails on any prose sentence, title, table row or quiz answer among them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from cvsuite.published.comparison import STATUSES
from cvsuite.published.document_units import Unit
from cvsuite.published.records import Record

JUDGED, NOT_CHECKABLE, NOT_JUDGED = "judged", "not checkable", "not judged yet"
CENSUS_COLUMNS = ["document", "section", "clause", "quote", "where", "status", "records", "reason"]
# The run's verdicts a judged clause's records can have, in the order the coverage table shows them.
VERDICTS = list(STATUSES)


class CensusError(ValueError):
    """A left-out clause the documents do not print, or one a record already judges."""


@dataclass(frozen=True)
class LeftOut:
    """A clause no record judges: ``status`` is NOT_CHECKABLE (``reason`` says why) or NOT_JUDGED
    (``reason`` says what computation would judge it)."""

    document: str
    quote: str
    status: str
    reason: str
    origin: str


def quote_spans(quote: str, text: str, start: int = 0) -> list[tuple[int, int]] | None:
    """Where ``quote`` stands in ``text`` at or after ``start``: the span of each piece between its
    ``...`` elisions, verbatim, in order, each within one paragraph of the one before; None if it
    does not stand there."""
    pieces = [p.strip() for p in quote.split("...") if p.strip()] if "..." in quote else [quote]
    at = text.find(pieces[0], start)
    while at >= 0:
        spans, ok = [(at, at + len(pieces[0]))], True
        for piece in pieces[1:]:
            end = spans[-1][1]
            nxt = text.find(piece, end)
            if nxt < 0 or "\n\n" in text[end:nxt] or nxt - end > 600:
                ok = False
                break
            spans.append((nxt, nxt + len(piece)))
        if ok:
            return spans
        at = text.find(pieces[0], at + 1)
    return None


def quote_position(quote: str, text: str, start: int = 0) -> int | None:
    """Where ``quote`` starts in ``text`` at or after ``start`` (``quote_spans``); None if it does not
    stand there."""
    spans = quote_spans(quote, text, start)
    return spans[0][0] if spans else None


def read_left_out(data: Mapping, label: str) -> tuple[dict[str, list[tuple[str, str]]], list[LeftOut]]:
    """The sections (per document, its name and the words that open it) and the left-out clauses of
    registry/left_out.yaml, loaded as ``data``; CensusError naming the entry that is malformed."""
    if not isinstance(data, Mapping) or not isinstance(data.get("sections"), Mapping):
        raise CensusError(f"{label}: must hold 'sections' (per document, its sections) and the clause lists")
    sections = {
        document: [(entry["name"], entry["starts"]) for entry in entries]
        for document, entries in data["sections"].items()
    }
    clauses = []
    for key, status, why in (("not_checkable", NOT_CHECKABLE, "reason"), ("not_judged", NOT_JUDGED, "check")):
        for i, entry in enumerate(data.get(key) or []):
            origin = f"{label}, {key} entry {i + 1}"
            missing = [k for k in ("document", "quote", why) if not str(entry.get(k, "")).strip()]
            if missing:
                raise CensusError(f"{origin}: needs {', '.join(missing)}")
            if entry["document"] not in sections:
                raise CensusError(f"{origin}: document '{entry['document']}' has no sections")
            clauses.append(LeftOut(entry["document"], entry["quote"], status, " ".join(entry[why].split()), origin))
    return sections, clauses


def section_starts(document: str, openings: Sequence[tuple[str, str]], text: str) -> list[tuple[int, str]]:
    """Where each section of ``document`` starts in its text, as (position, name): the first line at
    or after the section before that opens with the section's words (``openings``, as
    ``read_left_out`` gives them); CensusError naming a section whose words the text does not print."""
    starts: list[tuple[int, str]] = []
    for name, opening in openings:
        found = re.compile("(?m)^" + re.escape(opening)).search(text, starts[-1][0] if starts else 0)
        if found is None:
            raise CensusError(
                f"registry/left_out.yaml: section '{name}' of '{document}' opens with words it does not print"
            )
        starts.append((found.start(), name))
    return starts


def section_of(position: int, starts: Sequence[tuple[int, str]]) -> str:
    """The name of the section (``section_starts``) that the text's ``position`` stands in."""
    name = starts[0][1]
    for at, section in starts:
        if at <= position:
            name = section
    return name


def _located_records(records: Iterable[Record], document: str, text: str):
    """Each record quoted in ``document``, in the registry's order, with its quote's spans in the
    text: the first place at or after the record above it (so a quote printed twice is placed where
    the registry's order puts it); CensusError where it does not stand there."""
    cursor = 0
    for record in (r for r in records if r.quoted_in == document):
        spans = quote_spans(record.quote, text, cursor)
        if spans is None:
            raise CensusError(
                f"{record.origin}: {record.id}: its quote is not in '{document}' after the record above it"
            )
        cursor = spans[0][0]
        yield record, spans


def clause_spans(
    records: Iterable[Record], left_out: Iterable[LeftOut], document: str, text: str
) -> list[list[tuple[int, int]]]:
    """Where every clause of ``document`` stands in its text, as ``census_rows`` places it: per record
    or left-out clause, the spans of its quote's pieces (one piece unless the quote elides with
    ``...``); CensusError where a quote is not in the text."""
    located = [spans for _, spans in _located_records(records, document, text)]
    for item in (c for c in left_out if c.document == document):
        spans = quote_spans(item.quote, text)
        if spans is None:
            raise CensusError(f"{item.origin}: its quote is not in '{document}'")
        located.append(spans)
    return located


def units_no_clause_covers(units: Iterable[Unit], clauses: Iterable[list[tuple[int, int]]]) -> list[Unit]:
    """The units of a document (``document_units``) that no clause covers, in order. A clause covers a
    unit when one of its quote's pieces, where the census places it (``clause_spans``), lies wholly
    inside the unit, or the unit lies wholly inside one piece (a quote of several sentences). A quiz
    answer's key repeats its option's text verbatim, so a clause covers the key also where it covers
    that text in the option line (where the registry's order places the quote). Placing by position,
    not by matching words, keeps a clause from covering another sentence that repeats its words, and
    a sentence an elision skips is not covered by the quote around it."""
    pieces = [span for spans in clauses for span in spans]

    def covered(start: int, end: int) -> bool:
        return any((start <= a and b <= end) or (a <= start and end <= b) for a, b in pieces)

    return [
        unit
        for unit in units
        if not (covered(unit.start, unit.end) or (unit.repeats is not None and covered(*unit.repeats)))
    ]


def census_rows(
    records: Iterable[Record],
    left_out: Iterable[LeftOut],
    sections: Mapping[str, list[tuple[str, str]]],
    texts: Mapping[str, str],
) -> pd.DataFrame:
    """Every clause, judged or left out, per document in the order the document prints it, with its
    section; CensusError where a left-out clause is not in its document, or a record quotes it."""
    records = list(records)
    left_out = list(left_out)
    rows = []
    for document, text in texts.items():
        starts = section_starts(document, sections[document], text)
        clauses: dict[tuple[str, str], dict] = {}
        # A left-out clause must not be one a claim already judges: one that stands inside a claim's
        # quote where the census places it (the same words printed elsewhere are another clause). A
        # printed number's record, or a table cell's, quotes its whole sentence or table without
        # judging the sentence's claims.
        quoted = []
        for record, spans in _located_records(records, document, text):
            at = spans[0][0]
            clause = clauses.setdefault((record.quote, record.where), {"position": at, "records": []})
            clause["records"].append(record.id)
            if record.is_claim and not record.where:
                quoted.append((record.quote, at, spans[-1][1]))
        for item in (c for c in left_out if c.document == document):
            spans = quote_spans(item.quote, text)
            if spans is None:
                raise CensusError(f"{item.origin}: its quote is not in '{document}'")
            at, end = spans[0][0], spans[-1][1]
            judged_by = [q for q, start, stop in quoted if start <= at and end <= stop]
            if judged_by:
                raise CensusError(f"{item.origin}: a record already quotes it ('{judged_by[0][:60]}')")
            clauses[(item.quote, item.status)] = {"position": at, "status": item.status, "reason": item.reason}
        ordered = sorted(clauses.items(), key=lambda kv: kv[1]["position"])
        for number, ((quote, where), clause) in enumerate(ordered, start=1):
            judged = "records" in clause
            rows.append(
                {
                    "document": document,
                    "section": section_of(clause["position"], starts),
                    "clause": number,
                    "quote": " ".join(quote.replace("\t", " ⇥ ").split()),
                    "where": where if judged else "",
                    "status": JUDGED if judged else clause["status"],
                    "records": " ".join(clause["records"]) if judged else "",
                    "reason": "" if judged else clause["reason"],
                }
            )
    return pd.DataFrame(rows, columns=CENSUS_COLUMNS)


def census_markdown(census: pd.DataFrame) -> str:
    """docs/census.md: the counts, then per document and section a table of its clauses."""
    counts = Counter(census["status"])
    lines = [
        "# The census: every clause the documents state, judged or not",
        "",
        "Written by `python experiments/write_census.py` from the registry's records and",
        "`registry/left_out.yaml`; `tests/test_census.py` fails when it and the registry disagree. A clause",
        "is judged when a record quotes it (the records that share a quote are one clause); the others are",
        "not checkable by any computation, with the reason, or not judged yet, with the computation that",
        "would judge them. `results/coverage.csv` counts it per section beside the run's verdicts.",
        "",
        "Every sentence of the documents stands in at least one clause: `tests/test_census.py` cuts each",
        "document into units (`cvsuite.published.document_units`) and fails on any prose sentence, title,",
        "table row or quiz answer that no clause covers. So some clauses say no more than that their",
        "sentence is a heading, an instruction or a definition.",
        "",
        f"Counts: {len(census)} clauses; {counts[JUDGED]} {JUDGED}, {counts[NOT_CHECKABLE]} {NOT_CHECKABLE}, "
        f"{counts[NOT_JUDGED]} {NOT_JUDGED}.",
    ]
    for document, block in census.groupby("document", sort=False):
        lines += ["", f"## {document}"]
        for section, rows in block.groupby("section", sort=False):
            lines += ["", f"### {section}", "", "| # | clause | status | records, or why not |", "|---|---|---|---|"]
            for row in rows.itertuples():
                quote = row.quote.replace("|", "\\|")
                where = f" ({row.where})" if row.where else ""
                said = row.records.replace(" ", ", ") if row.status == JUDGED else row.reason.replace("|", "\\|")
                lines.append(f"| {row.clause} | “{quote}”{where} | {row.status} | {said} |")
    return "\n".join(lines) + "\n"


def checked_census(census: pd.DataFrame, label: str) -> pd.DataFrame:
    """The census as read from ``label``, refused with the file's name if its columns are not the
    census's or a status is none the census writes (a damaged or hand-edited file)."""
    if list(census.columns) != CENSUS_COLUMNS:
        raise CensusError(
            f"{label}: its columns are {list(census.columns)}, not {CENSUS_COLUMNS}; rerun experiments/write_census.py"
        )
    strange = sorted(set(census["status"]) - {JUDGED, NOT_CHECKABLE, NOT_JUDGED})
    if strange:
        raise CensusError(f"{label}: unknown status {strange[0]!r}; rerun experiments/write_census.py")
    return census


def coverage(census: pd.DataFrame, verdicts: Mapping[str, str]) -> pd.DataFrame:
    """Per document and section: its clauses, how many are judged, not checkable and not judged
    yet, and its records' verdicts in this run (``verdicts`` maps a record id to its status). A
    record the census does not know is counted under the section '(not in the census)'."""
    rows = []
    known = set()
    for (document, section), block in census.groupby(["document", "section"], sort=False):
        ids = [i for ids in block["records"] for i in ids.split()]
        known.update(ids)
        statuses = Counter(block["status"])
        row = {
            "document": document,
            "section": section,
            "clauses": len(block),
            "judged": statuses[JUDGED],
            "not_checkable": statuses[NOT_CHECKABLE],
            "not_judged_yet": statuses[NOT_JUDGED],
            "records": len(ids),
        }
        found = Counter(verdicts.get(i, "not computed at this config") for i in ids)
        row.update({verdict: found[verdict] for verdict in VERDICTS})
        rows.append(row)
    strays = [i for i in verdicts if i not in known]
    if strays:
        found = Counter(verdicts[i] for i in strays)
        rows.append(
            {"document": "", "section": "(not in the census)", "clauses": 0, "judged": 0, "not_checkable": 0}
            | {"not_judged_yet": 0, "records": len(strays)}
            | {verdict: found[verdict] for verdict in VERDICTS}
        )
    return pd.DataFrame(rows)
