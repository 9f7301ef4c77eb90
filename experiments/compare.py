"""Compare: every registered published number beside the reproduced one.

Reads registry/published_numbers.csv and the studies' tables; writes results/comparison.csv and
results/REPORT.md. The workflow finishes and reports whatever the statuses; the test suite is what
fails on a `differs`.
"""

from pathlib import Path

import pandas as pd
import yaml

from cvsuite.comparison import compare, mark_recovered_data
from cvsuite.outputs import logged_to, write_table, write_text
from cvsuite.registry import read_registry
from cvsuite.report import StudySection, render_report


def main(registry_path: str, tables: list[str], figures: list[str], studies_path: str, out) -> None:
    results = Path("results")
    by_name = {str(Path(t).relative_to(results)): pd.read_csv(t, keep_default_na=False, na_values=[""]) for t in tables}
    claims = read_registry(registry_path, known_tables=set(by_name))
    with open(studies_path, encoding="utf-8") as handle:
        meta = yaml.safe_load(handle)
    recovered = {name for name, info in meta.items() if info.get("recovered_data")}
    comparison = mark_recovered_data(compare(claims, by_name), recovered)
    write_table(comparison, out.comparison)

    report_dir = Path(out.report).parent
    sections = []
    for name, info in meta.items():
        figs = [f for f in figures if Path(f).parts[1] == name]
        captioned = [(Path("..", f).as_posix() if report_dir == results else f, caption_of(f)) for f in figs]
        shown = [(t["table"], by_name[t["table"]][t["columns"]]) for t in info.get("tables", [])]
        sections.append(StudySection(name=name, title=info["title"], source=info["source"], figures=captioned, tables=shown))
    write_text(render_report(comparison, sections), out.report)
    print(comparison["status"].value_counts().to_string())


def caption_of(figure: str) -> str:
    """The one-line caption kept beside the figure's report entry: report/<study>/<name>.rst."""
    study, name = Path(figure).parts[1], Path(figure).stem
    path = Path("report", study, f"{name}.rst")
    return " ".join(path.read_text(encoding="utf-8").split()) if path.exists() else name


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.input.registry, list(snakemake.input.tables), list(snakemake.input.figures),  # noqa: F821
             snakemake.input.studies, snakemake.output)  # noqa: F821
