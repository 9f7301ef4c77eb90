"""results/REPORT.md: the comparison for reading.

It opens with the count of every verdict (never adding the numbers reproduced by construction to
the reproduced ones), the settings this run changed from the documents', the errata (where a
document is wrong under the most plausible reading of its sentence, or contradicts itself), each
with the reading tested and its evidence, and then the remarks (what is true but imprecise, or true
only under a looser reading than a strict one: never counted as errors); then one section per study
with its figures and, for each published number, where it stands, the figure that shows it and the
verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from cvsuite.published.comparison import verdict_counts
from cvsuite.published.judges import ALLOWANCE_SE, JUDGES, POWER_FRACTION

MARKS = {
    "reproduced": "✅ reproduced",
    "reproduced by construction": "☑️ reproduced by construction",
    "consistent": "🟰 consistent",
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
    "differs": "it fails under every reasonable reading the record lists (the first, the document's most plausible, "
    "is the row's reading); the erratum and note say by how much and which settings, if any, moved it",
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


def markdown_cell(text) -> str:
    """A value as a Markdown table cell: empty for a missing one, and a '|' of its own escaped."""
    if text is None or (isinstance(text, float) and pd.isna(text)):
        return ""
    return str(text).replace("|", "\\|").replace("\n", " ")


_cell = markdown_cell  # the short name the long lines below use


def verdict_line(comparison: pd.DataFrame) -> str:
    """**N published numbers: a reproduced, b reproduced by construction, ...** (zeros left out)."""
    counts = verdict_counts(comparison)
    parts = ", ".join(f"{n} {status}" for status, n in counts.items() if n)
    return f"**{len(comparison)} published numbers: {parts}.**"


def errata(comparison: pd.DataFrame) -> pd.DataFrame:
    """Where the documents are wrong: every number that differs with no setting changed from theirs.

    Inconsistencies inside a document and conclusions its numbers do not carry are registered as
    claims of their own (a rounding convention, an inference tested as one), so they are here too.
    """
    differs = comparison["status"] == "differs"
    unmoved = comparison["changed_settings"].fillna("") == ""
    return comparison[differs & unmoved]


def remarks(comparison: pd.DataFrame) -> pd.DataFrame:
    """Every row with a remark: true but imprecise, or failing only a stricter reading than the one tested."""
    return comparison[comparison["remark"].fillna("").str.len() > 0]


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
) -> str:
    """Markdown: verdicts, the census's coverage, changed settings, errata, then per study its
    figures and numbers."""
    counts = verdict_counts(comparison)
    lines = [
        "# Published and reproduced",
        "",
        verdict_line(comparison),
        "",
        "| verdict | numbers | what it means |",
        "|---|---|---|",
    ]
    lines += [f"| {MARKS[status]} | {n} | {MEANINGS[status]} |" for status, n in counts.items()]
    lines += [
        "",
        "Every number the documents print, from the registry (`registry/<document>.yaml`, one record each), "
        "beside the number the workflow just computed (`results/comparison.csv`, which also names each "
        "record's judge and statistic, and gives each re-simulated figure's standard error, allowance, z "
        "and alternative).",
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
    lines += ["- [Errata](#errata)", "- [Remarks](#remarks)"]
    lines += [f"- [{s.title}](#{s.name.replace('_', '-')})" for s in studies]
    leftover = comparison[~comparison["study"].isin([s.name for s in studies])]
    if len(leftover):
        lines.append("- [Numbers no study computes](#numbers-no-study-computes)")
    lines.append("")
    lines += ['<a id="errata"></a>', "## Errata", ""] + _errata_lines(errata(comparison)) + [""]
    lines += ['<a id="remarks"></a>', "## Remarks", ""] + _remark_lines(remarks(comparison)) + [""]
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


# What compare() adds to the note of every differs row at the documents' settings: in the Errata,
# which lists only those, it would be said once per row.
UNMOVED_NOTE = "no setting of this study differs from the documents'"


def without_unmoved(note) -> str:
    """A differs row's note without the clause that no setting moved (after a semicolon, as a
    sentence of its own, or alone)."""
    text = str(note)
    for ending in (f"; {UNMOVED_NOTE}", f" {UNMOVED_NOTE[0].upper()}{UNMOVED_NOTE[1:]}", UNMOVED_NOTE):
        if text.endswith(ending):
            return text.removesuffix(ending)
    return text


def _sentence(text: str) -> str:
    """Text as a sentence of its own: capitalised, ending with a full stop."""
    text = text.strip()
    return f"{text[0].upper()}{text[1:]}{'' if text.endswith('.') else '.'}" if text else ""


def by_finding(rows: pd.DataFrame) -> dict[str, list]:
    """Rows (itertuples) grouped by finding: rows that share an erratum's text are one finding, in order of
    first appearance; a row without one is a finding of its own, keyed by its claim."""
    findings: dict[str, list] = {}
    for r in rows.itertuples():
        key = r.erratum if isinstance(r.erratum, str) and r.erratum else r.claim
        findings.setdefault(key, []).append(r)
    return findings


def grouped_by_remark(rows: pd.DataFrame) -> dict[str, list]:
    """Rows (itertuples) grouped by their remark's text, in order of first appearance."""
    remarks: dict[str, list] = {}
    for r in rows.itertuples():
        remarks.setdefault(r.remark, []).append(r)
    return remarks


