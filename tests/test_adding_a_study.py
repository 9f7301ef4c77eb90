"""docs/adding-a-study.md lists every file a new study touches; this holds the list to the tests' rules.

Both ways: every path the list names is there for every study in studies.yaml (its name put in for
``<name>``, each figure for ``<figure>``, each simulation step for ``<step>``), and every file that
the suite's checks over all studies require is named in the list. A new per-study check elsewhere
belongs in ``ENFORCED`` below, and its file in the list, so the list stays the whole story.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import pytest
import yaml

from conftest import ROOT
from cvsuite.workflow.catalog import _STUDY_KEYS, Study, load_catalog

DOC = ROOT / "docs" / "adding-a-study.md"
CATALOG = load_catalog(ROOT / "studies.yaml")
STUDIES = [CATALOG.studies[name] for name in sorted(CATALOG.studies)]
STEPS = [CATALOG.steps[name] for name in sorted(CATALOG.steps)]


def listed_lines() -> dict[str, str]:
    """Each path the doc lists (a list item that opens with a path in backticks) -> its lines' text."""
    lines = {}
    for path, text in re.findall(r"^\s*(?:\d+\.|[-*])\s+`([^`]+)`(.*)$", DOC.read_text(encoding="utf-8"), re.M):
        lines[path] = lines.get(path, "") + text
    return lines


LISTED = listed_lines()


def rule_texts() -> dict[str, str]:
    """The Snakefile and every file of rules/, by path: the rules are read from all of them, since the
    Snakefile includes rules/*.smk."""
    files = [ROOT / "Snakefile", *sorted((ROOT / "rules").glob("*.smk"))]
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in files}


def defines_rule(text: str, name: str) -> bool:
    return re.search(rf"^rule {re.escape(name)}:", text, re.M) is not None


def has_file(template: str) -> Callable[[Study], str | None]:
    def check(study: Study) -> str | None:
        path = template.replace("<name>", study.name).replace("<step>", study.name)
        return None if (ROOT / path).is_file() else f"no {path}"

    return check


def config_block(study: Study) -> str | None:
    count = (ROOT / "config.yaml").read_text(encoding="utf-8").count(f"\n{study.name}:")
    return None if count == 1 else f"config.yaml has {count} blocks {study.name}:, not 1"


@functools.cache
def config_schema() -> dict:
    return yaml.safe_load((ROOT / "schemas" / "config.schema.yaml").read_text(encoding="utf-8"))


def schema_block(study: Study) -> str | None:
    block = config_schema()["properties"].get(study.name)
    return None if block and block.get("description") else f"no described block {study.name} in the schema"


def catalog_entry(study: Study) -> str | None:
    listed = CATALOG.steps if study.name in CATALOG.steps else CATALOG.studies
    return None if study.name in listed else f"{study.name} is not in studies.yaml"


def entry_point(study: Study) -> str | None:
    path = ROOT / "experiments" / f"{study.name}.py"
    if not path.is_file():
        return f"no {path.relative_to(ROOT)}"
    code = path.read_text(encoding="utf-8")
    if not re.search(r"^def main\(job", code, re.M) or "run_job(main)" not in code:
        return f"experiments/{study.name}.py has no main(job) run by run_job(main)"
    return None


def figure_module(study: Study) -> str | None:
    path = ROOT / "src" / "cvsuite" / "figures" / f"{study.name}.py"
    if not path.is_file():
        return f"no {path.relative_to(ROOT)}"
    has_draw = re.search(r"^def draw\(inputs", path.read_text(encoding="utf-8"), re.M)
    return None if has_draw else f"src/cvsuite/figures/{study.name}.py has no draw(inputs)"


def generated_rule(study: Study) -> str | None:
    """A study's rule is generated from its studies.yaml entry (rules/studies.smk), never written."""
    texts = rule_texts()
    written = [path for path, text in texts.items() if defines_rule(text, study.name)]
    if written:
        return f"rule {study.name} is written in {', '.join(written)}; it is generated from studies.yaml"
    generator = "for _study in CATALOG.studies:"
    return None if generator in texts["rules/studies.smk"] else "rules/studies.smk generates no rule"


