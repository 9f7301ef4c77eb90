"""A trend, a weekly pattern and a local level: the daily-sales model of "Estimating Out-of-Sample Error".

The model of the study temporal_holdout (Random folds against a temporal holdout, on daily sales):
least squares on an intercept, a linear trend and six weekday dummies, plus a local level, the mean
residual of the training days nearest in time (a nearest-neighbour smoother in time, so a flexible
function of time). The local level is the part that can use Tuesday and Thursday to predict
Wednesday; an exclusion radius withholds the days near the one predicted from it.
"""

from __future__ import annotations

import numpy as np

from cvsuite.data.daily_sales import DAYS_PER_WEEK


def _trend_weekday_design(days: np.ndarray, centre: float, scale: float) -> np.ndarray:
    # Weekday dummies against Monday; the trend on a centred, scaled day axis for a well-conditioned fit.
    dummies = (days[:, None] % DAYS_PER_WEEK) == np.arange(1, DAYS_PER_WEEK)[None, :]
    return np.column_stack([np.ones(days.size), (days - centre) / scale, dummies.astype(float)])


def nearest_days_indices(
    train_days: np.ndarray, eval_days: np.ndarray, neighbours: int, exclusion_radius: int | tuple[int, int] = 0
) -> np.ndarray:
    """For each evaluation day, the positions in ``train_days`` of the ``neighbours`` nearest days.

    ``train_days`` must be increasing. Training days within ``exclusion_radius`` days of the
    evaluation day are not used (radius 1 withholds Tuesday and Thursday when predicting
    Wednesday); a pair (days before, days after) withholds different stretches on the two sides
    ((0, 14) withholds the fortnight after the day: the level then knows nothing of its future).
    Equal distances on both sides go to the earlier day. The nearest days form a run on each side
    of the excluded stretch, so they are found by walking outwards from both ends, ``neighbours``
    steps for all evaluation days at once. Returns (n_eval, neighbours).
    """
    return nearest_days_indices_by_radius(train_days, eval_days, neighbours, [exclusion_radius])[0]


def nearest_days_indices_by_radius(train_days: np.ndarray, eval_days: np.ndarray, neighbours: int, exclusion_radii):
    """``nearest_days_indices`` at each of several exclusion radii: (radii, n_eval, neighbours).

    Only where the walk starts depends on the radius, so every radius walks in the same
    ``neighbours`` steps: the positions are integers, the same whichever way they are found.
    """
    train_days = np.asarray(train_days)
    eval_days = np.asarray(eval_days)
    n_train = train_days.size
    if np.any(np.diff(train_days) <= 0):
        raise ValueError("train_days must be strictly increasing")
    withheld = np.array([withheld_days(radius) for radius in exclusion_radii]).reshape(-1, 2)
    before, after = withheld[:, :1], withheld[:, 1:]
    left = np.searchsorted(train_days, eval_days[None, :] - before, side="left") - 1
    right = np.searchsorted(train_days, eval_days[None, :] + after, side="right")
    too_few = np.any(left + 1 + n_train - right < neighbours, axis=1)
    if too_few.any():
        radius = exclusion_radii[int(np.argmax(too_few))]
        raise ValueError(f"fewer than {neighbours} training days lie outside the exclusion radius {radius}")
    # Sentinels at both ends stand for "no day left on this side": infinitely far away.
    padded = np.concatenate([[-np.inf], train_days.astype(float), [np.inf]])
    left, right = left + 1, right + 1
    days = eval_days.astype(float)  # exact: converted once rather than at every comparison
    chosen = np.empty((*left.shape, neighbours), dtype=np.intp)
    for step in range(neighbours):
        take_left = days - padded[left] <= padded[right] - days
        np.subtract(np.where(take_left, left, right), 1, out=chosen[..., step])
        left -= take_left
        right += ~take_left
    return chosen


def withheld_days(exclusion_radius: int | tuple[int, int]) -> tuple[int, int]:
    """An exclusion radius as (days withheld before, days withheld after): r is (r, r)."""
    if isinstance(exclusion_radius, (tuple, list)):
        before, after = (int(v) for v in exclusion_radius)
    else:
        before = after = int(exclusion_radius)
    if before < 0 or after < 0:
        raise ValueError(f"an exclusion radius cannot be negative, got {exclusion_radius}")
    return before, after


def trend_weekday_local_level_predictions(
    train_days, train_sales, eval_days, neighbours: int, exclusion_radius: int = 0
) -> np.ndarray:
    """Fit the model on the training days and predict the sales of the evaluation days.

    Least squares on an intercept, a linear trend and six weekday dummies; then the local level,
    the mean residual of the nearest training days (``nearest_days_indices``), added to the fit.
    ``train_sales`` may be (n_train,) or (n_train, m): m series observed on the same days, each
    fitted on its own; the predictions have the matching shape.
    """
    return predictions_by_radius(train_days, train_sales, eval_days, neighbours, [exclusion_radius])[0]


def predictions_by_radius(train_days, train_sales, eval_days, neighbours: int, exclusion_radii) -> list[np.ndarray]:
    """``trend_weekday_local_level_predictions`` at several exclusion radii, one array per radius."""
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
    nearest = nearest_days_indices_by_radius(train_days, eval_days, neighbours, exclusion_radii)
    # Every radius's local levels in one mean: a sum of a few terms, taken in the same order for each.
    return list(trend_weekday + residuals[nearest].mean(axis=2))
