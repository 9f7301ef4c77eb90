"""Reading the registry's YAML files: every value as the text it was written as, every mapping with
the line it starts on, so that a message can name the file and the line of what it refuses."""

from __future__ import annotations

import yaml


class RecordError(ValueError):
    """A record (or a scale, a word) that cannot be used; the message names the file, the line and
    the record's id."""


class Located(dict):
    """A mapping read from YAML, with the line it starts on."""

    line: int = 0


def _plain(node):
    if isinstance(node, yaml.MappingNode):
        out = Located()
        out.line = node.start_mark.line + 1
        for key, value in node.value:
            out[str(key.value)] = _plain(value)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item) for item in node.value]
    return node.value  # every scalar as the text it was written as


def load_yaml_text(text: str, path: str):
    """The YAML document ``text`` with every scalar as text and every mapping's line; RecordError
    naming ``path`` and the line of a syntax error."""
    loader_class = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
    try:
        node = yaml.compose(text, Loader=loader_class)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(err, "problem", None) or str(err)
        raise RecordError(f"{path}{where}: {problem}") from None
    return None if node is None else _plain(node)
