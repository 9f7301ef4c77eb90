"""Monte Carlo summaries: the mean of replicated results and its standard error.

Every simulation study of the suite replicates a whole experiment on independent data sets and
reports the average with its Monte Carlo standard error (the sample s.d., ddof = 1, over root R).
Quantities compared on the same replications are differenced replication by replication first,
so that the standard error of a gap reflects the pairing.
"""

from __future__ import annotations

import numpy as np


def mean_and_se(values) -> tuple[float, float]:
    """The mean of R replications and its Monte Carlo standard error s.d./sqrt(R) (ddof = 1)."""
    values = np.asarray(values, dtype=float)
    if values.size < 2:
        raise ValueError(f"a Monte Carlo standard error needs at least 2 replications, got {values.size}")
    return float(values.mean()), float(values.std(ddof=1) / np.sqrt(values.size))


def ratio_and_se(numerators, denominators) -> tuple[float, float]:
    """mean(numerators) / mean(denominators) and its delta-method standard error.

    The ratio of means, not the mean of ratios: the quantity of interest is how one average error
    compares with another. The paired linearisation (a - r b) / mean(b) carries the correlation
    between numerator and denominator of the same replication.
    """
    a = np.asarray(numerators, dtype=float)
    b = np.asarray(denominators, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"numerators and denominators differ in shape: {a.shape} and {b.shape}")
    ratio = a.mean() / b.mean()
    _, se = mean_and_se((a - ratio * b) / b.mean())
    return float(ratio), se
