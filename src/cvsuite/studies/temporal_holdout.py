"""Random folds against a temporal holdout on daily sales ("Estimating Out-of-Sample Error").

The contrast "Random folds against a temporal holdout, on daily sales" says that both procedures
are correct but estimate different quantities: "Random folds let a model learn from Tuesday and
Thursday to predict Wednesday, which is unavailable when Wednesday is genuinely next. The lower
error is not a better model but a different, easier question." The document prints no numbers.
This module measures the difference on simulated series, against the error the fitted model
actually makes on the next period (the quantity the temporal holdout of the procedure block,
"fit on observations up to some time t and evaluate on observations after it", stands in for).

The series: a level, a linear trend, a weekly pattern and AR(1) noise. The model: the linear
trend and weekday means by least squares, plus a local level, the mean residual of the nearest
training days in time (a nearest-neighbour smoother in time, so a flexible function of time).
The local level is the part that can use Tuesday and Thursday to predict Wednesday; with
independent noise it has nothing to learn, which gives the study its control.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.folds import chunked_folds
from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se

DAYS_PER_WEEK = 7


def ar1_noise(innovations: np.ndarray, ar_coefficient, innovation_sd: float) -> np.ndarray:
    """A stationary AR(1) path e_t = phi e_(t-1) + sd z_t from standard normals z.

    The first value is drawn from the stationary law, e_0 = z_0 sd / sqrt(1 - phi^2), so the series
    has no burn-in and the same z give comparable paths for every phi (common random numbers).
    ``ar_coefficient`` may be a sequence: then one column per phi, shape (len(z), len(phi)).
    """
    phi = np.asarray(ar_coefficient, dtype=float)
    if np.any(np.abs(phi) >= 1.0):
        raise ValueError(f"the AR coefficient must lie strictly between -1 and 1, got {ar_coefficient}")
    shocks = innovation_sd * np.multiply.outer(np.asarray(innovations, dtype=float), np.ones_like(phi))
    shocks[0] /= np.sqrt(1.0 - phi**2)
    # A plain recursion: a few hundred steps, and no scipy.signal import (over a second) for lfilter.
    for t in range(1, len(shocks)):
        shocks[t] += phi * shocks[t - 1]
    return shocks


def daily_sales(days: np.ndarray, noise: np.ndarray, level: float, trend_per_day: float, weekday_effects) -> np.ndarray:
    """Sales on each day: level + trend x day + the day's weekday effect + noise (day 0 a Monday)."""
    weekday_effects = np.asarray(weekday_effects, dtype=float)
    if weekday_effects.shape != (DAYS_PER_WEEK,):
        raise ValueError(f"weekday_effects needs one value per weekday (7), got {weekday_effects.size}")
    return level + trend_per_day * days + weekday_effects[days % DAYS_PER_WEEK] + noise


def forecast_floor(ar_coefficient: float, innovation_sd: float, horizon_days: int) -> float:
    """The least mean squared error of any forecast of the next ``horizon_days`` days.

    A forecaster that knows the trend, the weekday pattern, phi and every past day still faces
    the unpredicted part of the AR(1) noise h days ahead, variance sd^2 (1 - phi^(2h)) / (1 - phi^2);
    averaged over h = 1..H. The document's "floor that no model clears", for the next period.
    """
    h = np.arange(1, horizon_days + 1)
    return float(np.mean(innovation_sd**2 * (1.0 - ar_coefficient ** (2 * h)) / (1.0 - ar_coefficient**2)))


def _trend_weekday_design(days: np.ndarray, centre: float, scale: float) -> np.ndarray:
    # Weekday dummies against Monday; the trend on a centred, scaled day axis for a well-conditioned fit.
    dummies = (days[:, None] % DAYS_PER_WEEK) == np.arange(1, DAYS_PER_WEEK)[None, :]
    return np.column_stack([np.ones(days.size), (days - centre) / scale, dummies.astype(float)])


