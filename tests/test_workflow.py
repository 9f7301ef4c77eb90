"""The regression test: run the whole workflow at the documents' scale and read the registry.

It fails, with a readable table, when any registered number does not read `reproduced` (or
`consistent` for a re-simulation), or is `not reproducible` without a reason.
"""

import pandas as pd
import pytest

from conftest import snakemake

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def finished_workflow(tmp_path_factory):
    from conftest import copy_workflow

    workdir = copy_workflow(tmp_path_factory.mktemp("workflow"))
    run = snakemake(workdir, "all", "--cores", "2")
    assert run.returncode == 0, f"snakemake all failed:\n{run.stderr[-4000:]}"
    return workdir


def failing_claims(comparison: pd.DataFrame) -> pd.DataFrame:
    allowed = comparison["status"].isin(["reproduced", "consistent"])
    honest_gap = (comparison["status"] == "not reproducible") & comparison["note"].fillna("").str.len().gt(0)
    return comparison[~(allowed | honest_gap)]


def test_every_registered_number_is_reproduced(finished_workflow):
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    registry = pd.read_csv(finished_workflow / "registry" / "published_numbers.csv", dtype=str, keep_default_na=False)
    assert list(comparison["claim"]) == list(registry["id"]), "the comparison must list every registry row, in order"
    bad = failing_claims(comparison)
    table = bad[["claim", "published", "reproduced_as_printed", "status", "where"]].to_string(index=False)
    assert bad.empty, f"{len(bad)} registered number(s) no longer match:\n{table}"


def test_the_report_shows_the_verdict_and_every_figure(finished_workflow):
    report = (finished_workflow / "results" / "REPORT.md").read_text(encoding="utf-8")
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    assert f"**{len(comparison)} published numbers:" in report.splitlines()[2]
    figures = sorted((finished_workflow / "figures").rglob("*.png"))
    assert figures, "the workflow drew no figures"
    for figure in figures:
        assert f"../figures/{figure.relative_to(finished_workflow / 'figures').as_posix()}" in report
        assert figure.with_suffix(".svg").exists()


def test_every_results_folder_records_its_provenance(finished_workflow):
    import json

    folders = {table.parent for table in (finished_workflow / "results").rglob("*.csv")} - {finished_workflow / "results"}
    assert folders
    for folder in folders:
        if folder.is_dir():
            record = json.loads((folder / "provenance.json").read_text())
            assert record["config"], folder
            assert record["packages"]["numpy"]
            assert "commit" in record["git"]


def test_a_differing_number_fails_the_check(finished_workflow):
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    broken = comparison.copy()
    broken.loc[0, "status"] = "differs"
    assert len(failing_claims(broken)) == 1
    broken.loc[1, ["status", "note"]] = ["not reproducible", ""]
    assert len(failing_claims(broken)) == 2
