"""Bias, variance and their sum against flexibility: "Estimating Out-of-Sample Error", its decomposition.

"Flexibility moves the first two in opposite directions. A more flexible model follows the true f
more closely, lowering bias, and responds more to the particular sample it was given, raising
variance. Their sum therefore has a minimum at some intermediate flexibility ... The minimum's
location depends on n: more data lowers variance at a given flexibility, so the optimum moves toward
more flexible models as the sample grows." And: "A straight line fitted to genuinely curved data
misses the same way in every sample, however many observations each contains"; "A rigid model has
high bias and low variance; a flexible one has the reverse"; "training error keeps falling".

The document names no data for these sentences; the test bed is the curved regression of
"Regularization and Cross-Validation" (sin(1.4 x) + 0.3 x plus Gaussian noise, x uniform), fitted by
least-squares polynomials of growing degree (flexibility) on samples of several sizes. Bias and
variance are what the decomposition defines, over training sets: at each x of a grid over the range
(the centres of equal cells, so that the grid's mean is the average over x uniform on the range),
the mean prediction over samples against f(x) (squared, less its Monte Carlo part, so unbiased) and
the variance of the predictions, both averaged over the grid; the expected error adds the noise
variance. A degree near the sample size is sometimes nearly singular on a random design, so its
means have heavy tails: the table keeps them as measured.

What the sentences compare is computed sample by sample on the same fits: the flexible fit against
the rigid one (``rigid_and_flexible``), each degree's variance at the next sample size
(``more_data``), the ends of the degree range against the best interior degree
(``ends_against_interior``), the neighbouring sizes' optima against each other (``optimum_shift``),
the training error at each step of degree (``training_error_steps``) and each degree's squared bias
across sample sizes (``bias_across_n``). A variance or an expected error is a mean of positive,
heavy-tailed draws, so two are compared by the log of their ratio, with its delta-method standard
error: on that scale the noise of such a mean is nearer normal, and the interval cannot run below
zero as the difference's does. A squared bias can be zero, so two are compared by their difference,
with its jackknife standard error over the samples. Statistics only: the registry's judges decide
what they say about the sentences.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.sine import polynomial_design, sine_signal
from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se


@dataclass(frozen=True)
class BiasVarianceSettings:
    """Sample sizes, degrees, samples per size, grid points, seed; noise and range as sine_data."""

    sample_sizes: tuple[int, ...]
    degrees: tuple[int, ...]
    samples: int
    grid_points: int
    seed: int
    noise: float
    half_width: float

    @classmethod
    def from_config(cls, block: dict, sine_data: dict) -> BiasVarianceSettings:
        return cls(
            tuple(block["sample_sizes"]),
            tuple(range(block["min_degree"], block["max_degree"] + 1)),
            block["samples"],
            block["grid_points"],
            block["seed"],
            sine_data["noise"],
            sine_data["half_width"],
        )


@dataclass(frozen=True)
class Fits:
    """Every sample's fit, per sample size: ``predictions[n]`` (degrees x samples x grid points) on
    the grid, ``training[n]`` (degrees x samples) their training errors; the truth on the grid."""

    degrees: tuple[int, ...]
    sizes: tuple[int, ...]
    predictions: dict[int, np.ndarray]
    training: dict[int, np.ndarray]
    truth: np.ndarray
    noise: float

    def excess_errors(self, n: int) -> np.ndarray:
        """Each fit's mean squared distance from the truth over the grid (degrees x samples): its
        expected error less the noise variance. Their mean is the squared bias plus the variance."""
        return ((self.predictions[n] - self.truth) ** 2).mean(axis=2)

    def scatters(self, n: int) -> np.ndarray:
        """Each fit's mean squared distance from its degree's mean fit over the grid (degrees x
        samples): the sample's contribution to the variance ("responds to the particular sample")."""
        predictions = self.predictions[n]
        return ((predictions - predictions.mean(axis=1, keepdims=True)) ** 2).mean(axis=2)


