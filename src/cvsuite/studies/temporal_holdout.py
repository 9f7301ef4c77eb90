"""Random folds against a temporal holdout on daily sales ("Estimating Out-of-Sample Error").

The contrast "Random folds against a temporal holdout, on daily sales" says that both procedures
are correct but estimate different quantities: "Random folds let a model learn from Tuesday and
Thursday to predict Wednesday, which is unavailable when Wednesday is genuinely next. The lower
error is not a better model but a different, easier question." The document prints no numbers.
This module measures the difference on simulated series, against the error the fitted model
actually makes on the next period (the quantity the temporal holdout of the procedure block,
"fit on observations up to some time t and evaluate on observations after it", stands in for).

The series (``cvsuite.data.daily_sales``): a level, a linear trend, a weekly pattern and AR(1)
noise. The model (``cvsuite.methods.trend_weekday_local_level``): the linear trend and weekday
means by least squares, plus a local level, the mean residual of the nearest training days in
time. The local level is the part that can use Tuesday and Thursday to predict Wednesday; with
independent noise it has nothing to learn, which gives the study its control.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.daily_sales import SalesProcess, forecast_floor, sales_paths
from cvsuite.methods.folds import chunked_folds, fold_of
from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se
from cvsuite.methods.trend_weekday_local_level import predictions_by_radius, trend_weekday_local_level_predictions


@dataclass(frozen=True)
class HoldoutDesign:
    """How each series is observed and scored: its length, the next period, both procedures' settings.

    ``n_days`` observed days, followed by ``horizon_days`` unobserved "next" days; random
    ``n_folds``-fold CV; the model's local level averages ``neighbours`` days; the temporal holdout
    cuts the series at ``cut_fractions`` of its length.
    """

    n_days: int
    horizon_days: int
    n_folds: int
    neighbours: int
    cut_fractions: tuple[float, ...]


def series_draws(seed: int, design: HoldoutDesign) -> tuple[np.ndarray, list[np.ndarray]]:
    """The random draws of one simulated series: its innovations and its random folds.

    Draw order from ``default_rng(seed)``: n_days + horizon_days standard normals (the innovations,
    the observed days first, then the next period), then one permutation of the n_days days cut by
    ``numpy.array_split`` into the K random folds (``chunked_folds``).
    """
    rng = np.random.default_rng(seed)
    innovations = rng.standard_normal(design.n_days + design.horizon_days)
    folds = chunked_folds(rng.permutation(design.n_days), design.n_folds)
    return innovations, folds


def random_fold_predictions(days, sales, folds, neighbours: int, exclusion_radii) -> np.ndarray:
    """Each day's prediction by the model fitted without its fold, at each exclusion radius.

    Shape (radii, *sales.shape): ``sales`` may be (n_days,) or (n_days, m), m series on the same days.
    """
    days, sales = np.asarray(days), np.asarray(sales, dtype=float)
    predictions = np.empty((len(exclusion_radii), *sales.shape))
    held_out = np.zeros(days.size, dtype=bool)
    for fold in folds:
        train = np.ones(days.size, dtype=bool)
        train[fold] = False
        for i, pred in enumerate(
            predictions_by_radius(days[train], sales[train], days[fold], neighbours, exclusion_radii)
        ):
            predictions[i, fold] = pred
        held_out[fold] = True
    if not held_out.all():
        raise ValueError("the folds must hold out every day")
    return predictions


def random_fold_mse(days, sales, folds, neighbours: int, exclusion_radius: int = 0):
    """K-fold CV with folds of days drawn at random: squared error pooled over every held-out day
    ("Estimating Out-of-Sample Error", procedure, step 3: "assigned at random").

    Each day is held out once, so pooling over days is the size-weighted mean of the fold losses.
    ``sales`` (n_days,) gives a float; (n_days, m) gives one MSE per column.
    """
    mse = random_fold_mse_by_radius(days, sales, folds, neighbours, [exclusion_radius])[0]
    return float(mse) if np.ndim(mse) == 0 else mse


def random_fold_mse_by_radius(days, sales, folds, neighbours: int, exclusion_radii) -> np.ndarray:
    """``random_fold_mse`` for several exclusion radii on the same folds: shape (radii,) or (radii, m)."""
    sales = np.asarray(sales, dtype=float)
    predictions = random_fold_predictions(days, sales, folds, neighbours, exclusion_radii)
    return ((sales[None] - predictions) ** 2).mean(axis=1)


def temporal_holdout_mse(days, sales, cut_days, horizon_days: int, neighbours: int):
    """Fit on the days before each cut, score the ``horizon_days`` days from it; mean over cuts.

    "Estimating Out-of-Sample Error", procedure block, its temporal holdout: "fit on observations up
    to some time t and evaluate on observations after it. Repeating this at several cut points gives
    several estimates."
    ``sales`` (n_days,) gives a float; (n_days, m) gives one MSE per column.
    """
    days, sales = np.asarray(days), np.asarray(sales, dtype=float)
    losses = []
    for train, test in temporal_splits(days, cut_days, horizon_days):
        pred = trend_weekday_local_level_predictions(days[train], sales[train], days[test], neighbours)
        losses.append(np.mean((sales[test] - pred) ** 2, axis=0))
    mse = np.mean(losses, axis=0)
    return float(mse) if mse.ndim == 0 else mse


def temporal_splits(days, cut_days, horizon_days: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The temporal holdout's (fitted, scored) day masks, one pair per cut: the days before the cut,
    and the ``horizon_days`` days from it."""
    days = np.asarray(days)
    splits = []
    for cut in cut_days:
        test = (days >= cut) & (days < cut + horizon_days)
        if test.sum() != horizon_days:
            raise ValueError(f"cut at day {cut}: fewer than {horizon_days} observed days follow it")
        splits.append((days < cut, test))
    return splits


