"""The registry: one record per number or claim a document prints, in one file per document.

``registry/<document>.yaml`` holds the document's records in the order its text prints them, each
with its quote as printed, so that a referee reads the rule beside the sentence. A record says:

- ``id``, ``section``, ``quote`` (verbatim from the document; ``...`` marks an elision), optionally
  ``where`` (the cell of a printed table) and ``sentence`` (shared by the records that split one
  sentence into the claims it makes);
- ``published``: the number or claim as printed (``0.50``, ``+0.069``, ``True``): every value loads
  as text, so the printed precision survives;
- ``statistic``: where this run's value lives (``k_bias/k_bias.csv[K=5].bias_over_truth``,
  ``cvsuite.published.statistics``), and ``judge``: the named rule that decides
  (``cvsuite.published.judges``), with its parameters; a claim's ``measure`` says in words what the
  statistic is, and the judge's rule completes the sentence: that sentence is the reading;
- ``readings``: at most three other reasonable readings, each with its own statistic, judge and
  measure, the ambiguity it settles (``settles``) and its ``support``: a quote from the documents
  (tested verbatim) or a named ``source`` section; the record's own reading, the document's most
  plausible, may say what it settles and its support too. Every reading is judged: the claim is
  reproduced when every one holds, differs when every one fails, and depends on the reading when
  some hold and some fail (``cvsuite.published.comparison``);
- ``rejected``: readings proposed and ruled out, each with the reading in words (``reading``) and
  the document's own words that rule it out (``because``, tested verbatim), and ``why`` they do;
- ``by_construction`` (what made a match no evidence), ``not_reproducible`` (why the documents do
  not give what the number needs), ``erratum`` (the record must differ), ``depends`` (how the
  sentence's truth turns on its reading: the record must depend on it), ``remark``, ``note`` (each
  at most 600 characters as rendered, with ``${...}`` placeholders for every computed number),
  ``figure``, and ``notes``
  (a heading of the study's notes, docs/notes/<study>.md, for the longer reasoning);
- ``cited``: for a cited work's number, the work and its own words; the record stands at the
  quoting document's sentence, and is never an erratum of the cited work.

A printed table can be one block (``table:``): its quote is the table as printed, and its
``cells`` are records that say where each printed cell stands (``where``: its row and column) and
which statistic reproduces it; the block's other keys (a judge, a figure) are every cell's.

The files are checked whole before any job runs (``read_records``), against the tables and columns
the studies declare (studies.yaml) and the judges' parameters, so that a misspelt column or judge
stops the run in a second, naming the file, the line and the record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cvsuite.methods.printed_numbers import parse_printed
from cvsuite.published.judges import JUDGES, JudgeError, parse_judge
from cvsuite.published.registry_files import RecordError, load_yaml_text
from cvsuite.published.scales import read_scales
from cvsuite.published.statistics import BadReference, Reference, parse_reference, reference_problem
from cvsuite.published.templates import check_placeholders

# The documents whose claims the suite judges, in their order, and each one's registry file.
DOCUMENTS = {
    "Cross-Validation": "cross_validation.yaml",
    "Regularization and Cross-Validation": "regularization_and_cross_validation.yaml",
    "Estimating Out-of-Sample Error": "estimating_out_of_sample_error.yaml",
}
WORDED_FIELDS = ("note", "remark", "erratum", "depends", "measure")  # the fields whose numbers are placeholders
MAX_WORDED = 600  # characters of a note, remark or erratum as rendered
MAX_READINGS = 4  # the record's own reading and at most three others

RECORD_KEYS = {
    "id", "section", "quote", "where", "sentence", "cited", "published", "statistic", "judge", "measure",
    "readings", "by_construction", "not_reproducible", "erratum", "remark", "note", "figure", "notes",
    "settles", "support", "rejected", "depends",
}  # fmt: skip
BLOCK_KEYS = (RECORD_KEYS - {"id", "published", "where"}) | {"table", "cells"}
CELL_KEYS = RECORD_KEYS - {"section", "quote"}
READING_KEYS = {"statistic", "judge", "measure", "settles", "support", "source"}
REJECTED_KEYS = {"reading", "because", "why"}
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_FIGURE = re.compile(r"^[a-z0-9_]+/[a-z0-9_]+\.png$")
_NOTES = re.compile(r"^[a-z0-9_]+(#[a-z0-9-]+)?$")


@dataclass(frozen=True)
class Reading:
    """One way of reading a claim: a statistic, the judge that decides on it, the statistic in words,
    and (for every reading but the record's own) the ambiguity it settles and its support."""

    statistic: str
    judge: str
    params: dict[str, str]
    measure: str = ""
    settles: str = ""
    support: str = ""
    source: str = ""

    @property
    def reference(self) -> Reference:
        return parse_reference(self.statistic)


@dataclass(frozen=True)
class Rejected:
    """A reading proposed and ruled out: the reading in words, the document's words that rule it out
    (verbatim), and why they do."""

    reading: str
    because: str
    why: str = ""


@dataclass(frozen=True)
class Record:
    """One registered number or claim, validated."""

    id: str
    document: str  # the document (or cited work) that prints it
    quoted_in: str  # the document whose file holds it: where its quote stands
    section: str
    quote: str
    published: str
    origin: str  # "registry/<file>.yaml, line <n>"
    where: str = ""
    sentence: str = ""
    cited_words: str = ""
    readings: tuple[Reading, ...] = ()
    by_construction: str = ""
    not_reproducible: str = ""
    erratum: str = ""
    depends: str = ""  # how the sentence's truth turns on its reading: the record must depend on it
    remark: str = ""
    note: str = ""
    figure: str = ""
    notes: str = ""
    rejected: tuple[Rejected, ...] = ()
    table_cell: bool = False  # a cell of a printed table (a ``table:`` block), not a number in the text

    @property
    def reading(self) -> Reading | None:
        return self.readings[0] if self.readings else None

    @property
    def table(self) -> str:
        return self.readings[0].reference.table if self.readings else ""

    @property
    def study(self) -> str:
        return self.table.split("/", 1)[0] if self.table else ""

    @property
    def statistic(self) -> str:
        return self.readings[0].statistic if self.readings else ""

    @property
    def is_claim(self) -> bool:
        return bool(self.readings) and JUDGES[self.readings[0].judge].kind == "claim"


def read_records(
    folder: str | Path, declared: dict[str, list[str]] | None = None, vague: dict | None = None
) -> list[Record]:
    """Every record of the registry, the documents' files in their order, checked whole;
    RecordError naming the first bad record. ``declared`` maps every table the studies write
    (``<study>/<table>.csv``) to its declared columns (studies.yaml)."""
    folder = Path(folder)
    vague = read_scales(folder).words if vague is None else vague
    records: list[Record] = []
    seen: dict[str, str] = {}
    for document, name in DOCUMENTS.items():
        path = folder / name
        if not path.exists():
            raise RecordError(f"{path}: the registry file of '{document}' is missing")
        label = f"registry/{name}" if folder.name == "registry" else str(path)
        data = load_yaml_text(path.read_text(encoding="utf-8"), label)
        if not isinstance(data, dict) or data.get("document") != document or not isinstance(data.get("records"), list):
            raise RecordError(f"{label}: must hold 'document: {document}' and a list 'records'")
        for entry in data["records"]:
            for record in _entries(entry, document, label, declared, vague):
                if record.id in seen:
                    raise RecordError(f"{record.origin}: record '{record.id}' repeats the id of {seen[record.id]}")
                seen[record.id] = record.origin
                records.append(record)
    return records


def _entries(entry, document: str, label: str, declared, vague) -> list[Record]:
    line = getattr(entry, "line", 0)
    if not isinstance(entry, dict):
        raise RecordError(f"{label}, line {line}: a record must be a mapping")
    if "table" in entry:
        return _block(entry, document, label, declared, vague)
    return [_record(entry, document, f"{label}, line {line}", declared, vague)]


def _block(block: dict, document: str, label: str, declared, vague) -> list[Record]:
    """A printed table: its section and quote (the table as printed) are every cell's, and so is
    any other key it gives (a judge, a figure); each cell is a record that says where it stands in
    the table (``where``: its row and column), its number as printed and its statistic."""
    origin = f"{label}, line {block.line}"
    unknown = sorted(set(block) - BLOCK_KEYS)
    if unknown:
        raise RecordError(f"{origin}: table block '{block['table']}' has unknown key(s) {', '.join(unknown)}")
    cells = block.get("cells")
    if not isinstance(cells, list) or not cells:
        raise RecordError(f"{origin}: table block '{block['table']}' needs its cells")
    shared = {k: v for k, v in block.items() if k not in ("table", "cells")}
    records = []
    for cell in cells:
        cell_origin = f"{label}, line {getattr(cell, 'line', block.line)}"
        if not isinstance(cell, dict):
            raise RecordError(f"{cell_origin}: a cell of '{block['table']}' must be a mapping")
        unknown = sorted(set(cell) - CELL_KEYS)
        if unknown:
            raise RecordError(f"{cell_origin}: a cell of '{block['table']}' has unknown key(s) {', '.join(unknown)}")
        if not cell.get("where"):
            raise RecordError(
                f"{cell_origin}: cell '{cell.get('id', '')}' of '{block['table']}' needs 'where': its row and column"
            )
        records.append(_record({**shared, **cell}, document, cell_origin, declared, vague, table_cell=True))
    return records


def _text(entry: dict, key: str, origin: str, ident: str) -> str:
    value = entry.get(key, "")
    if not isinstance(value, str):
        raise RecordError(f"{origin}: record '{ident}': '{key}' must be text")
    return value.strip()


def _record(entry: dict, document: str, origin: str, declared, vague, table_cell: bool = False) -> Record:
    ident = entry.get("id", "") if isinstance(entry.get("id", ""), str) else ""

    def refuse(why: str) -> RecordError:
        return RecordError(f"{origin}: record '{ident or '(no id)'}': {why}")

    unknown = sorted(set(entry) - RECORD_KEYS)
    if unknown:
        raise refuse(f"unknown key(s) {', '.join(unknown)}")
    if not ident:
        raise refuse("the id is empty")
    if not _ID.match(ident):
        raise refuse("the id may hold only lower-case letters, digits, '.', '_' and '-'")
    text = {key: _text(entry, key, origin, ident) for key in RECORD_KEYS - {"cited", "readings", "judge", "rejected"}}
    for key in ("section", "quote", "published"):
        if not text[key]:
            raise refuse(f"'{key}' is empty")
    cited = entry.get("cited")
    work, words = document, ""
    if cited is not None:
        if not isinstance(cited, dict) or not cited.get("work"):
            raise refuse("'cited' must name the cited work ('work') and may give its own words ('words')")
        work, words = cited["work"].strip(), str(cited.get("words", "")).strip()
    if text["not_reproducible"]:
        if {"statistic", "judge", "readings", "settles", "support"} & set(entry):
            raise refuse("a number that is not reproducible points at no statistic and has no judge")
        if text["erratum"]:
            raise refuse("an erratum needs a judge that can say 'differs'")
        readings: tuple[Reading, ...] = ()
    else:
        if "statistic" not in entry or "judge" not in entry:
            raise refuse("a record needs its statistic and its judge (or 'not_reproducible', saying why)")
        own_keys = ("statistic", "judge", "measure", "settles", "support")
        own = _reading(
            {k: entry[k] for k in own_keys if k in entry}, refuse, declared, vague, text["published"], own=True
        )
        others = entry.get("readings", [])
        if not isinstance(others, list):
            raise refuse("'readings' must be a list of readings")
        if 1 + len(others) > MAX_READINGS:
            raise refuse(f"at most {MAX_READINGS} readings, the record's own included")
        readings = (own, *(_reading(r, refuse, declared, vague, text["published"], own=False) for r in others))
    if text["erratum"] and cited is not None:
        raise refuse("an erratum must be a claim of one of the documents, not of a cited work")
    if text["depends"] and (text["erratum"] or len(readings) < 2):
        raise refuse("a claim that depends on its reading has at least two readings and no erratum")
    if text["figure"] and not _FIGURE.match(text["figure"]):
        raise refuse(f"figure '{text['figure']}' must be <study>/<figure>.png")
    if text["notes"] and not _NOTES.match(text["notes"]):
        raise refuse(f"notes '{text['notes']}' must be <study> or <study>#<heading anchor>")
    for key in WORDED_FIELDS:
        problem = check_placeholders(text[key], declared)
        if problem:
            raise refuse(f"{key}: {problem}")
    rejected = _rejected(entry.get("rejected", []), refuse)
    for ruled in rejected:
        problem = check_placeholders(ruled.reading, declared) or check_placeholders(ruled.why, declared)
        if problem:
            raise refuse(f"rejected: {problem}")
    return Record(
        id=ident,
        document=work,
        quoted_in=document,
        section=text["section"],
        quote=text["quote"],
        published=text["published"],
        origin=origin,
        where=text["where"],
        sentence=text["sentence"],
        cited_words=words,
        readings=readings,
        by_construction=text["by_construction"],
        not_reproducible=text["not_reproducible"],
        erratum=text["erratum"],
        depends=text["depends"],
        remark=text["remark"],
        note=text["note"],
        figure=text["figure"],
        notes=text["notes"],
        rejected=rejected,
        table_cell=table_cell,
    )


def _rejected(entries, refuse) -> tuple[Rejected, ...]:
    """The readings a record keeps as ruled out, each with the document's words that rule it out."""
    if not isinstance(entries, list):
        raise refuse("'rejected' must be a list of readings ruled out")
    out = []
    for entry in entries:
        if not isinstance(entry, dict):
            raise refuse("a rejected reading must be a mapping")
        unknown = sorted(set(entry) - REJECTED_KEYS)
        if unknown:
            raise refuse(f"a rejected reading has unknown key(s) {', '.join(unknown)}")
        texts = {k: " ".join(str(entry.get(k, "")).split()) for k in REJECTED_KEYS}
        if not texts["reading"] or not texts["because"]:
            raise refuse(
                "a rejected reading needs the reading ('reading') and the document's words that rule it out ('because')"
            )
        if len(texts["reading"]) + len(texts["why"]) > MAX_WORDED:
            raise refuse(f"a rejected reading and its why run to at most {MAX_WORDED} characters")
        out.append(Rejected(texts["reading"], texts["because"], texts["why"]))
    return tuple(out)


def _reading(entry, refuse, declared, vague, published: str, own: bool) -> Reading:
    if not isinstance(entry, dict):
        raise refuse("a reading must be a mapping")
    unknown = sorted(set(entry) - READING_KEYS)
    if unknown:
        raise refuse(f"a reading has unknown key(s) {', '.join(unknown)}")
    if not own:
        if not entry.get("settles"):
            raise refuse("another reading must say which ambiguity it settles ('settles')")
        if not entry.get("support") and not entry.get("source"):
            raise refuse("another reading needs its support: a quote of the documents ('support') or a named source")
    try:
        name, params = parse_judge(entry.get("judge"))
    except JudgeError as err:
        raise refuse(str(err)) from None
    if name not in JUDGES:
        raise refuse(f"judge '{name}' is not one of {', '.join(JUDGES)}")
    judge = JUDGES[name]
    problem = judge.check(params, vague)
    if problem:
        raise refuse(problem)
    statistic = entry.get("statistic", "")
    try:
        reference = parse_reference(statistic)
    except BadReference as err:
        raise refuse(f"statistic: {err}") from None
    try:
        reads = judge.reads(reference.column, params)
    except KeyError as err:
        raise refuse(f"judge '{name}' needs parameter {err}") from None
    problem = reference_problem(reference, declared, tuple(reads))
    if problem:
        raise refuse(f"statistic: {problem}")
    if judge.kind == "number" and name != "exact":
        try:
            parse_printed(published)
        except ValueError as err:
            raise refuse(f"published figure {err}") from None
    if judge.kind == "claim" and not str(entry.get("measure", "")).strip():
        raise refuse(f"a claim's reading needs its 'measure': what {statistic} is, in words")
    if own and (entry.get("settles") or entry.get("support")) and not (entry.get("settles") and entry.get("support")):
        raise refuse(
            "the record's own reading gives both what it settles ('settles') and its support ('support'), or neither"
        )
    return Reading(
        statistic=statistic,
        judge=name,
        params=params,
        measure=str(entry.get("measure", "")).strip(),
        settles=str(entry.get("settles", "")).strip(),
        support=str(entry.get("support", "")).strip(),
        source=str(entry.get("source", "")).strip(),
    )
