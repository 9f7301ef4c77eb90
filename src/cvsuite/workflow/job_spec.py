"""What a job is told on its command line: its rule, files, wildcards, threads and parameters.

Every rule runs its entry point with ``shell:``, as ``python experiments/<entry>.py JOB LOG``, where
JOB is one JSON text that the rule's ``job`` parameter builds from the job's input, output,
wildcards and threads (``job_argument``, called by Snakemake) and LOG the job's log file.
``job_from_command_line`` reads them back into a ``JobSpec``, whose fields read as the ``snakemake``
object of a ``script:`` would (``job.input.code``, ``job.output.items()``, ``job.log[0]``). So a job
never imports Snakemake: the ``script:`` preamble did, and unpickled the job, for 0.17 s of CPU in
each of the 51 jobs of a run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any


class Named:
    """Files or values by name, read as Snakemake's named lists are: ``.name`` or ``["name"]`` gives
    one entry (a path, or a list of paths), ``keys()`` and ``items()`` the names; iterating, or
    indexing by position, gives every path, lists flattened."""

    def __init__(self, named: Mapping[str, Any] | None = None):
        self._named = dict(named or {})

    def __getattr__(self, name: str) -> Any:
        try:
            return self._named[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        return self.flat()[key] if isinstance(key, int) else self._named[key]

    def flat(self) -> list:
        return [item for value in self._named.values() for item in (value if isinstance(value, list) else [value])]

    def keys(self):
        return self._named.keys()

    def items(self):
        return self._named.items()

    def values(self):
        return self._named.values()

    def __iter__(self) -> Iterator:
        return iter(self.flat())

    def __len__(self) -> int:
        return len(self.flat())

    def __contains__(self, item) -> bool:
        return item in self.flat()


@dataclass(frozen=True)
class JobSpec:
    """One job as its entry point sees it."""

    rule: str
    input: Named
    output: Named
    log: list[str]
    threads: int
    wildcards: Named
    params: Named


def job_argument(rule: str, wildcards, input, output, threads: int, params: Mapping[str, Any]) -> str:
    """The JSON text of one job: what Snakemake's params function hands its command line."""
    return json.dumps(
        {
            "rule": rule,
            "input": dict(input.items()),
            "output": dict(output.items()),
            "wildcards": dict(wildcards.items()),
            "threads": int(threads),
            "params": dict(params),
        }
    )


def job_label(rule: str, wildcards) -> str:
    """How the terminal names a job: its rule, then its shard (``shape_image_datasets 0 40``)."""
    return rule + "".join(f" {v}" for v in wildcards.values())


def job_from_command_line(argv: list[str] | None = None) -> JobSpec:
    """The job of this process: its JSON text and its log file, the two arguments of its command."""
    arguments = sys.argv[1:] if argv is None else argv
    if len(arguments) != 2:
        raise SystemExit(f"usage: {sys.argv[0]} JOB LOG, with JOB the job's JSON text (see cvsuite.workflow.job_spec)")
    job, log = json.loads(arguments[0]), arguments[1]
    if argv is None:
        # The run's progress, one line a job as it starts (its shard too); Snakemake adds one as it ends.
        print(f"[{job_label(job['rule'], job['wildcards'])}] started", file=sys.stderr, flush=True)
    return JobSpec(
        rule=job["rule"],
        input=Named(job["input"]),
        output=Named(job["output"]),
        log=[log],
        threads=job["threads"],
        wildcards=Named(job["wildcards"]),
        params=Named(job["params"]),
    )
