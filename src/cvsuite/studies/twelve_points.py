"""The twelve-point example of "Estimating Out-of-Sample Error" (worked example after "Checks"), on a table.

Twelve observations at x = 1, ..., 12, "close to y = 2x"; a straight line and a degree-5 polynomial
fitted by least squares; four folds assigned by position ({1,5,9}, {2,6,10}, {3,7,11}, {4,8,12}).
The document's own table of y values did not survive: the study runs on the table that
``cvsuite.studies.recover_twelve_points`` recovered from the printed statistics, under the convention
that recovery settled. This module computes, on a given table, the fits (Step 1), the fold table
(Step 3), the models' summaries (Steps 4-5), the contrasts of "Reading the result", and how often
the document's conclusions hold on fresh data y = slope x + noise. It computes statistics only: the
registry's records decide what the sentences say of them.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import (
    MODELS,
    Convention,
    Design,
    fold_statistics,
    least_squares_coefficients,
    predict,
)
from cvsuite.methods.table_symmetries import line_part

LINE, POLYNOMIAL = MODELS.index("line"), MODELS.index("polynomial")


def held_out_predictions(y, design: Design) -> np.ndarray:
    """Each observation's prediction by each model fitted without its fold: shape (M, n)."""
    y = np.asarray(y, dtype=float)
    out = np.zeros((len(design.degrees), design.n))
    for m, degree in enumerate(design.degrees):
        for fold in design.folds:
            train = np.setdiff1d(np.arange(design.n), fold)
            coef = least_squares_coefficients(design.x[train], y[train], degree, design.x)
            out[m, fold] = predict(coef, design.x[fold], design.x)
    return out


def fold_table(y, design: Design, convention: Convention) -> pd.DataFrame:
    """The worked example's step 3: one row per model and fold, its observations and held-out error."""
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    rows = []
    for m, model in enumerate(MODELS):
        for j, fold in enumerate(design.folds):
            rows.append(
                {
                    "model": model,
                    "degree": design.degrees[m],
                    "fold": j + 1,
                    "observations": " ".join(str(i + 1) for i in fold),
                    "held_out_error": float(stats["folds"][0, m, j]),
                }
            )
    return pd.DataFrame(rows)


def model_summary(y, design: Design, convention: Convention) -> pd.DataFrame:
    """Steps 1, 4 and 5: per model, training error on all points, CV_k, fold s.d., standard error
    s.d./sqrt(k), the worst and best folds, and CV over training error."""
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    rows = []
    for m, model in enumerate(MODELS):
        folds = stats["folds"][0, m]
        rows.append(
            {
                "model": model,
                "degree": design.degrees[m],
                "parameters": design.degrees[m] + 1,
                "training_error": float(stats["training"][0, m]),
                "cv_error": float(stats["cv"][0, m]),
                "fold_sd": float(stats["sd"][0, m]),
                "std_error": float(stats["se"][0, m]),
                "worst_fold": int(np.argmax(folds)) + 1,
                "best_fold": int(np.argmin(folds)) + 1,
                "cv_over_training": float(stats["cv"][0, m] / stats["training"][0, m]),
            }
        )
    return pd.DataFrame(rows)


def _check_fold(number: int, design: Design, what: str) -> None:
    if not 1 <= number <= len(design.folds):
        raise ValueError(f"{what} = {number}: there are folds 1 to {len(design.folds)}")


def contrasts(y, design: Design, convention: Convention, *, fold_a: int, fold_b: int) -> pd.DataFrame:
    """ "Reading the result": differences and ratios between the models, and the polynomial's fold
    ``fold_a`` over fold ``fold_b`` (one row)."""
    _check_fold(fold_a, design, "fold_a")
    _check_fold(fold_b, design, "fold_b")
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    train, cv, se, folds = stats["training"][0], stats["cv"][0], stats["se"][0], stats["folds"][0]
    line, poly = LINE, POLYNOMIAL
    return pd.DataFrame(
        [
            {
                "training_error_gain": float(train[line] - train[poly]),
                "cv_difference": float(cv[poly] - cv[line]),
                "polynomial_cv_over_training": float(cv[poly] / train[poly]),
                "polynomial_cv_over_line_cv": float(cv[poly] / cv[line]),
                "polynomial_fold_ratio": float(folds[poly, fold_a - 1] / folds[poly, fold_b - 1]),
                "fold_ratio_numerator_fold": fold_a,
                "fold_ratio_denominator_fold": fold_b,
                "cv_difference_over_line_std_error": float((cv[poly] - cv[line]) / se[line]),
                "cv_difference_over_polynomial_std_error": float((cv[poly] - cv[line]) / se[poly]),
            }
        ]
    )


