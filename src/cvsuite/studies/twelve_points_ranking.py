"""Is the worked example's ranking an artefact of the folds? "Estimating Out-of-Sample Error", Reading the result.

The document: "The difference between the two, 0.1661, is larger than either standard error, so the
ranking is not an artefact of which observations landed in which fold." Comparing a difference with
each model's own standard error is not a test of the difference: the two CV estimates share their
folds, so the test is on the four paired fold differences (polynomial minus line), t = mean / (s.d. /
sqrt(k)) on k - 1 degrees of freedom. The conclusion itself is about the assignment to folds, and is
tested directly by re-partitioning: the same twelve points under every other assignment to four folds
of three (15,400 partitions, enumerated). Fresh data y = 2x + noise say how often each reading holds
for another sample.

Its own Checks rule is applied to the example too: "If the fold losses vary by more than the
difference between two models under comparison, the comparison does not distinguish them." The fold
losses' variation is written over the difference both ways: as the larger standard error (step 5's
measure of their spread, s.d. / sqrt(k)) and as the larger fold s.d. The module writes statistics;
the registry's records decide what the sentences say of them.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.special import stdtr, stdtrit

from cvsuite.methods.fold_statistics import (
    Convention,
    Design,
    fold_statistics,
    statistics_from_sums,
    sum_of_squares_forms,
    sums_of_squares,
)
from cvsuite.methods.partitions import equal_partitions, group_index
from cvsuite.studies.twelve_points import LINE, POLYNOMIAL

SIGNIFICANCE_LEVEL = 0.05  # the paired t test's level (two-sided), for the share of draws and partitions it separates


def paired_t(differences) -> dict:
    """The paired t statistic of fold differences along the last axis: mean, s.d. (ddof 1), s.e. =
    s.d. / sqrt(k) (the document's step 5), t = mean / s.e., on k - 1 degrees of freedom."""
    d = np.asarray(differences, dtype=float)
    k = d.shape[-1]
    mean = d.mean(axis=-1)
    sd = d.std(axis=-1, ddof=1)
    se = sd / math.sqrt(k)
    return {"mean": mean, "sd": sd, "se": se, "t": mean / se, "df": k - 1}


def critical_t(degrees_of_freedom: int, level: float = SIGNIFICANCE_LEVEL) -> float:
    """The two-sided critical value of Student's t at ``level``."""
    return float(stdtrit(degrees_of_freedom, 1 - level / 2))


def repartition_statistics(ys, design: Design, convention: Convention) -> dict:
    """CV difference (polynomial minus line) and paired t on every equal partition, per table.

    Every partition of the n observations into the design's number of folds of equal size
    (``equal_partitions``), scored as the worked example is (least squares, the convention's fold
    errors and CV). A held-out group's sum of squares is a quadratic form in y, so each of the
    C(n, n/k) groups is fitted once; the convention is linear in the sums (``linear_coefficients``),
    so a partition's fold errors and CV are sums over its groups. Returns ``difference`` and ``t``,
    shape (tables, partitions), and ``partitions``.
    """
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    n, k = design.n, len(design.folds)
    partitions = equal_partitions(n, k)
    groups, where = group_index(partitions, n)  # where: (P, K) indices into groups
    forms = sum_of_squares_forms(design.x, design.degrees, list(groups))
    sums = sums_of_squares(ys, forms)  # (N, M, 1 + groups)
    cv_training, cv_fold, fold = linear_coefficients(Design(design.x, design.degrees, tuple(partitions[0])), convention)
    poly, line = POLYNOMIAL, LINE
    fold_difference = fold[poly] * sums[:, poly, 1:] - fold[line] * sums[:, line, 1:]  # (N, groups)
    cv_part = cv_fold[poly] * sums[:, poly, 1:] - cv_fold[line] * sums[:, line, 1:]
    cv_base = cv_training[poly] * sums[:, poly, 0] - cv_training[line] * sums[:, line, 0]
    return {
        "difference": cv_base[:, None] + cv_part[:, where].sum(axis=-1),
        "t": paired_t(fold_difference[:, where])["t"],
        "partitions": len(partitions),
    }


def linear_coefficients(layout: Design, convention: Convention) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How the convention turns sums of squares into CV and fold errors, for folds of equal size.

    ``statistics_from_sums`` is linear in the sums for CV and the fold errors; applying it to each
    unit sum reads off, per model, the weight of the training sum in CV, the weight of each fold's
    sum in CV (the same for every fold of equal size) and in that fold's own error (and in no other).
    """
    models, parts = len(layout.degrees), 1 + len(layout.folds)
    unit = np.zeros((parts, models, parts))
    for i in range(parts):
        unit[i, :, i] = 1.0
    stats = statistics_from_sums(unit, layout, convention)
    cv, folds = stats["cv"], stats["folds"]  # (parts, M), (parts, M, K)
    own = np.einsum("jmj->mj", folds[1:])  # fold j's sum in fold j's error
    others = folds[1:] - np.einsum("mj,ij->imj", own, np.eye(len(layout.folds)))
    if not (np.allclose(cv[1:], cv[1]) and np.allclose(own, own[:, :1]) and np.allclose(folds[0], 0.0)):
        raise ValueError("the folds must be of equal size: every fold's sum weighs the same in CV and its error")
    if not np.allclose(others, 0.0):
        raise ValueError("a fold's error must depend on its own sum of squares only")
    return cv[0], cv[1], own[:, 0]


def ranking_evidence(ys, design: Design, convention: Convention) -> pd.DataFrame:
    """The example's ranking tested as an inference: one row per table of ``ys`` (N, n).

    - the stated reason: the CV difference against each model's standard error, and against the
      unpaired s.e. of the difference sqrt(se_line^2 + se_polynomial^2);
    - the paired test on the k fold differences (``paired_t``): t, its critical value two-sided at
      SIGNIFICANCE_LEVEL and its p-value;
    - for the Checks rule ("If the fold losses vary by more than the difference ..."), the fold
      losses' variation over the CV difference, measured as step 5 measures their spread (s.d. /
      sqrt(k), each model's standard error) and as their s.d.;
    - re-partitioning: on every assignment of the same points to folds of the same sizes, how many
      (and what share) have the polynomial's CV above the line's, and the share where the paired test
      separates them.
    """
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    stats = fold_statistics(ys, design, convention)
    repartition = repartition_statistics(ys, design, convention)
    rows = []
    for i in range(len(ys)):
        folds, cv, sd, se = stats["folds"][i], stats["cv"][i], stats["sd"][i], stats["se"][i]
        difference = cv[POLYNOMIAL] - cv[LINE]
        paired = paired_t(folds[POLYNOMIAL] - folds[LINE])
        critical = critical_t(paired["df"])
        unpaired_se = math.hypot(se[LINE], se[POLYNOMIAL])
        shuffled, shuffled_t = repartition["difference"][i], repartition["t"][i]
        rows.append(
            {
                "cv_difference": float(difference),
                "fold_difference_min": float((folds[POLYNOMIAL] - folds[LINE]).min()),
                "fold_difference_max": float((folds[POLYNOMIAL] - folds[LINE]).max()),
                "line_std_error": float(se[LINE]),
                "polynomial_std_error": float(se[POLYNOMIAL]),
                "unpaired_difference_se": unpaired_se,
                "cv_difference_over_unpaired_se": float(difference / unpaired_se),
                "paired_difference_sd": float(paired["sd"]),
                "paired_difference_se": float(paired["se"]),
                "paired_t": float(paired["t"]),
                "paired_degrees_of_freedom": int(paired["df"]),
                "paired_t_critical": critical,
                "paired_p_value": float(2 * stdtr(paired["df"], -abs(paired["t"]))),
                "largest_std_error": float(se.max()),
                "largest_std_error_over_cv_difference": float(se.max() / abs(difference)),
                "largest_fold_sd": float(sd.max()),
                "largest_fold_sd_over_cv_difference": float(sd.max() / abs(difference)),
                "partitions": int(repartition["partitions"]),
                "partitions_polynomial_worse_percent": 100 * float(np.mean(shuffled > 0)),
                "partitions_polynomial_worse": int(np.sum(shuffled > 0)),
                "partitions_cv_difference_min": float(shuffled.min()),
                "partitions_cv_difference_median": float(np.median(shuffled)),
                "partitions_paired_test_separates_percent": 100 * float(np.mean(np.abs(shuffled_t) > critical)),
            }
        )
    return pd.DataFrame(rows)


def fresh_ranking_evidence(fresh: dict) -> dict:
    """On fresh tables (``fresh``: their fold statistics), the share of draws where the polynomial's CV
    is above the line's, where the stated reason holds (the difference above both standard errors),
    and where the paired test separates the models, each in percent with its binomial s.e."""
    difference = fresh["cv"][:, POLYNOMIAL] - fresh["cv"][:, LINE]
    paired = paired_t(fresh["folds"][:, POLYNOMIAL] - fresh["folds"][:, LINE])
    events = {
        "polynomial_worse": difference > 0,
        "stated_reason_holds": difference > fresh["se"].max(axis=1),
        "paired_test_separates": np.abs(paired["t"]) > critical_t(paired["df"]),
    }
    row = {"fresh_draws": int(len(difference))}
    for name, event in events.items():
        p = float(np.mean(event))
        row[f"fresh_{name}_percent"] = 100 * p
        # the binomial s.e. sqrt(p (1 - p) / R), as twelve_points.conclusion_frequencies
        row[f"fresh_{name}_percent_se"] = 100 * math.sqrt(p * (1 - p) / len(event))
    return row