def fit_samples(s: BiasVarianceSettings) -> Fits:
    """Fit every degree to ``samples`` samples of each size.

    Draw order from ``default_rng(seed)``: for each sample size in order, ``samples`` samples, each n
    uniform x then n standard normals (scaled by the noise), as the companion document's ``make``
    draws one. Every degree is fitted to the same samples.
    """
    rng = np.random.default_rng(s.seed)
    # The centres of grid_points equal cells: their mean is the average over x uniform on the range,
    # as the samples draw x. A grid with both ends would weigh the ends, where the fits of high degree
    # stray most, twice as much as the rest, enough to move a difference of two squared biases of 1e-5.
    cells = np.linspace(-s.half_width, s.half_width, s.grid_points + 1)
    grid = (cells[:-1] + cells[1:]) / 2
    grid_designs = [polynomial_design(grid, degree, s.half_width) for degree in s.degrees]
    predictions, training = {}, {}
    for n in s.sample_sizes:
        predictions[n] = np.empty((len(s.degrees), s.samples, len(grid)))
        training[n] = np.empty((len(s.degrees), s.samples))
        for sample in range(s.samples):
            x = rng.uniform(-s.half_width, s.half_width, n)
            y = sine_signal(x) + s.noise * rng.standard_normal(n)
            for i, degree in enumerate(s.degrees):
                design = polynomial_design(x, degree, s.half_width)
                theta = np.linalg.lstsq(design, y, rcond=None)[0]
                predictions[n][i, sample] = grid_designs[i] @ theta
                training[n][i, sample] = np.mean((y - design @ theta) ** 2)
    return Fits(tuple(s.degrees), tuple(s.sample_sizes), predictions, training, sine_signal(grid), s.noise)


def decomposition(s: BiasVarianceSettings, fits: Fits | None = None) -> pd.DataFrame:
    """One row per sample size and degree: squared bias, variance, their sum with the noise variance
    (the expected error), and the expected training error, each with its Monte Carlo standard error
    (the squared bias's by the jackknife over the samples). ``fits`` as ``fit_samples(s)`` draws them.
    """
    fits = fit_samples(s) if fits is None else fits
    rows = []
    for n in fits.sizes:
        for i, degree in enumerate(fits.degrees):
            moments = _moments(fits.predictions[n][i], fits.truth, fits.training[n][i], fits.noise)
            rows.append({"n": n, "degree": degree, **moments})
    return pd.DataFrame(rows)


def _moments(predictions: np.ndarray, truth: np.ndarray, training: np.ndarray, noise: float) -> dict:
    """Squared bias (unbiased: the mean prediction's own Monte Carlo variance taken out), variance,
    expected error and expected training error from one degree's predictions (samples x grid)."""
    samples = len(predictions)
    mean = predictions.mean(axis=0)
    variance_at_x = predictions.var(axis=0, ddof=1)
    bias2 = squared_bias(predictions, truth)
    # Per-sample contributions, for standard errors: each sample's squared distance from the mean curve.
    spread = ((predictions - mean) ** 2).mean(axis=1)
    variance = float(variance_at_x.mean())
    variance_se = float(spread.std(ddof=1) / np.sqrt(samples))
    return {
        "bias_squared": bias2,
        "bias_squared_se": _jackknife_se(_bias_squared_leaving_out(predictions, truth)),
        "variance": variance,
        "variance_se": variance_se,
        "noise_variance": noise**2,
        "expected_error": bias2 + variance + noise**2,
        "expected_error_se": variance_se,  # the variance's, which dominates: the bias's s.e. is of order 1/samples
        "training_error": float(training.mean()),
        "training_error_se": float(training.std(ddof=1) / np.sqrt(samples)),
    }


def squared_bias(predictions: np.ndarray, truth: np.ndarray) -> float:
    """The squared bias over the grid from one degree's predictions (samples x grid), unbiased: the
    mean prediction's own Monte Carlo variance taken out."""
    mean = predictions.mean(axis=0)
    return float(np.mean((mean - truth) ** 2 - predictions.var(axis=0, ddof=1) / len(predictions)))


