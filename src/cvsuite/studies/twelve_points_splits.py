"""What one split, the folds' spread and the fold fits say on the twelve observations.

"Estimating Out-of-Sample Error", Notes: "A single split gives one estimate, and which observations
landed in the held-out portion affects it; an unlucky split can make a good model look poor.
Rotating the held-out fold means every observation is tested on exactly once, and the spread across
folds shows how much that choice mattered." Procedure, step 2: "Larger k fits on more data, so each
fit is closer to the one the full sample would give". Reading the result: "the same procedure on a
slightly different sample produces a visibly different fit". This module computes, on the recovered
table, every single split that holds out one fold's worth of observations (``single_splits``) and
the spread of the four fold fits (``fold_fit_spread``); and, exactly in units of the noise variance,
how far the fold fits sit from the full-sample fit at each k (``fold_fit_distance``). Statistics
only: the registry's judges decide.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import MODELS, Convention, Design, least_squares_coefficients, predict
from cvsuite.methods.folds import positional_folds
from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.methods.partitions import equal_partitions, group_index, mean_over_groups


def held_out_error(y, design: Design, degree: int, held_out: np.ndarray, convention: Convention) -> float:
    """The error of the fit without ``held_out`` on it: the mean or the sum of its squared residuals."""
    train = np.setdiff1d(np.arange(design.n), held_out)
    coefficients = least_squares_coefficients(design.x[train], y[train], degree, design.x)
    squared = (y[held_out] - predict(coefficients, design.x[held_out], design.x)) ** 2
    return float(squared.mean() if convention.fold_error == "mean" else squared.sum())


def single_splits(y, design: Design, convention: Convention) -> pd.DataFrame:
    """Every split holding out as many observations as one of the design's folds: per model, the
    held-out errors' least, greatest, mean and s.d. over the splits (and the greatest over the
    least and over the mean), beside the s.d. of the design's
    own fold errors (the spread the worked example reports) and their ratio; the same s.d. of fold
    errors over every partition into folds of that size (its root mean square: the spread across
    folds of a partition drawn at random) and its ratio to the splits' s.d.; and, per split, whether
    the line (the better model by the worked example's CV) scores worse than the polynomial."""
    y = np.asarray(y, dtype=float)
    size = len(design.folds[0])
    splits = [np.array(c) for c in combinations(range(design.n), size)]
    errors = np.array(
        [[held_out_error(y, design, degree, split, convention) for split in splits] for degree in design.degrees]
    )
    folds = np.array(
        [[held_out_error(y, design, degree, fold, convention) for fold in design.folds] for degree in design.degrees]
    )
    # Every partition into folds of the design's size, each fold found among the splits (both in
    # lexicographic order), so a partition's fold errors are read off the splits' errors.
    _, fold_index = group_index(equal_partitions(design.n, len(design.folds)), design.n)
    partition_fold_var = errors[:, fold_index].var(axis=2, ddof=convention.fold_sd_ddof)  # models x partitions
    line, polynomial = MODELS.index("line"), MODELS.index("polynomial")
    line_worse = int((errors[line] > errors[polynomial]).sum())
    rows = []
    for m, (model, degree) in enumerate(zip(MODELS, design.degrees)):
        split_sd = float(errors[m].std(ddof=1))
        fold_sd = float(folds[m].std(ddof=convention.fold_sd_ddof))
        rows.append(
            {
                "model": model,
                "degree": int(degree),
                "held_out": size,
                "splits": len(splits),
                "split_error_min": float(errors[m].min()),
                "split_error_max": float(errors[m].max()),
                "split_error_mean": float(errors[m].mean()),
                "split_error_sd": split_sd,
                "split_error_max_over_min": float(errors[m].max() / errors[m].min()),
                "split_error_max_over_mean": float(errors[m].max() / errors[m].mean()),
                "fold_sd": fold_sd,
                "fold_sd_over_split_sd": fold_sd / split_sd,
                "partition_fold_sd_rms": float(np.sqrt(partition_fold_var[m].mean())),
                "partition_fold_sd_rms_over_split_sd": float(np.sqrt(partition_fold_var[m].mean())) / split_sd,
                "splits_line_worse": line_worse,
            }
        )
    return pd.DataFrame(rows)


def unlucky_splits(
    design: Design, convention: Convention, *, slope: float, noise_sd: float, draws: int, seed: int
) -> pd.DataFrame:
    """On fresh tables y = slope x + noise_sd e (``default_rng(seed).standard_normal((draws, n))``,
    row d for table d), every split holding out as many observations as one of the design's folds:
    the share of splits on which the line, the model that generated the data, scores worse held out
    than the polynomial ("an unlucky split can make a good model look poor"), its mean over the tables
    with its standard error, and the share of tables with at least one such split."""
    ys = slope * design.x + noise_sd * np.random.default_rng(seed).standard_normal((draws, design.n))
    size = len(design.folds[0])
    splits = [np.array(c) for c in combinations(range(design.n), size)]
    line, polynomial = (design.degrees[MODELS.index(m)] for m in ("line", "polynomial"))
    worse = np.zeros((draws, len(splits)), dtype=bool)
    for j, split in enumerate(splits):
        train = np.setdiff1d(np.arange(design.n), split)
        errors = []
        for degree in (line, polynomial):
            coefficients = least_squares_coefficients(design.x[train], ys[:, train].T, degree, design.x)
            residuals = ys[:, split].T - predict(coefficients, design.x[split], design.x)
            squared = residuals**2
            errors.append(squared.mean(axis=0) if convention.fold_error == "mean" else squared.sum(axis=0))
        worse[:, j] = errors[0] > errors[1]
    share = worse.mean(axis=1)
    share_mean, share_se = mean_and_se(share)
    return pd.DataFrame(
        [
            {
                "tables": draws,
                "held_out": size,
                "splits": len(splits),
                "share_line_worse": share_mean,
                "share_line_worse_se": share_se,
                "tables_with_a_line_worse_split": float(worse.any(axis=1).mean()),
                "noise_sd": noise_sd,
            }
        ]
    )


def fold_fit_spread(y, design: Design, noise_sd: float) -> pd.DataFrame:
    """Per model, the design's fold fits (each on the other folds) against the fit on all n, at the
    observations' x: the s.d. across the fold fits, averaged over the x, and the largest gap between
    a fold fit and the full-sample fit, alone and over ``noise_sd`` (the scatter of the points about
    a line, the scale a reader sees a fit move against)."""
    y = np.asarray(y, dtype=float)
    rows = []
    for model, degree in zip(MODELS, design.degrees):
        full = predict(least_squares_coefficients(design.x, y, degree, design.x), design.x, design.x)
        curves = []
        for fold in design.folds:
            train = np.setdiff1d(np.arange(design.n), fold)
            coefficients = least_squares_coefficients(design.x[train], y[train], degree, design.x)
            curves.append(predict(coefficients, design.x, design.x))
        gaps = np.abs(np.array(curves) - full).max(axis=1)
        rows.append(
            {
                "model": model,
                "degree": int(degree),
                "fold_fit_sd": float(np.std(curves, axis=0, ddof=1).mean()),
                "largest_gap_to_full_fit": float(gaps.max()),
                "largest_gap_fold": int(np.argmax(gaps)) + 1,
                "noise_sd": float(noise_sd),
                "largest_gap_over_noise_sd": float(gaps.max() / noise_sd),
            }
        )
    return pd.DataFrame(rows)


def fold_fit_distance(x, degrees, fold_counts) -> pd.DataFrame:
    """Per model and k (folds by position): the mean over the folds of the expected squared distance,
    averaged over the x, between the fit on the other folds and the fit on all n, in units of the
    noise variance. Exact for any y = truth + noise whose truth the model contains (both fits then
    reproduce the truth, and the distance is the noise's): sigma^2 ||(P_fold - H)||_F^2 / n, with P_fold
    the map from y to the fold fit's values and H the full-sample hat matrix."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    rows = []
    for model, degree in zip(MODELS, degrees):
        basis = np.vander(x / x.max(), degree + 1, increasing=True)
        hat = basis @ np.linalg.pinv(basis)
        for k in fold_counts:
            distances = []
            for fold in positional_folds(n, k):
                train = np.setdiff1d(np.arange(n), fold)
                fold_map = np.zeros((n, n))
                fold_map[:, train] = basis @ np.linalg.pinv(basis[train])
                distances.append(float(((fold_map - hat) ** 2).sum()) / n)
            rows.append(
                {
                    "model": model,
                    "degree": int(degree),
                    "folds": int(k),
                    "training_size": int(n - max(len(f) for f in positional_folds(n, k))),
                    "distance_to_full_fit": float(np.mean(distances)),
                }
            )
    return pd.DataFrame(rows)


def partition_noise(
    design: Design,
    convention: Convention,
    *,
    slope: float,
    noise_sd: float,
    draws: int,
    seed: int,
    repeats: int,
    batch: int = 200,
) -> pd.DataFrame:
    """CV_k over every partition into folds of the design's size, on fresh tables y = slope x +
    noise_sd e (``default_rng(seed)``: the tables' noise, draws x n, then each table's ``repeats``
    partitions drawn uniformly among all of them). Per model, over the tables:

    - complete cross-validation, the mean of CV_k over all partitions, and how far a mean over
      ``repeats`` random partitions and one partition are from it (root mean squares, and their
      ratio): "a better Monte Carlo estimate of complete cross-validation";
    - the spread over partitions (root mean square s.d.) against the spread of one partition's CV_k
      over tables, and how often one partition's CV_k lies within 2 partition s.d. of the error of
      the model fitted to all n (exact: noise_sd^2 plus its mean squared distance from the true
      line), with its binomial standard error: "report the spread as partition noise, not as a
      confidence interval for the error".
    """
    if convention.fold_error != "mean" or convention.cv != "mean_of_folds":
        raise ValueError("partition_noise reads CV_k as the mean of mean fold errors")
    rng = np.random.default_rng(seed)
    ys = slope * design.x + noise_sd * rng.standard_normal((draws, design.n))
    size = len(design.folds[0])
    triples = [np.array(c) for c in combinations(range(design.n), size)]
    _, fold_index = group_index(equal_partitions(design.n, len(design.folds)), design.n)
    chosen = rng.integers(0, len(fold_index), size=(draws, repeats))
    rows = []
    for model, degree in zip(MODELS, design.degrees):
        held_out = np.empty((draws, len(triples)))
        for t, triple in enumerate(triples):
            train = np.setdiff1d(np.arange(design.n), triple)
            coefficients = least_squares_coefficients(design.x[train], ys[:, train].T, degree, design.x)
            residuals = ys[:, triple].T - predict(coefficients, design.x[triple], design.x)
            held_out[:, t] = (residuals**2).mean(axis=0)
        full = predict(least_squares_coefficients(design.x, ys.T, degree, design.x), design.x, design.x)
        truth = noise_sd**2 + ((full - (slope * design.x)[:, None]) ** 2).mean(axis=0)
        complete, spread, single, repeated = (np.empty(draws) for _ in range(4))
        for start in range(0, draws, batch):
            rows_ = slice(start, min(start + batch, draws))
            cv = mean_over_groups(held_out[rows_], fold_index)  # tables x partitions
            complete[rows_] = cv.mean(axis=1)
            spread[rows_] = cv.std(axis=1, ddof=1)
            picked = np.take_along_axis(cv, chosen[rows_], axis=1)
            single[rows_], repeated[rows_] = picked[:, 0], picked.mean(axis=1)
        covered = np.abs(single - truth) <= 2 * spread
        coverage = float(covered.mean())
        rows.append(
            {
                "model": model,
                "degree": int(degree),
                "tables": draws,
                "partitions": len(fold_index),
                "repeats": repeats,
                "complete_cv_mean": float(complete.mean()),
                "single_rms_from_complete": float(np.sqrt(np.mean((single - complete) ** 2))),
                "repeated_rms_from_complete": float(np.sqrt(np.mean((repeated - complete) ** 2))),
                "repeated_over_single_rms": float(
                    np.sqrt(np.mean((repeated - complete) ** 2) / np.mean((single - complete) ** 2))
                ),
                "partition_sd_rms": float(np.sqrt(np.mean(spread**2))),
                "table_sd": float(single.std(ddof=1)),
                "partition_sd_over_table_sd": float(np.sqrt(np.mean(spread**2)) / single.std(ddof=1)),
                "interval_coverage": coverage,
                "interval_coverage_se": float(np.sqrt(coverage * (1 - coverage) / draws)),
                "noise_sd": noise_sd,
            }
        )
    return pd.DataFrame(rows)