def _errata_lines(rows: pd.DataFrame) -> list[str]:
    """One bullet per finding: the erratum (or, for an unannotated row, the row itself), our number,
    its figure, then every sentence of the documents it concerns, each with its registry id."""
    if rows.empty:
        return ["No published number differs from what the documents' own settings give."]
    findings = by_finding(rows)
    out = [
        f"{len(rows)} published numbers differ from what the documents' own settings give, "
        f"{len(findings)} findings (also `results/site/errata.html`, with each figure). Each fails every "
        "reasonable reading its record lists; the reading shown is the one the document's own context supports:",
        "",
    ]
    for key, group in findings.items():
        first = group[0]
        finding = f"**{_cell(first.erratum)}.** " if key == first.erratum else ""
        figures = dict.fromkeys(r.figure for r in group if isinstance(r.figure, str) and r.figure)
        links = "".join(f" ([figure](#{figure_anchor(path)}))" for path in figures)
        notes = dict.fromkeys(without_unmoved(r.note) for r in group)
        readings = dict.fromkeys(_cell(r.reading) for r in group if isinstance(r.reading, str) and r.reading)
        evidence = dict.fromkeys(
            f"`{_cell(r.judge)}` on `{_cell(r.statistic)}`"
            for r in group
            if isinstance(r.statistic, str) and r.statistic
        )
        sentences = "; ".join(
            f"{_cell(f'{r.document}, {r.section}' if r.section else r.document)}: {_cell(r.where)}, published "
            f"{shown_value(r, 'published')}, reproduced {shown_value(r, 'reproduced')} (`{r.claim}`)"
            for r in group
        )
        others = dict.fromkeys(
            _cell(r.other_readings) for r in group if isinstance(r.other_readings, str) and r.other_readings
        )
        tested = f" *Reading tested:* {' / '.join(readings)}" if readings else ""
        tested += f" *Also tried:* {_sentence(' / '.join(others))}" if others else ""
        read = f" *Judged by:* {', '.join(evidence)}." if evidence else ""
        out.append(f"- {finding}{sentences}{links}.{tested}{read} {' '.join(_cell(n) for n in notes if n)}")
    return out


def _remark_lines(rows: pd.DataFrame) -> list[str]:
    """One bullet per remark (each once, with every sentence it concerns): what the row's verdict does
    not say, because it fails only a stricter reading than the one the document's context supports."""
    if rows.empty:
        return ["No remark."]
    by_remark = grouped_by_remark(rows)
    out = [
        f"{len(by_remark)} remarks on {len(rows)} published numbers (also `results/site/errata.html#remarks`): "
        "true but imprecise, or failing only a stricter reading than the one tested. None is counted as an erratum.",
        "",
    ]
    for remark, group in by_remark.items():
        figures = dict.fromkeys(r.figure for r in group if isinstance(r.figure, str) and r.figure)
        links = "".join(f" ([figure](#{figure_anchor(path)}))" for path in figures)
        sentences = "; ".join(
            f"{_cell(f'{r.document}, {r.section}' if r.section else r.document)}: {_cell(r.where)} "
            f"({MARKS.get(r.status, r.status)}, `{r.claim}`)"
            for r in group
        )
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


def markdown_table(table: pd.DataFrame) -> list[str]:
    """A small table as Markdown: floats to four significant digits, or as many more (up to ten) as
    a column needs for values that differ to read differently (the solvers' norms 81,050.6 and
    81,049.0 both read 8.105e+04 at four); a missing value as a dash."""
    digits = {name: _digits_that_separate(table[name]) for name in table.columns}

    def cell(value, name) -> str:
        if isinstance(value, float):
            return "—" if np.isnan(value) else f"{value:.{digits[name]}g}"
        return _cell(value)

    out = ["| " + " | ".join(map(str, table.columns)) + " |", "|" + "---|" * len(table.columns)]
    out += [
        "| " + " | ".join(cell(v, name) for v, name in zip(row, table.columns)) + " |"
        for row in table.itertuples(index=False)
    ]
    return out + [""]


def _digits_that_separate(column: pd.Series, least: int = 4, most: int = 10) -> int:
    values = [v for v in column if isinstance(v, float) and not np.isnan(v)]
    for digits in range(least, most):
        if len({f"{v:.{digits}g}" for v in values}) == len(set(values)):
            return digits
    return most
