"""The edge where studies meet the file system: atomic tables, figures, provenance, logs.

Used by `cvsuite.workflow.study_job`, which writes every study's result, and by the entry points in
experiments/. Every file is written under a temporary name in its own folder and renamed into
place, so an interrupted job never leaves a half-written file with a valid name.
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

from cvsuite.workflow.output_records import recorded_outputs

if TYPE_CHECKING:
    import pandas as pd

PACKAGES = ("numpy", "scipy", "scikit-learn", "pandas", "matplotlib", "snakemake")


def current_umask() -> int:
    """The process's file-creation mask (reading it means setting it: set it straight back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(path: str | Path):
    """Yield a temporary path beside ``path``; rename it to ``path`` only if the block succeeds.

    The temporary file is made private (mkstemp's 0600) while it is written; the finished file gets
    the mode any new file would, 0666 less the user's umask, so that on a shared file system others
    can read the results as they can read anything else the user writes.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def write_table(table: pd.DataFrame, path: str | Path) -> None:
    """Write a tidy CSV table; floats at full (round-trip) precision, so reruns are byte-identical."""
    with atomic_path(path) as tmp:
        table.to_csv(tmp, index=False, lineterminator="\n")


def write_arrays(arrays: dict, path: str | Path) -> None:
    """Write named arrays to one ``.npz`` (what a study's figures need beyond its tables), readable by
    ``numpy.load``. Its members carry a fixed date, where ``numpy.savez`` stamps the time of writing,
    so a rerun writes the same bytes."""
    import zipfile

    import numpy as np

    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, value in arrays.items():
            member = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(member, "w", force_zip64=True) as handle:
                np.lib.format.write_array(handle, np.asarray(value), allow_pickle=False)


def read_tables(paths) -> pd.DataFrame:
    """Read CSV tables written by ``write_table`` and stack them in the order given.

    pandas 3 reads floats back exactly, so a table gathered from shards has the same bytes as
    one written in a single job.
    """
    import pandas as pd  # here: the Snakefile imports this module, and not every start needs pandas

    return pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)


def write_text(text: str, path: str | Path) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_text_if_changed(text: str, path: str | Path) -> None:
    """``write_text``, unless the file already holds ``text``: for a file Snakemake takes as an input
    (a rule's code stamp, the registry's printed values), whose new time alone would rerun its jobs."""
    path = Path(path)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_text(text, path)


def write_folder(path: str | Path, files: dict[str, bytes], copies: dict[str, str | Path]) -> None:
    """Write a folder whole: ``files`` ({name: bytes}) and ``copies`` ({name: source file}), built under a
    temporary name beside ``path`` and renamed into place, so it is never seen half written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent))
    try:
        for name, data in files.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_bytes(data)
        for name, source in copies.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, tmp / name)
        mode = 0o777 & ~current_umask()
        for folder in [tmp, *(p for p in tmp.rglob("*") if p.is_dir())]:
            os.chmod(folder, mode)
        for file in (p for p in tmp.rglob("*") if p.is_file()):
            os.chmod(file, mode & 0o666)
        if path.exists():
            shutil.rmtree(path)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)


# How each format is written: an SVG without the date, so that a rerun writes the same bytes; a PNG
# compressed at zlib's level 3 rather than Pillow's 6 (the same pixels, files a little larger,
# encoded in markedly less CPU).
SAVE_OPTIONS = {"svg": {"metadata": {"Date": None}}, "png": {"pil_kwargs": {"compress_level": 3}}}


def save_figure(fig, paths, page=None) -> None:
    """Save one matplotlib figure to each path (PNG for reading, SVG for print).

    ``page``, a box in inches, is the part saved (default: savefig.bbox, measured per format)."""
    for path in paths:
        path = Path(path)
        with atomic_path(path) as tmp:
            fmt = path.suffix.lstrip(".")
            fig.savefig(tmp, format=fmt, bbox_inches=page, **SAVE_OPTIONS.get(fmt, {}))


def git_commit(cwd: str | Path = ".") -> dict:
    """The commit the workflow ran from, and whether tracked files differed from it."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return {"commit": head, "uncommitted_changes": bool(dirty)}
    except (OSError, subprocess.CalledProcessError):
        return {"commit": "unknown (not a git checkout)", "uncommitted_changes": None}


def package_versions() -> dict:
    # Here: every job imports this module, and importlib.metadata imports the email package, while
    # the versions are read once per run (run_record).
    from importlib import metadata

    versions = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


# The environment variable that hands every job of a run its commit and package versions (run_record).
RUN_RECORD = "CVSUITE_RUN_RECORD"


def run_record() -> dict:
    """What every job of one run shares in its provenance: the package versions and the commit. The
    Snakefile reads it once and hands it to the jobs in ``RUN_RECORD`` (two git calls and six package
    lookups in each of 47 jobs cost 1.4 s of CPU); a job started without it reads it itself."""
    shared = os.environ.get(RUN_RECORD)
    return json.loads(shared) if shared else {"packages": package_versions(), "git": git_commit()}


def write_provenance(path: str | Path, study: str, parameters: dict, written=()) -> None:
    """Record what a results folder was made from: the config values, package versions, commit; and
    the sha256 of every file the job wrote (``written``, which may name this record itself; see
    ``cvsuite.workflow.output_records``). Written last, so a job cut short leaves no record."""
    record = {
        "study": study,
        "config": parameters,
        **run_record(),
        "command": "snakemake (see logs/)",
        "outputs": recorded_outputs(p for p in map(str, written) if Path(p) != Path(path)),
        # The library modules this job imported, lazy ones included: what its code inputs must cover.
        "modules": sorted(m for m in sys.modules if m.split(".")[0] == "cvsuite"),
    }
    write_text(json.dumps(record, indent=2, sort_keys=True, default=_jsonable) + "\n", path)


def _jsonable(value):
    if isinstance(value, float):
        return repr(value)
    return str(value)


@contextlib.contextmanager
def logged_to(log_path: str | Path | None):
    """Send a job's stdout and stderr to its log file; keep the traceback there if it fails."""
    if not log_path:
        yield
        return
    Path(log_path).parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "w", encoding="utf-8") as log, contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        try:
            yield
        except BaseException:
            traceback.print_exc(file=log)
            log.flush()
            sys.__stderr__.write(f"failed; see {log_path}\n")
            raise


def end_job_process() -> None:
    """End a job's process once everything it wrote is closed: the interpreter's teardown (freeing
    every object of pandas, matplotlib and scipy, one by one) costs 0.06-0.1 s of CPU a job, about
    4 s in a run of 47 jobs, and does nothing for a process about to exit. Only for a job that
    succeeded: a failure raises, and its traceback reaches the log and Snakemake as usual."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