def scored_days_before_a_fitted_day(days, splits) -> int:
    """The scored days, over every split, that come before a day fitted in the same split (0 when
    every scored day comes after every fitted one): the procedure block's "A fold must never contain
    an observation earlier than one used to fit it", counted."""
    days = np.asarray(days)
    return int(sum((days[test] < days[train].max()).sum() for train, test in splits))


def cut_days_from_fractions(n_days: int, fractions, horizon_days: int) -> np.ndarray:
    """Cut points at the given fractions of the series, each followed by a full horizon."""
    cuts = np.floor(np.asarray(fractions, dtype=float) * n_days).astype(int)
    if np.any(cuts < 1) or np.any(cuts + horizon_days > n_days):
        raise ValueError(
            f"each cut must leave at least one day before it and {horizon_days} days after it in {n_days} days"
        )
    return cuts


def simulate_errors(
    process: SalesProcess,
    design: HoldoutDesign,
    ar_coefficients,
    exclusion_radii,
    *,
    n_series: int,
    first_seed: int,
    future_withheld_days: int | None = None,
) -> pd.DataFrame:
    """Per simulated series and phi, the three error figures, random folds at each exclusion radius.

    Series s is drawn by ``series_draws(first_seed + s, design)``; the same innovations and folds
    serve every phi (each once, in increasing order) and every radius (common random numbers).
    Rows: series, ar_coefficient, estimator (``random_folds``, ``temporal_holdout``,
    ``next_period``), exclusion_radius_days (random folds only, radius 0 always included; -1
    elsewhere) and mse. With ``future_withheld_days``, also ``random_folds_future_withheld``:
    random folds whose local level is denied the days after each held-out day (that many; the
    days before it are used as usual), exclusion_radius_days holding that number: the random
    holdout without its knowledge of the future.
    """
    ar_coefficients = sorted(set(ar_coefficients))
    exclusion_radii = sorted({0, *exclusion_radii})
    withheld = [] if future_withheld_days is None else [(0, int(future_withheld_days))]
    n_days, horizon_days, neighbours = design.n_days, design.horizon_days, design.neighbours
    days = np.arange(n_days)
    next_days = np.arange(n_days, n_days + horizon_days)
    cuts = cut_days_from_fractions(n_days, design.cut_fractions, horizon_days)
    rows = []
    for s in range(n_series):
        innovations, folds = series_draws(first_seed + s, design)
        # One column per phi: every fit below handles all phis at once.
        sales_all = sales_paths(innovations, ar_coefficients, process)
        sales, sales_next = sales_all[:n_days], sales_all[n_days:]
        by_radius = random_fold_mse_by_radius(days, sales, folds, neighbours, exclusion_radii + withheld)
        for radius, mse in zip(exclusion_radii, by_radius):
            rows += [(s, phi, "random_folds", int(radius), float(m)) for phi, m in zip(ar_coefficients, mse)]
        for (_, after), mse in zip(withheld, by_radius[len(exclusion_radii) :]):
            rows += [(s, phi, "random_folds_future_withheld", after, float(m)) for phi, m in zip(ar_coefficients, mse)]
        mse = temporal_holdout_mse(days, sales, cuts, horizon_days, neighbours)
        rows += [(s, phi, "temporal_holdout", -1, float(m)) for phi, m in zip(ar_coefficients, mse)]
        pred = trend_weekday_local_level_predictions(days, sales, next_days, neighbours)
        mse = np.mean((sales_next - pred) ** 2, axis=0)
        rows += [(s, phi, "next_period", -1, float(m)) for phi, m in zip(ar_coefficients, mse)]
    return pd.DataFrame(rows, columns=["series", "ar_coefficient", "estimator", "exclusion_radius_days", "mse"])


