"""Benchmark: how long the whole workflow and the test suite take, on this machine, measured.

Run from the repository root:  .venv/bin/python benchmarks/workflow_times.py [--tests] [--baseline REF]

1. `snakemake all --cores 2` in a scratch copy of the workflow, from nothing, timed end to end
   (wall and CPU time, against the 60 s budget), with each job's wall and CPU time read from the
   files Snakemake's `benchmark:` directive writes (benchmarks/jobs/<rule>[/<wildcards>].tsv);
   with --edits, then four edits made one after another on that finished run, each followed by
   `snakemake all`, timed, with the jobs it ran: nothing changed, a comment in one study's figure
   module, a word of a registry note, a comment in methods/ridge.py (and the same in REF's tree,
   with --baseline);
2. with --baseline REF (a git commit or branch, e.g. main), the same run of REF's workflow and of this
   tree, taking turns (--rounds each, baseline first), on the same machine in the same session: the
   ratio of their median times (wall, all CPU, and the jobs' CPU without Snakemake's own) is the speed
   target, since a time from another day or machine is not comparable (per-CPU figures differ by
   half); and the document's kNN listing (../shared/reference/knn_shape_images.py, where present),
   run just before each of this tree's runs, with the median ratio of a run to its listing's; each
   ratio beside its target (the jobs' CPU at most 1.20 times the baseline's, the run at most 1.5
   times the listing's); and the comparison job's own CPU;
3. with --tests, the tests as .ci/run runs them after installation, each run timed: every tier
   (`pytest --full`), then the quick tests (a bare `pytest`) under each OpenBLAS kernel of this CPU;
   and a bare `pytest` alone, the README's second command;
4. the fixed cost of a job: the CPU of a study job and of a figure job that compute nothing (median
   of five each), beside its target of 0.25 s;
5. the machine: processor, cores, memory, load when the run started, Python and package versions.

Writes benchmarks/timings.json, and docs/time.md from it (time_page.py). The README's Quick start
quotes the tests' times rounded; tests/test_packaging.py holds both to timings.json: no time in the
README or docs/time.md is a guess.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from time_page import median, time_page  # beside this file: run as a script, its folder is on the path

from cvsuite.workflow.workflow_files import copy_workflow

ROOT = Path(__file__).resolve().parents[1]
TIMINGS = ROOT / "benchmarks" / "timings.json"
TIME_PAGE = ROOT / "docs" / "time.md"  # written from TIMINGS (time_page.py)
# The document's kNN listing, beside the repository as ../shared/reference/ (read, never copied).
LISTING = ROOT.parent / "shared" / "reference" / "knn_shape_images.py"
# The target: the whole workflow from nothing within a minute on 2 cores (issue 10).
BUDGET_SECONDS = 60.0
# The targets, beside a baseline of main before the change: the workflow from nothing at most this many
# times the listing run just before it (the medians), and the jobs' CPU at most this multiple of main's
# (every reading judged, and the power some claims needed, may cost up to a fifth more).
OVER_LISTING_TARGET = 1.5
JOB_CPU_RATIO_TARGET = 1.20


def machine() -> dict:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "unknown",
    )
    memory_kb = next(
        (
            int(line.split()[1])
            for line in Path("/proc/meminfo").read_text().splitlines()
            if line.startswith("MemTotal")
        ),
        0,
    )
    versions = {name: metadata.version(name) for name in ("numpy", "scipy", "scikit-learn", "snakemake")}
    return {
        "processor": cpu,
        "cores": os.cpu_count(),
        "memory_gib": round(memory_kb / 2**20, 1),
        "load_average_at_start": round(os.getloadavg()[0], 2),
        "python": platform.python_version(),
        "packages": versions,
        "system": platform.platform(),
    }


def job_times(folder: Path) -> dict[str, dict[str, float]]:
    """Wall and CPU seconds of every job, from the files of Snakemake's ``benchmark:`` directive under
    ``folder`` (benchmarks/jobs/<rule>[/<wildcards>].tsv; a tree without them, as an older baseline,
    gives none), slowest first."""
    times = {}
    for path in sorted(folder.rglob("*.tsv")):
        header, values = (line.split("\t") for line in path.read_text().splitlines()[:2])
        row = dict(zip(header, values))
        cpu = float(row["cpu_time"]) if row.get("cpu_time", "NA") != "NA" else None
        times[path.relative_to(folder).with_suffix("").as_posix()] = {"seconds": float(row["s"]), "cpu_seconds": cpu}
    return dict(sorted(times.items(), key=lambda item: -item[1]["seconds"]))


# Snakemake run so that it writes its own CPU time (not its jobs') to a file as it exits: all the
# CPU of a run less this is its jobs', exactly (the ``benchmark:`` files sample each job twice a
# second, and miss the jobs shorter than that).
SNAKEMAKE_WRITING_ITS_CPU = """
import atexit, os, resource, sys
def write_own_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open(os.environ["CVSUITE_SCHEDULER_CPU"], "w") as file:
        file.write(str(usage.ru_utime + usage.ru_stime))
