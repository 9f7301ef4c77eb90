"""Config errors point at their cause: the file and line, or --config; and the nearest valid key."""

import pytest

from conftest import ROOT
from cvsuite.workflow.config_checks import checked_config, load_schema
from cvsuite.workflow.config_file import ConfigError, load_config, read_yaml_with_lines
from cvsuite.workflow.document_settings import changed_settings, changes_in, describe, document_settings

SCHEMA = load_schema(ROOT / "schemas" / "config.schema.yaml")
CONFIG_TEXT = (ROOT / "config.yaml").read_text()


def config_file(tmp_path, text=CONFIG_TEXT):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    return path


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_shipped_config_is_the_documents_settings():
    config, _ = load_config(ROOT / "config.yaml")
    assert document_settings(SCHEMA) == config
    assert changed_settings(config, SCHEMA) == []


def test_a_bad_value_in_the_file_is_named_with_its_line(tmp_path):
    text = CONFIG_TEXT.replace("  shuffles: 40 ", "  shuffles: 1  ")
    config, sources = load_config(config_file(tmp_path, text))
    with pytest.raises(ConfigError) as err:
        checked_config(config, SCHEMA, sources)
    assert str(err.value).startswith(f"config.yaml, line {line_of(text, '  shuffles: 1')}: k_bias.shuffles = 1")


def test_a_bad_value_from_the_command_line_is_blamed_on_it(tmp_path):
    config, sources = load_config(config_file(tmp_path), command_line={"k_bias": {"folds": [2, 26]}})
    with pytest.raises(ConfigError, match=r"^--config: k_bias.folds\[1\] = 26: K above the sample size"):
        checked_config(config, SCHEMA, sources)


def test_a_misspelt_key_gets_the_nearest_valid_one(tmp_path):
    config, sources = load_config(config_file(tmp_path), command_line={"k_bias": {"shufles": 3}})
    with pytest.raises(ConfigError, match=r"k_bias.shufles is not a known key \(did you mean k_bias.shuffles\?\)"):
        checked_config(config, SCHEMA, sources)


def test_a_yaml_syntax_error_names_its_line(tmp_path):
    text = CONFIG_TEXT.replace("  folds: [2, 3, 5, 10, 25]", "  folds: [2, 3, 5, 10, 25")
    with pytest.raises(ConfigError, match=r"^config.yaml, line \d+, column \d+: ") as err:
        read_yaml_with_lines(config_file(tmp_path, text))
    number = int(str(err.value).split("line ")[1].split(",")[0])
    assert abs(number - line_of(text, "  folds: [2, 3, 5, 10, 25")) <= 1


def test_a_yaml_tag_that_would_run_code_is_refused_with_its_line(tmp_path):
    text = CONFIG_TEXT + 'evil: !!python/object/apply:os.system ["true"]\n'
    with pytest.raises(ConfigError, match=f"line {len(text.splitlines())}"):
        read_yaml_with_lines(config_file(tmp_path, text))


def test_overrides_merge_block_by_block_like_snakemake(tmp_path):
    config, sources = load_config(config_file(tmp_path), command_line={"k_bias": {"shuffles": 200}})
    assert config["k_bias"]["shuffles"] == 200 and config["k_bias"]["folds"] == [2, 3, 5, 10, 25]
    assert sources.where(("k_bias", "shuffles")) == "--config"
    assert sources.where(("k_bias", "folds", 1)) == f"config.yaml, line {line_of(CONFIG_TEXT, '  folds: [2, 3, 5')}"


def test_changed_settings_name_the_key_the_documents_value_and_this_runs():
    config, _ = load_config(ROOT / "config.yaml", command_line={"k_bias": {"shuffles": 200, "folds": [2, 5]}})
    changes = changed_settings(config, SCHEMA)
    assert changes == [("k_bias.folds", [2, 3, 5, 10, 25], [2, 5]), ("k_bias.shuffles", 40, 200)]
    assert changes_in(["k_bias"], changes) == changes and changes_in(["sine_data"], changes) == []
    assert describe(changes[1:]) == "k_bias.shuffles = 200 (documents: 40)"
