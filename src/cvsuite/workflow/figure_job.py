"""Where a figure rule meets Snakemake: draw one study's figures from the files its study job wrote.

The rule ``<study>_figures`` runs experiments/draw_figures.py, which calls ``run_figure_job``. It
reads the study's tables (each when first asked for), its ``figure_arrays.npz`` and, for a study
whose figures draw published numbers (studies.yaml's ``figures_read_published``), the registry's
printed values; calls ``cvsuite.figures.<study>.draw``; checks each figure's layout (the study's
``figure_checks.csv``); saves every figure as PNG and SVG; and writes its provenance last, in
figures/<study>/provenance.json. A figure's edit reruns this job and the comparison, never the study.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

import pandas as pd

from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.workflow.catalog import FIGURE_FORMATS, figure_key
from cvsuite.workflow.outputs import end_job_process, logged_to, save_figure, write_provenance, write_table


class FigureMismatch(RuntimeError):
    """A study's ``draw`` returned figures other than the ones studies.yaml declares."""


class SavedTables(Mapping):
    """A study's tables by name, each read from its CSV file when first asked for (as written by
    ``write_table``: pandas reads its floats back exactly)."""

    def __init__(self, paths: Mapping[str, str]):
        self._paths, self._read = dict(paths), {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._read:
            self._read[name] = pd.read_csv(self._paths[name])
        return self._read[name]

    def __iter__(self):
        return iter(self._paths)

    def __len__(self) -> int:
        return len(self._paths)


def run_figure_job(snakemake) -> None:
    """Draw, check and save the figures of ``snakemake.params.study`` (see the module's docstring)."""
    params, study = snakemake.params, snakemake.params.study
    with logged_to(snakemake.log[0]):
        arrays = {}
        if "figure_arrays" in snakemake.input.keys():
            import numpy as np

            with np.load(snakemake.input.figure_arrays, allow_pickle=False) as saved:
                arrays = {name: saved[name] for name in saved.files}
        published = ()
        if "published" in snakemake.input.keys():
            from cvsuite.published.published_values import read_published_values

            published = read_published_values(snakemake.input.published)
        inputs = FigureInputs(
            config=dict(params.blocks), tables=SavedTables(params.tables), arrays=arrays, published=published
        )
        figures = importlib.import_module(f"cvsuite.figures.{study}").draw(inputs)
        write_figures(study, figures, dict(snakemake.output.items()), dict(params.blocks))
    end_job_process()


def write_figures(study: str, figures: dict, output: dict[str, str], blocks: dict) -> None:
    """Check the figures against the declared ones and their layout, then save them, provenance last.

    ``output`` maps output names to paths: ``<figure>_png``/``_svg``, ``figure_checks``, ``provenance``.
    """
    from cvsuite.figures.layout_checks import CHECK_COLUMNS, checked_figure

    declared = {key for key in output if key.endswith(tuple(f"_{fmt}" for fmt in FIGURE_FORMATS))}
    if {figure_key(name, fmt) for name in figures for fmt in FIGURE_FORMATS} != declared:
        declared_figures = sorted({key.rsplit("_", 1)[0] for key in declared})
        raise FigureMismatch(f"{study}: drew {sorted(figures)}, declared {declared_figures} (studies.yaml)")
    # The layout is checked on the drawn figure, before it is saved and closed.
    checked = {name: checked_figure(figure, f"{study}/{name}") for name, figure in figures.items()}
    checks = [row for check in checked.values() for row in check.rows]
    write_table(pd.DataFrame(checks, columns=CHECK_COLUMNS), output["figure_checks"])
    for name, figure in figures.items():
        # The checks' draw has laid the figure out and measured the box it is saved with. Passing that
        # box spares savefig a measure per format, and dropping the layout engine (not "none", which
        # keeps a placeholder engine) spares it a layout draw per format (the 17 figure jobs took 28.3
        # s of CPU instead of 32.0). The saved PNG is byte-identical to the one savefig's own tight box gives.
        figure.set_layout_engine(None)
        save_figure(figure, [output[figure_key(name, fmt)] for fmt in FIGURE_FORMATS], page=checked[name].saved_inches)
    # Last, with the checksum of every file above: a job cut short leaves no record to vouch for them.
    write_provenance(output["provenance"], f"{study}_figures", blocks, output.values())
