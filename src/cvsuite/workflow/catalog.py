"""The list of studies (studies.yaml): what each one reads, writes and draws, kept in one place.

The Snakefile takes every study's outputs from here, the comparison checks the registry against
the tables declared here, the report takes its titles and order from here, and the tests check
that what a study writes is what it declares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cvsuite.published.column_patterns import columns_match, declares_column

__all__ = [
    "Catalog",
    "CatalogError",
    "Study",
    "columns_match",
    "declares_column",
    "figure_key",
    "load_catalog",
    "read_source",
]

FIGURE_FORMATS = ("png", "svg")


class CatalogError(ValueError):
    """studies.yaml says something the workflow cannot use; the message names the study and key."""


@dataclass(frozen=True)
class Study:
    """One study or simulation step: its tables (with columns) and figures under its name."""

    name: str
    tables: dict[str, list[str]]
    figures: list[str] = field(default_factory=list)
    captions: dict[str, str] = field(default_factory=dict)  # each figure's one-line caption
    title: str = ""
    source: str = ""
    config: list[str] = field(default_factory=list)
    report_tables: dict[str, list[str]] = field(default_factory=dict)
    figure_arrays: list[str] = field(default_factory=list)
    figures_read_published: bool = False
    starts_from_published: bool = False
    reads: dict[str, str] = field(default_factory=dict)

    def table_path(self, table: str, folder: str = "") -> str:
        """results/<study>[/<folder>]/<table>.csv"""
        return "/".join(p for p in ("results", self.name, folder, f"{table}.csv") if p)

    def figure_path(self, figure: str, fmt: str = "png") -> str:
        return f"figures/{self.name}/{figure}.{fmt}"

    def arrays_path(self) -> str:
        """results/<study>/figure_arrays.npz: what its figures need beyond its tables (images, curves)."""
        return f"results/{self.name}/figure_arrays.npz"

    def outputs(self, folder: str = "") -> dict[str, str]:
        """Every file the study's job writes, by output name: tables by their name, ``figure_arrays``
        for a study whose figures need arrays its tables do not hold, and ``provenance``."""
        files = {table: self.table_path(table, folder) for table in self.tables}
        if self.figure_arrays:
            files["figure_arrays"] = self.arrays_path()
        files["provenance"] = "/".join(p for p in ("results", self.name, folder, "provenance.json") if p)
        return files

    def figure_outputs(self) -> dict[str, str]:
        """Every file the study's figure job writes: figures as ``<figure>_png`` and ``<figure>_svg``,
        their captions as ``<figure>_caption`` (figures/<study>/<figure>.rst, for ``snakemake
        --report``), ``figure_checks`` (their layout checks, ``cvsuite.figures.layout_checks``) and
        ``provenance`` (figures/<study>/provenance.json)."""
        files = {figure_key(f, fmt): self.figure_path(f, fmt) for f in self.figures for fmt in FIGURE_FORMATS}
        files.update({caption_key(f): self.figure_path(f, "rst") for f in self.figures})
        files["figure_checks"] = self.table_path("figure_checks")
        files["provenance"] = f"figures/{self.name}/provenance.json"
        return files


def caption_key(figure: str) -> str:
    """The output name of a figure's caption file: ``<figure>_caption``."""
    return f"{figure}_caption"


def figure_key(figure: str, fmt: str) -> str:
    """The output name of one format of a figure: ``<figure>_png``, ``<figure>_svg``."""
    return f"{figure}_{fmt}"


@dataclass(frozen=True)
class Catalog:
    steps: dict[str, Study]
    studies: dict[str, Study]

    def table_columns(self) -> dict[str, list[str]]:
        """Every study's tables as ``<study>/<table>.csv`` (the registry's spelling) -> columns."""
        return {f"{s.name}/{t}.csv": cols for s in self.studies.values() for t, cols in s.tables.items()}


