"""What a study's figures are drawn from: the files its study job saved, never its live objects.

A figure module's ``draw(inputs)`` gets the study's tables (results/<study>/*.csv), the arrays that
no table holds (results/<study>/figure_arrays.npz: example images, a fitted curve), the config
blocks the study read and, for a figure that draws a published number as a reference line, the
registry's printed values. Drawing from saved files is what lets a figure be restyled without its
study being rerun (the figure rule, ``cvsuite.workflow.figure_job``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class FigureInputs:
    """A study's saved outputs as its figures read them: ``tables`` and ``arrays`` by name, the
    ``config`` blocks by name, and ``published`` (rows with ``id`` and ``published``, empty unless
    the study's figures read the registry)."""

    config: Mapping[str, Any]
    tables: Mapping[str, Any]
    arrays: Mapping[str, Any] = field(default_factory=dict)
    published: Sequence[Any] = ()
