"""The criterion of a robustness conclusion as a region its statistic must lie in, for a figure to draw.

Kept apart from ``robustness`` so that every module that scores conclusions (``robustness``,
``robustness_estimators``) can say where its statistic must lie; ``robustness`` re-exports it. Kept
light (no scipy) so that the figure job, which draws the regions from the arrays the study saved
(``regions_as_arrays``, ``regions_from_arrays``), can import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PassRegion:
    """Where a conclusion's statistic must lie to hold, as its criterion reads, for a figure to draw.

    Either a fixed interval (``low`` <= statistic < ``high``; None is open; ``low == high`` means
    exactly that value), or, with ``bar``, a test of the statistic's ``standard_errors`` s.e. bar
    against ``reference``: "above" (the whole bar above it) or "around" (the bar covers it).
    """

    low: float | None = None
    high: float | None = None
    bar: str | None = None
    reference: float | None = None
    standard_errors: float = 2.0

    def holds(self, estimate: float, se: float) -> bool:
        """Whether ``estimate`` with standard error ``se`` meets the criterion."""
        margin = self.standard_errors * se if self.standard_errors else 0.0  # one sample has no s.e.
        if self.bar == "above":
            return estimate - margin > self.reference
        if self.bar == "around":
            return abs(estimate - self.reference) < margin
        if self.low is not None and self.low == self.high:
            return estimate == self.low
        return (self.low is None or estimate >= self.low) and (self.high is None or estimate < self.high)


# A region's optional limits, in the order of the columns of ``region_limits``.
LIMITS = ("low", "high", "reference")


def regions_as_arrays(regions: Mapping[str, PassRegion]) -> dict[str, np.ndarray]:
    """``regions`` (by conclusion) as plain arrays, which an ``.npz`` holds without pickling.

    ``region_limits`` holds each region's ``LIMITS`` and ``region_limits_given`` whether each is set:
    a limit left open (None) is not the same region as a limit that is NaN (a standard error of one
    dataset), and the figure draws them differently. ``region_bars`` is "" for a fixed interval.
    ``regions_from_arrays`` gives the regions back.
    """
    limits = [[getattr(region, name) for name in LIMITS] for region in regions.values()]
    return {
        "region_conclusions": np.array(list(regions), dtype=str),
        "region_bars": np.array([region.bar or "" for region in regions.values()], dtype=str),
        "region_limits": np.array([[np.nan if v is None else v for v in row] for row in limits], dtype=float),
        "region_limits_given": np.array([[v is not None for v in row] for row in limits], dtype=bool),
        "region_standard_errors": np.array([region.standard_errors for region in regions.values()], dtype=float),
    }


def regions_from_arrays(arrays: Mapping[str, np.ndarray]) -> dict[str, PassRegion]:
    """The regions by conclusion that ``regions_as_arrays`` saved."""
    limits = np.asarray(arrays["region_limits"], dtype=float).reshape(-1, len(LIMITS))
    given = np.asarray(arrays["region_limits_given"], dtype=bool).reshape(-1, len(LIMITS))
    regions = {}
    for i, conclusion in enumerate(arrays["region_conclusions"]):
        set_limits = {name: float(limits[i, j]) for j, name in enumerate(LIMITS) if given[i, j]}
        bar = str(arrays["region_bars"][i]) or None
        regions[str(conclusion)] = PassRegion(
            **set_limits, bar=bar, standard_errors=float(arrays["region_standard_errors"][i])
        )
    return regions
