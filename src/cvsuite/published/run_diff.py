"""What moved between two runs: the numbers whose verdict or printed value changed, and the settings
in which the runs differ (each run's comparison.csv and the changed settings its provenance records
against the documents'). For a what-if, run against the documents' settings, it says what the
changed setting moved."""

from __future__ import annotations

import pandas as pd

from cvsuite.published.comparison import verdict_counts
from cvsuite.published.markdown import markdown_cell as _cell
from cvsuite.published.site_summary import SHORT


def settings_between(before: list, after: list) -> list[tuple[str, str, str]]:
    """(key, before's value, after's value) for every setting the two runs do not share; each list is a
    run's ``changed_settings`` ((key, the documents' value, the run's value)), and a key a run does not
    list has the documents' value."""
    first = {key: (documents, run) for key, documents, run in before}
    second = {key: (documents, run) for key, documents, run in after}
    moved = []
    for key in sorted(first.keys() | second.keys()):
        documents = (first.get(key) or second.get(key))[0]
        was, now = first.get(key, (documents, documents))[1], second.get(key, (documents, documents))[1]
        if str(was) != str(now):
            moved.append((key, str(was), str(now)))
    return moved


def moved_numbers(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Every number whose status or printed value differs between the runs (an outer join on the claim:
    a number only one run registers is listed with the other side empty)."""
    columns = ["claim", "document", "section", "published", "reproduced_as_printed", "status"]
    joined = before[columns].merge(after[columns], on="claim", how="outer", suffixes=("_before", "_after"))
    joined = joined.fillna("")
    changed = (joined["status_before"] != joined["status_after"]) | (
        joined["reproduced_as_printed_before"] != joined["reproduced_as_printed_after"]
    )
    return joined[changed].reset_index(drop=True)


def run_diff_markdown(
    before: pd.DataFrame, after: pd.DataFrame, settings: list[tuple[str, str, str]], names=("before", "after")
) -> str:
    """The comparison of two runs, for reading: their settings, their verdict counts, the moved numbers."""
    first, second = names
    lines = [f"# What moved between {first} and {second}", ""]
    if settings:
        lines += ["## Settings that differ", "", f"| setting | {first} | {second} |", "|---|---|---|"]
        lines += [f"| `{key}` | {_cell(was)} | {_cell(now)} |" for key, was, now in settings]
    else:
        lines += ["## Settings that differ", "", "None: both runs use the same settings."]
    counts = verdict_counts(before), verdict_counts(after)
    lines += ["", "## Verdicts", "", f"| verdict | {first} | {second} | what it means |", "|---|---|---|---|"]
    lines += [
        f"| {status} | {counts[0][status]} | {counts[1][status]} | {SHORT[status]} |"
        for status in counts[0]
        if counts[0][status] or counts[1][status]
    ]
    moved = moved_numbers(before, after)
    lines += ["", f"## Numbers that moved: {len(moved)} of {len(after)}", ""]
    if moved.empty:
        lines.append("No number changed its verdict or its value as printed.")
    else:
        lines += [f"| claim | section | published | {first} | {second} |", "|---|---|---|---|---|"]
        for r in moved.itertuples():
            section = r.section_after or r.section_before
            published = r.published_after or r.published_before
            was = f"{r.reproduced_as_printed_before or '—'} ({r.status_before or 'absent'})"
            now = f"{r.reproduced_as_printed_after or '—'} ({r.status_after or 'absent'})"
            lines.append(f"| `{r.claim}` | {_cell(section)} | {_cell(published)} | {_cell(was)} | {_cell(now)} |")
    return "\n".join(lines) + "\n"
