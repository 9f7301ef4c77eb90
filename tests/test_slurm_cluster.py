"""The cluster profile on a real SLURM: jobs submitted with sbatch give the laptop's tables, byte for byte.

The cluster is the one `sinfo` reaches, if any (its partition and account from SBATCH_PARTITION and
SBATCH_ACCOUNT, as in docs/cluster.md). Otherwise, only when CVSUITE_START_SLURM is set (.ci/run sets it
where it can), tests/cluster/local-slurm installs Debian's packages, starts a one-node cluster on
this machine (root, with apt) and stops it after; then a cluster that cannot start fails the tests.
Without the switch they skip, saying why: a test run never installs packages or starts daemons unasked.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, copy_workflow, snakemake

pytestmark = [pytest.mark.slurm, pytest.mark.workflow]

LOCAL_SLURM = ROOT / "tests" / "cluster" / "local-slurm"
LOCAL_PARTITION = "cvsuite"  # the partition local-slurm configures

# The robustness study at a small scale: 2 + 2 shape-image shards (the document's seeds and fresh
# ones), 2 fresh regression shards, the k_bias and ridge_path tables it reads, and robustness itself,
# each one SLURM job.
SCALE = [
    "--config",
    "shape_images={datasets: 4, datasets_per_shard: 2, images: {fresh_per_class: 100}}",
    "robustness={shape_datasets: 4, sine_datasets: 4, datasets_per_shard: 2, sine_shuffles: 2, bootstrap: 20}",
]
# What the tests run (to run only the jobs robustness reads: add "--omit-from", "robustness").
TARGET = ["robustness"]
SUBMITTED = re.compile(r"has been submitted with SLURM jobid (\d+)")


def run_quietly(*command: str, timeout: int = 30) -> subprocess.CompletedProcess:
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def reachable() -> bool:
    if not shutil.which("sinfo"):
        return False
    try:
        return run_quietly("sinfo", "-h", "-o", "%P", timeout=15).returncode == 0
    except subprocess.TimeoutExpired:
        return False


START_SWITCH = "CVSUITE_START_SLURM"


def unavailable(reason: str):
    if os.environ.get(START_SWITCH):
        pytest.fail(f"{START_SWITCH} is set, but no SLURM cluster: {reason}")
    pytest.skip(f"no SLURM cluster: {reason}")


class Cluster:
    """How the tests submit to the cluster at hand: the environment and the executor's flags."""

    def __init__(self, local: bool):
        self.local = local
        self.env = dict(os.environ)
        self.flags = ["--slurm-init-seconds-before-status-checks", "1"]
        if local:
            self.env["SBATCH_PARTITION"] = LOCAL_PARTITION
            self.env.pop("SBATCH_ACCOUNT", None)
            # no accounts on a test cluster (plugin 2.8.0 declares the flag but reads it nowhere: with no
            # slurm_account it looks for one in sacct, finds none and submits without -A all the same)
            self.flags += ["--slurm-no-account"]
        if local or not shutil.which("sacct") or run_quietly("sacct", "-n", "-X").returncode != 0:
            self.flags += ["--slurm-status-command", "squeue"]  # no accounting daemon: the executor would wait on sacct

    def command(self, *args: str) -> list[str]:
        return [
            sys.executable,
            "-m",
            "snakemake",
            *TARGET,
            "--workflow-profile",
            "profiles/slurm",
            *self.flags,
            *SCALE,
            *args,
        ]

    def run(self, workdir: Path, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            self.command(*args), cwd=workdir, env=self.env, capture_output=True, text=True, timeout=900
        )

    def start(self, workdir: Path, *args: str) -> subprocess.Popen:
        return subprocess.Popen(
            self.command(*args), cwd=workdir, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )


@pytest.fixture(scope="module")
def cluster():
    if reachable():
        yield Cluster(local=False)
        return
    if not os.environ.get(START_SWITCH):
        unavailable(f"sinfo does not answer; {START_SWITCH}=1 lets tests/cluster/local-slurm install and start one")
    why = subprocess.run([LOCAL_SLURM, "can-start"], capture_output=True, text=True)
    if why.returncode != 0:
        unavailable(f"sinfo does not answer, and tests/cluster/local-slurm cannot start one here: {why.stdout.strip()}")
    began = time.monotonic()
    start = subprocess.run([LOCAL_SLURM, "start"], capture_output=True, text=True, timeout=600)
    if start.returncode != 0:
        unavailable(f"tests/cluster/local-slurm start failed:\n{start.stderr[-2000:]}")
    print(f"\nlocal SLURM started in {time.monotonic() - began:.1f} s: {start.stderr.strip()}")
    try:
        yield Cluster(local=True)
    finally:
        subprocess.run([LOCAL_SLURM, "stop"], timeout=120)


@pytest.fixture(scope="module")
def laptop_tables(tmp_path_factory) -> dict[str, bytes]:
    """The same targets run locally on two cores, in another copy of the workflow."""
    workdir = copy_workflow(tmp_path_factory.mktemp("laptop"))
    run = snakemake(workdir, *TARGET, "--cores", "2", *SCALE)
    assert run.returncode == 0, run.stderr[-3000:]
    return tables(workdir)


def tables(workdir: Path) -> dict[str, bytes]:
    return {p.relative_to(workdir).as_posix(): p.read_bytes() for p in sorted((workdir / "results").rglob("*.csv"))}


