"""YAML read safely, with libyaml's parser where PyYAML has it.

Every Snakemake start reads config.yaml, the config schema and studies.yaml, and so does the
comparison job: with PyYAML's pure-Python parser that is 170 ms of CPU each time, with libyaml's
10 ms. Both build the same Python objects, since the resolver and the constructor are PyYAML's own in
either case. Their error messages are worded differently, so text libyaml refuses is read again by
the pure-Python parser: a bad file gives the message it always gave, with its line and column.
"""

from __future__ import annotations

from typing import Any

import yaml

_FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def composed_and_loaded(text: str) -> tuple[yaml.Node | None, Any]:
    """The node tree of ``text`` (each node with its start mark: line and column) and the data it
    holds, as ``yaml.compose`` and ``yaml.safe_load`` give them; yaml.YAMLError if it is not YAML
    or has a tag that would run code."""
    try:
        return _parsed(text, _FAST_LOADER)
    except yaml.YAMLError:
        return _parsed(text, yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """``yaml.safe_load(text)``, with libyaml's parser where there is one."""
    return composed_and_loaded(text)[1]


def _parsed(text: str, loader_class) -> tuple[yaml.Node | None, Any]:
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        return node, None if node is None else loader.construct_document(node)
    finally:
        loader.dispose()