def nearest_days_indices(train_days: np.ndarray, eval_days: np.ndarray, neighbours: int,
                         exclusion_radius: int = 0) -> np.ndarray:
    """For each evaluation day, the positions in ``train_days`` of the ``neighbours`` nearest days.

    ``train_days`` must be increasing. Training days within ``exclusion_radius`` days of the
    evaluation day are not used (radius 1 withholds Tuesday and Thursday when predicting
    Wednesday). Equal distances on both sides go to the earlier day. The nearest days form a
    run on each side of the excluded stretch, so they are found by walking outwards from both
    ends, ``neighbours`` steps for all evaluation days at once. Returns (n_eval, neighbours).
    """
    train_days = np.asarray(train_days)
    eval_days = np.asarray(eval_days)
    n_train = train_days.size
    if np.any(np.diff(train_days) <= 0):
        raise ValueError("train_days must be strictly increasing")
    left = np.searchsorted(train_days, eval_days - exclusion_radius, side="left") - 1
    right = np.searchsorted(train_days, eval_days + exclusion_radius, side="right")
    if np.any(left + 1 + n_train - right < neighbours):
        raise ValueError(f"fewer than {neighbours} training days lie outside the exclusion radius {exclusion_radius}")
    # Sentinels at both ends stand for "no day left on this side": infinitely far away.
    padded = np.concatenate([[-np.inf], train_days.astype(float), [np.inf]])
    left, right = left + 1, right + 1
    chosen = np.empty((eval_days.size, neighbours), dtype=np.intp)
    for step in range(neighbours):
        take_left = eval_days - padded[left] <= padded[right] - eval_days
        chosen[:, step] = np.where(take_left, left, right) - 1
        left = left - take_left
        right = right + ~take_left
    return chosen


def trend_weekday_local_level_predictions(train_days, train_sales, eval_days, neighbours: int,
                                          exclusion_radius: int = 0) -> np.ndarray:
    """Fit the study's model on the training days and predict the sales of the evaluation days.

    Least squares on an intercept, a linear trend and six weekday dummies; then the local level,
    the mean residual of the nearest training days (``nearest_days_indices``), added to the fit.
    ``train_sales`` may be (n_train,) or (n_train, m): m series observed on the same days, each
    fitted on its own; the predictions have the matching shape.
    """
    return _predictions_by_radius(train_days, train_sales, eval_days, neighbours, [exclusion_radius])[0]


def _predictions_by_radius(train_days, train_sales, eval_days, neighbours: int, exclusion_radii) -> list[np.ndarray]:
    # The least-squares part does not depend on the radius: fit it once, vary only the local level.
    train_days = np.asarray(train_days)
    order = np.argsort(train_days, kind="stable")
    train_days, train_sales = train_days[order], np.asarray(train_sales, dtype=float)[order]
    centre, scale = train_days.mean(), max(float(np.ptp(train_days)), 1.0)
    design = _trend_weekday_design(train_days, centre, scale)
    coef = np.linalg.lstsq(design, train_sales, rcond=None)[0]
    residuals = train_sales - design @ coef
    eval_days = np.asarray(eval_days)
    trend_weekday = _trend_weekday_design(eval_days, centre, scale) @ coef
    return [trend_weekday + residuals[nearest_days_indices(train_days, eval_days, neighbours, r)].mean(axis=1)
            for r in exclusion_radii]


def random_fold_mse(days, sales, folds, neighbours: int, exclusion_radius: int = 0):
    """K-fold CV with folds of days drawn at random: squared error pooled over every held-out day.

    Each day is held out once, so pooling over days is the size-weighted mean of the fold losses.
    ``sales`` (n_days,) gives a float; (n_days, m) gives one MSE per column.
    """
    mse = random_fold_mse_by_radius(days, sales, folds, neighbours, [exclusion_radius])[0]
    return float(mse) if np.ndim(mse) == 0 else mse


def random_fold_mse_by_radius(days, sales, folds, neighbours: int, exclusion_radii) -> np.ndarray:
    """``random_fold_mse`` for several exclusion radii on the same folds: shape (radii,) or (radii, m)."""
    days, sales = np.asarray(days), np.asarray(sales, dtype=float)
    squared = np.empty((len(exclusion_radii), *sales.shape))
    held_out = np.zeros(days.size, dtype=bool)
    for fold in folds:
        train = np.ones(days.size, dtype=bool)
        train[fold] = False
        preds = _predictions_by_radius(days[train], sales[train], days[fold], neighbours, exclusion_radii)
        for i, pred in enumerate(preds):
            squared[i, fold] = (sales[fold] - pred) ** 2
        held_out[fold] = True
    if not held_out.all():
        raise ValueError("the folds must hold out every day")
    return squared.mean(axis=1)