def step_rule(study: Study) -> str | None:
    if defines_rule(rule_texts().get("rules/simulation_steps.smk", ""), study.name):
        return None
    return f"rule {study.name} is not in rules/simulation_steps.smk"


# How each path of the list is checked, for every study (PER_STUDY; FIGURES_ONLY for studies that
# draw) and every simulation step (PER_STEP).
PER_STUDY: dict[str, Callable[[Study], str | None]] = {
    "config.yaml": config_block,
    "schemas/config.schema.yaml": schema_block,
    "studies.yaml": catalog_entry,
    "src/cvsuite/studies/<name>.py": has_file("src/cvsuite/studies/<name>.py"),
    "experiments/<name>.py": entry_point,
    "src/cvsuite/figures/<name>.py": figure_module,
    "tests/test_<name>.py": has_file("tests/test_<name>.py"),
}
FIGURES_ONLY = {"src/cvsuite/figures/<name>.py"}
PER_STEP: dict[str, Callable[[Study], str | None]] = {
    "studies.yaml": catalog_entry,
    "experiments/<step>.py": entry_point,
    "rules/simulation_steps.smk": step_rule,
}
# Files one for all studies: a study adds to them, where it needs to.
SHARED = {
    "registry/<document>.yaml",
    "src/cvsuite/workflow/config_checks.py",
    "src/cvsuite/workflow/code_inputs.py",
    "rules/common.smk",
    "src/cvsuite/workflow/memory_needs.py",
    "profiles/slurm/config.yaml",
}
# Per-study files only some studies need: at least one study has one, so the kind is real.
OPTIONAL = {"docs/notes/<name>.md"}

# The checks over every study elsewhere in the suite, and the files of the list each one requires.
ENFORCED = {
    "tests/test_catalog.py::test_a_study_is_found_by_its_name_alone": [
        "config.yaml",
        "experiments/<name>.py",
        "src/cvsuite/studies/<name>.py",
    ],
    "tests/test_catalog.py::test_every_study_and_step_has_a_rule_and_every_rule_is_listed": [
        "studies.yaml",
        "rules/simulation_steps.smk",
    ],
    "tests/test_catalog.py::test_a_simulation_step_has_its_entry_point": ["experiments/<step>.py"],
    "tests/test_catalog.py::test_every_figure_has_its_caption": ["studies.yaml"],
    "tests/test_catalog.py::test_every_study_reads_only_config_blocks_that_exist": ["config.yaml", "studies.yaml"],
    "tests/test_config_file.py::test_the_shipped_config_is_the_documents_settings": ["schemas/config.schema.yaml"],
    "tests/test_config_validation.py::test_every_key_in_the_schema_has_a_description": ["schemas/config.schema.yaml"],
    "tests/test_config_validation.py::test_every_key_in_config_yaml_has_a_comment": ["config.yaml"],
    "tests/test_records.py::test_the_project_registry_reads_with_every_statistic_declared": [
        "registry/<document>.yaml",
        "studies.yaml",
    ],
    "tests/test_code_inputs.py::test_every_data_file_under_src_is_read_by_a_declared_module_and_reaches_its_job": [
        "src/cvsuite/workflow/code_inputs.py"
    ],
    "tests/test_tiny_workflow.py::test_the_tiny_settings_are_a_valid_config_of_known_keys": [
        "schemas/config.schema.yaml"
    ],
    "tests/test_tiny_workflow.py::test_every_study_writes_every_declared_table_figure_and_provenance": [
        "experiments/<name>.py",
        "src/cvsuite/figures/<name>.py",
    ],
    "tests/test_tiny_workflow.py::test_every_figure_is_drawn_and_checked": ["src/cvsuite/figures/<name>.py"],
}


def test_the_doc_lists_paths_and_this_test_knows_how_to_check_each():
    assert LISTED, f"{DOC.relative_to(ROOT)} lists no path (a list item opening with a path in backticks)"
    unknown = set(LISTED) - set(PER_STUDY) - set(PER_STEP) - SHARED - OPTIONAL
    assert not unknown, f"add a check for {sorted(unknown)} to this test"


