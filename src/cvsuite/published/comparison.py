"""Published against reproduced: join the registry with the studies' result tables."""

from __future__ import annotations

import math

import pandas as pd

from cvsuite.published.printed_numbers import parse_printed, reads_the_same, write_as_printed
from cvsuite.published.registry import Claim, RegistryError, parse_row_selector

STATUSES = ("reproduced", "reproduced from recovered data", "consistent", "differs", "not reproducible")
RECOVERED = "reproduced from recovered data"

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
    "note",
    "study",
    "table",
    "figure",
]


def look_up(claim: Claim, tables: dict[str, pd.DataFrame]):
    """The value a claim points at; RegistryError naming the claim when it is not there."""
    if claim.table not in tables:
        raise RegistryError(f"registry row '{claim.id}': no study produced the table '{claim.table}'")
    table = tables[claim.table]
    if claim.column not in table.columns:
        raise RegistryError(
            f"registry row '{claim.id}': table '{claim.table}' has no column '{claim.column}' "
            f"(it has {', '.join(map(str, table.columns))})"
        )
    mask = pd.Series(True, index=table.index)
    for key, value in parse_row_selector(claim.row):
        if key not in table.columns:
            raise RegistryError(f"registry row '{claim.id}': table '{claim.table}' has no column '{key}' to select on")
        mask &= table[key].map(lambda cell, wanted=value: _same_cell(cell, wanted))
    matches = table[mask]
    if len(matches) != 1:
        raise RegistryError(
            f"registry row '{claim.id}': row selector '{claim.row}' matches {len(matches)} rows "
            f"of '{claim.table}', not exactly one"
        )
    return matches.iloc[0][claim.column]


def _same_cell(cell, wanted: str) -> bool:
    try:
        return float(cell) == float(wanted)
    except (TypeError, ValueError):
        return str(cell) == wanted


def judge(claim: Claim, value) -> dict:
    """Status and the reproduced value written as printed, for one claim and its value."""
    if claim.comparison == "not_reproducible":
        return {"reproduced": "", "reproduced_as_printed": "", "status": "not reproducible", "note": claim.note}
    if claim.comparison == "exact":
        text = str(value)
        status = "reproduced" if text == claim.published else "differs"
        return {"reproduced": text, "reproduced_as_printed": text, "status": status, "note": claim.note}
    number = float(value)
    printed = parse_printed(claim.published)
    if math.isnan(number):
        return {
            "reproduced": "nan",
            "reproduced_as_printed": "nan",
            "status": "differs",
            "note": _join(claim.note, "the study produced no value"),
        }
    if claim.comparison in ("rounded", "truncated"):
        truncate = claim.comparison == "truncated"
        written = _grouped_like(write_as_printed(number, printed, truncate), printed.text) + printed.suffix
        status = "reproduced" if reads_the_same(number, printed, truncate) else "differs"
        return {"reproduced": repr(number), "reproduced_as_printed": written, "status": status, "note": claim.note}
    raise AssertionError(f"comparison '{claim.comparison}' needs judge_statistical")


def judge_statistical(claim: Claim, value, standard_error: float | None) -> dict:
    """Status of a statistical claim: within an absolute tolerance or within k standard errors."""
    number = float(value)
    printed = parse_printed(claim.published)
    gap = number - printed.value
    if claim.comparison == "within":
        inside = abs(gap) <= claim.tolerance
        detail = f"|reproduced - published| = {abs(gap):.3g}, tolerance {claim.tolerance:g}"
    else:
        if standard_error is None or not standard_error > 0:
            raise RegistryError(f"registry row '{claim.id}': no positive standard error in column '{claim.column}_se'")
        inside = abs(gap) <= claim.tolerance * standard_error
        detail = (
            f"published is {abs(gap) / standard_error:.1f} Monte Carlo SE from "
            f"reproduced (SE {standard_error:.3g}, allowed {claim.tolerance:g})"
        )
    return {
        "reproduced": repr(number),
        "reproduced_as_printed": write_as_printed(number, printed) + printed.suffix,
        "status": "consistent" if inside else "differs",
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


def compare(claims: list[Claim], tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The comparison table: one row per claim, published beside reproduced, with a status."""
    rows = []
    for claim in claims:
        if claim.comparison == "not_reproducible":
            verdict = judge(claim, None)
        elif claim.comparison in ("within", "within_se"):
            value = look_up(claim, tables)
            se = None
            if claim.comparison == "within_se":
                se_claim = Claim(**{**claim.__dict__, "column": f"{claim.column}_se"})
                se = float(look_up(se_claim, tables))
            verdict = judge_statistical(claim, value, se)
        else:
            verdict = judge(claim, look_up(claim, tables))
        rows.append(
            {
                "claim": claim.id,
                "document": claim.document,
                "section": claim.section,
                "where": claim.where,
                "published": claim.published,
                **verdict,
                "comparison": claim.comparison,
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


def mark_recovered_data(comparison: pd.DataFrame, studies: set[str]) -> pd.DataFrame:
    """Say so when a number was reproduced from data the suite had to recover, not given data.

    ("Estimating Out-of-Sample Error" lost its table of twelve observations; every number of the
    study computed from the recovered table matches partly by construction.)
    """
    marked = comparison.copy()
    rows = marked["study"].isin(studies) & (marked["status"] == "reproduced")
    marked.loc[rows, "status"] = RECOVERED
    return marked
