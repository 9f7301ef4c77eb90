"""Monte Carlo summaries: the mean of replicated results and its standard error.

Every simulation study of the suite replicates a whole experiment on independent data sets and
reports the average with its Monte Carlo standard error (the sample s.d., ddof = 1, over root R).
Quantities compared on the same replications are differenced replication by replication first,
so that the standard error of a gap reflects the pairing.
"""

from __future__ import annotations

import numpy as np


def standard_error(values) -> float:
    """The sample s.d. (ddof = 1) of n values over root n; NaN for fewer than two values.

    The Monte Carlo standard error of a mean over n independent replications, and the book's
    sigma / sqrt(K) of K fold scores ("Regularization and Cross-Validation", The standard error):
    the same arithmetic, written once.

    Exactly 0.0 when every value is the same (leave-one-out's shuffles all cut the same folds): the
    mean of equal floats need not equal them in the last bit, and whether it does depends on those
    bits, so numpy's s.d. would give 0.0 on one BLAS kernel and 1e-17 on another.
    """
    values = np.asarray(values, dtype=float)
    if values.size < 2:
        return float("nan")
    if values.max() == values.min():
        return 0.0
    return float(values.std(ddof=1) / np.sqrt(values.size))


def mean_and_se(values) -> tuple[float, float]:
    """The mean of R replications and its Monte Carlo standard error (``standard_error``)."""
    values = np.asarray(values, dtype=float)
    return float(values.mean()), standard_error(values)


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


def expectation_row(
    statistic: str, unit: str, design: str, replicates: int, expected: float, mc_se: float, design_sd: float
) -> dict:
    """One row of a table of expectations that printed figures are compared with.

    ``expected`` is our estimate of the statistic's expected value and ``mc_se`` its Monte Carlo
    SE; ``design_sd`` is the s.d. of the statistic as the cited work computed it (a mean over its
    datasets, one held-out fold, or 0 for a population value). ``expected_se`` = sqrt(mc_se^2 +
    design_sd^2) is the standard error of the gap between a printed value and ``expected``.
    """
    return {
        "statistic": statistic,
        "unit": unit,
        "book_design": design,
        "replicates": replicates,
        "expected": expected,
        "mc_se": mc_se,
        "design_sd": design_sd,
        "expected_se": float(np.hypot(mc_se, design_sd)),
    }


def cv_error_expectations(per_dataset, procedures, design_datasets: int) -> list[dict]:
    """Each procedure's CV error as a mean over ``design_datasets`` datasets, then the true error.

    ``per_dataset`` has a column ``<procedure>_cv_error_percent`` per procedure and
    ``true_error_percent`` (an exact population value, so its design s.d. is 0).
    """
    rows = []
    for procedure in procedures:
        errors = per_dataset[f"{procedure}_cv_error_percent"]
        mean, se = mean_and_se(errors)
        rows.append(
            expectation_row(
                f"{procedure}_cv_error_percent",
                "percent",
                f"mean over {design_datasets} datasets",
                len(errors),
                mean,
                se,
                float(errors.std(ddof=1) / np.sqrt(design_datasets)),
            )
        )
    truth, truth_se = mean_and_se(per_dataset["true_error_percent"])
    rows.append(
        expectation_row(
            "true_error_percent", "percent", "exact (population value)", len(per_dataset), truth, truth_se, 0.0
        )
    )
    return rows
