"""results/REPORT.md: the comparison for reading.

It opens with the records counted by kind (a printed table's cells, numbers in the text, claims in
words, the cited works' numbers), each with its verdicts (never adding the numbers reproduced by
construction to the reproduced ones), the settings this run changed from the documents', the errata
grouped into findings (where a document is wrong on every reasonable reading of its sentence, or
contradicts itself), the claims that depend on their reading, each with every reading tried, what
it found, and the readings ruled out, then the remarks (what a reader would act on that a verdict
does not say: never counted as errors), and how claims in words are judged; then one section per
study with its figures and, for each published number, where it stands, the figure that shows it and
the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from cvsuite.published.comparison import DEPENDS, KINDS, verdict_counts
from cvsuite.published.findings import (
    by_finding,
    depending,
    errata,
    grouped_by_remark,
    readings_of,
    remarks,
    without_unmoved,
)
from cvsuite.published.judges import ALLOWANCE_SE, JUDGES, POWER_FRACTION
from cvsuite.published.judging_guide import ANCHOR as GUIDE_ANCHOR
from cvsuite.published.judging_guide import guide_markdown, judge_anchor
from cvsuite.published.markdown import markdown_cell, markdown_table
from cvsuite.published.scales import Scales

MARKS = {
    "reproduced": "✅ reproduced",
    "reproduced by construction": "☑️ reproduced by construction",
    "consistent": "🟰 consistent",
    DEPENDS: "⚖️ depends on the reading",
    "differs": "❌ differs",
    "inconclusive": "❔ inconclusive",
    "not reproducible": "⚪ not reproducible",
    "not computed at this config": "⏸ not computed at this config",
}

MEANINGS = {
    "reproduced": "computed independently, it reads as printed at the printed precision",
    "reproduced by construction": "it reads as printed, but the printed figure was an input of the computation "
    "(the recovered twelve-point table, a calibrated parameter, a setting inferred from the figure): no evidence",
    "consistent": f"a re-simulated figure within {ALLOWANCE_SE:g} standard errors of our estimate, by a test whose "
    f"allowance is at most {POWER_FRACTION:g} of the distance to the value the claim argues against",
    DEPENDS: "it holds on at least one reasonable reading of its sentence and fails on at least one other; "
    "the readings are listed with what each found, and it is counted neither as an erratum nor as reproduced",
    "differs": "it fails on every reasonable reading listed (the first is the document's most plausible); the "
    "erratum and note say by how much and which settings, if any, moved it",
    "inconclusive": "the test cannot decide: a figure within the allowance but too few simulated datasets to tell it "
    "from its alternative, or a claim the evidence decides neither way (never a non-detection read as a refutation)",
    "not reproducible": "the documents do not give what the number needs (data the suite does not have, a "
    "hypothetical figure, one draw of a simulation whose seed is not given); the note says what is missing",
    "not computed at this config": "this run's settings do not compute it (the note says which row is missing)",
}


@dataclass
class StudySection:
    """What the report says about one study: its title, source, and figures with captions."""

    name: str
    title: str
    source: str
    figures: list[tuple[str, str]] = field(default_factory=list)  # (path relative to the report, caption)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)  # (results path, table to show)


_cell = markdown_cell  # the short name the long lines below use


# Each kind of record as the headline counts it, in the plural.
KIND_WORDS = {
    "table cell": "cells of printed tables",
    "number in the text": "numbers in the text",
    "claim in words": "claims in words",
    "cited work's number": "numbers of the works cited",
}


def verdict_line(comparison: pd.DataFrame) -> str:
    """**N records: a cells of printed tables, ...; b reproduced, c reproduced by construction, ...**
    (zeros left out): what the records are, by kind, then their verdicts."""
    counts = verdict_counts(comparison)
    parts = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    if "kind" not in comparison:
        return f"**{len(comparison)} records: {parts}.**"
    kinds = comparison["kind"].value_counts()
    what = ", ".join(f"{int(kinds[k])} {KIND_WORDS[k]}" for k in KINDS if kinds.get(k, 0))
    return f"**{len(comparison)} records ({what}): {parts}.**"


def kind_table(comparison: pd.DataFrame) -> list[str]:
    """The records by kind, each with its verdicts, and their total."""
    shown = [s for s, n in verdict_counts(comparison).items() if n]
    lines = ["| records | all | " + " | ".join(shown) + " |", "|---|---|" + "---|" * len(shown)]
    for kind in KINDS:
        rows = comparison[comparison["kind"] == kind]
        if len(rows):
            counts = verdict_counts(rows)
            lines.append(f"| {KIND_WORDS[kind]} | {len(rows)} | " + " | ".join(str(counts[s]) for s in shown) + " |")
    total = verdict_counts(comparison)
    lines.append(f"| **all** | **{len(comparison)}** | " + " | ".join(f"**{total[s]}**" for s in shown) + " |")
    return lines + [""]


def versions_line(versions: dict[str, dict[str, str]]) -> str:
    """The package versions the studies ran with (from their provenance.json), one line if they agree."""
    distinct = {tuple(sorted(v.items())) for v in versions.values()}
    if len(distinct) == 1:
        packages = dict(next(iter(distinct)))
        return "Computed with " + ", ".join(f"{name} {version}" for name, version in packages.items()) + "."
    return (
        "Studies ran with different package versions: "
        + "; ".join(
            f"{study}: " + ", ".join(f"{n} {v}" for n, v in sorted(packages.items()))
            for study, packages in versions.items()
        )
        + "."
    )


# The verdicts a coverage row counts, as its column headings read.
SHORT_VERDICTS = {
    "reproduced": "reproduced",
    "reproduced by construction": "by construction",
    "consistent": "consistent",
    DEPENDS: "depends on the reading",
    "differs": "differs",
    "inconclusive": "inconclusive",
    "not reproducible": "not reproducible",
}


def coverage_lines(coverage: pd.DataFrame) -> list[str]:
    """The census in words and per document and section: how many clauses are judged, how many no
    computation can judge, how many are not judged yet, and what the judged ones' records read."""
    total = coverage[["clauses", "judged", "not_checkable", "not_judged_yet", "records"]].sum()
    lines = [
        f"The documents state {total['clauses']} clauses (docs/census.md lists each): {total['judged']} are judged "
        f"by {total['records']} records, {total['not_checkable']} are not checkable by any computation (each with "
        f"its reason), and {total['not_judged_yet']} are checkable and not judged yet.",
        "",
        "| document | section | clauses | judged | not checkable | not judged yet | records | "
        + " | ".join(SHORT_VERDICTS.values())
        + " |",
        "|---|---|---|---|---|---|---|" + "---|" * len(SHORT_VERDICTS),
    ]
    for row in coverage.to_dict("records"):
        counts = " | ".join(str(row[verdict]) for verdict in SHORT_VERDICTS)
        lines.append(
            f"| {_cell(row['document'])} | {_cell(row['section'])} | {row['clauses']} | {row['judged']} | "
            f"{row['not_checkable']} | {row['not_judged_yet']} | {row['records']} | {counts} |"
        )
    return lines + [""]