def temporal_holdout_mse(days, sales, cut_days, horizon_days: int, neighbours: int):
    """Fit on the days before each cut, score the ``horizon_days`` days from it; mean over cuts.

    The procedure block's temporal holdout: "fit on observations up to some time t and evaluate
    on observations after it. Repeating this at several cut points gives several estimates."
    ``sales`` (n_days,) gives a float; (n_days, m) gives one MSE per column.
    """
    days, sales = np.asarray(days), np.asarray(sales, dtype=float)
    losses = []
    for cut in cut_days:
        train = days < cut
        test = (days >= cut) & (days < cut + horizon_days)
        if test.sum() != horizon_days:
            raise ValueError(f"cut at day {cut}: fewer than {horizon_days} observed days follow it")
        pred = trend_weekday_local_level_predictions(days[train], sales[train], days[test], neighbours)
        losses.append(np.mean((sales[test] - pred) ** 2, axis=0))
    mse = np.mean(losses, axis=0)
    return float(mse) if mse.ndim == 0 else mse


def cut_days_from_fractions(n_days: int, fractions, horizon_days: int) -> np.ndarray:
    """Cut points at the given fractions of the series, each followed by a full horizon."""
    cuts = np.floor(np.asarray(fractions, dtype=float) * n_days).astype(int)
    if np.any(cuts < 1) or np.any(cuts + horizon_days > n_days):
        raise ValueError(f"each cut must leave at least one day before it and {horizon_days} days after it in {n_days} days")
    return cuts


def simulate_errors(n_days: int, horizon_days: int, level: float, trend_per_day: float, weekday_effects,
                    innovation_sd: float, ar_coefficients, main_ar_coefficient: float, n_folds: int,
                    neighbours: int, cut_fractions, exclusion_radii, n_series: int, first_seed: int) -> pd.DataFrame:
    """Per simulated series and phi, the three error figures, random folds at each exclusion radius.

    Draw order for series s, from ``default_rng(first_seed + s)``: n_days + horizon_days standard
    normals (the innovations, the observed days first, then the next period), then one
    permutation of the n_days days cut by ``numpy.array_split`` into the K random folds. The same
    innovations and folds serve every phi and every radius. Rows: series, ar_coefficient,
    estimator (``random_folds``, ``temporal_holdout``, ``next_period``), exclusion_radius_days
    (random folds only, radius 0 always included; -1 elsewhere) and mse.
    """
    ar_coefficients = sorted({*ar_coefficients, main_ar_coefficient})
    exclusion_radii = sorted({0, *exclusion_radii})
    days = np.arange(n_days)
    next_days = np.arange(n_days, n_days + horizon_days)
    cuts = cut_days_from_fractions(n_days, cut_fractions, horizon_days)
    rows = []
    for s in range(n_series):
        rng = np.random.default_rng(first_seed + s)
        innovations = rng.standard_normal(n_days + horizon_days)
        folds = chunked_folds(rng.permutation(n_days), n_folds)
        # One column per phi: every fit below handles all phis at once.
        noise = ar1_noise(innovations, ar_coefficients, innovation_sd)
        sales_all = daily_sales(np.arange(n_days + horizon_days)[:, None], noise, level, trend_per_day, weekday_effects)
        sales, sales_next = sales_all[:n_days], sales_all[n_days:]
        by_radius = random_fold_mse_by_radius(days, sales, folds, neighbours, exclusion_radii)
        for radius, mse in zip(exclusion_radii, by_radius):
            rows += [(s, phi, "random_folds", int(radius), float(m)) for phi, m in zip(ar_coefficients, mse)]
        mse = temporal_holdout_mse(days, sales, cuts, horizon_days, neighbours)
        rows += [(s, phi, "temporal_holdout", -1, float(m)) for phi, m in zip(ar_coefficients, mse)]
        pred = trend_weekday_local_level_predictions(days, sales, next_days, neighbours)
        mse = np.mean((sales_next - pred) ** 2, axis=0)
        rows += [(s, phi, "next_period", -1, float(m)) for phi, m in zip(ar_coefficients, mse)]
    return pd.DataFrame(rows, columns=["series", "ar_coefficient", "estimator", "exclusion_radius_days", "mse"])


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
        row["random_over_next_period"], row["random_over_next_period_se"] = ratio_and_se(wide["random_folds"], wide["next_period"])
        row["temporal_over_next_period"], row["temporal_over_next_period_se"] = ratio_and_se(wide["temporal_holdout"], wide["next_period"])
        row["noise_variance"] = innovation_sd**2 / (1 - phi**2)
        row["forecast_floor_mse"] = forecast_floor(phi, innovation_sd, horizon_days)
        rows.append(row)
    return pd.DataFrame(rows)


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


