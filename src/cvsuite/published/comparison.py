"""Published against reproduced: each record judged by its named judge on this run's tables.

The verdicts, in the order the report counts them:

- ``reproduced``: the number the suite computed reads as printed (or a claim holds under its
  reading), and nothing printed went in;
- ``reproduced by construction``: the same, but the number was an input of the computation (the
  record's ``by_construction`` says how), so the match is no evidence;
- ``consistent``: a re-simulated figure within the allowance of our estimate, by a test with the
  power to say ``differs`` (``judges.within_se``);
- ``differs``: no reading holds and none is undecided; the note names the settings that moved it, or
  says none did;
- ``inconclusive``: no reading holds and some reading's test could not decide (too little power);
- ``not reproducible``: the documents do not give what the number needs (the note says why);
- ``not computed at this config``: the rows the statistic needs are not in its table at this config
  (K = 3 was not run), or the study produced no value there; the note says which.

A record's readings decide in order: the first that holds decides, and a stricter reading before it
that failed becomes the remark. Otherwise the record is ``inconclusive`` if any reading is, and
``differs`` if none is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from cvsuite.published.judges import JUDGES, Evidence, Judgement, describe
from cvsuite.published.records import Reading, Record
from cvsuite.published.statistics import select_rows
from cvsuite.published.templates import render

STATUSES = (
    "reproduced",
    "reproduced by construction",
    "consistent",
    "differs",
    "inconclusive",
    "not reproducible",
    "not computed at this config",
)
MATCHED = ("reproduced", "consistent")

COMPARISON_COLUMNS = [
    "claim",
    "document",
    "section",
    "where",
    "sentence_key",
    "published",
    "reproduced",
    "reproduced_as_printed",
    "status",
    "judge",
    "statistic",
    "se",
    "reading",
    "other_readings",
    "remark",
    "allowance",
    "z",
    "alternative",
    "erratum",
    "note",
    "changed_settings",
    "study",
    "table",
    "figure",
    "notes",
    "cited",
]


@dataclass(frozen=True)
class Lookup:
    """The rows a reading's statistic selects, or why there are none at this config."""

    evidence: Evidence | None = None
    missing: str = ""


def look_up(reading: Reading, tables: dict[str, pd.DataFrame], cache: dict | None = None) -> Lookup:
    """The evidence a reading's statistic selects in ``tables``, or why there is none at this config."""
    reference = reading.reference
    table = tables.get(reference.table)
    if table is None:
        return Lookup(missing=f"no table '{reference.table}' was written")
    judge = JUDGES[reading.judge]
    needed = [reference.column, *judge.reads(reference.column, reading.params)]
    absent = [c for c in needed if c not in table.columns]
    if absent:
        return Lookup(missing=f"'{reference.table}' has no column {', '.join(absent)}")
    try:
        rows = select_rows(table, reference.rows, cache)
    except KeyError as err:
        return Lookup(missing=f"'{reference.table}' has no column '{err.args[0]}' to select on")
    if rows.empty or (len(rows) != 1 and not judge.many_rows):
        return Lookup(
            missing=f"rows {reference.rows or '(the only one)'} match {len(rows)} rows of '{reference.table}'"
        )
    if any(_is_missing(v) for v in rows[reference.column]):
        return Lookup(missing=f"the study produced no value at {reference}")
    return Lookup(evidence=Evidence(reference.column, rows))


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _continued(sentence: str) -> str:
    """A reading's sentence continuing another ("read as ..."): its first word in lower case when it is
    an ordinary capitalised word ("The bias" -> "the bias"; "K-fold" and "ESL" stay)."""
    if len(sentence) > 1 and sentence[0].isupper() and sentence[1].islower():
        return sentence[0].lower() + sentence[1:]
    return sentence


def _join(*parts: str) -> str:
    """Parts of a note in order: after a finished sentence the next starts one, else a semicolon."""
    text = ""
    for part in filter(None, parts):
        if not text:
            text = part
        elif text.endswith("."):
            text += f" {part[0].upper()}{part[1:]}"
        else:
            text += f"; {part}"
    return text


@dataclass(frozen=True)
class Decision:
    """How a record's readings decided: the deciding reading and its judgement, the stricter readings
    before it that failed, and, when none holds, the other readings that failed beside it."""

    reading: Reading
    judgement: Judgement
    failed_before: tuple[tuple[Reading, Judgement], ...] = ()
    others: tuple[tuple[Reading, Judgement], ...] = ()


def decide(record: Record, tables: dict[str, pd.DataFrame], vague: dict, cache: dict | None = None) -> Decision:
    """Judge every reading of ``record``; the first that holds decides, else an undecided one, else the first."""
    judged: list[tuple[Reading, Judgement]] = []
    for reading in record.readings:
        found = look_up(reading, tables, cache)
        if found.missing:
            judgement = Judgement("not computed at this config", None, "", "", found.missing)
        else:
            judgement = JUDGES[reading.judge](found.evidence, reading.params, record.published, vague)
        if judgement.status in MATCHED:
            return Decision(reading, judgement, tuple(judged))
        judged.append((reading, judgement))
    for status in ("not computed at this config", "inconclusive"):
        for reading, judgement in judged:
            if judgement.status == status:
                return Decision(reading, judgement)
    return Decision(*judged[0], others=tuple(judged[1:]))


def _read_as(judged, vague: dict) -> str:
    """Readings that failed, each as "read as <reading>, it does not hold (<what the judge found>)"."""
    return "; ".join(
        f"read as {_continued(reading_text(r, j, vague).rstrip('.')) or j.rule}, "
        f"{'the test cannot decide' if j.status == 'inconclusive' else 'it does not hold'} ({j.found})"
        for r, j in judged
    )


