"""Daily sales: a level, a linear trend, a weekly pattern and stationary AR(1) noise.

The series of "Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily
sales. The document names the series and gives none of its values; the study's config fixes them.
Day 0 is a Monday.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DAYS_PER_WEEK = 7


@dataclass(frozen=True)
class SalesProcess:
    """What generates the sales: level + trend x day + the weekday's effect + AR(1) noise.

    ``weekday_effects`` holds one value per weekday, Monday first; ``innovation_sd`` is the s.d. of
    the AR(1) innovations (units per day).
    """

    level: float
    trend_per_day: float
    weekday_effects: tuple[float, ...]
    innovation_sd: float

    def __post_init__(self) -> None:
        effects = tuple(float(v) for v in self.weekday_effects)
        if len(effects) != DAYS_PER_WEEK:
            raise ValueError(f"weekday_effects needs one value per weekday (7), got {len(effects)}")
        object.__setattr__(self, "weekday_effects", effects)


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


def daily_sales(days: np.ndarray, noise: np.ndarray, process: SalesProcess) -> np.ndarray:
    """Sales on each day: level + trend x day + the day's weekday effect + noise (day 0 a Monday)."""
    weekday_effects = np.asarray(process.weekday_effects, dtype=float)
    return process.level + process.trend_per_day * days + weekday_effects[days % DAYS_PER_WEEK] + noise


def sales_paths(innovations: np.ndarray, ar_coefficients, process: SalesProcess) -> np.ndarray:
    """The sales of days 0..len(innovations)-1, one column per AR coefficient, from the same innovations."""
    noise = ar1_noise(innovations, ar_coefficients, process.innovation_sd)
    days = np.arange(len(innovations))
    return daily_sales(days[:, None] if noise.ndim == 2 else days, noise, process)


def forecast_floor(ar_coefficient: float, innovation_sd: float, horizon_days: int) -> float:
    """The least mean squared error of any forecast of the next ``horizon_days`` days.

    A forecaster that knows the trend, the weekday pattern, phi and every past day still faces
    the unpredicted part of the AR(1) noise h days ahead, variance sd^2 (1 - phi^(2h)) / (1 - phi^2);
    averaged over h = 1..H. The document's "floor that no model clears", for the next period.
    """
    h = np.arange(1, horizon_days + 1)
    return float(np.mean(innovation_sd**2 * (1.0 - ar_coefficient ** (2 * h)) / (1.0 - ar_coefficient**2)))
