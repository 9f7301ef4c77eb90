"""Published against reproduced: join the registry with the studies' result tables, one verdict each.

The verdicts, in the order the report counts them:

- ``reproduced``: the number the suite computed, written at the printed precision, reads as
  printed (or, for a statistical figure, lies within the allowance), and nothing printed went in;
- ``reproduced by construction``: the same, but the number was an input of the computation
  (registry column ``by_construction`` says how), so the match is no evidence;
- ``consistent``: a statistical figure (``within_se``) within ``ALLOWANCE_SE`` standard errors of
  the suite's estimate, by a test with the power to say ``differs``: the allowance is at most
  ``POWER_FRACTION`` of the distance between the published figure and its ``alternative``;
- ``differs``: it does not match; the note names the settings that moved it, or says none did;
- ``inconclusive``: a statistical figure within the allowance, but the test had too little power
  (too few simulated datasets at this config) to tell it from its alternative; or a claim in words
  whose test could decide neither way (its claims table says ``undecided``: a claim that something
  exists or depends on something is never refuted by a non-detection);
- ``not reproducible``: the document does not give what the number needs (the note says why);
- ``not computed at this config``: the row the number needs is not in the table at this config
  (K = 3 was not run), or the study produced no value there; the note says which.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pandas as pd

from cvsuite.published.printed_numbers import parse_printed, write_as_printed, write_significant
from cvsuite.published.registry import WORDED_FIELDS, Claim, parse_row_selector
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
UNDECIDED = "undecided"  # a claims table's verdict when its test can decide neither way
ALLOWANCE_SE = 2.0  # a published figure within 2 standard errors reads as consistent: one two-sided 95% test
POWER_FRACTION = 0.25  # the allowance may be at most a quarter of the distance to the alternative

COMPARISON_COLUMNS = [
    "claim",
    "document",
    "section",
    "where",
    "published",
    "reproduced",
    "reproduced_as_printed",
    "status",
    "comparison",
    "reading",
    "remark",
    "evidence",
    "se",
    "allowance",
    "z",
    "alternative",
    "erratum",
    "note",
    "changed_settings",
    "study",
    "table",
    "figure",
]


@dataclass(frozen=True)
class Lookup:
    """A reproduced value, or why there is none at this config."""

    value: object = None
    se: float | None = None
    missing: str = ""


def look_up(claim: Claim, tables: dict[str, pd.DataFrame], cache: dict | None = None) -> Lookup:
    """The value (and, for ``within_se``, its standard error) a claim points at, or why there is none.
    ``cache``, if given, keeps the rows each (table, selector) chose (``select_rows``)."""
    table = tables.get(claim.table)
    if table is None:
        return Lookup(missing=f"no table '{claim.table}' was written")
    needed = [claim.column] + ([f"{claim.column}_se"] if claim.comparison == "within_se" else [])
    absent = [c for c in needed if c not in table.columns]
    if absent:
        return Lookup(missing=f"'{claim.table}' has no column {', '.join(absent)}")
    try:
        matches = select_rows(table, claim.row, cache)
    except KeyError as err:
        return Lookup(missing=f"'{claim.table}' has no column '{err.args[0]}' to select on")
    if len(matches) != 1:
        return Lookup(missing=f"row {claim.row or '(the only one)'} matches {len(matches)} rows of '{claim.table}'")
    row = matches.iloc[0]
    se = float(row[f"{claim.column}_se"]) if claim.comparison == "within_se" else None
    return Lookup(value=row[claim.column], se=se)


def select_rows(table: pd.DataFrame, row: str, cache: dict | None = None) -> pd.DataFrame:
    """The rows of ``table`` that a registry row selector (``K=2&statistic=mean``) chooses; all of
    them for an empty selector. KeyError naming a selector column the table lacks. ``cache`` (a
    dict kept while ``table`` lives) remembers each choice: many claims and placeholders share one."""
    if cache is not None:
        key = (id(table), row)
        if key not in cache:
            cache[key] = (table, select_rows(table, row))  # the table kept, so its id stays its own
        return cache[key][1]
    mask = pd.Series(True, index=table.index)
    for key, wanted in parse_row_selector(row):
        if key not in table.columns:
            raise KeyError(key)
        mask &= table[key].map(lambda cell, wanted=wanted: _same_cell(cell, wanted))
    return table[mask]


def _same_cell(cell, wanted: str) -> bool:
    try:
        return float(cell) == float(wanted)
    except (TypeError, ValueError):
        return str(cell) == wanted


def _is_missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def judge(claim: Claim, found: Lookup) -> dict:
    """The verdict on one claim: reproduced value, written as printed, status, and the test's numbers."""
    verdict = {
        "reproduced": "",
        "reproduced_as_printed": "",
        "se": None,
        "allowance": None,
        "z": None,
        "alternative": claim.alternative,
        "note": claim.note,
    }
    if claim.comparison == "not_reproducible":
        return {**verdict, "status": "not reproducible"}
    if found.missing or _is_missing(found.value):
        why = found.missing or "the study produced no value"
        return {**verdict, "status": "not computed at this config", "note": _join(claim.note, why)}
    matched_status = "reproduced by construction" if claim.by_construction else "reproduced"
    if claim.comparison == "exact":
        text = str(found.value)
        if text == UNDECIDED:
            return {
                **verdict,
                "reproduced": text,
                "reproduced_as_printed": text,
                "status": "inconclusive",
                "note": _join(claim.note, "too little power: the test decides the claim neither way at this config"),
            }
        status = matched_status if text == claim.published else "differs"
        return {**verdict, "reproduced": text, "reproduced_as_printed": text, "status": status}
    number = float(found.value)
    printed = parse_printed(claim.published)
    if claim.comparison in ("rounded", "significant"):
        write = write_as_printed if claim.comparison == "rounded" else write_significant
        text = write(number, printed)
        written = _grouped_like(text, printed.text) + printed.suffix
        status = matched_status if text == printed.canonical() else "differs"
        return {**verdict, "reproduced": repr(number), "reproduced_as_printed": written, "status": status}
    return {**verdict, **_statistical(claim, number, found.se, printed, matched_status)}


