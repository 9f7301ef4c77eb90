"""The worked example's other sentences, each checked: "Estimating Out-of-Sample Error".

Three kinds of check, kept apart because they mean different things:

- the design (``design_table``, ``design_claims``): what Steps 2-3 say of the folds, computed from the
  fold construction (twelve observations in four folds by position: each tested once, each fold
  spanning the range, nine to fit and three to score);
- the recovered table (``table_findings``, ``table_claims``): sentences about the example's data
  that the printed figures do not settle by arithmetic (observation 12 carries fold 4's error) or
  that they do (the polynomial's worst fold carries about half its total), and the interpolating
  polynomial of the opening paragraph and of Checks, fitted to the same points;
- every table the recovery found consistent with the printed figures (``claims_across_tables``):
  whether a check on the recovered table depends on which consistent table was picked.

Readings (criteria) of the words, as the claims' ``reading`` column repeats them:
- "indistinguishable" training errors: they differ by less than INDISTINGUISHABLE_PERCENT of the larger;
- "its average driven by one fold": the worst fold carries at least DRIVING_SHARE of the fold-loss sum;
- "extrapolates badly at the edge": the largest x carries more than half its fold's squared error;
- "passes exactly through every training point and reports zero error": a polynomial of degree one
  less than the points it is fitted to has training error below ZERO_RELATIVE of the line's;
- "a much larger held-out error": its held-out (4-fold) error is above the line's.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import Convention, Design, fold_statistics, residual_operators
from cvsuite.studies.document_claims import claims_table
from cvsuite.studies.twelve_points import LINE, POLYNOMIAL, document_claims
from cvsuite.studies.twelve_points_by_folds import cv_quadratic_forms, loo_training_overlap
from cvsuite.studies.twelve_points_ranking import ranking_claims

INDISTINGUISHABLE_PERCENT = 5.0
DRIVING_SHARE = 0.40
ZERO_RELATIVE = 1e-9


def design_table(design: Design) -> pd.DataFrame:
    """Steps 2-3 of the worked example as one row: sizes, the fold assignment, what each fit uses."""
    n, sizes = design.n, design.fold_sizes
    return pd.DataFrame(
        [
            {
                "observations": n,
                "x_first": float(design.x[0]),
                "x_last": float(design.x[-1]),
                "line_degree": int(design.degrees[LINE]),
                "polynomial_degree": int(design.degrees[POLYNOMIAL]),
                "folds": len(design.folds),
                "fold_assignment": " ".join("{" + ",".join(str(i + 1) for i in f) + "}" for f in design.folds),
                "fold_size": int(sizes.max()),
                "training_size": int(n - sizes.max()),
                "loo_training_overlap": loo_training_overlap(n),
            }
        ]
    )


def design_claims(design: Design) -> list[tuple[str, bool, float, str]]:
    """What Steps 2-3 and the procedure say of the folds, checked on the fold construction."""
    n, k = design.n, len(design.folds)
    tested = np.sort(np.concatenate(design.folds))
    spans = [bool(f.min() < k and f.max() >= n - k) for f in design.folds]
    overlap = loo_training_overlap(n)
    return [
        (
            "every_observation_tested_once",
            bool(np.array_equal(tested, np.arange(n))),
            float(len(tested)),
            "the folds hold every observation exactly once ('every observation is tested on exactly once'); "
            "value: held-out observations over all folds",
        ),
        (
            "folds_span_the_range",
            all(spans),
            float(sum(spans)),
            "every fold holds one of the first k and one of the last k observations ('each fold spans the range "
            "rather than occupying one end of it'); value: folds that do",
        ),
        (
            "loo_training_sets_share_all_but_one",
            overlap == n - 2,
            float(overlap),
            "any two leave-one-out training sets (n - 1 each) share n - 2 observations ('overlap in all but one "
            "observation'); value: the smallest overlap",
        ),
    ]


def table_findings(ys, design: Design, convention: Convention) -> pd.DataFrame:
    """The numbers behind the example's other sentences, one row per table of ``ys`` (N, n).

    Held-out residuals and the interpolant's training residuals are linear maps of y
    (``residual_operators``), applied to every table at once.
    """
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    x = design.x
    stats = fold_statistics(ys, design, convention)
    train, cv, folds = stats["training"], stats["cv"], stats["folds"]  # (N, M), (N, M), (N, M, K)
    poly_folds, excess = folds[:, POLYNOMIAL], folds[:, POLYNOMIAL] - folds[:, LINE]
    worst = np.argmax(poly_folds, axis=1)
    others = np.arange(len(design.folds))[None, :] != worst[:, None]
    edge = int(np.argmax(x))
    edge_fold = next(j for j, f in enumerate(design.folds) if edge in f)
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


def table_claims(findings: pd.Series, line_training_error: float) -> list[tuple[str, bool, float, str]]:
    """The sentences checked on a table, as (claim, holds, value, reading), from ``table_findings``."""
    zero = findings["interpolant_training_error"] < ZERO_RELATIVE * line_training_error
    worse = findings["interpolant_cv"] > findings["line_cv"]
    return [
        (
            "training_errors_indistinguishable",
            bool(findings["training_error_relative_difference"] < INDISTINGUISHABLE_PERCENT / 100),
            float(findings["training_error_relative_difference"]),
            f"the two training errors differ by less than {INDISTINGUISHABLE_PERCENT:g}% of the larger ('On this "
            "evidence the two are indistinguishable'); value: their relative difference",
        ),
        (
            "edge_observation_carries_edge_fold",
            bool(findings["edge_observation_share_of_edge_fold"] > 0.5),
            float(findings["edge_observation_share_of_edge_fold"]),
            "the largest x carries more than half of its fold's squared held-out error under the polynomial ('a "
            "degree-5 fit on the remaining nine extrapolates badly at the edge'); value: its share",
        ),
        (
            "worst_fold_drives_polynomial_average",
            bool(findings["worst_fold_share_of_polynomial_total"] >= DRIVING_SHARE),
            float(findings["worst_fold_share_of_polynomial_total"]),
            f"the polynomial's worst fold carries at least {DRIVING_SHARE:.0%} of its fold-loss sum ('its average "
            "driven by one fold'); value: its share",
        ),
        (
            "interpolant_reports_zero_training_error",
            bool(zero),
            float(findings["interpolant_training_error"]),
            f"a polynomial through every point (degree n - 1) has training error below {ZERO_RELATIVE:g} of the "
            "line's ('passes exactly through every training point and reports zero error'); value: its error",
        ),
        (
            "interpolant_predicts_worse_than_line",
            bool(worse),
            float(findings["interpolant_cv_over_line_cv"]),
            "its held-out error (degree one less than each fold's training points) is above the line's ('predicting "
            "new observations worse than a straight line would'); value: the ratio",
        ),
        (
            "interpolation_signature",
            bool(zero and worse),
            float(findings["interpolant_cv_over_line_cv"]),
            "the interpolating polynomial shows both signs at once: training error near zero, held-out error above the "
            "line's ('a training error near zero alongside a much larger held-out error'); value: held-out over the "
            "line's",
        ),
    ]


def claims_across_tables(claims: pd.DataFrame) -> pd.DataFrame:
    """How each claim fares over several tables (``claims_on_tables``): tables, how many it holds on,
    and the range of its value."""
    grouped = claims.groupby("claim", sort=False)
    summary = pd.DataFrame(
        {
            "tables": grouped["holds"].size(),
            "holds_on": grouped["holds"].sum().astype(int),
            "value_min": grouped["value"].min(),
            "value_max": grouped["value"].max(),
        }
    )
    summary["holds_percent"] = 100 * summary["holds_on"] / summary["tables"]
    summary["holds_on_every_table"] = summary["holds_on"] == summary["tables"]
    return summary.reset_index()[
        ["claim", "tables", "holds_on", "holds_percent", "holds_on_every_table", "value_min", "value_max"]
    ]


def claims_on_tables(
    ys,
    design: Design,
    convention: Convention,
    *,
    evidence: pd.DataFrame,
    findings: pd.DataFrame,
    document: dict,
) -> pd.DataFrame:
    """Every claim checked on a table, for each table of ``ys`` (N, n): the sentences of "Reading the
    result" (``document_claims`` with ``document``'s edge_fold, fold_b and nearly), the other sentences
    about the data (``table_claims`` on ``findings``) and the ranking as an inference (``ranking_claims``
    on ``evidence``); ``findings`` and ``evidence`` hold one row per table. One claims table with a
    ``table`` column (0 for the first table)."""
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    training = fold_statistics(ys, design, convention)["training"][:, LINE]
    forms = design.forms()
    records, table = [], []
    for i, y in enumerate(ys):
        base = document_claims(y, design, convention, **document, forms=forms)
        extra = table_claims(findings.iloc[i], training[i]) + ranking_claims(evidence.iloc[i])
        rows = base.to_dict("records") + claims_table(extra).to_dict("records")
        records += rows
        table += [i] * len(rows)
    return pd.DataFrame(records).assign(table=table)


def solution_tables(solutions: pd.DataFrame, n: int) -> np.ndarray:
    """The consistent tables recover_twelve_points found (its solutions table, one row per
    observation), as an array (tables, n) in the order they are listed."""
    wide = solutions.pivot(index=["source", "solution"], columns="observation", values="y")
    order = pd.MultiIndex.from_frame(solutions[["source", "solution"]].drop_duplicates())
    if wide.shape[1] != n:
        raise ValueError(f"each solution must give {n} observations, not {wide.shape[1]}")
    return wide.loc[order].to_numpy(dtype=float)
