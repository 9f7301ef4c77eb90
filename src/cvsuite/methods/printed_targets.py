"""The printed figures of a worked example as targets: what "reads as printed" means for a table.

"Estimating Out-of-Sample Error" prints the statistics of its twelve-point example (worked example
after "Checks") at four decimals, or one for the ratios, and not the table they come from. A
candidate table reproduces a printed figure when its recomputed value, written at the printed
precision, reads the same (``cvsuite.methods.printed_numbers``). This module holds the figures as
printed (``PrintedTargets``), how far a value is from one in units of its last digit, the check of
a table against all of them, and what the printed summaries alone rule out under a convention
(``arithmetic_problems``), before any table is searched for.

The published numbers are never read here: the printed texts are passed in.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import (
    FOLD_STATISTIC,
    MODELS,
    STATISTICS,
    Convention,
    Design,
    is_statistic,
    statistic_values,
)
from cvsuite.methods.printed_numbers import parse_printed, reads_the_same, write_as_printed


@dataclass(frozen=True)
class PrintedTargets:
    """The printed figures a table must reproduce: names, texts as printed, values, last-digit units."""

    names: tuple[str, ...]
    texts: tuple[str, ...]

    @classmethod
    def of(cls, printed: dict[str, str]) -> PrintedTargets:
        for name in printed:
            if not is_statistic(name):
                raise ValueError(f"printed statistic '{name}' is not one of {', '.join(STATISTICS)}")
        return cls(tuple(printed), tuple(str(t) for t in printed.values()))

    @classmethod
    def from_registry(cls, claims, rows: dict[str, str]) -> PrintedTargets:
        """The figures printed in the registry rows ``rows`` (statistic name: row id), as printed;
        ``claims`` are anything with an ``id`` and a ``published`` text (the registry's extract)."""
        published = {claim.id: claim.published for claim in claims}
        missing = [row for row in rows.values() if row not in published]
        if missing:
            raise KeyError(f"the registry has no row {', '.join(missing)} (a printed figure the table must reproduce)")
        return cls.of({name: published[row] for name, row in rows.items()})

    @property
    def values(self) -> np.ndarray:
        return np.array([parse_printed(t).value for t in self.texts])

    @property
    def units(self) -> np.ndarray:
        """One unit of the last printed digit (0.0001 for 0.1314, 0.1 for 3.9)."""
        return np.array([10.0 ** -parse_printed(t).decimals for t in self.texts])


def misses_in_printed_units(values, targets: PrintedTargets) -> np.ndarray:
    """|recomputed - printed| in units of the last printed digit; reading the same needs at most 0.5."""
    return np.abs(np.asarray(values) - targets.values) / targets.units


def reads_as_printed(values, targets: PrintedTargets) -> np.ndarray:
    """Whether each recomputed value, written at its printed precision, reads as printed: (N, S) booleans.

    A cheap distance screen first, then the exact text comparison of ``printed_numbers`` for the
    values near enough to matter (a value exactly halfway is decided by the text, as the comparison is).
    """
    values = np.atleast_2d(values)
    near = misses_in_printed_units(values, targets) <= 0.5 + 1e-9
    out = np.zeros_like(near)
    for i, j in zip(*np.nonzero(near)):
        out[i, j] = reads_the_same(float(values[i, j]), parse_printed(targets.texts[j]))
    return out


def printed_check(y, design: Design, convention: Convention, targets: PrintedTargets) -> pd.DataFrame:
    """One row per printed figure: printed, recomputed from ``y``, written as printed, and whether they agree."""
    values = statistic_values(np.asarray(y)[None, :], targets.names, design, convention)[0]
    agree = reads_as_printed(values[None, :], targets)[0]
    return pd.DataFrame(
        {
            "statistic": targets.names,
            "printed": targets.texts,
            "recomputed": values,
            "recomputed_as_printed": [write_as_printed(v, parse_printed(t)) for v, t in zip(values, targets.texts)],
            "reads_the_same": agree,
            "miss_in_printed_units": misses_in_printed_units(values, targets),
        }
    )


# ----------------------------------------------------------------------------------------------
# What the printed summaries alone rule out under a convention


def arithmetic_problems(targets: PrintedTargets, design: Design, convention: Convention) -> list[str]:
    """Reasons, from the printed summaries alone, why no table can exist under ``convention``.

    Two necessary conditions, each checked at the edges of the printed precision:

    1. Held-out error is never below training error in total: with full-data residuals r and hat
       matrix H, the residuals of fold V under the fit without it are (I - H_VV)^-1 r_V, whose norm
       is at least |r_V|; summed over a partition, the held-out sum of squares is at least the
       training one (for each model).
    2. A model's k fold errors must be able to have the printed mean, s.d. and individual folds:
       given the printed folds, the rest sum to a known total and their spread can take any value
       between all-equal and all-but-one at zero.
    """
    printed = dict(zip(targets.names, zip(targets.values, targets.units)))
    n, k = design.n, len(design.folds)
    sizes = design.fold_sizes
    problems = []

    def interval(name):
        value, unit = printed[name]
        return value - unit / 2, value + unit / 2

    for model, degree in zip(MODELS, design.degrees):
        train_name, cv_name = f"{model}_training_error", f"{model}_cv"
        if train_name in printed and cv_name in printed:
            train_den = n if convention.training_error == "mean" else n - degree - 1
            training_ss_low = interval(train_name)[0] * train_den
            cv_high = interval(cv_name)[1]
            if convention.cv == "pooled":
                held_out_ss_high = cv_high * n
            elif convention.fold_error == "mean":
                held_out_ss_high = cv_high * k * sizes.mean()  # equal folds: sum of |V| x fold mean
            else:
                held_out_ss_high = cv_high * k
            if held_out_ss_high < training_ss_low:
                problems.append(
                    f"{model}: held-out sum of squares at most {held_out_ss_high:.4f}, "
                    f"below the training sum of squares of at least {training_ss_low:.4f}"
                )
        fold_names = [name for name in printed if (m := FOLD_STATISTIC.match(name)) and m[1] == model]
        sd_name = f"{model}_fold_sd"
        if cv_name in printed and sd_name in printed and fold_names:
            if not fold_summary_possible(
                [interval(f) for f in fold_names], interval(cv_name), interval(sd_name), design, convention
            ):
                listed = ", ".join(f"{f} = {targets.texts[targets.names.index(f)]}" for f in fold_names)
                problems.append(f"{model}: no {k} fold errors have the printed mean, s.d. and {listed}")
    return problems


def fold_summary_possible(fold_intervals, cv_interval, sd_interval, design: Design, convention: Convention) -> bool:
    """Whether some fold errors, the given ones inside their intervals and the rest non-negative,
    have a CV and s.d. inside theirs; checked on a 3-point grid (ends and centre) of each interval."""
    n, k = design.n, len(design.folds)
    free = k - len(fold_intervals)
    grids = [np.linspace(lo, hi, 3) for lo, hi in fold_intervals] + [np.linspace(*cv_interval, 3)]
    for point in itertools.product(*grids):
        given, cv = np.array(point[:-1]), point[-1]
        if convention.cv == "pooled" and convention.fold_error == "sum":
            total = cv * n  # the fold errors are sums of squares adding up to the pooled total
        else:
            total = cv * k  # the mean of folds; pooled over equal folds is the mean of the fold means
        rest = total - given.sum()
        if rest < 0:
            continue
        mean = total / k
        fixed_ss = ((given - mean) ** 2).sum()
        # The free folds' squared spread about the mean runs from all equal to all-but-one at zero.
        low = fixed_ss + free * (rest / free - mean) ** 2 if free else fixed_ss
        high = fixed_ss + ((rest - mean) ** 2 + (free - 1) * mean**2 if free else 0.0)
        sd_low, sd_high = (math.sqrt(v / (k - convention.fold_sd_ddof)) for v in (low, high))
        if sd_low <= sd_interval[1] and sd_high >= sd_interval[0]:
            return True
    return False
