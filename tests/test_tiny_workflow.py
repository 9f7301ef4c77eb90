"""The whole workflow at a tiny scale (the schema's ``tiny`` values), in the fast tier.

Every study's entry point in experiments/, every figure, the shard and gather rules and the
comparison run, so a broken entry point, figure or rule fails a bare ``pytest`` in seconds; the
documents' numbers are checked by the slow tier (tests/test_workflow.py), at the documents' scale.
The run starts in the background as the session starts (conftest.py, ``tiny_workflow``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from conftest import ROOT, project_records
from cvsuite.workflow.catalog import load_catalog
from tiny_trials import KEPT, only_run, planned_rules

CATALOG = load_catalog(ROOT / "studies.yaml")


def test_the_tiny_settings_are_a_valid_config_of_known_keys():
    """The schema's ``tiny`` values, merged over config.yaml as ``--configfile`` merges them, pass every
    check a user's config passes (types, ranges, the relations between keys); each ``tiny`` sits on a
    key the schema declares, never on a block whose keys declare their own."""
    from snakemake.utils import update_config

    from cvsuite.workflow.config_checks import checked_config, load_schema
    from cvsuite.workflow.document_settings import tiny_settings

    schema = load_schema(ROOT / "schemas" / "config.schema.yaml")
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    update_config(config, tiny_settings(schema))
    checked_config(config, schema)

    def carries_tiny(node: dict) -> bool:
        return "tiny" in node or any(carries_tiny(child) for child in node.get("properties", {}).values())

    def doubled(node: dict, where: str) -> list[str]:
        children = node.get("properties", {})
        here = [where] if "tiny" in node and any(carries_tiny(child) for child in children.values()) else []
        return here + [path for name, child in children.items() for path in doubled(child, f"{where}.{name}")]

    assert doubled(schema, "config") == [], "a tiny value on a block whose keys carry their own"


def test_the_tiny_run_ends_with_the_verdict(tiny_workflow):
    log = (tiny_workflow / "snakemake.log").read_text()
    last = [line for line in log.strip().splitlines() if line.strip()][-2:]
    assert last[0].startswith("Verdict: "), last


def test_every_study_writes_every_declared_table_figure_and_provenance(tiny_workflow):
    for study in CATALOG.studies.values():
        files = {**study.outputs(), **(study.figure_outputs() if study.figures else {})}
        for name, path in files.items():
            file = tiny_workflow / path
            assert file.exists() and file.stat().st_size > 0, f"{study.name}: {name} ({path}) not written"
        provenance = json.loads((tiny_workflow / study.outputs()["provenance"]).read_text())
        assert provenance["study"] == study.name
        if study.figures:
            drawn = json.loads((tiny_workflow / study.figure_outputs()["provenance"]).read_text())
            assert drawn["study"] == f"{study.name}_figures"


def test_every_figure_is_drawn_and_checked(tiny_workflow):
    for study in CATALOG.studies.values():
        if not study.figures:
            continue
        checks = pd.read_csv(tiny_workflow / study.figure_outputs()["figure_checks"])
        checked = {figure.split("/")[1] for figure in checks["figure"]}
        assert checked == set(study.figures), study.name


def test_the_comparison_judges_every_registered_number(tiny_workflow):
    registry = project_records()
    comparison = pd.read_csv(tiny_workflow / "results" / "comparison.csv", keep_default_na=False)
    assert sorted(comparison["claim"]) == sorted(claim.id for claim in registry)
    assert (comparison["status"] != "").all()
    worded = comparison[["reading", "remark", "erratum", "note"]].astype(str)
    unfilled = worded.apply(lambda column: column.str.contains("${", regex=False)).any(axis=1)
    assert not unfilled.any(), comparison.loc[unfilled, "claim"].tolist()  # every placeholder filled from this run
    assert Path(tiny_workflow / "results" / "REPORT.md").exists()


def test_the_site_links_every_number_to_its_sentence_and_figure_and_every_link_resolves(tiny_workflow):
    from test_site import broken_links, parsed

    site = tiny_workflow / "results" / "site"
    assert broken_links(site) == []
    for page in site.glob("*.html"):  # the documents' TeX rendered as MathML everywhere: none left raw
        text = " ".join(parsed(page.read_text(encoding="utf-8")).text)
        assert "$" not in text and not re.search(r"\\[a-zA-Z]+\{", text), page.name
    comparison = pd.read_csv(tiny_workflow / "results" / "comparison.csv", keep_default_na=False)
    numbers = (site / "numbers.html").read_text(encoding="utf-8")
    rows = numbers.split("<tbody>", 1)[1].split("<tr data-status=")[1:]
    assert len(rows) == len(comparison)
    for row, (claim, figure) in zip(rows, comparison[["claim", "figure"]].itertuples(index=False)):
        assert f'href="sentences.html#{claim}"' in row, claim
        if figure:
            assert f"#fig-{figure.rsplit('.', 1)[0].replace('/', '-')}" in row, claim
    studies = {p.name for p in site.glob("study-*.html")}
    assert studies == {f"study-{name}.html" for name in CATALOG.studies}


def test_every_job_imported_only_library_modules_its_code_input_lists(tiny_workflow):
    records = [*(tiny_workflow / "results").rglob("provenance.json"), *(tiny_workflow / "figures").rglob("*.json")]
    assert len(records) > 40
    for record in records:
        data = json.loads(record.read_text())
        stamp = tiny_workflow / "results" / "code" / f"{data['study']}.txt"
        listed = {line.split()[1] for line in stamp.read_text().splitlines()}
        for module in data["modules"]:
            path = module.replace(".", "/")
            assert {f"src/{path}.py", f"src/{path}/__init__.py"} & listed, (data["study"], module)


def test_a_damaged_table_stops_the_run_naming_it_and_keeps_the_last_good_report(trials, tiny_workflow):
    trial = trials["a damaged table"]
    (stopped, after_stop), (rebuilt, _) = trial.runs
    assert stopped.returncode != 0
    assert "results/degree_sweep/summary.csv: its bytes differ" in stopped.stdout
    assert "same command with --forcerun degree_sweep" in stopped.stdout
    assert after_stop == trial.before  # nothing rerun, nothing deleted, the report and comparison kept

    assert rebuilt.returncode == 0, rebuilt.stdout[-3000:]
    table = "results/degree_sweep/summary.csv"
    assert (trial.workdir / table).read_bytes() == (tiny_workflow / table).read_bytes()


def test_a_table_with_one_cell_edited_by_hand_stops_the_run_naming_it(trials):
    trial = trials["a hand-edited cell"]
    run = only_run(trial)
    assert run.returncode != 0
    assert "results/k_bias/k_bias.csv: its bytes differ" in run.stdout and "--forcerun k_bias" in run.stdout
    (_, after), *_ = trial.runs
    assert {name: after[f"{name} bytes"] for name in KEPT} == {name: trial.before[f"{name} bytes"] for name in KEPT}


def test_nothing_changed_plans_nothing(trials):
    run = only_run(trials["nothing"])
    assert run.returncode == 0 and planned_rules(run) == set(), run.stdout[-2000:]


@pytest.mark.parametrize("edit", ["a record's note", "a vague word's bound", "a judge's code", "a new record"])
def test_a_records_or_a_judges_edit_reruns_the_comparison_alone(trials, edit):
    """A note no study reads, a bound only the judges read, a judge's code, a new record."""
    run = only_run(trials[edit])
    assert run.returncode == 0 and planned_rules(run) == {"compare", "all"}, run.stdout[-2000:]