@pytest.mark.parametrize("path", [p for p in PER_STUDY if p in LISTED])
def test_every_study_has_each_listed_file(path):
    studies = [s for s in STUDIES if s.figures or path not in FIGURES_ONLY]
    problems = [problem for study in studies if (problem := PER_STUDY[path](study))]
    assert problems == [], f"{len(problems)} of {len(studies)} studies"


@pytest.mark.parametrize("path", [p for p in PER_STEP if p in LISTED])
def test_every_simulation_step_has_each_listed_file(path):
    problems = [problem for step in STEPS if (problem := PER_STEP[path](step))]
    assert problems == [], f"{len(problems)} of {len(STEPS)} steps"


def test_every_studys_rule_is_generated_and_every_steps_rule_is_written_in_the_steps_file():
    problems = [p for s in STUDIES if (p := generated_rule(s))] + [p for s in STEPS if (p := step_rule(s))]
    assert problems == []


@pytest.mark.parametrize("path", sorted(p for p in SHARED if p in LISTED))
def test_every_shared_file_in_the_list_exists(path):
    # registry/<document>.yaml stands for the file of the document the study reproduces
    assert any(p.is_file() for p in ROOT.glob(path.replace("<document>", "*"))), path


@pytest.mark.parametrize("path", sorted(p for p in OPTIONAL if p in LISTED))
def test_every_optional_file_in_the_list_is_one_some_study_has(path):
    assert any((ROOT / path.replace("<name>", s.name)).is_file() for s in STUDIES), path


def test_the_studies_yaml_line_names_every_key_a_study_entry_may_have():
    line = LISTED.get("studies.yaml", "")
    assert [key for key in sorted(_STUDY_KEYS) if f"`{key}`" not in line] == []


@pytest.mark.parametrize("check", sorted(ENFORCED))
def test_the_doc_names_every_file_the_per_study_checks_require(check):
    file, _, name = check.partition("::")
    assert re.search(rf"^def {name}\(", (ROOT / file).read_text(encoding="utf-8"), re.M), (
        f"{check} is gone: update ENFORCED to the check that replaced it"
    )
    assert [path for path in ENFORCED[check] if path not in LISTED] == []


