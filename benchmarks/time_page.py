"""docs/time.md, written from benchmarks/timings.json: what `workflow_times.py` measured, and how.

The page is generated, never typed: `workflow_times.py` writes it after each measurement, and
tests/test_packaging.py holds the committed page to what this renders from the committed timings.
"""

from __future__ import annotations


def median(values) -> float:
    """The middle of an odd number of runs (the upper middle of an even one), as every ratio takes it."""
    ordered = sorted(values)
    return float(ordered[len(ordered) // 2])


def _jobs(run: dict) -> str:
    return f"{run['jobs']} job{'' if run['jobs'] == 1 else 's'}, {run['seconds']} s"


def _within(flag: bool) -> str:
    return "within it" if flag else "over it"


def time_page(timings: dict) -> str:
    """The Markdown of docs/time.md for one timings.json."""
    machine, workflow = timings["machine"], timings["workflow_from_nothing"]
    side = timings.get("against_baseline")
    command = "benchmarks/workflow_times.py --tests" + (" --edits" if workflow.get("edits") else "")
    if side:
        command += f" --baseline {side['baseline']} --rounds {side['rounds']}"
    packages = ", ".join(f"{name} {version}" for name, version in machine["packages"].items())
    out = [
        "# Time",
        "",
        "<!-- Written by benchmarks/workflow_times.py from benchmarks/timings.json; do not edit. -->",
        "",
        f"Measured on {timings['measured']} by `{command}`, on {machine['processor']}, {machine['cores']} cores, "
        f"{machine['memory_gib']} GiB (load {machine['load_average_at_start']} when it started; Python "
        f"{machine['python']}, {packages}). Each job's wall and CPU time are read from the files of "
        "Snakemake's `benchmark:` directive (`benchmarks/jobs/`, one per job); the jobs' CPU all together "
        "is the run's CPU less Snakemake's own process, since those files sample twice a second and miss "
        "the shortest jobs.",
        "",
        "Times from another day or machine are not comparable (the same code's time has moved by a factor "
        "of two between sessions on machines of one kind), so every speed target is a ratio to a run "
        "made in the same session, in turns: main before a change (`--baseline`), or the document's own "
        "kNN listing.",
        "",
        "## The workflow from nothing",
        "",
    ]
    slowest = list(workflow["slowest_jobs"].items())[:3]
    largest = "; ".join(f"`{name}` {job['cpu_seconds']} s" for name, job in slowest)
    out.append(
        f"`snakemake all` from nothing takes {workflow['seconds']} s on {workflow['cores']} cores "
        f"({workflow['jobs']} jobs; {workflow['cpu_seconds']} s of CPU, {workflow['job_cpu_seconds']} s of it the "
        f"jobs'; the longest jobs, by their CPU: {largest}), against a budget of {workflow['budget_seconds']} s: "
        f"{_within(workflow['within_budget'])}."
    )
    fixed = timings.get("fixed_costs")
    if fixed:
        out += [
            "",
            f"A job that computes nothing costs {fixed['study_job_cpu_seconds']} s of CPU as a study job and "
            f"{fixed['figure_job_cpu_seconds']} s as a figure job (medians of five), against a target of "
            f"{fixed['target_cpu_seconds']} s each: {_within(fixed['within_target'])}.",
        ]
    if side:
        medians = [median(side[key]) for key in ("this_tree_seconds", "baseline_seconds")]
        jobs = [median(side[key]) for key in ("this_tree_job_cpu_seconds", "baseline_job_cpu_seconds")]
        out += [
            "",
            f"## Beside {side['baseline']}",
            "",
            f"Beside commit {side['baseline']} (`--baseline {side['baseline']}`, {side['rounds']} runs of each in "
            f"turns), this tree takes {side['wall_ratio']} times as long (medians {medians[0]} s against "
            f"{medians[1]} s; CPU {side['cpu_ratio']} times). The jobs' CPU is {side['job_cpu_ratio']} times the "
            f"baseline's ({jobs[0]} s against {jobs[1]} s), against a target of at most "
            f"{side['job_cpu_ratio_target']}: {_within(side['within_job_cpu_ratio_target'])}.",
        ]
        if side.get("benchmark_files_cpu_ratio"):
            files = [
                median(side[key])
                for key in ("this_tree_benchmark_files_cpu_seconds", "baseline_benchmark_files_cpu_seconds")
            ]
            out[-1] += (
                f" Summed from the jobs' `benchmark:` files, the ratio is {side['benchmark_files_cpu_ratio']} "
                f"({files[0]} s against {files[1]} s)."
            )
        compare = [c for c in side.get("this_tree_compare_cpu_seconds", []) if c is not None]
        if compare:
            before = [c for c in side.get("baseline_compare_cpu_seconds", []) if c is not None]
            out[-1] += f" The comparison job alone takes {median(compare)} s of CPU" + (
                f" ({median(before)} s at the baseline)." if before else "."
            )
        if side.get("listing_seconds"):
            out += [
                "",
                f"The document's kNN listing, run just before each of this tree's runs, took "
                f"{min(side['listing_seconds'])}-{max(side['listing_seconds'])} s: the workflow takes "
                f"{side['over_listing']} times as long (the median of each run over its listing's), against a "
                f"target of {side['over_listing_target']}: {_within(side['within_over_listing_target'])}.",
            ]
    edits = workflow.get("edits", {})
    if edits:
        out += [
            "",
            "## Edits on a finished run",
            "",
            "Edits made one after another on a finished run, each followed by `snakemake all`"
            + (f" (in brackets, the same edits on {side['baseline']})" if side and "baseline_edits" in side else "")
            + "; the jobs are counted without `all`:",
            "",
        ]
        for name, run in edits.items():
            before = side["baseline_edits"][name] if side and "baseline_edits" in side else None
            rules = ", ".join(f"`{r}`" for r in run.get("rules", [])) or "none"
            told = f"- {name}: {_jobs(run)}" + (f" ({_jobs(before)})" if before else "")
            out.append(f"{told}; reruns {rules}.")
    fast, full, kernels = timings.get("fast_tests"), timings.get("test_suite"), timings.get("kernel_runs")
    if fast and full and kernels:
        runs = ", ".join(f"{kernel} {run['seconds']} s" for kernel, run in kernels.items())
        out += [
            "",
            "## The tests",
            "",
            (f"Measured on {timings['tests_measured']}. " if timings.get("tests_measured") else "")
            + f"Each run as `.ci/run` makes it after installation: a bare `pytest`, {fast['seconds']} s "
            f"({fast['summary']}); `pytest --full`, {full['seconds']} s ({full['summary']}); and the quick "
            f"tests again under each OpenBLAS kernel ({runs}). The timed runs leave out the one test that holds "
            "this page to `timings.json`.",
        ]
    return "\n".join(out) + "\n"
