"""Published against reproduced: each record judged by its named judge on this run's tables.

The verdicts, in the order the report counts them:

- ``reproduced``: the number the suite computed reads as printed (or a claim holds under its
  reading), and nothing printed went in;
- ``reproduced by construction``: the same, but the number was an input of the computation (the
  record's ``by_construction`` says how), so the match is no evidence;
- ``consistent``: a re-simulated figure within the allowance of our estimate, by a test with the
  power to say ``differs`` (``judges.within_se``);
- ``depends on the reading``: the claim holds on at least one reasonable reading and fails on at
  least one other; every reading is shown with what its judge found, and it is counted neither as
  an erratum nor as reproduced;
- ``differs``: every reading fails; the note names the settings that moved it, or says none did;
- ``inconclusive``: some reading's test could not decide (too little power), and the others leave
  the verdict open: they agree, or there are none;
- ``not reproducible``: the documents do not give what the number needs (the note says why);
- ``not computed at this config``: the rows the statistic needs are not in its table at this config
  (K = 3 was not run), or the study produced no value there; the note says which.

Every reading of a record is judged. The record is reproduced (or consistent) when every reading
holds, differs when every reading fails, and depends on the reading when some hold and some fail;
otherwise some reading is undecided and the verdict could go either way: inconclusive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from cvsuite.published.judges import JUDGES, Evidence, Judgement, describe
from cvsuite.published.records import Reading, Record
from cvsuite.published.statistics import select_rows
from cvsuite.published.templates import render

DEPENDS = "depends on the reading"
STATUSES = (
    "reproduced",
    "reproduced by construction",
    "consistent",
    DEPENDS,
    "differs",
    "inconclusive",
    "not reproducible",
    "not computed at this config",
)
MATCHED = ("reproduced", "consistent")

COMPARISON_COLUMNS = [
    "claim",
    "kind",
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
    "rejected",
    "remark",
    "allowance",
    "z",
    "alternative",
    "erratum",
    "depends",
    "note",
    "changed_settings",
    "study",
    "table",
    "figure",
    "notes",
    "cited",
]


# results/readings.csv: one row per reading of every judged record, in the registry's order.
READING_COLUMNS = ["claim", "reading", "settles", "support", "text", "judge", "statistic", "value", "outcome", "found"]
OUTCOMES = {"reproduced": "holds", "consistent": "holds", "differs": "does not hold", "inconclusive": "cannot decide"}
RULED_OUT = "ruled out"  # a reading proposed and ruled out by the documents' own words (``support``; ``found``: why)

# What a record counts as in the report's headline: a printed number (a table's cell, or a number in
# the text), a claim in words, or a number of a cited work.
KINDS = ("table cell", "number in the text", "claim in words", "cited work's number")


def kind_of(record: Record) -> str:
    """Which of KINDS a record is: a cited work's number first, then a claim in words (a claim's judge,
    or a claim asserted that no computation can judge), then a table's cell or a number in the text."""
    if record.cited_words or record.document != record.quoted_in:
        return KINDS[3]
    if record.is_claim or (not record.readings and record.published in ("True", "False")):
        return KINDS[2]
    return KINDS[0] if record.table_cell else KINDS[1]


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


def _sentence_case(text: str) -> str:
    return f"{text[0].upper()}{text[1:]}." if text else ""


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
    """How a record's readings decided: its status, every reading with its judgement in order, and the
    one the row shows (the first reading; for an inconclusive or uncomputed record, the first that
    could not decide or found no rows)."""

    status: str
    judged: tuple[tuple[Reading, Judgement], ...]
    shown: int = 0

    @property
    def reading(self) -> Reading:
        return self.judged[self.shown][0]

    @property
    def judgement(self) -> Judgement:
        return self.judged[self.shown][1]


def decide(record: Record, tables: dict[str, pd.DataFrame], vague: dict, cache: dict | None = None) -> Decision:
    """Judge every reading of ``record``: reproduced (or consistent) when every one holds, differs when
    every one fails, depends on the reading when some hold and some fail; inconclusive when a reading
    could not decide and the others leave the verdict open; not computed when a reading found no rows."""
    judged: list[tuple[Reading, Judgement]] = []
    for reading in record.readings:
        found = look_up(reading, tables, cache)
        if found.missing:
            judgement = Judgement("not computed at this config", None, "", "", found.missing)
        else:
            judgement = JUDGES[reading.judge](found.evidence, reading.params, record.published, vague)
        judged.append((reading, judgement))
    statuses = [j.status for _, j in judged]
    if "not computed at this config" in statuses:
        return Decision("not computed at this config", tuple(judged), statuses.index("not computed at this config"))
    holds = [s in MATCHED for s in statuses]
    fails = [s == "differs" for s in statuses]
    if all(holds):
        return Decision(statuses[0], tuple(judged))
    if any(holds) and any(fails):
        return Decision(DEPENDS, tuple(judged))
    if all(fails):
        return Decision("differs", tuple(judged))
    return Decision("inconclusive", tuple(judged), next(i for i, s in enumerate(statuses) if s == "inconclusive"))


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
    return compare_with_readings(records, tables, vague, changes, config)[0]