def slurm_jobs(ids: list[str]) -> dict[str, dict[str, str]]:
    """What SLURM itself knows of these jobs: state, the rule the executor wrote in the comment, time
    limit and memory. squeue keeps finished jobs for MinJobAge; sacct answers where there is accounting."""
    jobs = {}
    listing = run_quietly("squeue", "--states=all", "-h", "-j", ",".join(ids), "-o", "%i|%T|%k|%l|%m")
    for line in listing.stdout.splitlines():
        job, state, comment, limit, memory = line.split("|")
        jobs[job] = {"state": state, "comment": comment, "limit": limit, "memory": memory}
    missing = [i for i in ids if i not in jobs]
    if missing:
        fields = "JobID,State,Comment,Timelimit,ReqMem"
        accounted = run_quietly("sacct", "-n", "-X", "-P", "-j", ",".join(missing), "-o", fields)
        for line in accounted.stdout.splitlines():
            job, state, comment, limit, memory = line.split("|")
            jobs[job] = {"state": state.split()[0], "comment": comment, "limit": limit, "memory": memory}
    return jobs


def final_state(job_id: str, seconds: float = 30) -> str:
    """The job's state once it has left RUNNING and COMPLETING."""
    deadline = time.monotonic() + seconds
    while True:
        state = slurm_jobs([job_id]).get(job_id, {}).get("state", "")
        if state not in ("", "PENDING", "RUNNING", "COMPLETING") or time.monotonic() > deadline:
            return state
        time.sleep(0.1)


def minutes(limit: str) -> int:
    """SLURM's time limit ([days-]hours:minutes:seconds, or minutes:seconds) in minutes."""
    days, _, clock = limit.rpartition("-")
    parts = [int(p) for p in clock.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return int(days or 0) * 24 * 60 + parts[0] * 60 + parts[1] + (parts[2] > 0)


def profile_resources(rule: str) -> dict:
    # (its `?if` entries, the account and the partition, are yte templates, read here as plain keys)
    profile = yaml.safe_load((ROOT / "profiles" / "slurm" / "config.yaml").read_text())
    return {**profile["default-resources"], **profile.get("set-resources", {}).get(rule, {})}


def rule_of(comment: str) -> str:
    return re.match(r"rule_(\w+?)(?:_wildcards_.*)?$", comment).group(1)


def test_jobs_submitted_through_sbatch_give_the_laptops_tables(cluster, laptop_tables, tmp_path):
    workdir = copy_workflow(tmp_path)
    began = time.monotonic()
    run = cluster.run(workdir)
    seconds = time.monotonic() - began
    log = run.stdout + run.stderr
    assert run.returncode == 0, log[-4000:]

    ids = SUBMITTED.findall(log)
    jobs = slurm_jobs(ids)
    print(f"\n{len(ids)} SLURM jobs in {seconds:.1f} s: " + ", ".join(f"{i} {jobs[i]['comment']}" for i in ids))
    assert len(set(ids)) >= 4, f"only {len(ids)} jobs went through sbatch:\n{log[-3000:]}"
    assert set(jobs) == set(ids), f"SLURM does not know jobs {sorted(set(ids) - set(jobs))}"
    for job_id, job in jobs.items():
        assert job["state"] == "COMPLETED", (job_id, job)
        wanted = profile_resources(rule_of(job["comment"]))  # the profile's runtime and memory reached SLURM
        assert minutes(job["limit"]) == wanted["runtime"], (job_id, job, wanted)
        assert job["memory"] == f"{wanted['mem_mb']}M", (job_id, job, wanted)

    cluster_tables = tables(workdir)
    assert cluster_tables.keys() == laptop_tables.keys()
    different = [name for name in laptop_tables if cluster_tables[name] != laptop_tables[name]]
    assert not different, f"tables differ between SLURM and a local run: {different}"


def test_a_cancelled_job_fails_the_run_and_the_rerun_completes_to_the_same_tables(cluster, laptop_tables, tmp_path):
    workdir = copy_workflow(tmp_path)
    # No retry, so that the cancelled job fails the run (the profile's one retry would resubmit it).
    process = cluster.start(workdir, "--retries", "0")
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()

    cancelled = None
    deadline = time.monotonic() + 300
    while cancelled is None and process.poll() is None and time.monotonic() < deadline:
        ids = SUBMITTED.findall("".join(lines))
        running = [i for i, job in slurm_jobs(ids).items() if job["state"] == "RUNNING"] if ids else []
        if running:
            subprocess.run(["scancel", running[0]])
            if final_state(running[0]) == "CANCELLED":  # else it finished first: take another
                cancelled = running[0]
        time.sleep(0.2)
    process.wait(timeout=600)
    reader.join(timeout=10)
    log = "".join(lines)
    assert cancelled, f"no job was seen running to cancel:\n{log[-3000:]}"
    assert process.returncode != 0, "the run finished although one of its jobs was cancelled"
    assert slurm_jobs([cancelled])[cancelled]["state"] == "CANCELLED"  # what SLURM says of it
    assert f"SLURM-job '{cancelled}' failed" in log, log[-3000:]
    for name, content in tables(workdir).items():  # whatever the failed run left is complete and right
        assert content == laptop_tables[name], f"{name} differs after the cancelled run"

    rerun = cluster.run(workdir)  # the profile sets rerun-incomplete
    assert rerun.returncode == 0, (rerun.stdout + rerun.stderr)[-4000:]
    assert SUBMITTED.findall(rerun.stdout + rerun.stderr), "the rerun submitted nothing"
    assert tables(workdir) == laptop_tables