atexit.register(write_own_cpu)
sys.argv[0] = "snakemake"
from snakemake.cli import main
main()
"""


def run_snakemake(workdir: Path, cores: int) -> tuple[float, float, float, str]:
    """`snakemake all` in ``workdir`` with its own library first on the path (not the installed one),
    so a baseline tree runs its own code: the wall and CPU seconds (of Snakemake and every job: what
    the cores had to do, less noisy than the wall time), the CPU seconds of Snakemake's own process
    (the scheduler), and the log of the run."""
    own_cpu = workdir / ".scheduler-cpu"
    env = {**os.environ, "PYTHONPATH": str(workdir / "src"), "CVSUITE_SCHEDULER_CPU": str(own_cpu)}
    logs = set((workdir / ".snakemake" / "log").glob("*.snakemake.log"))
    start, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(
        [sys.executable, "-c", SNAKEMAKE_WRITING_ITS_CPU, "all", "--cores", str(cores)],
        cwd=workdir,
        capture_output=True,
        text=True,
        env=env,
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    if run.returncode != 0:
        raise SystemExit(f"snakemake all failed in {workdir}:\n{run.stderr[-3000:]}")
    scheduler = float(own_cpu.read_text())
    own_cpu.unlink()
    new = set((workdir / ".snakemake" / "log").glob("*.snakemake.log")) - logs
    return seconds, cpu, scheduler, next(iter(new)).read_text() if new else ""


def rules_run(log: str) -> list[str]:
    """The rules a run's log says it ran, once per job, sorted (``all`` left out: it runs nothing)."""
    return sorted(r for r in re.findall(r"^Finished jobid: \d+ \(Rule: (\w+)\)", log, re.M) if r != "all")


# The edits a reader makes most, made one after another on a finished run (each only adds: undoing
# one would make its file newer than the outputs again). A note's word is changed in the note of one
# registry record, which no study reads.
EDITS = (
    ("nothing changed", None, None, None),
    ("a comment in one study's figure module", "src/cvsuite/figures/k_bias.py", None, "# a comment\n"),
    (
        "a word of a registry note",
        "registry/regularization_and_cross_validation.yaml",
        ("Page 802's sweep refitted on the same sample", "Page 802's sweep refitted on that same sample"),
        None,
    ),
    ("a comment in methods/ridge.py", "src/cvsuite/methods/ridge.py", None, "# a comment\n"),
)


def time_edits(workdir: Path, cores: int) -> dict:
    """The four edits of ``EDITS`` on the finished run in ``workdir``: each one's jobs and time."""
    timed = {}
    for name, path, replace, append in EDITS:
        if path:
            text = (workdir / path).read_text(encoding="utf-8")
            if replace:
                assert text.count(replace[0]) == 1, f"{path}: the edit's text is not there once"
                text = text.replace(*replace)
            (workdir / path).write_text(text + (append or ""), encoding="utf-8")
        seconds, _, _, log = run_snakemake(workdir, cores)
        rules = rules_run(log)
        timed[name] = {"seconds": round(seconds, 1), "jobs": len(rules), "rules": sorted(set(rules))}
    return timed


