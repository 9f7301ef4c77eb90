"""What Snakemake reads in a checkout of the suite: the files and folders a scratch copy of the
workflow needs to run, and nothing it writes (results/, figures/, logs). The tests, the benchmarks
and the timings copy the workflow by this one list."""

from __future__ import annotations

import shutil
from pathlib import Path

WORKFLOW_FILES = (
    "Snakefile",
    "rules",
    "studies.yaml",
    "config.yaml",
    "schemas",
    "registry",
    "docs/notes",
    "experiments",
    "profiles",
    "src",
)


def copy_workflow(source: Path, destination: Path) -> Path:
    """Copy ``WORKFLOW_FILES`` from the checkout ``source`` into ``destination`` (created if need be),
    without Python's caches; returns ``destination``."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW_FILES:
        path = Path(source, name)
        if path.is_dir():
            shutil.copytree(path, destination / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, destination / name)
    return destination
