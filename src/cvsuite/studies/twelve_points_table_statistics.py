"""The numbers behind the worked example's other sentences: "Estimating Out-of-Sample Error".

Three kinds, kept apart because they mean different things:

- the design (``design_table``): what Steps 2-3 say of the folds, computed from the fold construction
  (twelve observations in four folds by position: each tested once, each fold spanning the range, nine
  to fit and three to score, leave-one-out's training sets);
- a table of y (``table_statistics``, one row per table): numbers about the example's data that the
  printed figures do not settle by arithmetic (how observation 12 weighs in fold 4's error, on which
  fold the polynomial is closest to the line) or that they do (the polynomial's worst fold and its
  share of the total), and the interpolating polynomial of the opening paragraph and of Checks,
  fitted to the same points;
- every table the recovery found consistent with the printed figures (``across_tables``): the range of
  each statistic a record quotes, so that a reader sees whether it depends on which consistent table
  was picked.

The statistics are computed here; the registry's records decide what the sentences say of them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import Convention, Design, fold_statistics, residual_operators
from cvsuite.studies.twelve_points import LINE, POLYNOMIAL
from cvsuite.studies.twelve_points_by_folds import cv_quadratic_forms, loo_training_overlap

# The statistics of ``table_statistics`` and ``ranking_evidence`` whose range over the consistent
# tables the records quote (twelve_points/consistent_tables.csv).
ACROSS_TABLES = (
    "edge_fold_over_largest_other_fold",
    "edge_observation_share_of_edge_fold",
    "compared_fold_excess_minus_smallest_other",
    "interpolant_training_error_over_line",
    "interpolant_cv_over_line_cv",
    "partitions_polynomial_worse",
)


def design_table(design: Design) -> pd.DataFrame:
    """Steps 2-3 of the worked example as one row: sizes, the fold assignment, what each fit uses,
    how often each observation is held out, the folds that span the range, and how leave-one-out's
    training sets overlap."""
    n, k, sizes = design.n, len(design.folds), design.fold_sizes
    held_out = np.bincount(np.concatenate(design.folds), minlength=n)
    overlap = loo_training_overlap(n)
    return pd.DataFrame(
        [
            {
                "observations": n,
                "x_first": float(design.x[0]),
                "x_last": float(design.x[-1]),
                "line_degree": int(design.degrees[LINE]),
                "polynomial_degree": int(design.degrees[POLYNOMIAL]),
                "folds": k,
                "fold_assignment": " ".join("{" + ",".join(str(i + 1) for i in f) + "}" for f in design.folds),
                "fold_size": int(sizes.max()),
                "training_size": int(n - sizes.max()),
                "loo_training_overlap": overlap,
                # 'every observation is tested on exactly once'
                "observations_not_held_out_once": int(np.sum(held_out != 1)),
                # 'each fold spans the range': a fold holding one of the first k and one of the last k
                "folds_spanning_range": int(sum(bool(f.min() < k and f.max() >= n - k) for f in design.folds)),
                # 'overlap in all but one observation': of one training set's n - 1, those another lacks
                "loo_training_observations_not_shared": int(n - 1 - overlap),
            }
        ]
    )


def table_statistics(ys, design: Design, convention: Convention, *, compared_fold: int) -> pd.DataFrame:
    """The numbers behind the example's other sentences, one row per table of ``ys`` (N, n).

    The edge fold is the one holding the largest x (the document's fold 4); ``compared_fold`` the one
    the document compares with it (fold 3). Held-out residuals and the interpolant's training residuals
    are linear maps of y (``residual_operators``), applied to every table at once.
    """
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    x, k = design.x, len(design.folds)
    if not 1 <= compared_fold <= k:
        raise ValueError(f"compared_fold = {compared_fold}: there are folds 1 to {k}")
    stats = fold_statistics(ys, design, convention)
    train, cv, folds = stats["training"], stats["cv"], stats["folds"]  # (N, M), (N, M), (N, M, K)
    poly_folds, excess = folds[:, POLYNOMIAL], folds[:, POLYNOMIAL] - folds[:, LINE]
    worst = np.argmax(poly_folds, axis=1)
    others = np.arange(k)[None, :] != worst[:, None]
    edge = int(np.argmax(x))
    edge_fold = next(j for j, f in enumerate(design.folds) if edge in f)
    not_edge = np.arange(k) != edge_fold
    not_compared = np.arange(k) != compared_fold - 1
    _, held_out = residual_operators(x, design.degrees[POLYNOMIAL], design.folds)
    residuals = ys @ held_out[edge_fold].T  # the edge fold's held-out residuals (N, fold size)
    at_edge = int(np.flatnonzero(design.folds[edge_fold] == edge)[0])
    x_centred = x - x.mean()
    table = {
        "line_slope": (ys - ys.mean(axis=1, keepdims=True)) @ x_centred / (x_centred @ x_centred),
        "training_error_relative_difference": np.abs(train[:, LINE] - train[:, POLYNOMIAL]) / train.max(axis=1),
        "edge_observation": edge + 1,
        "edge_fold": edge_fold + 1,
        "edge_observation_y": ys[:, edge],
        "edge_observation_held_out_prediction": ys[:, edge] - residuals[:, at_edge],
        "edge_observation_share_of_edge_fold": residuals[:, at_edge] ** 2 / (residuals**2).sum(axis=1),
        "worst_fold": worst + 1,
        "worst_fold_share_of_polynomial_total": poly_folds.max(axis=1) / poly_folds.sum(axis=1),
        "polynomial_cv_without_worst_fold": np.where(others, poly_folds, 0).sum(axis=1) / others.sum(axis=1),
        "line_cv_without_worst_fold": np.where(others, folds[:, LINE], 0).sum(axis=1) / others.sum(axis=1),
        "polynomial_excess_min": excess.min(axis=1),
        "polynomial_excess_min_fold": np.argmin(excess, axis=1) + 1,
        "polynomial_excess_max": excess.max(axis=1),
        **_interpolant(ys, design, convention),
        "line_cv": cv[:, LINE],
    }
    table["interpolant_cv_over_line_cv"] = table["interpolant_cv"] / cv[:, LINE]
    # 'The fourth fold is the informative one': the polynomial's edge-fold error over its largest elsewhere
    table["edge_fold_over_largest_other_fold"] = poly_folds[:, edge_fold] / poly_folds[:, not_edge].max(axis=1)
    # 'on fold 3 it is close to the line': the polynomial's excess there minus its smallest elsewhere
    table["compared_fold_excess_minus_smallest_other"] = excess[:, compared_fold - 1] - excess[:, not_compared].min(
        axis=1
    )
    table["compared_fold"] = compared_fold
    # 'reports zero error': the interpolant's training error as a share of the line's
    table["interpolant_training_error_over_line"] = table["interpolant_training_error"] / train[:, LINE]
    return pd.DataFrame(table, index=range(len(ys)))


def _interpolant(ys, design: Design, convention: Convention) -> dict:
    """A polynomial of degree one less than the points it is fitted to: on all n (training error) and
    in each fold (CV, same folds and convention); and, exactly, its E[CV] over the line's on fresh
    y = a + b x + e (both contain the line, so the ratio depends on the design alone)."""
    n, x = design.n, design.x
    through_all, _ = residual_operators(x, n - 1, [])
    degree_in_folds = int(n - design.fold_sizes.max() - 1)
    in_folds = Design(x, (design.degrees[LINE], degree_in_folds), design.folds)
    forms = cv_quadratic_forms(in_folds, convention)
    return {
        "interpolant_degree_all": n - 1,
        "interpolant_training_error": np.mean((ys @ through_all.T) ** 2, axis=1),
        "interpolant_degree_in_folds": degree_in_folds,
        "interpolant_cv": fold_statistics(ys, in_folds, convention)["cv"][:, 1],
        "interpolant_expected_cv_over_line": float(np.trace(forms[1]) / np.trace(forms[0])),
    }


def across_tables(per_table: pd.DataFrame, statistics=ACROSS_TABLES) -> pd.DataFrame:
    """For each of ``statistics`` (columns of ``per_table``, one row per table): how many tables,
    and its smallest and largest value over them."""
    missing = [s for s in statistics if s not in per_table.columns]
    if missing:
        raise ValueError(f"no column {', '.join(missing)} in the per-table statistics")
    return pd.DataFrame(
        [
            {
                "statistic": name,
                "tables": len(per_table),
                "minimum": float(per_table[name].min()),
                "maximum": float(per_table[name].max()),
            }
            for name in statistics
        ]
    )


def solution_tables(solutions: pd.DataFrame, n: int) -> np.ndarray:
    """The consistent tables recover_twelve_points found (its solutions table, one row per
    observation), as an array (tables, n) in the order they are listed."""
    wide = solutions.pivot(index=["source", "solution"], columns="observation", values="y")
    order = pd.MultiIndex.from_frame(solutions[["source", "solution"]].drop_duplicates())
    if wide.shape[1] != n:
        raise ValueError(f"each solution must give {n} observations, not {wide.shape[1]}")
    return wide.loc[order].to_numpy(dtype=float)