def render_report(
    comparison: pd.DataFrame,
    studies: list[StudySection],
    changes: list[tuple] = (),
    versions: dict | None = None,
    coverage: pd.DataFrame | None = None,
    readings: pd.DataFrame | None = None,
    scales: Scales | None = None,
) -> str:
    """Markdown: the records by kind and verdict, the census's coverage, changed settings, the errata,
    the claims that depend on their reading, the remarks, how claims are judged, then per study its
    figures and numbers. ``readings`` is results/readings.csv; ``scales`` the scales of vague words."""
    counts = verdict_counts(comparison)
    lines = ["# Published and reproduced", "", verdict_line(comparison), ""]
    if "kind" in comparison:
        lines += kind_table(comparison)
    lines += ["| verdict | records | what it means |", "|---|---|---|"]
    lines += [f"| {MARKS[status]} | {n} | {MEANINGS[status]} |" for status, n in counts.items()]
    lines += [
        "",
        "Every number and claim the documents print is a record of the registry (`registry/<document>.yaml`), "
        "beside what the workflow just computed (`results/comparison.csv`, which also names each record's "
        "rule and statistic; every reading of a claim, with what it found, is in `results/readings.csv`). "
        f"How claims in words are judged: [the rules and the scales of vague words](#{GUIDE_ANCHOR}).",
        "",
    ]
    if versions:
        lines += [
            versions_line(versions) + " The suite is tested from the documents' versions (numpy 2.3.5, "
            "scipy 1.16.3, scikit-learn 1.7.2) to the lock's; no registered number moves at its printed "
            "precision between them (tests/test_versions.py).",
            "",
        ]
    if coverage is not None:
        lines += ['<a id="coverage"></a>', "## Coverage", ""] + coverage_lines(coverage)
    lines += ["## Settings that differ from the documents'", ""]
    if changes:
        lines += ["| setting | the documents' | this run's |", "|---|---|---|"]
        lines += [f"| `{key}` | {_cell(document)} | {_cell(run)} |" for key, document, run in changes]
        lines += ["", "Every `differs` below names the setting that moved it, or says that none did.", ""]
    else:
        lines += ["None: this run uses the documents' settings (the defaults of `schemas/config.schema.yaml`).", ""]
    lines += ["## Contents", ""] + (["- [Coverage](#coverage)"] if coverage is not None else [])
    lines += ["- [Errata](#errata)", "- [Depends on the reading](#depends-on-the-reading)", "- [Remarks](#remarks)"]
    lines += [f"- [How claims in words are judged](#{GUIDE_ANCHOR})"] if scales is not None else []
    lines += [f"- [{s.title}](#{s.name.replace('_', '-')})" for s in studies]
    leftover = comparison[~comparison["study"].isin([s.name for s in studies])]
    if len(leftover):
        lines.append("- [Numbers no study computes](#numbers-no-study-computes)")
    lines.append("")
    lines += ['<a id="errata"></a>', "## Errata", ""] + _errata_lines(errata(comparison), readings) + [""]
    lines += ['<a id="depends-on-the-reading"></a>', "## Depends on the reading", ""]
    lines += _depending_lines(depending(comparison), readings) + [""]
    lines += ['<a id="remarks"></a>', "## Remarks", ""] + _remark_lines(remarks(comparison)) + [""]
    if scales is not None:
        lines += guide_markdown(scales)
    for study in studies:
        rows = comparison[comparison["study"] == study.name]
        summary = verdict_line(rows) if len(rows) else "no registered numbers"
        lines += [
            f'<a id="{study.name.replace("_", "-")}"></a>',
            f"## {study.title}",
            "",
            f"Study `{study.name}` · {study.source} · {summary}",
            "",
        ]
        for path, caption in study.figures:
            lines += [f'<a id="{figure_anchor(path)}"></a>', f"![{_cell(caption)}]({path})", "", f"*{caption}*", ""]
        for name, table in study.tables:
            lines += [f"Table `results/{name}`:", ""] + markdown_table(table)
        if len(rows):
            lines += _claims_table(rows, study.name)
    if len(leftover):
        lines += ['<a id="numbers-no-study-computes"></a>', "## Numbers no study computes", ""]
        lines += _claims_table(leftover, "")
    return "\n".join(lines) + "\n"


