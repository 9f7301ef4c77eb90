"""A what-if never costs the report: the README's commands, run on a finished workflow, end complete.

Each command block of the README that runs the workflow is run here, on a copy of the workflow
finished at the documents' settings (so only what the command changes reruns), and must end with
exit 0, a complete comparison and report naming the settings it changed, and the verdict printed
last.
"""

import re
import shlex

import pandas as pd
import pytest

from conftest import ROOT, copy_finished, project_records, snakemake

pytestmark = pytest.mark.workflow


def readme_blocks() -> list[list[str]]:
    """The lines of every README command block outside the Quick start."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = []
    for heading, body in re.findall(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", readme, re.S | re.M):
        if heading.lower().startswith("quick start"):
            continue  # set-up commands: the Quick start test runs them in a fresh clone
        for block in re.findall(r"```(?:sh|bash)?\n(.*?)```", body, re.S):
            blocks.append([line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()])
    return blocks


def readme_workflow_commands() -> list[str]:
    """Every line of a README command block that runs `snakemake all` outside the Quick start, but for
    the block that sets two runs side by side, which its own test runs whole."""
    return [
        line
        for block in readme_blocks()
        if not any("compare_runs.py" in line for line in block)
        for line in block
        if re.search(r"snakemake all\b", line)
    ]


WHAT_IFS = [c for c in readme_workflow_commands() if "--workflow-profile" not in c]


def test_the_readme_shows_what_ifs():
    assert WHAT_IFS, "the README's 'Changing a setting' section should show at least one what-if command"


@pytest.mark.parametrize("command", WHAT_IFS)
def test_a_readme_what_if_ends_with_a_complete_report(finished_workflow, tmp_path, command):
    workdir = copy_finished(finished_workflow, tmp_path / "what-if")
    arguments = shlex.split(command)
    assert arguments[0].endswith("snakemake"), command
    run = snakemake(workdir, *arguments[1:])
    assert run.returncode == 0, run.stderr[-4000:]
    comparison = pd.read_csv(workdir / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    assert list(comparison["claim"]) == [record.id for record in project_records()]
    report = (workdir / "results" / "REPORT.md").read_text(encoding="utf-8")
    changed = re.findall(r"^\| `([^`]+)` \|", report.split("## Errata")[0], re.M)
    assert changed, "REPORT.md must name the settings the what-if changed"
    moved = comparison[comparison["status"] == "differs"]
    assert moved["note"].str.contains("(?i)this run changed|no setting of this study differs").all()
    last = [line for line in run.stderr.strip().splitlines() if line.strip()][-2:]
    assert last[0].startswith("Verdict: ") and last[1].startswith("Details: "), last


def run_readme_line(workdir, line: str):
    """One README command, as a reader runs it from the repository root: the venv's snakemake and
    python are this environment's."""
    import subprocess
    import sys

    arguments = shlex.split(line)
    if arguments[0].endswith("/snakemake"):
        return snakemake(workdir, *arguments[1:])
    if arguments[0].endswith("/python"):
        return subprocess.run([sys.executable, *arguments[1:]], cwd=workdir, capture_output=True, text=True)
    return subprocess.run(["bash", "-c", line], cwd=workdir, capture_output=True, text=True)


