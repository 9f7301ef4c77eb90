"""The promises around the code: the README's two commands, CI, and the pinned versions."""

import re

import yaml

from conftest import ROOT


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M).group(1)
    return [line.strip() for block in re.findall(r"```(?:sh|bash)?\n(.*?)```", section, re.S) for line in block.splitlines() if line.strip()]


def test_quick_start_is_two_commands_and_ci_runs_the_second():
    commands = quick_start_commands()
    assert len(commands) == 2, commands
    setup_and_run, setup_and_test = commands
    assert setup_and_run.endswith("snakemake all")
    assert "pytest" in setup_and_test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert setup_and_test in ci


def pinned(requirements) -> dict[str, str]:
    pins = {}
    for item in requirements:
        match = re.match(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?\s*[=]=?\s*([0-9][^\s;]*)$", item.strip())
        if match:
            pins[match.group(1).lower()] = match.group(2)
    return pins


def test_environment_yml_pins_the_versions_of_pyproject():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    ours = pinned(project["dependencies"] + project["optional-dependencies"]["test"])
    conda = pinned(d for d in yaml.safe_load((ROOT / "environment.yml").read_text())["dependencies"] if isinstance(d, str))
    for name in ("numpy", "scipy", "scikit-learn", "matplotlib", "pandas", "snakemake", "pytest"):
        assert conda[name] == ours[name], name