# ----------------------------------------------------------------------------------------------
# Fresh data


def residual_sd(y, x) -> float:
    """The line's residual standard deviation, sqrt(RSS / (n - 2)): the noise level of fresh data."""
    y = np.asarray(y, dtype=float)
    return float(math.sqrt(np.sum((y - line_part(y, x)) ** 2) / (len(y) - 2)))


def fresh_data_statistics(
    design: Design, convention: Convention, *, slope: float, noise_sd: float, draws: int, seed: int, batch: int = 20000
) -> dict:
    """Fold statistics of ``draws`` fresh tables y = slope x + noise_sd e, e standard normal.

    Draw order: ``default_rng(seed).standard_normal((draws, n))`` drawn in consecutive batches of
    rows (same stream as one call), row d for table d, observation order x = 1..n.
    """
    rng = np.random.default_rng(seed)
    forms = design.forms()
    parts = []
    done = 0
    while done < draws:
        size = min(batch, draws - done)
        ys = slope * design.x + noise_sd * rng.standard_normal((size, design.n))
        parts.append(fold_statistics(ys, design, convention, forms))
        done += size
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def cv_differences(stats: dict) -> np.ndarray:
    """The polynomial's CV minus the line's, per table of ``fold_statistics`` (N,): 'cost ... of test error'."""
    return stats["cv"][:, POLYNOMIAL] - stats["cv"][:, LINE]


def conclusion_frequencies(stats: dict, edge_fold: int, reference_difference: float | None = None) -> pd.DataFrame:
    """How often each conclusion of the document holds over fresh tables, with its Monte Carlo
    standard error sqrt(p (1 - p) / R); with ``reference_difference``, also how often the CV
    difference is at least that large."""
    se, folds, train = stats["se"], stats["folds"], stats["training"]
    diff = cv_differences(stats)
    worst = np.argmax(folds[:, POLYNOMIAL], axis=1) + 1
    k = folds.shape[-1]
    events = {
        "polynomial_ahead_on_training": train[:, POLYNOMIAL] < train[:, LINE],
        "polynomial_cv_above_line_cv": diff > 0,
        "difference_exceeds_both_standard_errors": diff > se.max(axis=1),
        "edge_fold_is_polynomials_worst": worst == edge_fold,
        "either_edge_fold_is_polynomials_worst": (worst == 1) | (worst == k),
        "all_conclusions": (diff > 0) & (diff > se.max(axis=1)) & (worst == edge_fold),
    }
    if reference_difference is not None:
        events["cv_difference_at_least_reference"] = diff >= reference_difference
    rows = []
    r = len(diff)
    for name, event in events.items():
        # The binomial standard error of a frequency, sqrt(p (1 - p) / R): the s.d. of the 0/1 events
        # with ddof 0, not monte_carlo.standard_error's ddof 1 (they differ by sqrt(R / (R - 1))).
        p = float(np.mean(event))
        rows.append(
            {
                "conclusion": name,
                "draws": r,
                "frequency": p,
                "frequency_se": math.sqrt(p * (1 - p) / r),
                "frequency_percent": 100 * p,
                "frequency_percent_se": 100 * math.sqrt(p * (1 - p) / r),
            }
        )
    return pd.DataFrame(rows)


def fits_table(y, design: Design) -> pd.DataFrame:
    """Step 1 and step 3 per observation: its fold, each model's fit on all points, and each model's
    prediction when the observation's fold is held out."""
    y = np.asarray(y, dtype=float)
    held_out = held_out_predictions(y, design)
    table = {"observation": np.arange(1, design.n + 1), "x": design.x, "y": y, "fold": design.fold_numbers}
    for m, (model, degree) in enumerate(zip(MODELS, design.degrees)):
        table[f"{model}_fit"] = predict(least_squares_coefficients(design.x, y, degree, design.x), design.x, design.x)
        table[f"{model}_held_out_prediction"] = held_out[m]
    return pd.DataFrame(table)


def histogram_table(values, bins: int, upper_quantile: float) -> pd.DataFrame:
    """Counts of ``values`` in ``bins`` equal bins from their minimum to their ``upper_quantile``
    quantile, plus one overflow row (``overflow`` True) from there to the maximum."""
    values = np.asarray(values, dtype=float)
    top = float(np.quantile(values, upper_quantile))
    counts, edges = np.histogram(values[values <= top], bins=bins, range=(float(values.min()), top))
    table = pd.DataFrame({"bin_left": edges[:-1], "bin_right": edges[1:], "count": counts, "overflow": False})
    extra = pd.DataFrame(
        [{"bin_left": top, "bin_right": float(values.max()), "count": int((values > top).sum()), "overflow": True}]
    )
    return pd.concat([table, extra], ignore_index=True)