def test_a_printed_value_reruns_the_figures_that_draw_it_and_no_study(trials):
    run = only_run(trials["a printed value"])
    assert run.returncode == 0, run.stdout[-2000:]
    # The printed norm is read by degree_sweep's figure alone, not by its study.
    planned = planned_rules(run)
    assert "degree_sweep_figures" in planned and not planned & {"degree_sweep", "k_bias"}, run.stdout[-2000:]


def test_a_comment_in_the_ridge_module_reruns_no_simulation_that_never_imports_it(trials):
    run = only_run(trials["the ridge module"])
    assert run.returncode == 0, run.stdout[-2000:]
    planned = planned_rules(run)
    assert "ridge_path" in planned and "compare" in planned, planned
    assert not planned & {"shape_image_datasets", "varma_simon_datasets", "cv_variance_datasets"}, planned


def test_a_comment_in_a_figure_module_redraws_those_figures_and_reruns_no_study(trials):
    run = only_run(trials["a figure module"])
    assert run.returncode == 0 and planned_rules(run) == {"k_bias_figures", "compare", "all"}, run.stdout[-2000:]


def test_a_captions_edit_reruns_its_figure_job_and_the_comparison_alone(trials):
    """A caption is declared in studies.yaml, and its figure job writes it beside the figure."""
    run = only_run(trials["a caption"])
    assert run.returncode == 0 and planned_rules(run) == {"k_bias_figures", "compare", "all"}, run.stdout[-2000:]
