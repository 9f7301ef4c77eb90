"""The documents' settings, and the settings of a run that differ from them.

The schema's ``default`` of every key is the value the suite runs at to reproduce the documents (the
document's own value where it fixes one, the suite's stated choice where it does not); the shipped
config.yaml holds exactly these (a test keeps the two equal). A what-if changes some of them: these
functions say which, so that the report can open with them and every number they moved can name
them. The schema's ``tiny`` values are the quick tests' settings (``tiny_settings``).
"""

from __future__ import annotations

from typing import Any

from cvsuite.workflow.config_file import key_name


def document_settings(schema: dict) -> dict:
    """The tree of the schema's defaults, block by block (a key without a default maps to None)."""
    if "default" in schema:
        return schema["default"]
    return {name: document_settings(child) for name, child in schema.get("properties", {}).items()}


def tiny_settings(schema: dict) -> dict:
    """The quick tests' settings: the tree of the schema's ``tiny`` values, the small value each
    parameter declares beside its type and range, where the documents' scale is too slow for the
    whole workflow in the fast tier. Merged over config.yaml as ``--configfile`` merges, so a ``tiny``
    on a block of keys may give only the keys it changes."""
    if "tiny" in schema:
        return schema["tiny"]
    tree = {name: tiny_settings(child) for name, child in schema.get("properties", {}).items()}
    return {name: value for name, value in tree.items() if value != {}}


def changed_settings(config: dict, schema: dict) -> list[tuple[str, Any, Any]]:
    """(key, the documents' value, this run's value) for every setting the run changed, in schema order.

    Dictionaries are compared key by key, so a changed list or number is named by its own key;
    lists are compared whole.
    """
    changes: list[tuple[str, Any, Any]] = []
    _compare(document_settings(schema), config, (), changes)
    return changes


def _compare(document: Any, run: Any, path: tuple, changes: list) -> None:
    if isinstance(document, dict) and isinstance(run, dict):
        for key in [*document, *(k for k in run if k not in document)]:
            _compare(document.get(key), run.get(key), (*path, key), changes)
    elif document != run:
        changes.append((key_name(path), document, run))


def changes_in(blocks: list[str], changes: list[tuple[str, Any, Any]]) -> list[tuple[str, Any, Any]]:
    """The changes that fall in the given config blocks (a study's, from studies.yaml)."""
    return [change for change in changes if change[0].split(".", 1)[0].split("[", 1)[0] in blocks]


def describe(changes: list[tuple[str, Any, Any]]) -> str:
    """ "k_bias.shuffles = 200 (documents: 40); ..." for a note."""
    return "; ".join(f"{key} = {run!r} (documents: {document!r})" for key, document, run in changes)


def described_by_study(changes: list[tuple[str, Any, Any]], studies: dict[str, list[str]]) -> dict[str, str]:
    """Each study's changed settings as a note names them, from its config blocks (``studies``: study
    name to blocks, as in studies.yaml)."""
    return {name: describe(changes_in(blocks, changes)) for name, blocks in studies.items()}
