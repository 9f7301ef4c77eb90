"""The criterion of a robustness conclusion as a region its statistic must lie in, for a figure to draw.

Kept apart from ``robustness`` so that every module that scores conclusions (``robustness``,
``robustness_estimators``) can say where its statistic must lie; ``robustness`` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass


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