def example_series(n_days: int, horizon_days: int, level: float, trend_per_day: float, weekday_effects,
                   innovation_sd: float, ar_coefficient: float, n_folds: int, neighbours: int, cut_fractions,
                   seed: int) -> pd.DataFrame:
    """One simulated series, day by day, with what each procedure predicted for it.

    The same draws as series ``seed - first_seed`` of ``simulate_errors``. Columns: day, sales,
    random_fold (the fold the day was held out in), random_fold_prediction (made by the model
    fitted without that fold), temporal_holdout_prediction (made by the model fitted before the
    last cut; empty outside the horizon after it).
    """
    rng = np.random.default_rng(seed)
    innovations = rng.standard_normal(n_days + horizon_days)
    folds = chunked_folds(rng.permutation(n_days), n_folds)
    days = np.arange(n_days)
    sales = daily_sales(days, ar1_noise(innovations, ar_coefficient, innovation_sd)[:n_days], level, trend_per_day, weekday_effects)
    fold_of = np.empty(n_days, dtype=int)
    random_pred = np.empty(n_days)
    for k, fold in enumerate(folds):
        train = np.ones(n_days, dtype=bool)
        train[fold] = False
        fold_of[fold] = k + 1
        random_pred[fold] = trend_weekday_local_level_predictions(days[train], sales[train], days[fold], neighbours)
    cut = cut_days_from_fractions(n_days, cut_fractions, horizon_days).max()
    temporal_pred = np.full(n_days, np.nan)
    window = (days >= cut) & (days < cut + horizon_days)
    temporal_pred[window] = trend_weekday_local_level_predictions(days[days < cut], sales[days < cut], days[window], neighbours)
    return pd.DataFrame({"day": days, "sales": sales, "random_fold": fold_of, "random_fold_prediction": random_pred,
                         "temporal_holdout_prediction": temporal_pred, "last_cut_day": int(cut)})