def load_catalog(path: str | Path) -> Catalog:
    """Read and check studies.yaml; CatalogError naming the study and key that is wrong."""
    from cvsuite.workflow import yaml_text  # here: a figure job names its files by figure_key, and needs no YAML

    path = Path(path)
    try:
        raw = yaml_text.safe_load(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise CatalogError(f"{path}: cannot read the list of studies ({err.strerror})") from None
    if not isinstance(raw, dict) or set(raw) != {"steps", "studies"}:
        raise CatalogError(f"{path}: must hold exactly the two blocks 'steps' and 'studies'")
    steps = {name: _study(path, name, body, step=True) for name, body in (raw["steps"] or {}).items()}
    studies = {name: _study(path, name, body, step=False) for name, body in (raw["studies"] or {}).items()}
    clash = set(steps) & set(studies)
    if clash:
        raise CatalogError(f"{path}: {', '.join(sorted(clash))} listed both as a step and as a study")
    for study in studies.values():
        for name, source in study.reads.items():
            _check_read(f"{path}: studies.{study.name}.reads.{name}", source, steps, studies)
    return Catalog(steps=steps, studies=studies)


def read_source(source: str) -> tuple[str, str, str]:
    """A ``reads`` entry, ``<study>.<table>`` or ``<step>.<table>[@<plan>]``, as (study or step, table,
    plan); the plan is the step's own name unless another is given, and empty for a study."""
    source, _, plan = source.partition("@")
    name, _, table = source.partition(".")
    return name, table, plan


def _check_read(where: str, source, steps: dict[str, Study], studies: dict[str, Study]) -> None:
    if not isinstance(source, str) or source.count(".") != 1:
        raise CatalogError(f"{where}: {source!r} is not '<study>.<table>' or '<step>.<table>'")
    name, table, plan = read_source(source)
    read = steps.get(name) or studies.get(name)
    if read is None:
        raise CatalogError(f"{where}: no study or step '{name}'")
    if table not in read.tables:
        raise CatalogError(f"{where}: '{name}' has no table '{table}' (it has {', '.join(read.tables)})")
    if plan and name not in steps:
        raise CatalogError(f"{where}: '@{plan}' names shards, and '{name}' is a study, not a step")


_STUDY_KEYS = {
    "title",
    "source",
    "config",
    "tables",
    "figures",
    "figure_arrays",
    "figures_read_published",
    "report_tables",
    "starts_from_published",
    "reads",
}
_STEP_KEYS = {"tables"}


def _study(path: Path, name: str, body, step: bool) -> Study:
    where = f"{path}: {'steps' if step else 'studies'}.{name}"
    if not isinstance(body, dict):
        raise CatalogError(f"{where}: must be a mapping")
    allowed = _STEP_KEYS if step else _STUDY_KEYS
    unknown = set(body) - allowed
    if unknown:
        raise CatalogError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed: {', '.join(sorted(allowed))}"
        )
    if not step:
        for key in ("title", "source", "config"):
            if not body.get(key):
                raise CatalogError(f"{where}.{key} is missing")
    tables = body.get("tables") or {}
    if not tables or not all(isinstance(c, list) and c for c in tables.values()):
        raise CatalogError(f"{where}.tables: every table needs a list of its columns")
    captions = body.get("figures") or {}
    if not isinstance(captions, dict) or not all(isinstance(c, str) and c.strip() for c in captions.values()):
        raise CatalogError(f"{where}.figures: must map each figure's name to its one-line caption")
    figures = list(captions)
    if "figure_checks" in tables:
        raise CatalogError(
            f"{where}.tables: 'figure_checks' is the name of the layout checks every drawing study writes"
        )
    for figure in figures:
        if any(figure_key(figure, fmt) in tables for fmt in FIGURE_FORMATS) or caption_key(figure) in tables:
            raise CatalogError(f"{where}.figures: '{figure}' clashes with a table's output name")
    figure_arrays = list(body.get("figure_arrays") or [])
    if figure_arrays and not figures:
        raise CatalogError(f"{where}.figure_arrays: only a study that draws figures saves arrays for them")
    read_published = body.get("figures_read_published", False)
    starts_from_published = body.get("starts_from_published", False)
    for key, value in (("figures_read_published", read_published), ("starts_from_published", starts_from_published)):
        if not isinstance(value, bool):
            raise CatalogError(f"{where}.{key}: must be true or false")
    reads = body.get("reads") or {}
    if not isinstance(reads, dict):
        raise CatalogError(f"{where}.reads: must map each input's name to '<study>.<table>'")
    clashes = {"code", "published"} & set(reads)
    if clashes:
        raise CatalogError(f"{where}.reads: {', '.join(sorted(clashes))} is the name of an input every rule has")
    report_tables = body.get("report_tables") or {}
    for table, columns in report_tables.items():
        if table not in tables or not set(columns) <= set(tables[table]):
            raise CatalogError(f"{where}.report_tables.{table}: not a table of the study, or columns it does not have")
    return Study(
        name=name,
        tables={t: [str(c) for c in cols] for t, cols in tables.items()},
        figures=figures,
        captions={str(f): " ".join(c.split()) for f, c in captions.items()},
        title=body.get("title", ""),
        source=body.get("source", ""),
        config=list(body.get("config") or []),
        report_tables=report_tables,
        figure_arrays=figure_arrays,
        figures_read_published=read_published,
        starts_from_published=starts_from_published,
        reads={str(k): v for k, v in reads.items()},
    )
