"""Shared fixtures: the repository root, a scratch copy of the workflow to run Snakemake in, and the tiers.

A bare ``pytest`` is the fast tier: everything but the tests marked with a slow tier (``SLOW_TIERS``),
no network, no package installs, no daemons, within a minute on two cores (docs/time.md). ``pytest --full`` adds
the slow tiers (what .ci/run does); an explicit ``-m`` expression picks tests by marker as usual.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cvsuite.workflow.workflow_files import copy_workflow as copy_workflow_from

ROOT = Path(__file__).resolve().parents[1]


def copy_workflow(destination: Path) -> Path:
    """Copy what `snakemake` reads (not results/ or figures/) into a fresh folder."""
    return copy_workflow_from(ROOT, destination)


def snakemake(workdir: Path, *args: str, timeout: int = 1800, umask: int = 0o022) -> subprocess.CompletedProcess:
    """Run the Snakemake of this interpreter's environment in ``workdir``, under ``umask``.

    The umask is set by Popen itself, never by a ``preexec_fn``: with one, Python forks rather than
    vforks, and a fork runs OpenBLAS's fork handler, which deadlocked the fast tier (under
    OPENBLAS_CORETYPE=Prescott) when a trial's thread started Snakemake while a test ran NumPy."""
    command = [sys.executable, "-m", "snakemake", *args]
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, timeout=timeout, umask=umask)


# The slow tiers: each runs the workflow at the documents' scale, a fresh clone, a cluster or a second environment.
SLOW_TIERS = ("workflow", "quickstart", "slurm", "versions")
# Tests that read the workflow run at the schema's tiny settings: their run starts in the background as the
# session starts (see ``tiny_workflow``) and they run last, so the other tests fill the wait.
TINY = "tiny_workflow"


def pytest_addoption(parser):
    parser.addoption(
        "--full",
        action="store_true",
        help=f"also run the slow tiers (markers {', '.join(SLOW_TIERS)}), as .ci/run does",
    )


def fast_tier_only(config) -> bool:
    return not config.getoption("--full") and not config.option.markexpr


def pytest_report_header(config):
    if fast_tier_only(config):
        return f"fast tier: tests marked {', '.join(SLOW_TIERS)} are deselected; `pytest --full` runs every tier"
    return None


def pytest_collection_modifyitems(config, items):
    if fast_tier_only(config):
        slow = [item for item in items if any(item.get_closest_marker(m) for m in SLOW_TIERS)]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if item not in slow]
    waiting = [item for item in items if TINY in getattr(item, "fixturenames", ())]
    items[:] = [item for item in items if item not in waiting] + waiting
    config._tiny_workflow_wanted = bool(waiting)
    config._tiny_trials_wanted = any("trials" in item.fixturenames for item in waiting)


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


class TinyRun:
    """The workflow run at the schema's tiny settings in a scratch folder, started in the background; and,
    once asked (``start_trials``), the trials on it (tests/tiny_trials.py), started the moment it ends."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory):
        from concurrent.futures import ThreadPoolExecutor

        self.workdir = copy_workflow(tmp_path_factory.mktemp("tiny-workflow"))
        write_tiny_config(self.workdir)
        self.log = self.workdir / "snakemake.log"
        command = [sys.executable, "-m", "snakemake", "all", "--cores", "2", "--configfile", TINY_CONFIG.name]
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                command, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT, umask=0o022
            )
        self._result: subprocess.CompletedProcess | None = None
        self._waiting = ThreadPoolExecutor(max_workers=1)
        self.trials = None

    def start_trials(self, folder: Path) -> None:
        self.trials = self._waiting.submit(self._trials_once_finished, folder)

    def _trials_once_finished(self, folder: Path):
        if self.process.wait() != 0:
            return None  # the tests that read the trials fail on the run itself (``tiny_workflow``)
        from tiny_trials import run_trials

        return run_trials(self.workdir, folder)

    def finished(self, timeout: int = 600) -> subprocess.CompletedProcess:
        """Wait for the run; its exit status and output (stdout and stderr together)."""
        if self._result is None:
            code = self.process.wait(timeout=timeout)
            self._result = subprocess.CompletedProcess(self.process.args, code, self.log.read_text(), "")
        return self._result

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._waiting.shutdown(cancel_futures=True)


# The quick tests' settings, derived from the schema's ``tiny`` values (tiny_settings) and written
# beside each scratch copy of the workflow under this name, for ``--configfile``.
TINY_CONFIG = Path("tiny_config.yaml")


def write_tiny_config(workdir: Path) -> Path:
    """Write the schema's tiny settings into ``workdir`` as TINY_CONFIG; returns its path."""
    import yaml

    from cvsuite.workflow.config_checks import load_schema
    from cvsuite.workflow.document_settings import tiny_settings

    settings = tiny_settings(load_schema(ROOT / "schemas" / "config.schema.yaml"))
    path = workdir / TINY_CONFIG
    path.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
    return path


def pytest_sessionstart(session):
    """When the whole suite is collected (a bare ``pytest``, or ``--full``), the tiny run starts before
    collection, which keeps one core busy for seconds; it is stopped if no selected test reads it."""
    config = session.config
    if config.args_source == pytest.Config.ArgsSource.TESTPATHS and not config.option.collectonly:
        config._tiny_run = TinyRun(config._tmp_path_factory)


def pytest_sessionfinish(session):
    run = getattr(session.config, "_tiny_run", None)
    if run is not None:
        run.stop()


@pytest.fixture(scope="session", autouse=True)
def _start_tiny_workflow(request, tmp_path_factory):
    """The tiny run, started now if it has not been already, if any collected test reads it."""
    config = request.config
    run = getattr(config, "_tiny_run", None)
    if not getattr(config, "_tiny_workflow_wanted", False):
        if run is not None:
            run.stop()
        yield None
        return
    if run is None:
        run = config._tiny_run = TinyRun(tmp_path_factory)
    if config._tiny_trials_wanted:
        run.start_trials(tmp_path_factory.mktemp("tiny-trials"))
    yield run


@pytest.fixture(scope="session")
def tiny_workflow(_start_tiny_workflow) -> Path:
    """The folder of the finished tiny run (it must have succeeded)."""
    run = _start_tiny_workflow.finished()
    assert run.returncode == 0, (
        f"snakemake all --configfile tiny_config.yaml (the schema's tiny settings) failed:\n{run.stdout[-4000:]}"
    )
    return _start_tiny_workflow.workdir


@pytest.fixture(scope="session")
def trials(tiny_workflow, _start_tiny_workflow):
    """The trials on the finished tiny run (tests/tiny_trials.py), by name, once every one has ended."""
    return _start_tiny_workflow.trials.result()


def project_records():
    """The project's registry, read and checked as the workflow reads it (every record, in order)."""
    from cvsuite.published.records import read_records
    from cvsuite.workflow.catalog import load_catalog

    return read_records(ROOT / "registry", load_catalog(ROOT / "studies.yaml").table_columns())