def example_series(process: SalesProcess, design: HoldoutDesign, ar_coefficient: float, seed: int) -> pd.DataFrame:
    """One simulated series, day by day, with what each procedure predicted for it.

    The draws of series ``seed - first_seed`` of ``simulate_errors`` (``series_draws``). Columns:
    day, sales, random_fold (the fold the day was held out in, from 1), random_fold_prediction
    (made by the model fitted without that fold), temporal_holdout_prediction (made by the model
    fitted before the last cut; empty outside the horizon after it), last_cut_day.
    """
    n_days, horizon_days, neighbours = design.n_days, design.horizon_days, design.neighbours
    innovations, folds = series_draws(seed, design)
    days = np.arange(n_days)
    sales = sales_paths(innovations, ar_coefficient, process)[:n_days]
    random_pred = random_fold_predictions(days, sales, folds, neighbours, [0])[0]
    cut = cut_days_from_fractions(n_days, design.cut_fractions, horizon_days).max()
    temporal_pred = np.full(n_days, np.nan)
    window = (days >= cut) & (days < cut + horizon_days)
    before = days < cut
    temporal_pred[window] = trend_weekday_local_level_predictions(days[before], sales[before], days[window], neighbours)
    return pd.DataFrame(
        {
            "day": days,
            "sales": sales,
            "random_fold": fold_of(folds, n_days) + 1,
            "random_fold_prediction": random_pred,
            "temporal_holdout_prediction": temporal_pred,
            "last_cut_day": int(cut),
        }
    )


def _pivot(errors: pd.DataFrame, phi: float) -> pd.DataFrame:
    chosen = errors[(errors["ar_coefficient"] == phi) & (errors["exclusion_radius_days"] <= 0)]
    return chosen.pivot(index="series", columns="estimator", values="mse")


def errors_by_ar_coefficient(errors: pd.DataFrame, innovation_sd: float, horizon_days: int) -> pd.DataFrame:
    """One row per phi: each estimator's mean MSE, ratios to the next-period error and the gap, with MC SEs."""
    rows = []
    for phi in sorted(errors["ar_coefficient"].unique()):
        wide = _pivot(errors, phi)
        row = {"ar_coefficient": float(phi), "series": len(wide)}
        for name in ("random_folds", "temporal_holdout", "next_period"):
            row[f"{name}_mse"], row[f"{name}_mse_se"] = mean_and_se(wide[name])
        row["gap_mse"], row["gap_mse_se"] = mean_and_se(wide["temporal_holdout"] - wide["random_folds"])
        ratio, se = ratio_and_se(wide["random_folds"], wide["temporal_holdout"])
        row["random_below_temporal_percent"], row["random_below_temporal_percent_se"] = 100 * (1 - ratio), 100 * se
        row["random_over_next_period"], row["random_over_next_period_se"] = ratio_and_se(
            wide["random_folds"], wide["next_period"]
        )
        row["temporal_over_next_period"], row["temporal_over_next_period_se"] = ratio_and_se(
            wide["temporal_holdout"], wide["next_period"]
        )
        row["noise_variance"] = innovation_sd**2 / (1 - phi**2)
        row["forecast_floor_mse"] = forecast_floor(phi, innovation_sd, horizon_days)
        rows.append(row)
    return pd.DataFrame(rows)


