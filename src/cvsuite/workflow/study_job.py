"""Where an entry point in experiments/ meets its job: run one study and write what it returns.

An entry point is a function from a ``Job`` (the study's config blocks and its input files) to a
``StudyResult`` (tables by name, and the arrays its figures need beyond them). ``run_job`` reads the
job from the command line (``cvsuite.workflow.job_spec``) and calls it with the job's log open and
one BLAS thread per Snakemake thread, then writes every table to the output of the same name, the
arrays to one ``.npz`` and, last, the provenance file with every other file's checksum, refusing a
result whose tables, columns or arrays are not the ones the rule declares (studies.yaml). So no
entry point writes a file itself, and none can forget one. The figures are drawn by the study's
figure job from these files (``cvsuite.workflow.figure_job``), so restyling a figure never reruns
its study.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cvsuite.published.column_patterns import columns_match
from cvsuite.workflow.job_spec import JobSpec, job_from_command_line, job_label
from cvsuite.workflow.outputs import end_job_process, logged_to, write_arrays, write_provenance, write_table

if TYPE_CHECKING:
    import pandas as pd  # the study's code imports it; a job that writes no table need not


@dataclass
class Job:
    """What an entry point reads: config blocks by name, input files by name, wildcards; and where
    a long study says how far it has got (``progress``)."""

    config: dict[str, Any]
    input: Any
    wildcards: Any = None
    name: str = "study"
    every_seconds: float = 2.0
    _started: float = field(default_factory=time.monotonic)
    _last: float = -1e9

    def progress(self, done: int, total: int, what: str = "datasets") -> None:
        """One line to the job's log and the terminal, at most every ``every_seconds`` and at the end.

        Library loops take it as a plain callback (``progress(done, total)``), so they stay free of I/O.
        """
        now = time.monotonic()
        if done < total and now - self._last < self.every_seconds:
            return
        self._last = now
        line = f"[{self.name}] {done}/{total} {what} ({now - self._started:.0f} s)"
        print(line, flush=True)  # the log: run_job sends stdout there
        if sys.__stderr__ is not None and sys.stdout is not sys.__stdout__:
            print(line, file=sys.__stderr__, flush=True)  # and the terminal


@dataclass
class StudyResult:
    """What an entry point returns: tables by name, the arrays its figures need that no table holds
    (studies.yaml's ``figure_arrays``), and notes for its provenance."""

    tables: dict[str, pd.DataFrame]
    arrays: dict[str, Any] = field(default_factory=dict)
    provenance: dict[str, Any] = field(default_factory=dict)


class OutputMismatch(RuntimeError):
    """A study returned tables, columns or figures other than the ones its rule declares."""


def run_job(compute: Callable[[Job], StudyResult], job: JobSpec | None = None) -> None:
    """Run ``compute`` for this job (read from the command line unless given) and write its result
    (see the module's docstring)."""
    from threadpoolctl import threadpool_limits

    job = job_from_command_line() if job is None else job
    params = job.params
    with logged_to(job.log[0]):
        # Parallelism belongs to Snakemake jobs: BLAS threads inside a job only slow it down, and one
        # thread keeps the last bits of every matrix product independent of the machine's cores.
        with threadpool_limits(limits=job.threads):
            name = job_label(job.rule, job.wildcards)
            result = compute(Job(config=dict(params.blocks), input=job.input, wildcards=job.wildcards, name=name))
        write_result(job.rule, result, dict(job.output.items()), params.blocks, params.columns, params.arrays)
    end_job_process()


def _with_declared_columns(table: pd.DataFrame, declared: list[str]) -> pd.DataFrame:
    """A table built from no rows has no columns: it takes its declared ones, where they are names
    (a pattern, ``prefix_*``, names no column)."""
    if table.empty and len(table.columns) == 0 and not any("*" in c for c in declared):
        import pandas as pd  # here: the Snakefile imports this module, and not every start needs pandas

        return pd.DataFrame(columns=declared)
    return table


def write_result(
    study: str,
    result: StudyResult,
    output: dict[str, str],
    blocks: dict,
    columns: dict[str, list[str]],
    arrays: list[str] = (),
) -> None:
    """Check the result against the declared tables and arrays, then write it, provenance last.

    ``output`` maps output names to paths: tables by name, ``figure_arrays``, ``provenance``.
    """
    declared = set(columns)
    if set(result.tables) != declared:
        raise OutputMismatch(
            f"{study}: wrote tables {sorted(result.tables)}, declared {sorted(declared)} (studies.yaml)"
        )
    tables = {name: _with_declared_columns(table, columns[name]) for name, table in result.tables.items()}
    for name, table in tables.items():
        if not columns_match(columns[name], [str(c) for c in table.columns]):
            raise OutputMismatch(
                f"{study}: table '{name}' has columns {list(table.columns)}, declared {columns[name]} (studies.yaml)"
            )
    if set(result.arrays) != set(arrays):
        raise OutputMismatch(
            f"{study}: saved arrays {sorted(result.arrays)}, declared {sorted(arrays)} (studies.yaml figure_arrays)"
        )
    for name, table in tables.items():
        write_table(table, output[name])
    if arrays:
        write_arrays(result.arrays, output["figure_arrays"])
    # Last, with the checksum of every file above: a job cut short leaves no record to vouch for them.
    write_provenance(output["provenance"], study, {**blocks, **result.provenance}, output.values())