def _bias_squared_leaving_out(predictions: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """The squared bias of ``_moments`` recomputed without each sample in turn (one value per sample)."""
    samples = len(predictions)
    mean = predictions.mean(axis=0)
    squares = ((predictions - mean) ** 2).sum(axis=0)
    deviation = predictions - mean
    means = (samples * mean - predictions) / (samples - 1)
    variances = (squares - deviation**2 * samples / (samples - 1)) / (samples - 2)
    return ((means - truth) ** 2 - variances / (samples - 1)).mean(axis=1)


def bias_squared_difference(predictions: np.ndarray, baseline: np.ndarray, truth: np.ndarray) -> tuple[float, float]:
    """One fit's squared bias less another's, both fitted on the same samples (samples x grid each),
    with the jackknife standard error of the difference: leaving a sample out moves both, so the
    noise they share cancels."""
    gap = squared_bias(predictions, truth) - squared_bias(baseline, truth)
    leaving_out = _bias_squared_leaving_out(predictions, truth) - _bias_squared_leaving_out(baseline, truth)
    return gap, _jackknife_se(leaving_out)


def _jackknife_se(leave_one_out: np.ndarray) -> float:
    """The jackknife standard error of a statistic from its leave-one-out values."""
    count = len(leave_one_out)
    return float(np.sqrt((count - 1) / count * ((leave_one_out - leave_one_out.mean()) ** 2).sum()))


def opposite_margin(bias_move: float, bias_move_se: float, variance_move: float, variance_move_se: float) -> float:
    """How surely two moves go opposite ways: the weaker of the two in its own standard errors,
    positive where they go opposite ways and negative where they go the same way ("Flexibility moves
    the first two in opposite directions", judged jointly). Its standard error is 1 by construction:
    beyond 2 either way, both moves are beyond 2 of their standard errors."""
    bias_z, variance_z = bias_move / bias_move_se, variance_move / variance_move_se
    return float(-np.sign(bias_z) * np.sign(variance_z) * min(abs(bias_z), abs(variance_z)))


def paired_log_ratio(numerators: np.ndarray, denominators: np.ndarray) -> tuple[float, float]:
    """log(mean(numerators) / mean(denominators)) and its delta-method standard error, paired draw by
    draw (``ratio_and_se``): the log of a ratio of two means of positive draws."""
    ratio, se = ratio_and_se(numerators, denominators)
    return float(np.log(ratio)), se / ratio


def _log_ratio_independent(numerators: np.ndarray, denominators: np.ndarray) -> tuple[float, float]:
    """As ``paired_log_ratio`` for means of independent draws: the two relative standard errors add."""
    (top, top_se), (bottom, bottom_se) = mean_and_se(numerators), mean_and_se(denominators)
    return float(np.log(top / bottom)), float(np.hypot(top_se / top, bottom_se / bottom))


def optima(table: pd.DataFrame) -> pd.DataFrame:
    """Per sample size: the degree of least expected error, and the degree range it is sought in."""
    rows = []
    for n, block in table.groupby("n", sort=True):
        best = block.loc[block["expected_error"].idxmin()]
        rows.append(
            {
                "n": int(n),
                "best_degree": int(best["degree"]),
                "best_expected_error": float(best["expected_error"]),
                "min_degree": int(block["degree"].min()),
                "max_degree": int(block["degree"].max()),
            }
        )
    return pd.DataFrame(rows)


def rigid_and_flexible(fits: Fits) -> pd.DataFrame:
    """Per sample size, the most flexible fit (the highest degree) against the most rigid (the
    lowest), on the same samples: the difference of their squared biases (flexible minus rigid, with
    its jackknife s.e.), and their variances' ratio (flexible over rigid), its log with the log's
    s.e., and their difference with its paired s.e. (heavy-tailed where the flexible fit is nearly
    singular on some samples); and how surely the two move opposite ways (``opposite_margin``)."""
    rigid, flexible = 0, len(fits.degrees) - 1
    rows = []
    for n in fits.sizes:
        predictions = fits.predictions[n]
        bias_gap, bias_gap_se = bias_squared_difference(predictions[flexible], predictions[rigid], fits.truth)
        flexible_m = _moments(predictions[flexible], fits.truth, fits.training[n][flexible], fits.noise)
        rigid_m = _moments(predictions[rigid], fits.truth, fits.training[n][rigid], fits.noise)
        scatters = fits.scatters(n)
        log_ratio, log_ratio_se = paired_log_ratio(scatters[flexible], scatters[rigid])
        _, variance_gap_se = mean_and_se(scatters[flexible] - scatters[rigid])
        rows.append(
            {
                "n": n,
                "rigid_degree": fits.degrees[rigid],
                "flexible_degree": fits.degrees[flexible],
                "bias_squared_difference": bias_gap,
                "bias_squared_difference_se": bias_gap_se,
                "variance_ratio": flexible_m["variance"] / rigid_m["variance"],
                "log_variance_ratio": log_ratio,
                "log_variance_ratio_se": log_ratio_se,
                "variance_difference": flexible_m["variance"] - rigid_m["variance"],
                "variance_difference_se": variance_gap_se * len(scatters[flexible]) / (len(scatters[flexible]) - 1),
                "opposite_margin": opposite_margin(bias_gap, bias_gap_se, log_ratio, log_ratio_se),
                "opposite_margin_se": 1.0,
            }
        )
    return pd.DataFrame(rows)


def more_data(fits: Fits) -> pd.DataFrame:
    """Per degree and each sample size with the next larger one: the variance at the larger size over
    the variance at the smaller (samples independent across sizes), its log and the log's s.e."""
    rows = []
    for i, degree in enumerate(fits.degrees):
        for small, large in zip(fits.sizes[:-1], fits.sizes[1:]):
            below, above = fits.scatters(small)[i], fits.scatters(large)[i]
            log_ratio, log_ratio_se = _log_ratio_independent(above, below)
            rows.append(
                {
                    "degree": degree,
                    "n": small,
                    "larger_n": large,
                    "variance_ratio": float(np.exp(log_ratio)),
                    "log_variance_ratio": log_ratio,
                    "log_variance_ratio_se": log_ratio_se,
                }
            )
    return pd.DataFrame(rows)


def flexibility_steps(fits: Fits) -> pd.DataFrame:
    """Per sample size and each step of degree, on the same samples: the variance at the next degree
    over the variance at this one, its log and the log's paired s.e.; the squared bias at the next
    degree less the squared bias at this one, with its jackknife s.e. and as a share of this degree's
    squared bias; and how surely the two move opposite ways (``opposite_margin``). "Estimating
    Out-of-Sample Error", Bias and variance: "Flexibility moves the first two in opposite directions.
    A more flexible model follows the true f more closely, lowering bias, and responds more to the
    particular sample it was given, raising variance", read at every step of flexibility."""
    rows = []
    for n in fits.sizes:
        scatters = fits.scatters(n)
        for i in range(len(fits.degrees) - 1):
            log_ratio, log_ratio_se = paired_log_ratio(scatters[i + 1], scatters[i])
            bias_gap, bias_gap_se = bias_squared_difference(
                fits.predictions[n][i + 1], fits.predictions[n][i], fits.truth
            )
            rows.append(
                {
                    "n": n,
                    "degree": fits.degrees[i],
                    "next_degree": fits.degrees[i + 1],
                    "variance_ratio": float(np.exp(log_ratio)),
                    "log_variance_ratio": log_ratio,
                    "log_variance_ratio_se": log_ratio_se,
                    "bias_squared_difference": bias_gap,
                    "bias_squared_difference_se": bias_gap_se,
                    "bias_squared_relative_change": bias_gap / squared_bias(fits.predictions[n][i], fits.truth),
                    "opposite_margin": opposite_margin(bias_gap, bias_gap_se, log_ratio, log_ratio_se),
                    "opposite_margin_se": 1.0,
                }
            )
    return pd.DataFrame(rows)


def ends_against_interior(fits: Fits) -> pd.DataFrame:
    """Per sample size and each end of the degree range (the most rigid and the most flexible fit):
    the end's expected error over the least expected error among the interior degrees, on the same
    samples, its log and the log's s.e. Empty where the range has no interior degree."""
    rows = []
    for n in fits.sizes:
        errors = fits.excess_errors(n) + fits.noise**2
        inner = range(1, len(fits.degrees) - 1)
        best = min(inner, key=lambda i: errors[i].mean()) if len(inner) else None
        for end, i in (("most rigid", 0), ("most flexible", len(fits.degrees) - 1)):
            log_ratio, log_ratio_se = (
                paired_log_ratio(errors[i], errors[best]) if best is not None else (np.nan, np.nan)
            )
            rows.append(
                {
                    "n": n,
                    "end": end,
                    "end_degree": fits.degrees[i],
                    "best_interior_degree": fits.degrees[best] if best is not None else np.nan,
                    "error_ratio": float(np.exp(log_ratio)),
                    "log_error_ratio": log_ratio,
                    "log_error_ratio_se": log_ratio_se,
                }
            )
    return pd.DataFrame(rows)


def _optimum_pairs(fits: Fits, optimum: pd.Series, errors_at):
    """For each sample size and the next larger one, at each of the two: the pair's key, the
    ratio's name and the errors (``errors_at(n)``, degrees x samples) at the numerator's and the
    denominator's degree, as ``optimum_shift`` compares them."""
    index = {degree: i for i, degree in enumerate(fits.degrees)}
    for small, large in zip(fits.sizes[:-1], fits.sizes[1:]):
        less, more = sorted((int(optimum[small]), int(optimum[large])))
        for at, (top, bottom), ratio in (
            (small, (more, less), "more flexible over less flexible"),
            (large, (less, more), "less flexible over more flexible"),
        ):
            errors = errors_at(at)
            key = {
                "n": small,
                "larger_n": large,
                "at_n": at,
                "less_flexible_degree": less,
                "more_flexible_degree": more,
                "ratio": ratio,
            }
            yield key, errors[index[top]], errors[index[bottom]]


def _log_ratio_columns(top: np.ndarray, bottom: np.ndarray) -> dict:
    log_ratio, log_ratio_se = paired_log_ratio(top, bottom)
    return {"error_ratio": float(np.exp(log_ratio)), "log_error_ratio": log_ratio, "log_error_ratio_se": log_ratio_se}


def optimum_shift(fits: Fits, best: pd.DataFrame) -> pd.DataFrame:
    """For each sample size and the next larger one, their two optima (``best``'s degrees) compared at
    each of the two sizes, on that size's samples: at the smaller size the more flexible optimum's
    expected error over the less flexible one's, at the larger size the less flexible one's over the
    more flexible one's, with its log and the log's s.e. Each log is above zero when that size
    prefers the optimum the sentence gives it: the less flexible at the smaller size, the more
    flexible at the larger ("the optimum moves toward more flexible models as the sample grows").
    ``other_closer_share``: the share of that size's samples whose fit at the numerator's degree is
    nearer the truth than at the denominator's (a mean can be raised by a few nearly singular fits)."""
    optimum = best.set_index("n")["best_degree"]
    pairs = _optimum_pairs(fits, optimum, lambda n: fits.excess_errors(n) + fits.noise**2)
    return pd.DataFrame(
        [
            {**key, **_log_ratio_columns(top, bottom), "other_closer_share": float((top < bottom).mean())}
            for key, top, bottom in pairs
        ]
    )


def optimum_shift_held_out(fits: Fits) -> pd.DataFrame:
    """``optimum_shift`` with each size's optimum chosen on its first half of samples and every ratio
    measured on the second half, so that no optimum is scored on the samples it was picked on (the
    least mean of many noisy errors sits low on the samples that picked it)."""
    halves, best = {}, {}
    for n in fits.sizes:
        errors = fits.excess_errors(n) + fits.noise**2
        half = errors.shape[1] // 2
        halves[n] = errors[:, half:]
        best[n] = int(fits.degrees[int(np.argmin(errors[:, :half].mean(axis=1)))])
    pairs = _optimum_pairs(fits, pd.Series(best), halves.__getitem__)
    return pd.DataFrame(
        [{**key, "samples_scored": len(top), **_log_ratio_columns(top, bottom)} for key, top, bottom in pairs]
    )


def training_error_steps(fits: Fits) -> pd.DataFrame:
    """Per sample size and each step of degree: the expected training error at the next degree less
    the one at this degree, paired by sample, with its s.e."""
    rows = []
    for n in fits.sizes:
        training = fits.training[n]
        for i in range(len(fits.degrees) - 1):
            step, step_se = mean_and_se(training[i + 1] - training[i])
            rows.append(
                {
                    "n": n,
                    "degree": fits.degrees[i],
                    "next_degree": fits.degrees[i + 1],
                    "training_error_step": step,
                    "training_error_step_se": step_se,
                }
            )
    return pd.DataFrame(rows)


def bias_across_n(table: pd.DataFrame) -> pd.DataFrame:
    """Per degree: its squared bias at the smallest and the largest sample size, and the largest over
    the smallest across all sizes (empty where the smallest is not above zero): whether a degree's
    miss shrinks as the samples grow ("misses the same way in every sample, however many
    observations each contains")."""
    rows = []
    for degree, block in table.sort_values("n").groupby("degree", sort=True):
        bias = block["bias_squared"].to_numpy()
        rows.append(
            {
                "degree": int(degree),
                "smallest_n": int(block["n"].iloc[0]),
                "largest_n": int(block["n"].iloc[-1]),
                "bias_squared_at_smallest_n": float(bias[0]),
                "bias_squared_at_largest_n": float(bias[-1]),
                "bias_squared_max_over_min": float(bias.max() / bias.min()) if bias.min() > 0 else np.nan,
            }
        )
    return pd.DataFrame(rows)
