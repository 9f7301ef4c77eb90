"""results/REPORT.md: the comparison for reading, one section per study with its figures."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from cvsuite.published.comparison import verdict_counts

_MARK = {
    "reproduced": "✅ reproduced",
    "reproduced from recovered data": "☑️ reproduced from recovered data",
    "consistent": "🟰 consistent",
    "differs": "❌ differs",
    "not reproducible": "⚪ not reproducible",
}


@dataclass
class StudySection:
    """What the report says about one study: its title, source, and figures with captions."""

    name: str
    title: str
    source: str
    figures: list[tuple[str, str]] = field(default_factory=list)  # (path relative to the report, caption)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)  # (results path, table to show)


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def verdict_line(comparison: pd.DataFrame) -> str:
    counts = verdict_counts(comparison)
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    return f"**{len(comparison)} published numbers: {parts}.**"


def render_report(comparison: pd.DataFrame, studies: list[StudySection]) -> str:
    """Markdown: verdict count, then per study its figures and a published/reproduced table."""
    lines = [
        "# Published and reproduced",
        "",
        verdict_line(comparison),
        "",
        "Every number the documents print, from `registry/published_numbers.csv`, beside the number the "
        "workflow just computed (`results/comparison.csv`). *Reproduced*: written at the printed precision it "
        "reads the same. *Reproduced from recovered data*: the same, computed from data the suite recovered "
        "because the document lost it. *Consistent*: a statistical figure within the stated tolerance. "
        "*Differs*: the note says why. *Not reproducible*: the document does not give what the number needs.",
        "",
    ]
    lines += ["## Contents", ""] + [f"- [{s.title}](#{s.name.replace('_', '-')})" for s in studies]
    leftover = comparison[~comparison["study"].isin([s.name for s in studies])]
    if len(leftover):
        lines.append("- [Numbers no study computes](#numbers-no-study-computes)")
    lines.append("")
    for study in studies:
        rows = comparison[comparison["study"] == study.name]
        lines += [
            f'<a id="{study.name.replace("_", "-")}"></a>',
            f"## {study.title}",
            "",
            f"Study `{study.name}` · {study.source} · {verdict_line(rows) if len(rows) else 'no registered numbers'}",
            "",
        ]
        for path, caption in study.figures:
            anchor = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            lines += [f'<a id="fig-{study.name}-{anchor}"></a>', f"![{_cell(caption)}]({path})", "", f"*{caption}*", ""]
        for name, table in study.tables:
            lines += [f"Table `results/{name}`:", ""] + markdown_table(table)
        if len(rows):
            lines += _claims_table(rows, study.name)
    if len(leftover):
        lines += ["## Numbers no study computes", ""] + _claims_table(leftover, "")
    return "\n".join(lines) + "\n"


def _claims_table(rows: pd.DataFrame, study: str) -> list[str]:
    out = ["| claim | where in the document | published | reproduced | status | note |", "|---|---|---|---|---|---|"]
    for r in rows.itertuples():
        where = f"{r.document}, {r.section}: {r.where}" if r.section else f"{r.document}: {r.where}"
        if isinstance(r.figure, str) and r.figure and study:
            anchor = r.figure.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            where += f" ([figure](#fig-{study}-{anchor}))"
        reproduced = r.reproduced_as_printed if isinstance(r.reproduced_as_printed, str) else ""
        out.append(
            f"| `{r.claim}` | {_cell(where)} | {_cell(r.published)} | {_cell(reproduced)} | "
            f"{_MARK.get(r.status, r.status)} | {_cell(r.note if isinstance(r.note, str) else '')} |"
        )
    return out + [""]


def markdown_table(table: pd.DataFrame) -> list[str]:
    """A small table as Markdown, floats to four significant digits."""

    def cell(value) -> str:
        if isinstance(value, float):
            return f"{value:.4g}"
        return _cell(value)

    out = ["| " + " | ".join(map(str, table.columns)) + " |", "|" + "---|" * len(table.columns)]
    out += ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    return out + [""]
