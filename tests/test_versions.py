"""The lower end of the tested range: the documents' own numpy, scipy and scikit-learn (and the site's
Jinja2 and latex2mathml at the lower ends of their ranges).

A fresh environment installs the project as pyproject.toml declares it, with numpy 2.3.5, scipy
1.16.3 and scikit-learn 1.7.2 (the versions the documents name) and every other package at the
lock's version; `snakemake all` runs there and in this environment (the lock's: the upper end).
Every registered number must read the same under both. Every table that differs is reported with the
cells that moved and by how much: printed, written beside the run, and warned about in the summary.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pandas as pd
import pytest

from conftest import ROOT, copy_workflow

pytestmark = [pytest.mark.versions, pytest.mark.workflow]

DOCUMENTS = {"numpy": "2.3.5", "scipy": "1.16.3", "scikit-learn": "1.7.2"}
# The lower ends of the site's two libraries (pyproject.toml), installed in the same environment.
SITE_LOWER_ENDS = {"jinja2": "3.1.2", "latex2mathml": "3.78.0"}
LOCK = ROOT / "requirements.lock"


def requirement_name(line: str) -> str:
    match = re.match(r"^([A-Za-z0-9_.-]+)==", line.strip())
    return match.group(1).lower().replace("_", "-") if match else ""


@pytest.fixture(scope="session")
def documents_python(tmp_path_factory) -> Path:
    """A fresh environment: the project as declared, the documents' three libraries, the rest as locked."""
    folder = tmp_path_factory.mktemp("documents-versions")
    constraints = folder / "constraints.txt"
    pinned = {**DOCUMENTS, **SITE_LOWER_ENDS}
    kept = [line for line in LOCK.read_text().splitlines() if requirement_name(line) not in pinned]
    constraints.write_text("\n".join(kept) + "\n")
    project = folder / "project"
    for name in ("pyproject.toml", "README.md"):
        project.mkdir(exist_ok=True)
        (project / name).write_bytes((ROOT / name).read_bytes())
    copy_workflow(project)
    subprocess.run([sys.executable, "-m", "venv", folder / "venv"], check=True)
    python = folder / "venv" / "bin" / "python"
    pins = [f"{name}=={version}" for name, version in pinned.items()]
    install = subprocess.run(
        [python, "-m", "pip", "install", "-q", "-c", constraints, *pins, project],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert install.returncode == 0, f"the project does not install with {pins}:\n{install.stderr[-3000:]}"
    return python


def read_table(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def cell_differences(name: str, ours: pd.DataFrame, theirs: pd.DataFrame) -> dict:
    """How a table moved: the cells that differ, in which columns, and the largest change."""
    if list(ours.columns) != list(theirs.columns) or ours.shape != theirs.shape:
        return {"table": name, "cells": "shape", "of": ours.size, "columns": "", "max_abs": "", "max_rel": ""}
    differ = ours.ne(theirs)
    columns = [c for c in ours.columns if differ[c].any()]
    a = ours[columns].apply(pd.to_numeric, errors="coerce")
    b = theirs[columns].apply(pd.to_numeric, errors="coerce")
    change = (a - b).abs()[differ[columns]]
    relative = (change / b.abs().where(b != 0))[differ[columns]]
    return {
        "table": name,
        "cells": int(differ.to_numpy().sum()),
        "of": ours.size,
        "columns": " ".join(columns),
        "max_abs": f"{change.max().max():.3g}",
        "max_rel": f"{relative.max().max():.3g}",
    }


def versions_of(workdir: Path) -> dict[str, str]:
    record = json.loads(next((workdir / "results").glob("*/provenance.json")).read_text())
    return {name: record["packages"][name] for name in DOCUMENTS}


def test_the_documents_library_versions_reproduce_every_number(documents_python, finished_workflow, tmp_path):
    workdir = copy_workflow(tmp_path / "workflow")
    run = subprocess.run(
        [documents_python, "-m", "snakemake", "all", "--cores", "2"],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert run.returncode == 0, f"snakemake all failed under {DOCUMENTS}:\n{run.stderr[-4000:]}"
    for record in (workdir / "results").rglob("provenance.json"):  # and every folder says so
        packages = json.loads(record.read_text())["packages"]
        assert {name: packages[name] for name in DOCUMENTS} == DOCUMENTS, record

    # The site is built under the lower ends of its libraries too, page for page, the math as MathML.
    pages = {p.name for p in (finished_workflow / "results" / "site").glob("*.html")}
    assert pages == {p.name for p in (workdir / "results" / "site").glob("*.html")}
    assert "<math" in (workdir / "results" / "site" / "sentences.html").read_text()

    def tables(run: Path) -> set[str]:  # the site's copies of the tables would count each twice
        return {p.relative_to(run).as_posix() for p in (run / "results").rglob("*.csv") if "site" not in p.parts}

    ours, theirs = tables(finished_workflow), tables(workdir)
    assert ours == theirs, f"the two runs wrote different tables: {sorted(ours ^ theirs)}"
    moved = [
        cell_differences(name, read_table(finished_workflow / name), read_table(workdir / name))
        for name in sorted(ours)
        if (finished_workflow / name).read_bytes() != (workdir / name).read_bytes()
    ]
    upper, lower = versions_of(finished_workflow), versions_of(workdir)
    report = [
        f"# Tables under {lower} against {upper}",
        "",
        f"{len(ours) - len(moved)} of {len(ours)} tables byte-identical.",
    ]
    if moved:
        report += ["", pd.DataFrame(moved).to_string(index=False)]
    (tmp_path / "versions.md").write_text("\n".join(report) + "\n")
    print("\n" + "\n".join(report))
    if moved:
        warnings.warn(
            f"{len(moved)} tables differ under the documents' versions: "
            + "; ".join(f"{m['table']} ({m['cells']} cells, max rel {m['max_rel']})" for m in moved),
            stacklevel=1,
        )

    claims = ["claim", "status", "reproduced_as_printed", "reproduced"]
    both = read_table(finished_workflow / "results" / "comparison.csv")[claims].merge(
        read_table(workdir / "results" / "comparison.csv")[claims], on="claim", suffixes=("_lock", "_documents")
    )
    digits = both[both["reproduced_lock"] != both["reproduced_documents"]]
    moved_claims = (
        f"{len(digits)} of {len(both)} registered numbers move at full precision, none of these as printed: "
        + " ".join(digits["claim"])
    )
    with (tmp_path / "versions.md").open("a") as out:
        out.write("\n" + moved_claims + "\n")
    print(moved_claims)
    changed = both[
        (both["status_lock"] != both["status_documents"])
        | (both["reproduced_as_printed_lock"] != both["reproduced_as_printed_documents"])
    ]
    assert changed.empty, f"registered numbers that depend on the library versions:\n{changed.to_string(index=False)}"