def temporal_holdout_verdict(by_phi: pd.DataFrame, by_radius: pd.DataFrame, main_ar_coefficient: float,
                             decision_standard_errors: float, most_of_gap_percent: float,
                             n_folds: int, horizon_days: int) -> pd.DataFrame:
    """The one-row verdict: each claim in words as a boolean, the effect sizes with MC SEs, a sentence.

    Claims ("Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily sales):
    - random_folds_look_better: the random-fold error lies below the temporal holdout's by more
      than ``decision_standard_errors`` MC SEs ("The lower error is not a better model ...").
    - they_estimate_different_quantities: the temporal holdout lies within that many SEs of the
      truly-next-period error and the random folds lie below it by more ("Both are correct
      procedures; they estimate different quantities").
    - random_folds_learn_from_neighbouring_days: withholding the days near each held-out day (the
      widest radius) closes more than ``most_of_gap_percent`` of the gap, lower bound included, and
      with independent noise (phi = 0) the gap is within that many SEs of 0 ("Random folds let a
      model learn from Tuesday and Thursday to predict Wednesday").
    - random_folds_below_forecast_floor: the random-fold error lies below the least error any
      forecast of the next period can reach by more than that many SEs (the floor that "no model
      clears"; what is below it came from held-out days' neighbours).
    """
    z = decision_standard_errors
    main = by_phi[by_phi["ar_coefficient"] == main_ar_coefficient]
    independent = by_phi[by_phi["ar_coefficient"] == 0.0]
    if len(main) != 1 or len(independent) != 1:
        raise ValueError("the verdict needs the main AR coefficient and 0 (independent noise) among the simulated ones")
    main, independent = main.iloc[0], independent.iloc[0]
    radii = by_radius[by_radius["ar_coefficient"] == main_ar_coefficient].set_index("exclusion_radius_days")
    widest = radii.index.max()
    if widest <= 0:
        raise ValueError("the verdict needs at least one exclusion radius above 0")
    first = radii.loc[radii.index[radii.index > 0].min()]

    row = {
        "ar_coefficient": float(main_ar_coefficient),
        "folds": int(n_folds),
        "horizon_days": int(horizon_days),
        "series": int(main["series"]),
    }
    for name in ("random_folds_mse", "temporal_holdout_mse", "next_period_mse", "random_below_temporal_percent",
                 "random_over_next_period", "temporal_over_next_period"):
        row[name], row[f"{name}_se"] = main[name], main[f"{name}_se"]
    row["gap_mse"], row["gap_mse_se"] = main["gap_mse"], main["gap_mse_se"]
    row["gap_independent_noise_mse"], row["gap_independent_noise_mse_se"] = independent["gap_mse"], independent["gap_mse_se"]
    row["first_exclusion_radius_days"] = int(first.name)
    row["gap_closed_first_radius_percent"], row["gap_closed_first_radius_percent_se"] = first["gap_closed_percent"], first["gap_closed_percent_se"]
    row["widest_exclusion_radius_days"] = int(widest)
    row["gap_closed_widest_radius_percent"] = radii.loc[widest, "gap_closed_percent"]
    row["gap_closed_widest_radius_percent_se"] = radii.loc[widest, "gap_closed_percent_se"]
    row["forecast_floor_mse"] = main["forecast_floor_mse"]
    row["noise_variance"] = main["noise_variance"]

    row["random_folds_look_better"] = bool(row["gap_mse"] > z * row["gap_mse_se"])
    temporal_matches = abs(row["temporal_over_next_period"] - 1) <= z * row["temporal_over_next_period_se"]
    random_below = 1 - row["random_over_next_period"] > z * row["random_over_next_period_se"]
    row["they_estimate_different_quantities"] = bool(temporal_matches and random_below)
    closes_most = row["gap_closed_widest_radius_percent"] - z * row["gap_closed_widest_radius_percent_se"] > most_of_gap_percent
    no_gap_independent = abs(row["gap_independent_noise_mse"]) <= z * row["gap_independent_noise_mse_se"]
    row["withholding_neighbours_closes_most_of_gap"] = bool(closes_most)
    row["no_gap_with_independent_noise"] = bool(no_gap_independent)
    row["random_folds_learn_from_neighbouring_days"] = bool(closes_most and no_gap_independent)
    row["random_folds_below_forecast_floor"] = bool(row["random_folds_mse"] + z * row["random_folds_mse_se"] < row["forecast_floor_mse"])
    row["verdict"] = _temporal_sentence(row)
    return pd.DataFrame([row])


def _temporal_sentence(r: dict) -> str:
    look = "look better" if r["random_folds_look_better"] else "do not look better"
    matches = "which matches" if r["they_estimate_different_quantities"] else "which does not match"
    floor = "lies below" if r["random_folds_below_forecast_floor"] else "does not lie below"
    if not r["random_folds_look_better"]:
        why = "so here random folds hold no advantage to explain"
    elif r["random_folds_learn_from_neighbouring_days"]:
        why = "so the lower error comes from filling gaps between neighbouring days, not from a better model"
    else:
        why = "so the neighbouring days do not account for the lower error"
    return (
        f"Random folds {look}: {r['folds']}-fold CV reports an MSE of {r['random_folds_mse']:.1f} ± {r['random_folds_mse_se']:.1f}, "
        f"{r['random_below_temporal_percent']:.0f}% ± {r['random_below_temporal_percent_se']:.0f}% below the temporal holdout's "
        f"{r['temporal_holdout_mse']:.1f} ± {r['temporal_holdout_mse_se']:.1f}, {matches} the error on the truly next "
        f"{r['horizon_days']} days ({r['next_period_mse']:.1f} ± {r['next_period_mse_se']:.1f}), and {floor} the "
        f"{r['forecast_floor_mse']:.1f} that no forecast can beat; withholding the days within {r['widest_exclusion_radius_days']} "
        f"days of each held-out day closes {r['gap_closed_widest_radius_percent']:.0f}% ± {r['gap_closed_widest_radius_percent_se']:.0f}% "
        f"of the gap, and with independent noise the gap is {r['gap_independent_noise_mse']:.1f} ± {r['gap_independent_noise_mse_se']:.1f}, "
        f"{why}."
    )
