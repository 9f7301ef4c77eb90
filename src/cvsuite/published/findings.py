"""What the comparison finds that a reader must look at: the errata, grouped into findings, the claims
that depend on their reading, and each one's readings tried and ruled out.

An erratum is a record that ``differs`` with no setting changed from the documents': it fails on
every reasonable reading. Errata that quote the same sentence, or rest on the same evidence (one
statistic), are one finding with its parts, so two records that split one sentence, or two
sentences that one number refutes, count once. A claim that holds on one reasonable reading and
fails on another ``depends on the reading``: it is neither an erratum nor reproduced, and is shown
with every reading beside what its judge found. ``readings`` is results/readings.csv.
"""

from __future__ import annotations

import pandas as pd

from cvsuite.published.comparison import DEPENDS, RULED_OUT

# What compare() adds to the note of every differs row at the documents' settings: in the errata,
# which list only those, it would be said once per row.
UNMOVED_NOTE = "no setting of this study differs from the documents'"


def errata(comparison: pd.DataFrame) -> pd.DataFrame:
    """Where the documents are wrong: every record that differs with no setting changed from theirs.

    Inconsistencies inside a document and conclusions its numbers do not carry are registered as
    claims of their own (a rounding convention, an inference tested as one), so they are here too.
    """
    differs = comparison["status"] == "differs"
    unmoved = comparison["changed_settings"].fillna("") == ""
    return comparison[differs & unmoved]


def depending(comparison: pd.DataFrame) -> pd.DataFrame:
    """Every record that holds on one reasonable reading and fails on another."""
    return comparison[comparison["status"] == DEPENDS]


def remarks(comparison: pd.DataFrame) -> pd.DataFrame:
    """Every row with a remark: what a reader would act on that its verdict does not say."""
    return comparison[comparison["remark"].fillna("").str.len() > 0]


def by_finding(rows: pd.DataFrame) -> dict[str, list]:
    """Rows (itertuples) grouped into findings, in order of first appearance: rows that quote the same
    sentence (their ``sentence_key`` or ``where``) or rest on the same statistic are one finding,
    and so is every row linked to them by a chain of such ties. Keyed by the first row's claim."""
    listed = list(rows.itertuples())
    parent = list(range(len(listed)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_by_tie: dict[tuple[str, str], int] = {}
    for i, r in enumerate(listed):
        ties = [("sentence", str(r.sentence_key)), ("sentence", str(r.where))]
        if isinstance(r.statistic, str) and r.statistic:
            ties.append(("statistic", r.statistic))
        for tie in ties:
            j = first_by_tie.setdefault(tie, i)
            parent[max(root(i), root(j))] = min(root(i), root(j))
    findings: dict[str, list] = {}
    for i, r in enumerate(listed):
        findings.setdefault(listed[root(i)].claim, []).append(r)
    return findings


def grouped_by_remark(rows: pd.DataFrame) -> dict[str, list]:
    """Rows (itertuples) grouped by their remark's text, in order of first appearance."""
    grouped: dict[str, list] = {}
    for r in rows.itertuples():
        grouped.setdefault(r.remark, []).append(r)
    return grouped


def readings_of(readings: pd.DataFrame | None, claim: str) -> tuple[list[dict], list[dict]]:
    """The readings of ``claim`` (results/readings.csv rows, as dicts, in order): those judged, and
    those ruled out by the documents' own words."""
    if readings is None or readings.empty:
        return [], []
    mine = readings[readings["claim"] == claim].fillna("").to_dict("records")
    return [r for r in mine if r["outcome"] != RULED_OUT], [r for r in mine if r["outcome"] == RULED_OUT]


def without_unmoved(note) -> str:
    """A differs row's note without the clause that no setting moved (after a semicolon, as a
    sentence of its own, or alone)."""
    text = str(note)
    for ending in (f"; {UNMOVED_NOTE}", f" {UNMOVED_NOTE[0].upper()}{UNMOVED_NOTE[1:]}", UNMOVED_NOTE):
        if text.endswith(ending):
            return text.removesuffix(ending)
    return text
