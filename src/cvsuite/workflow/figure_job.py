"""Where a figure rule meets its job: draw one study's figures from the files its study job wrote.

The rule ``<study>_figures`` runs experiments/draw_figures.py, which calls ``run_figure_job`` on the
job its command line gives (``cvsuite.workflow.job_spec``). It
reads the study's tables (each when first asked for), its ``figure_arrays.npz`` and, for a study
whose figures draw published numbers (studies.yaml's ``figures_read_published``), the registry's
printed values; calls ``cvsuite.figures.<study>.draw``; checks each figure's layout (the study's
``figure_checks.csv``); saves every figure as PNG and SVG, with its caption from studies.yaml
beside it (``<figure>.rst``, for ``snakemake --report``); and writes its provenance last, in
figures/<study>/provenance.json. A figure's edit reruns this job and the comparison, never the study.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING

from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.workflow.catalog import FIGURE_FORMATS, caption_key, figure_key
from cvsuite.workflow.job_spec import JobSpec, job_from_command_line
from cvsuite.workflow.outputs import end_job_process, logged_to, save_figure, write_provenance, write_table, write_text

if TYPE_CHECKING:
    import pandas as pd


class FigureMismatch(RuntimeError):
    """A study's ``draw`` returned figures other than the ones studies.yaml declares."""


class SavedTables(Mapping):
    """A study's tables by name, each read from its CSV file when first asked for (as written by
    ``write_table``: pandas reads its floats back exactly)."""

    def __init__(self, paths: Mapping[str, str]):
        self._paths, self._read = dict(paths), {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._read:
            import pandas as pd  # here: a figure drawn from arrays alone need not import it

            self._read[name] = pd.read_csv(self._paths[name])
        return self._read[name]

    def __iter__(self):
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def run_figure_job(job: JobSpec | None = None) -> None:
    """Draw, check and save the figures of the job's ``params.study`` (the job is read from the
    command line unless given; see the module's docstring)."""
    job = job_from_command_line() if job is None else job
    params, study = job.params, job.params.study
    with logged_to(job.log[0]):
        arrays = {}
        if "figure_arrays" in job.input.keys():
            import numpy as np

            with np.load(job.input.figure_arrays, allow_pickle=False) as saved:
                arrays = {name: saved[name] for name in saved.files}
        published = ()
        if "published" in job.input.keys():
            from cvsuite.published.published_values import read_published_values

            published = read_published_values(job.input.published)
        inputs = FigureInputs(
            config=dict(params.blocks), tables=SavedTables(params.tables), arrays=arrays, published=published
        )
        figures = importlib.import_module(f"cvsuite.figures.{study}").draw(inputs)
        write_figures(study, figures, dict(job.output.items()), dict(params.blocks), dict(params.captions))
    end_job_process()


def write_figures(study: str, figures: dict, output: dict[str, str], blocks: dict, captions: dict[str, str]) -> None:
    """Check the figures against the declared ones, save them with their layout checked, then the
    checks, provenance last.

    ``output`` maps output names to paths: ``<figure>_png``/``_svg``/``_caption``, ``figure_checks``,
    ``provenance``; ``captions`` each figure's caption.
    """
    import pandas as pd

    from cvsuite.figures.layout_checks import CHECK_COLUMNS, checked_when_saved
    from cvsuite.figures.layout_geometry import lay_out

    declared = {key for key in output if key.endswith(tuple(f"_{fmt}" for fmt in FIGURE_FORMATS))}
    if {figure_key(name, fmt) for name in figures for fmt in FIGURE_FORMATS} != declared:
        declared_figures = sorted({key.rsplit("_", 1)[0] for key in declared})
        raise FigureMismatch(f"{study}: drew {sorted(figures)}, declared {declared_figures} (studies.yaml)")
    checks = []
    for name, figure in figures.items():
        # Laid out and measured once, then drawn once per format: the layout is checked on the draw
        # that saves the PNG, the first format, not on a draw of its own.
        page = lay_out(figure)
        with checked_when_saved(figure, f"{study}/{name}") as rows:
            save_figure(figure, [output[figure_key(name, fmt)] for fmt in FIGURE_FORMATS], page=page)
        checks += rows
    write_table(pd.DataFrame(checks, columns=CHECK_COLUMNS), output["figure_checks"])
    for name in figures:
        write_text(captions[name] + "\n", output[caption_key(name)])
    # Last, with the checksum of every file above: a job cut short leaves no record to vouch for them.
    write_provenance(output["provenance"], f"{study}_figures", blocks, output.values())
