"""The trials on the finished tiny run (tests/test_tiny_workflow.py reads them): each an edit made on a
copy of the run, then Snakemake commands run on the copy in turn.

They are independent of each other and of every other test, so conftest.py starts them the moment
the tiny run ends, as many at a time as there are cores, while the unit tests go on: run after the
tiny run, in turn, they left one core idle for a sixth of a bare ``pytest``.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from conftest import TINY_CONFIG, copy_finished, snakemake

DRY = ("all", "-n", "--configfile", TINY_CONFIG.name)
RUN = ("all", "--cores", "2", "--configfile", TINY_CONFIG.name)
REGISTRY = "registry/regularization_and_cross_validation.yaml"
KEPT = ("results/REPORT.md", "results/comparison.csv")


def edited(path: str, change: Callable[[str], str]) -> Callable[[Path], None]:
    def edit(workdir: Path) -> None:
        file = workdir / path
        before = file.read_text(encoding="utf-8")
        assert change(before) != before, path
        file.write_text(change(before), encoding="utf-8")

    return edit


def halved(path: str) -> Callable[[Path], None]:
    def edit(workdir: Path) -> None:
        table = workdir / path
        table.write_bytes(table.read_bytes()[: table.stat().st_size // 2])  # as a full disk would leave it

    return edit


def one_cell_raised(path: str) -> Callable[[Path], None]:
    def edit(workdir: Path) -> None:
        table = workdir / path
        lines = table.read_text().splitlines(keepends=True)
        cells = lines[1].split(",")
        cells[1] = str(int(cells[1]) + 1)  # one cell of the first row, as a hand edit would
        table.write_text(lines[0] + ",".join(cells) + "".join(lines[2:]))

    return edit


def first_record_copied(text: str) -> str:
    return text + "\n" + re.search(r"  - id: .*?\n(?=\n)", text, re.S)[0].replace("- id: ", "- id: z.", 1)


def printed_norm_changed(text: str) -> str:
    record = text.index("- id: rcv.823.norm-degree-15\n")
    published = text.index("published: '81,050'", record)
    return text[:published] + "published: '81,051'" + text[published + 19 :]


TRIALS: dict[str, tuple[Callable[[Path], None], tuple[tuple[str, ...], ...]]] = {
    # first, as the longest: two runs in turn; its table is read by the comparison alone, a quick rebuild
    "a damaged table": (halved("results/degree_sweep/summary.csv"), (RUN, (*RUN, "--forcerun", "degree_sweep"))),
    "nothing": (lambda workdir: None, (DRY,)),
    "a record's note": (edited(REGISTRY, lambda t: re.sub(r"(\n    note: )([A-Z])", r"\1Here \2", t, count=1)), (DRY,)),
    "a vague word's bound": (
        edited("registry/scales.yaml", lambda t: t.replace("below: '1.5'", "below: '1.6'", 1)),
        (DRY,),
    ),
    "a judge's code": (edited("src/cvsuite/published/exact_judges.py", lambda t: t + "# a comment\n"), (DRY,)),
    "a new record": (edited(REGISTRY, first_record_copied), (DRY,)),
    "a printed value": (edited(REGISTRY, printed_norm_changed), (DRY,)),
    "the ridge module": (edited("src/cvsuite/methods/ridge.py", lambda t: t + "# a comment\n"), (DRY,)),
    "a figure module": (edited("src/cvsuite/figures/k_bias.py", lambda t: t + "# a comment\n"), (DRY,)),
    "a caption": (
        edited("studies.yaml", lambda t: t.replace("The K = 5 partition", "The K = 5 partition, drawn,", 1)),
        (DRY,),
    ),
    "a hand-edited cell": (one_cell_raised("results/k_bias/k_bias.csv"), (RUN,)),
}


@dataclass
class Trial:
    workdir: Path
    before: dict  # the state of results/ after the edit (see ``state``)
    runs: list  # each command's CompletedProcess and the state of results/ after it


def state(workdir: Path) -> dict:
    """Every result file's modification time, and the bytes of the report and the comparison."""
    files = {str(p.relative_to(workdir)): p.stat().st_mtime_ns for p in (workdir / "results").rglob("*") if p.is_file()}
    return {**files, **{f"{name} bytes": (workdir / name).read_bytes() for name in KEPT}}


def tried(workdir: Path, edit: Callable[[Path], None], commands) -> Trial:
    edit(workdir)
    trial = Trial(workdir, state(workdir), [])
    for command in commands:
        run = snakemake(workdir, *command)
        trial.runs.append(
            (subprocess.CompletedProcess(run.args, run.returncode, run.stdout + run.stderr), state(workdir))
        )
    return trial


def planned_rules(run) -> set[str]:
    """The rules a dry run would run, from its "Job stats" table (the default profile leaves out each
    job's listing)."""
    _, found, stats = run.stdout.partition("Job stats:")
    return set(re.findall(r"^(\w+)\s+\d+$", stats.split("\ntotal", 1)[0], re.M)) if found else set()


def only_run(trial: Trial) -> subprocess.CompletedProcess:
    (run, _), *more = trial.runs
    assert not more
    return run


def run_trials(finished: Path, folder: Path) -> dict[str, Trial]:
    """Every trial, each on its own copy of ``finished`` under ``folder``, as many at once as there are cores."""
    copies = {name: copy_finished(finished, folder / f"{number}") for number, name in enumerate(TRIALS)}
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        futures = {name: pool.submit(tried, copies[name], *TRIALS[name]) for name in TRIALS}
        return {name: future.result() for name, future in futures.items()}
