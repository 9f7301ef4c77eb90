"""Compare: every registered published number beside the reproduced one.

Reads the registry (registry/<document>.yaml and the scales of its vague words), the list of studies
(studies.yaml), the schema's defaults (the documents' settings), the census (registry/census.csv)
and the studies' tables; writes results/comparison.csv, every reading of every claim with what it
found (results/readings.csv), the coverage of the census (results/coverage.csv), REPORT.md, the site
(results/site, cvsuite.published.site) and the Snakemake report's first page. It completes at any
config and whatever the verdicts; the test suite is what fails when a number does not read as the
registry expects. One exception: at the documents' own settings every published number is computed,
so a `not computed at this config` there means a table lost rows it should have, and the job fails
naming them.
"""

import datetime
import json
from pathlib import Path

import pandas as pd

from cvsuite.published.census import checked_census, coverage
from cvsuite.published.comparison import compare_with_readings, refuse_missing_rows
from cvsuite.published.records import read_records
from cvsuite.published.report import StudySection, render_report
from cvsuite.published.scales import read_scales
from cvsuite.published.site import SiteStudy, overview_rst, site_assets, site_files, site_pages
from cvsuite.published.site_summary import RunFacts
from cvsuite.workflow.catalog import load_catalog
from cvsuite.workflow.config_checks import load_schema
from cvsuite.workflow.document_settings import changed_settings, described_by_study
from cvsuite.workflow.job_spec import job_from_command_line
from cvsuite.workflow.outputs import (
    end_job_process,
    logged_to,
    read_tables,
    run_record,
    write_folder,
    write_provenance,
    write_table,
    write_text,
)


def main(
    registry: str,
    catalog_path: str,
    schema_path: str,
    config: dict,
    figure_checks: list[str],
    notes_files,
    census_path: str,
    out,
) -> None:
    catalog = load_catalog(catalog_path)
    by_name = {
        f"{study.name}/{table}.csv": pd.read_csv(study.table_path(table), keep_default_na=False, na_values=[""])
        for study in catalog.studies.values()
        for table in study.tables
    }
    scales = read_scales(registry)
    vague = scales.words
    records = read_records(registry, catalog.table_columns(), vague)
    changes = changed_settings(config, load_schema(schema_path))
    by_study = described_by_study(changes, {s.name: s.config for s in catalog.studies.values()})
    comparison, readings = compare_with_readings(records, by_name, vague, by_study, config)
    if not changes:
        refuse_missing_rows(comparison)
    write_table(comparison, out.comparison)
    write_table(readings, out.readings)
    census = checked_census(pd.read_csv(census_path, keep_default_na=False, dtype=str), census_path)
    covered = coverage(census, dict(zip(comparison["claim"], comparison["status"])))
    write_table(covered, out.coverage)
    report_dir = Path(out.report).parent
    sections = []
    for study in catalog.studies.values():
        figures = [study.figure_path(f) for f in study.figures]
        captioned = [
            (Path("..", path).as_posix() if report_dir == Path("results") else path, study.captions[name])
            for name, path in zip(study.figures, figures)
        ]
        shown = [
            (f"{study.name}/{table}.csv", by_name[f"{study.name}/{table}.csv"][columns])
            for table, columns in study.report_tables.items()
        ]
        sections.append(
            StudySection(name=study.name, title=study.title, source=study.source, figures=captioned, tables=shown)
        )
    versions = {
        s.name: json.loads(Path("results", s.name, "provenance.json").read_text())["packages"]
        for s in catalog.studies.values()
    }
    write_text(render_report(comparison, sections, changes, versions, covered, readings, scales), out.report)
    write_table(read_tables(figure_checks), out.figure_checks)
    shown = [
        SiteStudy(s.name, s.title, s.source, [(f, s.captions[f]) for f in s.figures]) for s in catalog.studies.values()
    ]
    notes = {Path(p).stem: Path(p).read_text(encoding="utf-8") for p in notes_files}
    record = run_record()
    run = RunFacts(
        commit=record["git"].get("commit", ""),
        uncommitted_changes=bool(record["git"].get("uncommitted_changes")),
        packages=next(iter(versions.values()), {}),
        date=datetime.date.today().isoformat(),
    )
    pages = site_pages(comparison, shown, changes, notes, by_name, covered, run, readings, scales)
    files = {name: text.encode() for name, text in pages.items()}
    files.update(site_files({name: Path("results", name).read_bytes() for name in by_name}))
    write_folder(out.site, files, site_assets(comparison, shown))
    write_text(overview_rst(comparison), out.overview)
    write_provenance(out.provenance, "compare", {"changed_settings": changes}, out)
    print(comparison["status"].value_counts().to_string())


if __name__ == "__main__":
    job = job_from_command_line()
    with logged_to(job.log[0]):
        main(
            str(Path(job.input.registry[0]).parent),
            job.input.studies,
            job.input.schema,
            job.params.config,
            list(job.input.figure_checks),
            list(job.input.notes),
            job.input.census,
            job.output,
        )
    end_job_process()
