"""The columns a table is declared with (studies.yaml), where ``prefix_*`` stands for one or more
columns whose number the config sets: what the registry, its templates and the study jobs check a
table's columns against. Here, below the workflow, so that the registry needs nothing from it."""

from __future__ import annotations

import fnmatch


def columns_match(declared: list[str], actual: list[str]) -> bool:
    """Whether a table's columns are the declared ones, in order; ``prefix_*`` stands for one or more."""
    i = 0
    for pattern in declared:
        if pattern.endswith("*"):
            start = i
            while i < len(actual) and fnmatch.fnmatchcase(actual[i], pattern):
                i += 1
            if i == start:
                return False
        elif i < len(actual) and actual[i] == pattern:
            i += 1
        else:
            return False
    return i == len(actual)


def declares_column(declared: list[str], column: str) -> bool:
    """Whether a table declared with these columns can hold ``column``."""
    return any(
        fnmatch.fnmatchcase(column, pattern) if pattern.endswith("*") else column == pattern for pattern in declared
    )
