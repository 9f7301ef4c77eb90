"""Read config.yaml and the command line's overrides, remembering where every value came from.

Snakemake's own ``configfile:`` loses that: a YAML error has no line, and a bad value given with
``--config`` is blamed on config.yaml. Here the file is read with the line of every key, the
overrides (``--configfile`` files, then ``--config``) are merged over it as Snakemake merges them
(block by block, recursively), and ``ConfigSources.where(path)`` names the origin of any key:
"config.yaml, line 31" or "--config". YAML is read safely: a tag that would run code is refused,
with its line.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cvsuite.workflow.yaml_text import composed_and_loaded

Path_ = tuple  # a key's path in the config: ("k_bias", "folds", 1)


class ConfigError(ValueError):
    """A config value the suite cannot run with; the message names the key and where it came from."""


def key_name(path) -> str:
    """("k_bias", "folds", 1) -> "k_bias.folds[1]"."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def read_yaml_with_lines(path: str | Path) -> tuple[Any, dict[Path_, int]]:
    """The YAML document at ``path`` and the line (1-based) of every key and list item in it.

    Raises ConfigError naming the file, line and column of a syntax error or of a refused tag.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"{path}: cannot be read ({err.strerror})") from None
    try:
        node, data = composed_and_loaded(text)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"{path.name}, line {mark.line + 1}, column {mark.column + 1}" if mark else path.name
        raise ConfigError(f"{where}: {err.problem or err.context or err}") from None
    except yaml.YAMLError as err:
        raise ConfigError(f"{path.name}: {err}") from None
    lines: dict[Path_, int] = {}
    _record_lines(node, (), lines)
    return data, lines


def _record_lines(node, path: Path_, lines: dict[Path_, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            child = (*path, key_node.value)
            lines[child] = key_node.start_mark.line + 1
            _record_lines(value_node, child, lines)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            lines[(*path, i)] = item.start_mark.line + 1
            _record_lines(item, (*path, i), lines)


def merged(base: dict, override: dict) -> dict:
    """``base`` with ``override`` merged in block by block, as Snakemake's ``update_config`` does."""
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _holds(tree: Any, path: Path_) -> bool:
    """Whether ``tree`` gives a value at ``path`` or at a prefix of it that replaces the whole."""
    node = tree
    for part in path:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) or not isinstance(node, dict):
            return True  # a list or value given whole stands for everything below it
        else:
            return False
    return True


@dataclass
class ConfigSources:
    """Where each value came from: the file (with lines) and the command line's overrides."""

    file: str = "config.yaml"
    lines: dict[Path_, int] = field(default_factory=dict)
    command_line: dict = field(default_factory=dict)  # the --config values
    override_files: dict[str, dict] = field(default_factory=dict)  # the --configfile files, by name

    def where(self, path: Path_) -> str:
        """ "--config", an override file's name, or "config.yaml, line N" for the key at ``path``."""
        if self.command_line and _holds(self.command_line, path):
            return "--config"
        for name, tree in reversed(self.override_files.items()):  # the last file to set it wins
            if _holds(tree, path):
                return name
        for depth in range(len(path), 0, -1):
            if path[:depth] in self.lines:
                return f"{self.file}, line {self.lines[path[:depth]]}"
        return self.file


def load_config(
    path: str | Path, command_line: dict | None = None, override_files: list[str | Path] = ()
) -> tuple[dict, ConfigSources]:
    """config.yaml merged with ``--configfile`` files and then ``--config`` values, and the sources."""
    data, lines = read_yaml_with_lines(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{Path(path).name}: must be a mapping of config blocks")
    sources = ConfigSources(file=Path(path).name, lines=lines, command_line=dict(command_line or {}))
    config = data
    for extra in override_files:
        tree, _ = read_yaml_with_lines(extra)
        sources.override_files[Path(extra).name] = tree or {}
        config = merged(config, tree or {})
    return merged(config, sources.command_line), sources
