import copy
import re
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, snakemake
from cvsuite.workflow.config_checks import ConfigError, checked_config, load_schema
from cvsuite.workflow.config_file import load_config

SCHEMA = load_schema(ROOT / "schemas" / "config.schema.yaml")
CONFIG = yaml.safe_load((ROOT / "config.yaml").read_text())


def with_change(block: str, key: str, value):
    config = copy.deepcopy(CONFIG)
    config[block][key] = value
    return config


def test_the_project_config_is_valid():
    assert checked_config(copy.deepcopy(CONFIG), SCHEMA) == CONFIG


def test_every_key_in_the_schema_has_a_description():
    def walk(node, path):
        for name, child in node.get("properties", {}).items():
            assert child.get("description"), f"{path}{name} has no description"
            walk(child, f"{path}{name}.")

    walk(SCHEMA, "")


def test_every_key_in_config_yaml_has_a_comment():
    lines = (ROOT / "config.yaml").read_text().splitlines()
    for line in lines:
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and ":" in stripped and not stripped.endswith(":"):
            assert "#" in stripped, f"config.yaml line without a comment: {line}"


@pytest.mark.parametrize(
    "block, key, value, named",
    [
        ("k_bias", "folds", [1, 5], "k_bias.folds[0] = 1"),
        ("k_bias", "folds", [2, 30], "k_bias.folds[1] = 30: K above the sample size sine_data.train_size = 25"),
        ("sine_data", "noise", -0.1, "sine_data.noise = -0.1"),
        ("k_bias", "shuffles", "many", "k_bias.shuffles = 'many'"),
        ("k_bias", "shufles", 40, "k_bias.shufles is not a known key"),
        ("ridge_path", "lambdas", [], "ridge_path.lambdas = []"),
        ("ridge_path", "grid_points", 2.5, "ridge_path.grid_points = 2.5"),
        ("sklearn_nested_iris", "combines", ["pooled"], "reference_combine = mean_of_folds is not among"),
        ("sklearn_nested_iris", "inner_folds", 113, "inner_folds = 113 exceeds the smallest outer training set"),
        (
            "twelve_observations",
            "polynomial_degree",
            9,
            "polynomial_degree = 9: its 10 parameters outnumber the smallest training set of 9 observations",
        ),
    ],
)
def test_a_bad_value_is_refused_naming_the_key(block, key, value, named):
    with pytest.raises(ConfigError) as err:
        checked_config(with_change(block, key, value), SCHEMA)
    assert named in str(err.value)
    assert str(err.value).startswith("config.yaml: ")


def test_an_unknown_study_block_is_refused():
    config = copy.deepcopy(CONFIG)
    config["k_bais"] = {"folds": [2]}
    with pytest.raises(ConfigError, match="k_bais is not a known key"):
        checked_config(config, SCHEMA)


def test_text_from_the_command_line_is_read_as_numbers():
    config = with_change("k_bias", "folds", ["2", "5"])
    config["ridge_path"]["grid_start"] = "1e-9"
    checked = checked_config(config, SCHEMA)
    assert checked["k_bias"]["folds"] == [2, 5]
    assert checked["ridge_path"]["grid_start"] == 1e-9


def listing(folder: Path) -> dict:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


OVERRIDES = [
    ("k_bias={folds: [1, 5]}", "k_bias.folds[0] = 1"),
    ("k_bias={folds: [2, 26]}", "k_bias.folds[1] = 26: K above the sample size"),
    ("sine_data={noise: -1}", "sine_data.noise = -1.0"),
    ("k_bias={speed: 3}", "k_bias.speed is not a known key"),
    ("k_bais={folds: [2]}", "k_bais is not a known key"),
    (
        "shape_images={datasets_per_shard: 50}",
        "shape_images.datasets_per_shard = 50: more than shape_images.datasets = 40",
    ),
    ("shape_images={grid: {sigmas: []}}", "shape_images.grid.sigmas = []"),
    ("k_bias={shuffles: many}", "k_bias.shuffles = 'many'"),
]


@pytest.mark.parametrize("override, named", OVERRIDES)
def test_a_bad_override_is_refused_naming_it(override, named):
    """The Snakefile's own path (rules/common.smk): Snakemake's reading of --config, merged over
    config.yaml, checked; run in-process, since a Snakemake start costs a second of CPU."""
    from snakemake.cli import parse_config

    with pytest.raises(ConfigError) as err:
        merged, sources = load_config(ROOT / "config.yaml", command_line=parse_config([override]))
        checked_config(merged, SCHEMA, sources)
    assert named in str(err.value) and str(err.value).startswith("--config: ")


def test_snakemake_accepts_a_good_override(workflow_copy):
    run = snakemake(workflow_copy, "all", "-n", "--config", "k_bias={shuffles: 5}")
    assert run.returncode == 0, run.stderr


def readme_error_examples() -> list[str]:
    """The example messages README.md shows under 'The config is checked before any job starts'."""
    text = (ROOT / "README.md").read_text()
    block = text.split("The config is checked before any job starts", 1)[1].split("```", 2)[1]
    return [line for line in block.splitlines() if line.strip()]


def readme_example_run(workdir: Path, message: str) -> list[str]:
    """The snakemake arguments (after editing config.yaml if needed) that should print ``message``."""
    config = workdir / "config.yaml"
    lines = config.read_text().splitlines(keepends=True)
    if message.startswith("config.yaml, line"):
        number = int(message.split("line ", 1)[1].split(",")[0].split(":")[0])
        if "less than the minimum" in message:
            value = message.split(" = ", 1)[1].split(":", 1)[0]
            lines[number - 1] = re.sub(r":\s*\S+", f": {value}", lines[number - 1], count=1)
        else:
            # a list left unclosed on the line before: the parser stops at this line's key
            head, bracket, tail = lines[number - 2].rpartition("]")
            assert bracket, f"README's example expects a list on config.yaml line {number - 1}"
            lines[number - 2] = head + tail
        config.write_text("".join(lines))
        return []
    override = {
        "K above the sample size": "k_bias={folds: [2, 26]}",
        "is not a known key": "k_bias={shufles: 40}",
    }
    return ["--config", next(value for phrase, value in override.items() if phrase in message)]


@pytest.mark.parametrize("message", readme_error_examples())
def test_the_readme_error_examples_are_what_the_suite_prints_before_any_job(workflow_copy, message):
    """Through Snakemake itself, as a user runs it: refused before any job, nothing written or deleted."""
    results = workflow_copy / "results"
    (results / "k_bias").mkdir(parents=True)
    (results / "k_bias" / "k_bias.csv").write_text("K\n2\n")
    before = listing(results)
    run = snakemake(workflow_copy, "all", "--cores", "2", *readme_example_run(workflow_copy, message))
    assert run.returncode != 0
    assert message in run.stderr, run.stderr[-2000:]
    assert listing(results) == before
    assert not (workflow_copy / "logs").exists()
