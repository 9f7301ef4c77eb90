"""The promises around the code: the README's two commands, CI, the tested version ranges and the lock."""

import re
import sys

import yaml

from conftest import ROOT


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M).group(1)
    return [
        line.strip()
        for block in re.findall(r"```(?:sh|bash)?\n(.*?)```", section, re.S)
        for line in block.splitlines()
        if line.strip()
    ]


def test_quick_start_is_run_quick_tests_full_check_and_ci_runs_the_full_check():
    commands = quick_start_commands()
    assert len(commands) == 3, commands
    setup_and_run, setup_and_test, full_check = commands
    assert setup_and_run.endswith("snakemake all")
    assert "pip install -r requirements.lock " in setup_and_run, "the first command installs exactly the lock"
    assert setup_and_test.endswith("&& .venv/bin/pytest"), "the quick tests are a bare pytest"
    assert full_check == "bash .ci/run"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    setup = setup_and_test.removesuffix(" && .venv/bin/pytest")
    assert setup in ci and ".venv/bin/pytest --full" in ci, "CI installs as the README does, then runs every tier"


def pinned(requirements) -> dict[str, str]:
    pins = {}
    for item in requirements:
        match = re.match(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*[=]=?\s*([0-9][^\s;]*)$", item.strip())
        if match:
            pins[match.group(1).lower().replace("_", "-")] = match.group(2)
    return pins


def locked() -> dict[str, str]:
    text = (ROOT / "requirements.lock").read_text()
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    pins = pinned(lines)
    assert len(pins) == len(lines), "every line of the lock is one package at one exact version"
    return pins


def project_requirements(*extras):
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return project["dependencies"] + [r for extra in extras for r in project["optional-dependencies"][extra]]


# The versions the documents name: the listing's NumPy and SciPy, its cross-check's scikit-learn.
DOCUMENTS = {"numpy": "2.3.5", "scipy": "1.16.3", "scikit-learn": "1.7.2"}


def test_the_lock_satisfies_every_declared_requirement():
    from packaging.requirements import Requirement

    lock = locked()
    for text in project_requirements("test", "slurm"):
        requirement = Requirement(text)
        name = requirement.name.lower().replace("_", "-")
        assert name in lock, f"requirements.lock lacks {name}"
        assert requirement.specifier.contains(lock[name]), f"the lock's {name} {lock[name]} is outside {text}"


def test_the_arithmetic_libraries_range_exactly_over_the_tested_ends():
    """numpy, scipy, scikit-learn: from the documents' versions (tests/test_versions.py) to the lock's."""
    from packaging.requirements import Requirement

    lock = locked()
    ranges = {Requirement(r).name: Requirement(r).specifier for r in project_requirements()}
    for name, documents in DOCUMENTS.items():
        assert {str(s) for s in ranges[name]} == {f">={documents}", f"<={lock[name]}"}, (name, ranges[name])
    from test_versions import SITE_LOWER_ENDS

    for name, lower in SITE_LOWER_ENDS.items():  # the site's libraries: both ends tested too
        spelled = next(n for n in ranges if n.lower() == name)
        assert {str(s) for s in ranges[spelled]} == {f">={lower}", f"<={lock[name]}"}, (name, ranges[spelled])


def test_environment_yml_pins_the_lock():
    conda = pinned(
        d for d in yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"] if isinstance(d, str)
    )
    lock = locked()
    names = (
        "numpy",
        "scipy",
        "scikit-learn",
        "matplotlib",
        "pandas",
        "snakemake",
        "jsonschema",
        "pyyaml",
        "threadpoolctl",
        "jinja2",
        "latex2mathml",
        "pytest",
        "ruff",
        "snakemake-executor-plugin-slurm",
    )
    for name in names:
        assert conda.get(name) == lock[name], name


def imported_top_level(paths) -> set[str]:
    import ast

    names = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def declared_distributions(extras=()) -> set[str]:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + [r for extra in extras for r in project["optional-dependencies"][extra]]
    return {re.match(r"^([A-Za-z0-9_.-]+)", r).group(1).lower().replace("_", "-") for r in requirements}


def undeclared(paths, extras=()) -> dict[str, list[str]]:
    import sys
    from importlib.metadata import packages_distributions

    owners = packages_distributions()
    declared = declared_distributions(extras)
    missing = {}
    for name in sorted(imported_top_level(paths)):
        local = {p.stem for folder in ("tests", "benchmarks") for p in (ROOT / folder).glob("*.py")}
        if name in sys.stdlib_module_names or name in {"cvsuite", "__future__", *local}:
            continue
        distributions = [d.lower().replace("_", "-") for d in owners.get(name, [name])]
        if not any(d in declared for d in distributions):
            missing[name] = distributions
    return missing


def test_every_import_of_the_workflow_is_a_declared_dependency():
    code = [*(ROOT / "src").rglob("*.py"), *(ROOT / "experiments").glob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    assert undeclared(code) == {}


def test_every_import_of_the_tests_is_declared_with_the_test_extra():
    assert undeclared(list((ROOT / "tests").rglob("*.py")), extras=("test",)) == {}


def _benchmark_module(name: str):
    """A module of benchmarks/ (scripts, not a package), imported from its file."""
    import importlib.util

    sys.path.insert(0, str(ROOT / "benchmarks"))  # the scripts import each other by name
    try:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def test_the_speed_page_is_what_the_benchmark_measured():
    """docs/speed.md is what benchmarks/speed_page.py writes from benchmarks/speed.json: no time typed."""
    import json

    speed = json.loads((ROOT / "benchmarks" / "speed.json").read_text())
    page = (ROOT / "docs" / "speed.md").read_text(encoding="utf-8")
    assert page == _benchmark_module("speed_page").speed_page(speed), "rerun benchmarks/shape_image_speed.py"


def test_the_time_page_and_the_readme_state_the_measured_times():
    """docs/time.md is what benchmarks/time_page.py writes from benchmarks/timings.json, and the README's
    Quick start rounds the tests' times from it: no time is typed by hand."""
    import json

    module = _benchmark_module("time_page")
    timings = json.loads((ROOT / "benchmarks" / "timings.json").read_text())
    page = (ROOT / "docs" / "time.md").read_text(encoding="utf-8")
    assert page == module.time_page(timings), "rerun benchmarks/workflow_times.py (or write time_page(timings))"
    fast, full, kernels = timings["fast_tests"], timings["test_suite"], timings["kernel_runs"]
    assert all(run["passed"] for run in (fast, full, *kernels.values())), "every timed test run must have passed"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = " ".join(readme.split("## Quick start", 1)[1].split("## The verdict", 1)[0].split())
    cores = timings["machine"]["cores"]
    assert f"(the tests about {round(fast['seconds'])} s on {cores} cores, after the install;" in quick_start
    minutes = round((full["seconds"] + sum(run["seconds"] for run in kernels.values())) / 60)
    assert f"(the tests about {minutes} minutes, after the install;" in quick_start


def test_the_code_passes_the_linter_and_the_formatter():
    """`ruff check` and `ruff format --check` (pyproject.toml's settings), so that a style slip fails the
    quick tests rather than a reviewer's eye; no cache is written."""
    import subprocess

    for command in (["check"], ["format", "--check"]):
        run = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--no-cache", str(ROOT)], capture_output=True, text=True
        )
        assert run.returncode == 0, f"ruff {' '.join(command)}:\n{run.stdout[-3000:]}{run.stderr[-1000:]}"