def bias_shares(errors: pd.DataFrame, ar_coefficient: float) -> dict:
    """How far each figure is off the next period's error, as a share of how far random folds are off
    it at phi = ``ar_coefficient`` (ratios of mean gaps, paired by series, delta-method SEs), in
    absolute value: the temporal holdout's gap there ("A figure that estimates next month's
    performance"), and random folds' gap with independent noise, phi = 0, a population that does not
    move (series s has the same seed at every phi): "A figure that estimates performance on a fresh
    draw from the same population"; and how far random folds' error moves from phi = 0 to the main
    phi, over how far the next days' error moves ("silent about drift")."""
    main, stable = _pivot(errors, ar_coefficient), _pivot(errors, 0.0)
    if not main.index.equals(stable.index):
        raise ValueError("the bias shares need the same series at phi = 0 and at the main AR coefficient")
    random_gap = main["random_folds"] - main["next_period"]
    temporal, temporal_se = ratio_and_se(main["temporal_holdout"] - main["next_period"], random_gap)
    stable_random, stable_random_se = ratio_and_se(stable["random_folds"] - stable["next_period"], random_gap)
    # "Silent about drift": how far random folds move from independent noise to the wandering level,
    # over how far the next days' error moves.
    response, response_se = ratio_and_se(
        main["random_folds"] - stable["random_folds"], main["next_period"] - stable["next_period"]
    )
    return {
        "temporal_bias_share": abs(temporal),
        "temporal_bias_share_se": temporal_se,
        "stable_random_bias_share": abs(stable_random),
        "stable_random_bias_share_se": stable_random_se,
        "random_response_share": abs(response),
        "random_response_share_se": response_se,
    }


def errors_by_exclusion_radius(errors: pd.DataFrame) -> pd.DataFrame:
    """Per phi and exclusion radius, the random-fold MSE and the share of the gap it closes.

    Share closed = (random at radius r - random at 0) / (temporal - random at 0), a ratio of means
    over series: 100% means that withholding the days within r of each held-out day leaves random
    folds as hard as the temporal holdout.
    """
    random = errors[errors["estimator"] == "random_folds"]
    rows = []
    for phi in sorted(errors["ar_coefficient"].unique()):
        base = _pivot(errors, phi)
        gap = base["temporal_holdout"] - base["random_folds"]
        at_phi = random[random["ar_coefficient"] == phi]
        for radius in sorted(at_phi["exclusion_radius_days"].unique()):
            mse = at_phi[at_phi["exclusion_radius_days"] == radius].set_index("series")["mse"].loc[base.index]
            row = {"ar_coefficient": float(phi), "exclusion_radius_days": int(radius)}
            row["random_folds_mse"], row["random_folds_mse_se"] = mean_and_se(mse)
            closed, se = ratio_and_se(mse - base["random_folds"], gap)
            row["gap_closed_percent"], row["gap_closed_percent_se"] = 100 * closed, 100 * se
            rows.append(row)
    return pd.DataFrame(rows)


def errors_with_future_withheld(errors: pd.DataFrame) -> pd.DataFrame:
    """Per phi, random folds denied each held-out day's future, and the share of the gap that closes.

    Share closed = (future withheld - random folds) / (temporal holdout - random folds), a ratio of
    means over series (as ``errors_by_exclusion_radius``): the part of the temporal holdout's extra
    error that random folds owe to knowing the days after the one they predict.
    """
    chosen = errors[errors["estimator"] == "random_folds_future_withheld"]
    rows = []
    for phi in sorted(chosen["ar_coefficient"].unique()):
        base = _pivot(errors, phi)
        at_phi = chosen[chosen["ar_coefficient"] == phi]
        mse = at_phi.set_index("series")["mse"].loc[base.index]
        row = {"ar_coefficient": float(phi), "future_withheld_days": int(at_phi["exclusion_radius_days"].iloc[0])}
        row["random_folds_mse"], row["random_folds_mse_se"] = mean_and_se(mse)
        closed, se = ratio_and_se(mse - base["random_folds"], base["temporal_holdout"] - base["random_folds"])
        row["gap_closed_percent"], row["gap_closed_percent_se"] = 100 * closed, 100 * se
        rows.append(row)
    return pd.DataFrame(rows)