def time_workflow(cores: int, tree: Path = ROOT, edits: bool = False) -> dict:
    """`snakemake all` from nothing in a scratch copy of ``tree``'s workflow; then, with ``edits``,
    the edits of ``EDITS`` on the finished run."""
    workdir = Path(tempfile.mkdtemp(prefix="cvsuite-times-"))
    try:
        copy_workflow(tree, workdir)
        seconds, cpu, scheduler, log = run_snakemake(workdir, cores)
        jobs = job_times(workdir / "benchmarks" / "jobs")
        record = {
            "seconds": round(seconds, 1),
            "cores": cores,
            "budget_seconds": BUDGET_SECONDS,
            "within_budget": seconds <= BUDGET_SECONDS,
            "cpu_seconds": round(cpu, 1),
            "job_cpu_seconds": round(cpu - scheduler, 1),
            "jobs": len(rules_run(log)),
            # The same, as the jobs' own `benchmark:` files sum it, and the comparison's share.
            "benchmark_files_cpu_seconds": round(sum(j["cpu_seconds"] or 0 for j in jobs.values()), 1),
            "compare_cpu_seconds": (jobs.get("compare") or {}).get("cpu_seconds"),
            "slowest_jobs": jobs,
        }
        if edits:
            record["edits"] = time_edits(workdir, cores)
        return record
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def run_listing() -> float:
    """The document's kNN listing (one study), timed as run from a scratch folder."""
    start = time.perf_counter()
    subprocess.run([sys.executable, str(LISTING)], capture_output=True, check=True, cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def against_baseline(ref: str, cores: int, rounds: int, edits: bool = False) -> dict:
    """This tree's workflow against ``ref``'s, run in turns: the ratio of the median wall and CPU times
    (all of it, and the jobs' alone); and, where the document's listing is at hand, the listing run
    just before each of this tree's runs, and the ratio of each run to its listing's.
    With ``edits``, the edits' jobs and times in ``ref``'s tree, after its first run."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    tree = Path(tempfile.mkdtemp(prefix="cvsuite-baseline-"))
    try:
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        runs, listing = {"baseline": [], "this_tree": []}, []
        for round_ in range(rounds):
            for name, source in (("baseline", tree), ("this_tree", ROOT)):
                if name == "this_tree" and LISTING.exists():
                    listing.append(round(run_listing(), 1))
                    print(f"round {round_ + 1}/{rounds} listing: {listing[-1]} s", file=sys.stderr)
                runs[name].append(time_workflow(cores, source, edits=edits and round_ == 0 and name == "baseline"))
                print(f"round {round_ + 1}/{rounds} {name}: {runs[name][-1]['seconds']} s", file=sys.stderr)
    finally:
        shutil.rmtree(tree, ignore_errors=True)

    def median_of(name: str, key: str) -> float:
        return median(run[key] for run in runs[name])

    side = {
        "baseline": ref,
        "baseline_commit": commit,
        "rounds": rounds,
        "baseline_seconds": [run["seconds"] for run in runs["baseline"]],
        "this_tree_seconds": [run["seconds"] for run in runs["this_tree"]],
        "baseline_cpu_seconds": [run["cpu_seconds"] for run in runs["baseline"]],
        "this_tree_cpu_seconds": [run["cpu_seconds"] for run in runs["this_tree"]],
        "baseline_job_cpu_seconds": [run["job_cpu_seconds"] for run in runs["baseline"]],
        "this_tree_job_cpu_seconds": [run["job_cpu_seconds"] for run in runs["this_tree"]],
        "wall_ratio": round(median_of("this_tree", "seconds") / median_of("baseline", "seconds"), 3),
        "cpu_ratio": round(median_of("this_tree", "cpu_seconds") / median_of("baseline", "cpu_seconds"), 3),
        "job_cpu_ratio": round(median_of("this_tree", "job_cpu_seconds") / median_of("baseline", "job_cpu_seconds"), 3),
        "baseline_benchmark_files_cpu_seconds": [run.get("benchmark_files_cpu_seconds") for run in runs["baseline"]],
        "this_tree_benchmark_files_cpu_seconds": [run["benchmark_files_cpu_seconds"] for run in runs["this_tree"]],
        "baseline_compare_cpu_seconds": [run.get("compare_cpu_seconds") for run in runs["baseline"]],
        "this_tree_compare_cpu_seconds": [run["compare_cpu_seconds"] for run in runs["this_tree"]],
    }
    if all(run.get("benchmark_files_cpu_seconds") for run in runs["baseline"]):
        side["benchmark_files_cpu_ratio"] = round(
            median_of("this_tree", "benchmark_files_cpu_seconds")
            / median_of("baseline", "benchmark_files_cpu_seconds"),
            3,
        )
    if listing:
        over = [run["seconds"] / seconds for run, seconds in zip(runs["this_tree"], listing)]
        side["listing_seconds"] = listing
        side["over_listing"] = round(median(over), 2)  # the median of each run over its listing
        side["over_listing_target"] = OVER_LISTING_TARGET
        side["within_over_listing_target"] = side["over_listing"] <= OVER_LISTING_TARGET
    side["job_cpu_ratio_target"] = JOB_CPU_RATIO_TARGET
    side["within_job_cpu_ratio_target"] = side["job_cpu_ratio"] <= JOB_CPU_RATIO_TARGET
    if edits:
        side["baseline_edits"] = runs["baseline"][0]["edits"]
    return side


# The fixed cost of a job: what a job pays before any work (the interpreter, its imports, reading its
# command line, writing its provenance), measured on jobs that compute nothing, through the same entry
# code as every job of the workflow (cvsuite.workflow.study_job, experiments/draw_figures.py). Issue
# 30's target: at most FIXED_COST_TARGET CPU-s for each.
FIXED_COST_TARGET = 0.25
EMPTY_STUDY_JOB = """
import pandas as pd
from cvsuite.workflow.study_job import StudyResult, run_job
run_job(lambda job: StudyResult(tables={"empty": pd.DataFrame({"value": []})}))
"""
# A figure job of a study whose draw() makes one empty figure in the suite's style from no table, run
# by the figure rules' own entry point: the study's figure module, cvsuite.figures.empty, is put in
# place before the entry point runs.
EMPTY_FIGURE_JOB = """
import runpy, sys, types
module = types.ModuleType("cvsuite.figures.empty")
exec(
    "def draw(inputs):\\n"
    "    from cvsuite.figures import style\\n"
    "    figure, _ = style.subplots(figsize=(6.4, 4.8))\\n"
    "    return {'empty': figure}\\n",
    module.__dict__,
)
sys.modules[module.__name__] = module
runpy.run_path(sys.argv.pop(1), run_name="__main__")
"""


def job_cpu(code: str, arguments: list[str], folder: Path) -> float:
    """The CPU seconds (user + system) of one job process running ``code`` with ``arguments``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # as Snakemake starts a job
    subprocess.run([sys.executable, "-c", code, *arguments], cwd=folder, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fixed_costs(rounds: int = 5) -> dict:
    """The median CPU seconds, over ``rounds`` runs each, of a study job that computes nothing and
    writes one empty table, and of a figure job that draws one empty figure from no table."""
    study = {
        "rule": "empty",
        "input": {},
        "output": {"empty": "empty.csv", "provenance": "provenance.json"},
        "wildcards": {},
        "threads": 1,
        "params": {"blocks": {}, "columns": {"empty": ["value"]}, "arrays": []},
    }
    figure = {
        "rule": "empty_figures",
        "input": {},
        "output": {
            "empty_png": "empty.png",
            "empty_svg": "empty.svg",
            "figure_checks": "figure_checks.csv",
            "provenance": "figures-provenance.json",
        },
        "wildcards": {},
        "threads": 1,
        "params": {"study": "empty", "blocks": {}, "tables": {}},
    }
    entry = str(ROOT / "experiments" / "draw_figures.py")
    folder = Path(tempfile.mkdtemp(prefix="cvsuite-fixed-"))
    try:
        study_cpu = [job_cpu(EMPTY_STUDY_JOB, [json.dumps(study), "job.log"], folder) for _ in range(rounds)]
        figure_arguments = [entry, json.dumps(figure), "figures.log"]
        figure_cpu = [job_cpu(EMPTY_FIGURE_JOB, figure_arguments, folder) for _ in range(rounds)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    medians = {
        "study_job_cpu_seconds": round(median(study_cpu), 3),
        "figure_job_cpu_seconds": round(median(figure_cpu), 3),
    }
    return {
        **medians,
        "target_cpu_seconds": FIXED_COST_TARGET,
        "within_target": max(medians.values()) <= FIXED_COST_TARGET,
    }


README_TIMES = "tests/test_packaging.py::test_the_time_page_and_the_readme_state_the_measured_times"


def time_pytest(*options: str, env: dict | None = None) -> dict:
    """One pytest run from the repository root, timed. The one test that reads this file's result is
    left out: it holds the README and docs/time.md to the times measured here, which do not exist
    until this run ends. It is left out through PYTEST_ADDOPTS, so that the pytest the Quick start
    test runs in a fresh clone (which reads the clone's committed times) leaves it out too."""
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTEST_ADDOPTS": f"--deselect {README_TIMES}", **(env or {})},
    )
    seconds = time.perf_counter() - start
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    return {"seconds": round(seconds, 1), "passed": run.returncode == 0, "summary": lines[-1] if lines else "",
            "failed": failed}  # fmt: skip


def openblas_kernels() -> list[str]:
    """The OpenBLAS kernels .ci/run runs the quick tests under: those this CPU can execute."""
    if platform.machine() != "x86_64":
        return []
    flags = set(Path("/proc/cpuinfo").read_text().split()) if Path("/proc/cpuinfo").exists() else set()
    return ["Prescott", "Sandybridge"] + ["Haswell"] * ("avx2" in flags) + ["SkylakeX"] * ("avx512f" in flags)


def time_tests() -> dict:
    """The three test runs .ci/run makes after installing: every tier, then the quick tests per kernel;
    and the quick tests alone, the README's second command."""
    return {
        "fast_tests": time_pytest(),
        "test_suite": time_pytest("--full"),
        "kernel_runs": {k: time_pytest(env={"OPENBLAS_CORETYPE": k}) for k in openblas_kernels()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--tests", action="store_true", help="also time the test suite (several minutes)")
    parser.add_argument("--baseline", metavar="REF", help="also run REF's workflow in turns with this one")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree with --baseline (default 3)")
    parser.add_argument("--edits", action="store_true", help="also time four edits on the finished run")
    args = parser.parse_args()
    record = {
        "measured": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "workflow_from_nothing": time_workflow(args.cores, edits=args.edits),
        "fixed_costs": fixed_costs(),
    }
    if args.baseline:
        record["against_baseline"] = against_baseline(args.baseline, args.cores, args.rounds, args.edits)
    if args.tests:
        record["tests_measured"] = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
        record.update(time_tests())
    elif TIMINGS.exists():
        previous = json.loads(TIMINGS.read_text())
        kept = ("tests_measured", "fast_tests", "test_suite", "kernel_runs")
        record.update({k: previous[k] for k in kept if k in previous})
    TIMINGS.write_text(json.dumps(record, indent=2) + "\n")
    TIME_PAGE.write_text(time_page(record), encoding="utf-8")
    print(json.dumps({k: v for k, v in record.items() if k != "machine"}, indent=2)[:3000])
    workflow = record["workflow_from_nothing"]
    verdict = "within" if workflow["within_budget"] else "OVER"
    budget = f"{verdict} the {BUDGET_SECONDS:.0f} s budget"
    print(f"snakemake all from nothing: {workflow['seconds']} s on {args.cores} cores, {budget}")
    if args.baseline:
        side = record["against_baseline"]
        print(
            f"against {args.baseline}: wall x{side['wall_ratio']} (median of {args.rounds} runs each, in turns), "
            f"CPU x{side['cpu_ratio']}, the jobs' CPU x{side['job_cpu_ratio']}"
        )
        print(f"  (the target: the jobs' CPU at most x{JOB_CPU_RATIO_TARGET})")
        if "over_listing" in side:
            print(
                f"each run over the listing run just before it: x{side['over_listing']} (median; "
                f"the target: at most x{OVER_LISTING_TARGET})"
            )
    fixed = record["fixed_costs"]
    print(
        f"fixed cost of a job computing nothing: study {fixed['study_job_cpu_seconds']} CPU-s, "
        f"figure {fixed['figure_job_cpu_seconds']} CPU-s (the target: at most {FIXED_COST_TARGET} each)"
    )


if __name__ == "__main__":
    main()