# A claim the suite tests reads as words: the document asserts it, and its judge finds it holds,
# does not hold, or cannot tell.
_CLAIM_WORDS = {"True": "holds", "False": "does not hold", "undecided": "undecided"}


def is_claim(row) -> bool:
    """Whether a comparison row is a claim in words (its judge a claim's), not a printed number."""
    name = str(row.judge).split("(", 1)[0]
    return name in JUDGES and JUDGES[name].kind == "claim"


def shown_value(row, side: str) -> str:
    """The ``side`` ("published" or "reproduced") of a row as the report shows it: a tested claim
    in words ("asserted"; "holds", "does not hold", "undecided"), a number as printed."""
    value = row.published if side == "published" else row.reproduced_as_printed
    if is_claim(row) and str(value) in _CLAIM_WORDS:
        return "asserted" if side == "published" else _CLAIM_WORDS[str(value)]
    # A claim no judge can test (not reproducible) is asserted all the same, not "True".
    if side == "published" and str(value) == "True" and row.status == "not reproducible":
        return "asserted"
    return _cell(value)


def figure_anchor(path: str) -> str:
    """The report's anchor of a figure, from its path ("k_bias/cv_estimate_against_k.png" or
    "../figures/k_bias/cv_estimate_against_k.png"): "fig-k_bias-cv_estimate_against_k"."""
    study, name = path.rsplit(".", 1)[0].split("/")[-2:]
    return f"fig-{study}-{name}"


def _sentence(text: str) -> str:
    """Text as a sentence of its own: capitalised, ending with a full stop."""
    text = text.strip()
    return f"{text[0].upper()}{text[1:]}{'' if text.endswith('.') else '.'}" if text else ""


def _where(r) -> str:
    return _cell(f"{r.document}, {r.section}: {r.where}" if r.section else f"{r.document}: {r.where}")


