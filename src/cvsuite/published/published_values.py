"""The printed values alone (registry record id -> the number as printed): what a study reads of the registry.

Some studies start from a published number (the twelve-point recovery's targets, the calibrations)
and some figures draw one as a reference line (studies.yaml's ``figures_read_published``). Had they
read the whole registry, a typo fixed in a note would rerun them; they read this extract instead,
which the Snakefile rewrites at parse time only when a printed value changes (``extract_text``), so
a note's edit reruns the comparison alone.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from cvsuite.methods.printed_numbers import parse_printed

COLUMNS = ("id", "published")


@dataclass(frozen=True)
class PublishedValue:
    """One registry row as a study reads it: its id and its number as printed (as ``Claim`` has them)."""

    id: str
    published: str


def extract_text(claims) -> str:
    """The extract of ``claims`` (registry rows, in order) as CSV text: id and published only."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows((claim.id, claim.published) for claim in claims)
    return out.getvalue()


def read_published_values(path: str | Path) -> list[PublishedValue]:
    """The extract written from ``extract_text``, as rows ``published_value`` and ``PrintedTargets`` read."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    if not rows or tuple(rows[0]) != COLUMNS:
        raise ValueError(f"{path}: not an extract of the registry's printed values (header {rows[:1]})")
    return [PublishedValue(*row) for row in rows[1:]]


def published_value(claims, claim_id: str) -> float:
    """The value of registry record ``claim_id`` as printed ("0%" -> 0.0, "0.007581" -> 0.007581).

    A figure that draws a published number as a reference asks for it by the record's id, so the line
    moves if the registry is corrected and nothing is typed twice. ``claims``: the extract's rows (or
    records), anything with an ``id`` and a ``published`` text.
    """
    for claim in claims:
        if claim.id == claim_id:
            return parse_printed(claim.published).value
    raise KeyError(f"the registry has no record '{claim_id}' (a figure draws it as the published reference)")