def _statistical(claim: Claim, number: float, se: float | None, printed, matched_status: str) -> dict:
    """A re-simulated figure: within ALLOWANCE_SE standard errors, and was the test able to say no?"""
    written = write_as_printed(number, printed) + printed.suffix
    if se is None or not se > 0:
        return {
            "reproduced": repr(number),
            "reproduced_as_printed": written,
            "status": "not computed at this config",
            "note": _join(claim.note, "no positive standard error (too few simulated datasets at this config)"),
        }
    z = (number - printed.value) / se
    allowance = ALLOWANCE_SE * se
    distance = abs(printed.value - parse_printed(claim.alternative).value)
    powered = allowance <= POWER_FRACTION * distance
    if abs(z) > ALLOWANCE_SE:
        status = "differs"
    elif claim.by_construction:
        status = matched_status
    else:
        status = "consistent" if powered else "inconclusive"
    detail = (
        f"published is {abs(z):.1f} SE from reproduced (SE {se:.3g}; allowance {ALLOWANCE_SE:g} SE = {allowance:.3g})"
    )
    if not powered and status != "differs":
        detail += (
            f"; too little power: the allowance is more than {POWER_FRACTION:g} of the distance "
            f"{distance:.3g} to the alternative {claim.alternative}"
        )
    return {
        "reproduced": repr(number),
        "reproduced_as_printed": written,
        "status": status,
        "se": se,
        "allowance": allowance,
        "z": z,
        "note": _join(claim.note, detail),
    }


def _grouped_like(written: str, printed: str) -> str:
    """Thousands separators where the document printed them (81050 -> 81,050)."""
    if "," not in printed or "e" in written:
        return written
    sign = written[0] if written[0] in "+-" else ""
    whole, dot, frac = written[len(sign) :].partition(".")
    return f"{sign}{int(whole):,}{dot}{frac}"


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def compare(
    claims: list[Claim],
    tables: dict[str, pd.DataFrame],
    changes: dict[str, str] | None = None,
    config: dict | None = None,
) -> pd.DataFrame:
    """The comparison table: one row per claim, published beside reproduced, with a verdict.

    ``changes`` maps a study to the description of the settings this run changed in its config
    blocks (``document_settings.describe``); a ``differs`` note names them, or says none changed.
    The numbers of each claim's note, reading, remark and erratum are filled from ``tables`` and
    ``config`` (this run's). Never raises for a config: what cannot be computed at it says so in
    its row.
    """
    changes = changes or {}
    rows, cache = [], {}
    for claim in claims:
        worded = {field: render(getattr(claim, field), tables, config, cache) for field in WORDED_FIELDS}
        claim = replace(claim, **worded)
        found = Lookup() if claim.comparison == "not_reproducible" else look_up(claim, tables, cache)
        verdict = judge(claim, found)
        changed = changes.get(claim.study, "")
        if verdict["status"] == "differs":
            moved = f"this run changed {changed}" if changed else "no setting of this study differs from the documents'"
            verdict["note"] = _join(verdict["note"], moved)
        rows.append(
            {
                "claim": claim.id,
                "document": claim.document,
                "section": claim.section,
                "where": claim.where,
                "published": claim.published,
                **verdict,
                "comparison": claim.comparison,
                "reading": claim.reading,
                "remark": claim.remark,
                "evidence": claim.evidence,
                "erratum": claim.erratum,
                "changed_settings": changed,
                "study": claim.study,
                "table": claim.table,
                "figure": claim.figure,
            }
        )
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


def verdict_counts(comparison: pd.DataFrame) -> dict[str, int]:
    """How many claims have each status, in the order of STATUSES."""
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