def test_a_what_if_without_k_3_says_what_it_moved_and_that_those_numbers_are_not_computed(finished_workflow, tmp_path):
    """The README's block that keeps a run, runs a what-if without K = 3 and sets the two side by side:
    the what-if says its K = 3 numbers are not computed, and the Markdown of what moved names the
    setting and lists those numbers, with their verdicts before and after."""
    (block,) = [b for b in readme_blocks() if any("compare_runs.py" in line for line in b)]
    workdir = copy_finished(finished_workflow, tmp_path / "no-k3")
    for line in block:
        run = run_readme_line(workdir, line)
        assert run.returncode == 0, (line, run.stderr[-4000:])
    comparison = pd.read_csv(workdir / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    k3 = comparison[comparison["note"].str.contains("(?i)rows? K=3 match(?:es)? 0 rows")]
    assert len(k3) > 0 and (k3["status"] == "not computed at this config").all()
    report = (workdir / "results" / "REPORT.md").read_text(encoding="utf-8")
    assert "| `k_bias.folds` | [2, 3, 5, 10, 25] | [2, 5, 10, 25] |" in report
    moved = (workdir / "moved.md").read_text(encoding="utf-8")
    assert "| `k_bias.folds` | [2, 3, 5, 10, 25] | [2, 5, 10, 25] |" in moved
    for claim in k3["claim"]:
        assert re.search(rf"^\| `{re.escape(claim)}` .*\(not computed at this config\) \|$", moved, re.M), claim


def listing(folder):
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


def test_a_misspelt_registry_column_is_refused_before_any_job_and_nothing_is_touched(finished_workflow, tmp_path):
    workdir = copy_finished(finished_workflow, tmp_path / "typo")
    registry = workdir / "registry" / "regularization_and_cross_validation.yaml"
    text = registry.read_text()
    assert "summary.csv.best_theta_norm\n" in text
    registry.write_text(text.replace("summary.csv.best_theta_norm\n", "summary.csv.best_theta_nrm\n", 1))
    before = listing(workdir / "results"), listing(workdir / "figures")
    run = snakemake(workdir, "all")
    assert run.returncode != 0
    assert "has no column 'best_theta_nrm'" in run.stderr and "rcv." in run.stderr
    assert (listing(workdir / "results"), listing(workdir / "figures")) == before


def words_as_the_tables_give_them(workdir, config: dict) -> pd.DataFrame:
    """Every record's note, reading, remark and erratum judged and filled from the tables and config of
    the run in ``workdir``: what comparison.csv must say if its numbers come from that run."""
    from cvsuite.published.comparison import compare
    from cvsuite.published.records import read_records
    from cvsuite.published.scales import read_scales
    from cvsuite.workflow.catalog import load_catalog
    from cvsuite.workflow.config_checks import load_schema
    from cvsuite.workflow.document_settings import changed_settings, described_by_study

    catalog = load_catalog(workdir / "studies.yaml")
    # A differs note names the settings the run changed, as the compare step gives them.
    changes = changed_settings(config, load_schema(workdir / "schemas" / "config.schema.yaml"))
    by_study = described_by_study(changes, {s.name: s.config for s in catalog.studies.values()})
    tables = {
        f"{study.name}/{table}.csv": pd.read_csv(
            workdir / study.table_path(table), keep_default_na=False, na_values=[""]
        )
        for study in catalog.studies.values()
        for table in study.tables
        if (workdir / study.table_path(table)).exists()
    }
    registry = workdir / "registry"
    records = read_records(registry, catalog.table_columns())
    judged = compare(records, tables, read_scales(registry).words, by_study, config).fillna("")
    return judged.set_index("claim")[["note", "reading", "remark", "erratum"]]


def assert_words_follow_the_tables(workdir, config: dict) -> pd.DataFrame:
    comparison = pd.read_csv(workdir / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    expected = words_as_the_tables_give_them(workdir, config)
    written = comparison.set_index("claim")
    for field in ("reading", "remark", "erratum"):
        stale = written.index[written[field] != expected.loc[written.index, field]]
        assert stale.empty, f"{field} of {list(stale[:5])} is not what this run's tables give"
    stale = [claim for claim in written.index if expected.at[claim, "note"] not in written.at[claim, "note"]]
    assert not stale, f"the note of {stale[:5]} is not what this run's tables give"
    return written


def test_every_number_in_the_registrys_words_is_this_runs(finished_workflow):
    import yaml

    config = yaml.safe_load((finished_workflow / "config.yaml").read_text())
    written = assert_words_follow_the_tables(finished_workflow, config)
    words = written[["note", "reading", "remark", "erratum"]].agg(" ".join, axis=1)
    assert not words.str.contains(r"\$\{|\bn/a\b").any(), list(written.index[words.str.contains(r"\$\{|\bn/a\b")])


def test_a_new_seed_moves_the_numbers_in_the_registrys_words(finished_workflow, tmp_path):
    """A rerun under another seed leaves no sentence with the old run's numbers."""
    import yaml

    workdir = copy_finished(finished_workflow, tmp_path / "new-seed")
    run = snakemake(workdir, "all", "--config", "k_bias={first_seed: 100}")
    assert run.returncode == 0, run.stderr[-4000:]
    config = yaml.safe_load((workdir / "config.yaml").read_text())
    config["k_bias"]["first_seed"] = 100
    written = assert_words_follow_the_tables(workdir, config)
    before = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    before = before.set_index("claim")
    k_bias = written.index[written["study"] == "k_bias"]
    moved = [c for c in k_bias if written.at[c, "note"] != before.at[c, "note"] and "${" not in written.at[c, "note"]]
    assert moved, "the k_bias notes did not move with the seed"
