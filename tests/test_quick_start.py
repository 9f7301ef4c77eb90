"""The README's first Quick start command, as a newcomer runs it: a fresh clone, a fresh venv.

The second command (set up and run the tests) is what CI runs through .ci/run, so it is run every
time the tests are. This one is run here, in a clone of the committed repository, exactly as printed.
"""

import os
import shutil
import subprocess

import pytest
from test_packaging import quick_start_commands

from conftest import ROOT

pytestmark = pytest.mark.quickstart


def test_the_first_quick_start_command_sets_up_and_runs_the_whole_workflow(tmp_path):
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout to clone")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    setup_and_run = quick_start_commands()[0]
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    run = subprocess.run(
        ["bash", "-c", setup_and_run], cwd=clone, capture_output=True, text=True, timeout=3600, env=env
    )
    assert run.returncode == 0, run.stderr[-4000:]
    assert (clone / "results" / "comparison.csv").exists() and (clone / "results" / "REPORT.md").exists()
    last = [line for line in run.stderr.strip().splitlines() if line.strip()][-2:]
    assert last[0].startswith("Verdict: "), last