# A study with one table, one figure and one record, written as docs/adding-a-study.md says, file by
# file (the list's paths, in its order): each entry is the path and the text the guide's step adds.
SCAFFOLD_STUDY = "fold_fits"
SCAFFOLD = {
    "config.yaml": """
fold_fits:
  # "Regularization and Cross-Validation", §8.2.4 The cost: "K-fold means training K times".
  points: 25            # observations split into folds
  folds: [2, 5, 25]     # the values of K
""",
    "schemas/config.schema.yaml": """
  fold_fits:
    description: the fits one K-fold estimate takes (a study scaffolded from docs/adding-a-study.md)
    type: object
    additionalProperties: false
    properties:
      points: {type: integer, minimum: 2, default: 25, description: observations split into folds}
      folds:
        {type: array, minItems: 1, items: {type: integer, minimum: 2}, default: [2, 5, 25], description: the Ks}
""",
    "studies.yaml": """
  fold_fits:
    title: The fits one K-fold estimate takes
    source: '"Regularization and Cross-Validation", §8.2.4 The cost, and why it is bearable'
    config: [fold_fits]
    tables:
      fits: [K, fits, largest_fold]
    figures:
      fits_against_k: >-
        The models one K-fold estimate trains against K, one per fold; "Regularization and
        Cross-Validation" §8.2.4.
""",
    "src/cvsuite/studies/fold_fits.py": '''"""The fits one K-fold estimate takes (the cost, §8.2.4)."""

import pandas as pd

from cvsuite.methods.folds import consecutive_folds


def fits_table(points: int, folds: list[int]) -> pd.DataFrame:
    """Per K: the models K-fold cross-validation on ``points`` observations trains (one per fold)
    and its largest fold."""
    rows = []
    for k in folds:
        parts = consecutive_folds(points, k)
        rows.append({"K": k, "fits": len(parts), "largest_fold": max(len(p) for p in parts)})
    return pd.DataFrame(rows)
''',
    "experiments/fold_fits.py": '''"""Study fold_fits: the fits one K-fold estimate takes."""

from cvsuite.studies import fold_fits as study
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    p = job.config["fold_fits"]
    return StudyResult(tables={"fits": study.fits_table(p["points"], p["folds"])})


if __name__ == "__main__":
    run_job(main)
''',
    "src/cvsuite/figures/fold_fits.py": '''"""The figure of study fold_fits."""

from cvsuite.figures import style


def fits_against_k(table):
    """The fits against K, one per fold."""
    fig, ax = style.subplots(figsize=(5, 3.5))
    ax.plot(table["K"], table["fits"], "o-", label="fits of one estimate")
    ax.set(xlabel="K (folds)", ylabel="models trained", title="K-fold trains K models")
    style.integer_axis(ax, "x")
    style.integer_axis(ax, "y")
    style.legend(ax, loc="upper left")
    return fig


def draw(inputs):
    """The study's figure, from its saved table."""
    return {"fits_against_k": fits_against_k(inputs.tables["fits"])}
''',
    "registry/regularization_and_cross_validation.yaml": """
  - id: rcv.cost.trains-k-times.scaffolded
    section: §8.2.4 The cost, and why it is bearable
    quote: $K$-fold means training $K$ times
    published: 'True'
    statistic: fold_fits/fits.csv.fits
    judge: {identity: {equals_column: K}}
    measure: At every K, the models one K-fold estimate trains
    note: The scaffolded study of docs/adding-a-study.md (fold_fits/fits.csv).
""",
    "tests/test_fold_fits.py": """from cvsuite.studies.fold_fits import fits_table


def test_k_fold_trains_one_model_per_fold():
    table = fits_table(10, [2, 5])
    assert table["fits"].tolist() == [2, 5] and table["largest_fold"].tolist() == [5, 2]
""",
}


def test_a_study_scaffolded_from_the_guide_runs_in_the_tiny_workflow(tiny_workflow, tmp_path):
    """The guide's files, and no other, make a study that the finished tiny run picks up: its job, its
    figure job and the comparison run (nothing else), its record is judged, its test passes."""
    import os
    import subprocess
    import sys

    from conftest import TINY_CONFIG, copy_finished
    from tiny_trials import planned_rules

    steps = DOC.read_text(encoding="utf-8").split("Only when the study needs them")[0]
    numbered = re.findall(r"^\d+\.\s+`([^`]+)`", steps, re.M)
    document = "regularization_and_cross_validation"
    guide = [p.replace("<name>", SCAFFOLD_STUDY).replace("<document>", document) for p in numbered]
    assert guide == list(SCAFFOLD), "the scaffold follows the guide's numbered list, in its order"
    work = copy_finished(tiny_workflow, tmp_path / "copy")
    (work / "tests").mkdir(exist_ok=True)
    for path, text in SCAFFOLD.items():
        target = work / path
        if target.exists():
            target.write_text(target.read_text(encoding="utf-8").rstrip("\n") + "\n" + text, encoding="utf-8")
        else:
            target.write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    command = [sys.executable, "-m", "snakemake", "all", "--cores", "2", "--configfile", str(TINY_CONFIG)]
    run = subprocess.run(
        command, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert planned_rules(run) == {SCAFFOLD_STUDY, f"{SCAFFOLD_STUDY}_figures", "compare", "all"}, run.stdout[-2000:]
    import pandas as pd

    comparison = pd.read_csv(work / "results" / "comparison.csv").set_index("claim")
    assert comparison.loc["rcv.cost.trains-k-times.scaffolded", "status"] == "reproduced"
    assert (work / "figures" / SCAFFOLD_STUDY / "fits_against_k.png").exists()
    test = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_fold_fits.py"],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert test.returncode == 0, test.stdout[-2000:]