def readings_table(judged: list[dict], ruled_out: list[dict]) -> list[str]:
    """A record's readings as a small table (each reading, what its rule found, whether it holds), then
    the readings ruled out by the documents' own words, each with those words."""
    lines = []
    if judged:
        lines += ["| reading | what it found | holds? |", "|---|---|---|"]
        for r in judged:
            label = f"**{_cell(r['settles'])}:** " if r["settles"] else ""
            rule = r["judge"].split("(", 1)[0]
            how = f" ([rule](#{judge_anchor(rule)}))" if rule in JUDGES else ""
            lines.append(f"| {r['reading']}. {label}{_cell(r['text'])}{how} | {_cell(r['found'])} | {r['outcome']} |")
        lines.append("")
    for r in ruled_out:
        why = f" {_sentence(r['found'])}" if r["found"] else ""
        lines.append(f'*Also considered:* {_sentence(r["text"])} Ruled out by "{_cell(r["support"])}".{why}')
        lines.append("")
    return lines


def _finding_lines(groups: dict[str, list], readings, lead) -> list[str]:
    """One subsection per finding: its lead (the first part's finding, ``lead(row)``), then each part:
    the sentence, the record, its own finding where it is not the lead's (K = 10 beside K = 5), every
    reading with what it found, the readings ruled out, and the note."""
    out = []
    for number, group in enumerate(groups.values(), 1):
        headline = lead(group[0])
        out += [f"### {number}. {_sentence(headline)}", ""]
        for r in group:
            figure = f" [Figure](#{figure_anchor(r.figure)})." if isinstance(r.figure, str) and r.figure else ""
            out += [f"*The document says* ({_where(r)}) (`{r.claim}`).{figure}", ""]
            if lead(r) != headline:
                out += [f"*What the run found for it:* {_sentence(_cell(lead(r)))}", ""]
            out += readings_table(*readings_of(readings, r.claim))
            note = without_unmoved(r.note)
            if note:
                out += [f"*Why:* {_sentence(_cell(note))}", ""]
    return out


def _errata_lines(rows: pd.DataFrame, readings: pd.DataFrame | None) -> list[str]:
    """The errata, one subsection per finding (records that share a sentence or the same evidence)."""
    if rows.empty:
        return ["No published number differs from what the documents' own settings give."]
    findings = by_finding(rows)
    out = [
        f"{len(findings)} findings, from {len(rows)} records, where a document is wrong at its own settings "
        "(also `results/site/errata.html`, with each figure). Records that share a sentence or rest on the "
        "same evidence are one finding. Each fails on every reading listed beside it; the first is the "
        "document's most plausible.",
        "",
    ]
    return out + _finding_lines(findings, readings, lambda r: r.erratum or r.claim)


def _depending_lines(rows: pd.DataFrame, readings: pd.DataFrame | None) -> list[str]:
    """The claims that hold on one reasonable reading and fail on another, one subsection per sentence."""
    if rows.empty:
        return ["No claim holds on one reasonable reading and fails on another."]
    groups = by_finding(rows)
    out = [
        f"{len(rows)} records hold on at least one reasonable reading of their sentence and fail on at least "
        "one other. Neither errata nor reproduced, each is shown with every reading and what it found.",
        "",
    ]
    return out + _finding_lines(groups, readings, lambda r: r.depends or r.claim)


def _remark_lines(rows: pd.DataFrame) -> list[str]:
    """One bullet per remark (each once, with every sentence it concerns)."""
    if rows.empty:
        return ["No remark."]
    by_remark = grouped_by_remark(rows)
    out = [
        f"{len(by_remark)} remarks on {len(rows)} records: what a reader would act on that the verdict does not "
        "say. None is counted as an erratum.",
        "",
    ]
    for remark, group in by_remark.items():
        figures = dict.fromkeys(r.figure for r in group if isinstance(r.figure, str) and r.figure)
        links = "".join(f" ([figure](#{figure_anchor(path)}))" for path in figures)
        sentences = "; ".join(f"{_where(r)} ({MARKS.get(r.status, r.status)}, `{r.claim}`)" for r in group)
        out.append(f"- {_cell(remark)} *Concerns* {sentences}{links}.")
    return out


def _claims_table(rows: pd.DataFrame, study: str) -> list[str]:
    out = ["| claim | where in the document | published | reproduced | verdict | note |", "|---|---|---|---|---|---|"]
    for r in rows.itertuples():
        where = f"{r.document}, {r.section}: {r.where}" if r.section else f"{r.document}: {r.where}"
        if isinstance(r.figure, str) and r.figure and study:
            where += f" ([figure](#{figure_anchor(r.figure)}))"
        out.append(
            f"| `{r.claim}` | {_cell(where)} | {shown_value(r, 'published')} | {shown_value(r, 'reproduced')} | "
            f"{MARKS.get(r.status, r.status)} | {_cell(r.note)} |"
        )
    return out + [""]