def compare_with_readings(
    records: list[Record],
    tables: dict[str, pd.DataFrame],
    vague: dict,
    changes: dict[str, str] | None = None,
    config: dict | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The comparison (as ``compare``) and results/readings.csv: every reading of every judged record,
    with the ambiguity it settles, its support, what its judge found and whether it holds."""
    changes = changes or {}
    rows, readings, cache = [], [], {}
    for record in records:
        row, judged = _row(record, tables, vague, changes, config, cache)
        rows.append(row)
        readings += judged
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS), pd.DataFrame(readings, columns=READING_COLUMNS)


def _row(record: Record, tables, vague, changes, config, cache) -> tuple[dict, list[dict]]:
    # A cited work's number is shown in the cited work's words where the registry has them (the record
    # stands at the quoting sentence, its quote); a table cell by its row and column; a sentence quoted.
    where = f"'{record.cited_words}'" if record.cited_words else (record.where or f"'{record.quote}'")
    row = {
        "claim": record.id,
        "kind": kind_of(record),
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
        "rejected": "",
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

    ruled_out = [(fill(r.reading), r.because, fill(r.why)) for r in record.rejected]
    row["rejected"] = "; ".join(
        f"read as {reading}, ruled out by '{because}'" + (f": {why}" if why else "")
        for reading, because, why in ruled_out
    )

    if not record.readings:
        return {
            **row,
            "status": "not reproducible",
            "remark": fill(record.remark),
            "erratum": "",
            "depends": "",
            "note": _join(fill(record.not_reproducible), fill(record.note)),
        }, []
    decision = decide(record, tables, vague, cache)
    reading, judgement = decision.reading, decision.judgement
    judged = {"statistic": judgement.value, "se": judgement.se}
    status = decision.status
    # An input matches whatever a test's power: every reading within its allowance is a match.
    if record.by_construction and all(j.matched for _, j in decision.judged):
        status = "reproduced by construction"
    note = fill(record.note, judged)
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
    texts = [fill(reading_text(r, j, vague), {"statistic": j.value, "se": j.se}) for r, j in decision.judged]
    verbs = {"holds": "it holds", "does not hold": "it does not hold", "cannot decide": "the test cannot decide"}
    others = "; ".join(
        f"read as {_continued((texts[i] or j.rule).rstrip('.'))}, "
        + verbs.get(OUTCOMES.get(j.status, ""), "it is not computed")
        + (f" ({j.found})" if j.found else "")
        for i, (_, j) in enumerate(decision.judged)
        if i != decision.shown
    )
    return {
        **row,
        "reproduced": ""
        if judgement.value is None
        else (repr(judgement.value) if isinstance(judgement.value, float) else str(judgement.value)),
        "reproduced_as_printed": "depends" if status == DEPENDS else judgement.shown,
        "status": status,
        "judge": describe(reading.judge, reading.params),
        "statistic": reading.statistic,
        "se": judgement.se,
        "reading": texts[decision.shown],
        # Every other reading, each with what its judge found, so the reader sees each one tried.
        "other_readings": others,
        "remark": fill(record.remark, judged),
        "allowance": judgement.allowance,
        "z": judgement.z,
        "alternative": reading.params.get("alternative", ""),
        "erratum": fill(record.erratum, judged),
        "depends": fill(record.depends, judged),
        "note": note,
        "changed_settings": changed,
        "study": reading.reference.study,
        "table": reading.reference.table,
    }, [
        {
            "claim": record.id,
            "reading": i + 1,
            "settles": r.settles,
            "support": r.support or r.source,
            "text": texts[i] or _sentence_case(j.rule),
            "judge": describe(r.judge, r.params),
            "statistic": r.statistic,
            "value": "" if j.value is None else (repr(j.value) if isinstance(j.value, float) else str(j.value)),
            "outcome": OUTCOMES.get(j.status, "not computed"),
            "found": j.found,
        }
        for i, (r, j) in enumerate(decision.judged)
    ] + [
        {"claim": record.id, "reading": "", "settles": "", "support": because, "text": reading, "judge": "",
         "statistic": "", "value": "", "outcome": RULED_OUT, "found": why}
        for reading, because, why in ruled_out
    ]  # fmt: skip


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
