"""YAML read with libyaml's parser where there is one (cvsuite.workflow.yaml_text): the same data and
lines as PyYAML's pure-Python parser, and for a file that does not parse, that parser's message."""

from pathlib import Path

import pytest
import yaml

from cvsuite.workflow import yaml_text

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["config.yaml", "schemas/config.schema.yaml", "studies.yaml"])
def test_the_workflows_files_read_as_the_pure_python_parser_reads_them(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    node, data = yaml_text.composed_and_loaded(text)
    assert data == yaml.safe_load(text)
    assert yaml_text.safe_load(text) == data
    slow = yaml.compose(text, Loader=yaml.SafeLoader)
    assert [k.start_mark.line for k, _ in node.value] == [k.start_mark.line for k, _ in slow.value]


def test_libyaml_is_the_parser_used_where_pyyaml_has_it():
    assert yaml_text._FAST_LOADER is getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def test_an_empty_text_is_none():
    assert yaml_text.composed_and_loaded("") == (None, None)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: [2, 3\nc: 4\n",  # an unclosed list
        "a: 1\n  b: 2\n",  # a mapping value where none may stand
        "a: !!python/object:os.system echo\n",  # a tag that would run code
    ],
)
def test_text_that_does_not_parse_gives_the_pure_python_parsers_error(text):
    with pytest.raises(yaml.YAMLError) as slow:
        yaml.safe_load(text)
    with pytest.raises(yaml.YAMLError) as fast:
        yaml_text.safe_load(text)
    assert str(fast.value) == str(slow.value)
    assert type(fast.value) is type(slow.value)