def reading_text(reading: Reading, judgement: Judgement, vague: dict) -> str:
    """The reading a reader sees: the statistic in words, then the rule its judge applied."""
    rule = judgement.rule or JUDGES[reading.judge].words(reading.params, vague)
    return f"{reading.measure} {rule}." if reading.measure else ""


def compare(
    records: list[Record],
    tables: dict[str, pd.DataFrame],
    vague: dict,
    changes: dict[str, str] | None = None,
    config: dict | None = None,
) -> pd.DataFrame:
    """The comparison table: one row per record, published beside reproduced, with its verdict.

    ``changes`` maps a study to the description of the settings this run changed in its config
    blocks (``document_settings.describe``); a ``differs`` note names them, or says none changed.
    The numbers of each record's note, remark, erratum and measure are filled from ``tables``,
    ``config`` (this run's) and the record's own judgement. Never raises for a config: what cannot be
    computed at it says so in its row.
    """
    changes = changes or {}
    rows, cache = [], {}
    for record in records:
        rows.append(_row(record, tables, vague, changes, config, cache))
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


def _row(record: Record, tables, vague, changes, config, cache) -> dict:
    # A cited work's number is shown in the cited work's words where the registry has them (the record
    # stands at the quoting sentence, its quote); a table cell by its row and column; a sentence quoted.
    where = f"'{record.cited_words}'" if record.cited_words else (record.where or f"'{record.quote}'")
    row = {
        "claim": record.id,
        "document": record.document,
        "section": record.section,
        "where": where,
        "sentence_key": record.sentence or record.id,
        "published": record.published,
        "reproduced": "",
        "reproduced_as_printed": "",
        "judge": "",
        "statistic": "",
        "se": None,
        "reading": "",
        "other_readings": "",
        "allowance": None,
        "z": None,
        "alternative": "",
        "changed_settings": "",
        "study": "",
        "table": "",
        "figure": record.figure,
        "notes": record.notes,
        "cited": record.cited_words,
    }

    def fill(text: str, judged: dict | None = None) -> str:
        return render(text, tables, config, cache, judged)

    if not record.readings:
        return {
            **row,
            "status": "not reproducible",
            "remark": fill(record.remark),
            "erratum": "",
            "note": _join(fill(record.not_reproducible), fill(record.note)),
        }
    decision = decide(record, tables, vague, cache)
    reading, judgement = decision.reading, decision.judgement
    judged = {"statistic": judgement.value, "se": judgement.se}
    status = judgement.status
    if record.by_construction and judgement.matched:
        status = "reproduced by construction"
    note = fill(record.note, judged)
    remark = fill(record.remark, judged)
    if decision.failed_before:
        stricter = _read_as(decision.failed_before, vague)
        remark = _join(f"It holds when {reading.settles}. {stricter[0].upper()}{stricter[1:]}.", remark)
    if status == "inconclusive":
        note = _join(note, f"too little power: {judgement.found}" if judgement.found else "too little power")
    elif status == "not computed at this config":
        note = _join(note, judgement.found)
    elif judgement.found and JUDGES[reading.judge].name == "within_se":
        found = judgement.found
        if status == "reproduced by construction":
            # An input matches whatever the power; say what the test alone would have concluded.
            found = found.replace("; too little power:", "; as a test on its own it could not decide:")
        note = _join(note, found)
    changed = changes.get(reading.reference.study, "")
    if status == "differs":
        moved = f"this run changed {changed}" if changed else "no setting of this study differs from the documents'"
        note = _join(note, moved)
    return {
        **row,
        "reproduced": ""
        if judgement.value is None
        else (repr(judgement.value) if isinstance(judgement.value, float) else str(judgement.value)),
        "reproduced_as_printed": judgement.shown,
        "status": status,
        "judge": describe(reading.judge, reading.params),
        "statistic": reading.statistic,
        "se": judgement.se,
        "reading": fill(reading_text(reading, judgement, vague), judged),
        # Every other reading an erratum failed under, so the reader sees each one tried.
        "other_readings": _read_as(decision.others, vague) if status == "differs" else "",
        "remark": remark,
        "allowance": judgement.allowance,
        "z": judgement.z,
        "alternative": reading.params.get("alternative", ""),
        "erratum": fill(record.erratum, judged),
        "note": note,
        "changed_settings": changed,
        "study": reading.reference.study,
        "table": reading.reference.table,
    }


def verdict_counts(comparison: pd.DataFrame) -> dict[str, int]:
    """How many records have each status, in the order of STATUSES."""
    counts = comparison["status"].value_counts()
    return {status: int(counts.get(status, 0)) for status in STATUSES}


class RowsMissingAtDocumentSettings(RuntimeError):
    """At the documents' settings a published number found no row: its table is not what its study writes."""


def refuse_missing_rows(comparison: pd.DataFrame) -> None:
    """At the documents' settings (the comparison's ``changes`` empty), refuse a comparison in which a
    published number found no row: ``not computed at this config`` is then damage, never a status."""
    missing = comparison[comparison["status"] == "not computed at this config"]
    if missing.empty:
        return
    tables = sorted(set(missing["table"]))
    raise RowsMissingAtDocumentSettings(
        f"{len(missing)} published number(s) found no value in their table at the documents' own settings, "
        f"where every one is computed: {', '.join(tables)} lack rows their study writes (damaged, or edited by "
        f"hand?). First: {missing.iloc[0]['claim']}: {missing.iloc[0]['note']}. Rebuild with: snakemake all "
        + " ".join(f"--forcerun {t.split('/')[0]}" for t in tables)
    )
