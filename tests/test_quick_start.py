"""The README's Quick start commands, as a newcomer runs them: a fresh clone, a fresh venv.

The first (set up and run the workflow) and the second (set up and run the quick tests) are run here,
each in its own clone of the committed repository, exactly as printed. The third, the full check, is
.ci/run itself, which CI runs.
"""

import os
import shutil
import subprocess

import pytest
from test_packaging import quick_start_commands

from conftest import ROOT

pytestmark = pytest.mark.quickstart


def run_in_a_fresh_clone(tmp_path, command: str) -> tuple[subprocess.CompletedProcess, object]:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout to clone")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "CVSUITE_START_SLURM")}
    run = subprocess.run(["bash", "-c", command], cwd=clone, capture_output=True, text=True, timeout=3600, env=env)
    return run, clone


def test_the_second_quick_start_command_sets_up_and_passes_the_quick_tests_offline(tmp_path):
    run, clone = run_in_a_fresh_clone(tmp_path, quick_start_commands()[1])
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    summary = [line for line in run.stdout.splitlines() if line.strip()][-1]
    assert " passed" in summary and "failed" not in summary and "deselected" in summary, summary
    # The quick tests need no network: once installed, they pass again with it cut.
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode:
        return
    offline = subprocess.run(
        ["unshare", "-rn", str(clone / ".venv" / "bin" / "pytest"), "-q", "-x"],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=600,
        env={k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")},
    )
    assert offline.returncode == 0, (offline.stdout + offline.stderr)[-4000:]


def test_the_first_quick_start_command_sets_up_and_runs_the_whole_workflow(tmp_path):
    run, clone = run_in_a_fresh_clone(tmp_path, quick_start_commands()[0])
    assert run.returncode == 0, run.stderr[-4000:]
    assert (clone / "results" / "comparison.csv").exists() and (clone / "results" / "REPORT.md").exists()
    last = [line for line in run.stderr.strip().splitlines() if line.strip()][-2:]
    assert last[0].startswith("Verdict: "), last
