"""Shared fixtures: the repository root, and a scratch copy of the workflow to run Snakemake in."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW_FILES = (
    "Snakefile",
    "rules",
    "studies.yaml",
    "config.yaml",
    "schemas",
    "registry",
    "report",
    "experiments",
    "profiles",
    "src",
)


def copy_workflow(destination: Path) -> Path:
    """Copy what `snakemake` reads (not results/ or figures/) into a fresh folder."""
    destination.mkdir(parents=True, exist_ok=True)
    for name in WORKFLOW_FILES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, destination / name)
    return destination


def snakemake(workdir: Path, *args: str, timeout: int = 1800, umask: int = 0o022) -> subprocess.CompletedProcess:
    """Run the Snakemake of this interpreter's environment in ``workdir``, under ``umask``."""
    import os

    command = [sys.executable, "-m", "snakemake", *args]
    return subprocess.run(
        command, cwd=workdir, capture_output=True, text=True, timeout=timeout, preexec_fn=lambda: os.umask(umask)
    )


@pytest.fixture
def workflow_copy(tmp_path: Path) -> Path:
    return copy_workflow(tmp_path)


@pytest.fixture(scope="session")
def finished_workflow(tmp_path_factory) -> Path:
    """The whole workflow run once at the documents' settings, for every test that reads its results."""
    workdir = copy_workflow(tmp_path_factory.mktemp("workflow"))
    run = snakemake(workdir, "all", "--cores", "2")
    assert run.returncode == 0, f"snakemake all failed:\n{run.stderr[-4000:]}"
    return workdir


def copy_finished(finished: Path, destination: Path) -> Path:
    """A copy of a finished workflow (results, figures, Snakemake's records, times kept), to change."""
    shutil.copytree(finished, destination, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    return destination
