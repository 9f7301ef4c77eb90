"""The SLURM profile plans a thousand-fold larger robustness study as many small shard jobs."""

import re

import pytest

from conftest import snakemake

pytestmark = pytest.mark.workflow


def job_counts(output: str) -> dict[str, int]:
    stats = output.split("Job stats:", 1)[1]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", stats, re.M)}


def test_slurm_dry_run_plans_one_job_per_shard(workflow_copy):
    import snakemake_executor_plugin_slurm  # noqa: F401 - installed by the test extra; the profile needs it

    scale = "robustness={shape_datasets: 400000, datasets_per_shard: 1000, sine_datasets: 100000}"
    run = snakemake(workflow_copy, "all", "-n", "--workflow-profile", "profiles/slurm", "--config", scale)
    assert run.returncode == 0, run.stderr[-3000:]
    counts = job_counts(run.stdout + run.stderr)
    assert counts["shape_image_datasets"] == 1 + 400  # the document's 40 datasets in 1 shard, then 400 of 1,000
    assert counts["fresh_sine_datasets"] == 100
    assert counts["robustness"] == 1 and counts["compare"] == 1
