"""Whether the three-term decomposition carries over from squared error to classification error.

"Estimating Out-of-Sample Error", Notes: "The three-term decomposition is exact for squared-error
loss and does not carry over unchanged to classification error or log-loss." On the fits of
``cvsuite.studies.bias_variance`` (least-squares polynomials of each degree on many samples of the
curved regression), each fit's expected error is measured directly, on fresh responses at the grid's
x, and set against the three terms:

- squared error: the noise variance plus the fit's squared distance from the truth, whose mean over
  the fits is the squared bias plus the variance (the plug-in forms);
- classification error, the same fits read as the classifier "y > 0 where the fit is": the Bayes
  error (the noise term), the bias (the majority vote of the fits against the Bayes classifier) and
  the variance (how often a fit disagrees with the majority), as Domingos (2000) defines them;
- log-loss, the same fits read as the probabilistic classifier P(y > 0) = Phi(fit / sigma) (the
  probability the fit would give if it were the truth), scored exactly against the true probability
  q = Phi(f / sigma): the terms defined as for squared error, the loss of the truth (the entropy of
  q, the noise), the mean prediction's excess loss over it (KL(q || p-bar), the bias) and the
  predictions' spread about their mean in the loss's own divergence (the mean of KL(p-bar || p), the
  variance).

Each gap, the direct error less the three terms, is a mean over the fits with its Monte Carlo
standard error. Statistics only: the registry's judges decide what they say.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import log_ndtr, ndtr, xlogy  # what scipy.stats.norm's cdf and logcdf evaluate

from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.studies.bias_variance import Fits, paired_log_ratio


def fresh_responses(fits: Fits, fresh_draws: int, seed: int):
    """Per sample size in order, its fresh responses (samples x grid x draws) at the grid's x, from
    one ``default_rng(seed)`` stream."""
    rng = np.random.default_rng(seed)
    for n in fits.sizes:
        _, samples, grid = fits.predictions[n].shape
        yield n, fits.truth[None, :, None] + fits.noise * rng.standard_normal((samples, grid, fresh_draws))


def zero_one_ends_against_interior(fits: Fits, fresh_draws: int, seed: int) -> pd.DataFrame:
    """ "The qualitative trade between bias and variance survives" under 0-1 loss: per sample size and
    each end of the degree range, the end's expected classification error (the fits read as "y > 0
    where the fit is", measured on the fresh responses of ``decomposition_by_loss``) over the least
    among the interior degrees, on the same samples, its log and the log's s.e., as
    ``bias_variance.ends_against_interior`` gives them for squared error."""
    rows = []
    for n, fresh in fresh_responses(fits, fresh_draws, seed):
        labels = fresh > 0
        errors = np.array([(labels != (p > 0)[:, :, None]).mean(axis=(1, 2)) for p in fits.predictions[n]])
        inner = range(1, len(fits.degrees) - 1)
        best = min(inner, key=lambda i: errors[i].mean())
        for end, i in (("most rigid", 0), ("most flexible", len(fits.degrees) - 1)):
            log_ratio, log_ratio_se = paired_log_ratio(errors[i], errors[best])
            rows.append(
                {
                    "n": int(n),
                    "end": end,
                    "end_degree": int(fits.degrees[i]),
                    "best_interior_degree": int(fits.degrees[best]),
                    "error_ratio": float(np.exp(log_ratio)),
                    "log_error_ratio": log_ratio,
                    "log_error_ratio_se": log_ratio_se,
                }
            )
    return pd.DataFrame(rows)


def _bernoulli_cross_entropy(q: np.ndarray, log_p: np.ndarray, log_not_p: np.ndarray) -> np.ndarray:
    """E over y ~ Bernoulli(q) of -log p(y), elementwise, from log p and log (1 - p)."""
    return -(q * log_p + (1 - q) * log_not_p)


def log_loss_terms(fits_at_grid: np.ndarray, truth: np.ndarray, sigma: float) -> dict:
    """Log-loss's direct expected error per fit (mean over the grid) and the three terms defined as
    for squared error, for fits (samples x grid) read as P(y > 0) = Phi(fit / sigma)."""
    q = ndtr(truth / sigma)
    log_p, log_not_p = log_ndtr(fits_at_grid / sigma), log_ndtr(-fits_at_grid / sigma)
    direct = _bernoulli_cross_entropy(q, log_p, log_not_p).mean(axis=1)
    mean_p = np.exp(log_p).mean(axis=0)
    entropy = -(xlogy(q, q) + xlogy(1 - q, 1 - q))
    bias = -entropy - (xlogy(q, mean_p) + xlogy(1 - q, 1 - mean_p))  # KL(q || p-bar)
    # KL(p-bar || p), per fit and grid point: the cross-entropy less p-bar's entropy
    variance = (
        xlogy(mean_p, mean_p) + xlogy(1 - mean_p, 1 - mean_p) + _bernoulli_cross_entropy(mean_p, log_p, log_not_p)
    )
    return {
        "direct": direct,
        "noise": float(entropy.mean()),
        "bias": float(bias.mean()),
        "variance_each": variance.mean(axis=1),
    }


def decomposition_by_loss(fits: Fits, fresh_draws: int, seed: int) -> pd.DataFrame:
    """One row per sample size and degree: the direct expected error under squared and 0-1 loss,
    their three-term sums and gaps (direct less sum) with standard errors, and the gap's share of
    the direct error. Fresh responses: ``fresh_draws`` per fit and grid point, from
    ``default_rng(seed)``, drawn per sample size in order (samples x grid x draws) and shared by the
    degrees."""
    truth, sigma = fits.truth, fits.noise
    bayes = truth > 0
    bayes_error = ndtr(-np.abs(truth) / sigma)  # P(y > 0 disagrees with the Bayes classifier)
    rows = []
    for n, fresh in fresh_responses(fits, fresh_draws, seed):
        predictions = fits.predictions[n]  # degrees x samples x grid
        labels = fresh > 0
        for i, degree in enumerate(fits.degrees):
            p = predictions[i]
            squared = ((fresh - p[:, :, None]) ** 2).mean(axis=(1, 2))  # per fit
            excess = ((p - truth) ** 2).mean(axis=1)
            squared_direct, squared_direct_se = mean_and_se(squared)
            squared_gap, squared_gap_se = mean_and_se(squared - excess - sigma**2)
            votes = p > 0
            majority = votes.mean(axis=0) >= 0.5
            zero_one = (labels != votes[:, :, None]).mean(axis=(1, 2))
            variance_each = (votes != majority).mean(axis=1)
            noise_term, bias_term = float(bayes_error.mean()), float((majority != bayes).mean())
            zero_one_direct, zero_one_direct_se = mean_and_se(zero_one)
            zero_one_gap, zero_one_gap_se = mean_and_se(zero_one - noise_term - bias_term - variance_each)
            log_loss = log_loss_terms(p, truth, sigma)
            log_loss_direct, log_loss_direct_se = mean_and_se(log_loss["direct"])
            log_loss_three = log_loss["noise"] + log_loss["bias"] + float(log_loss["variance_each"].mean())
            log_loss_gap, log_loss_gap_se = mean_and_se(
                log_loss["direct"] - log_loss["noise"] - log_loss["bias"] - log_loss["variance_each"]
            )
            rows.append(
                {
                    "n": int(n),
                    "degree": int(degree),
                    "squared_direct": squared_direct,
                    "squared_direct_se": squared_direct_se,
                    "squared_three_terms": float(excess.mean() + sigma**2),
                    "squared_gap": squared_gap,
                    "squared_gap_se": squared_gap_se,
                    "squared_gap_share": abs(squared_gap) / squared_direct,
                    "zero_one_direct": zero_one_direct,
                    "zero_one_direct_se": zero_one_direct_se,
                    "zero_one_noise": noise_term,
                    "zero_one_bias": bias_term,
                    "zero_one_variance": float(variance_each.mean()),
                    "zero_one_three_terms": noise_term + bias_term + float(variance_each.mean()),
                    "zero_one_gap": zero_one_gap,
                    "zero_one_gap_se": zero_one_gap_se,
                    "log_loss_direct": log_loss_direct,
                    "log_loss_direct_se": log_loss_direct_se,
                    "log_loss_noise": log_loss["noise"],
                    "log_loss_bias": log_loss["bias"],
                    "log_loss_variance": float(log_loss["variance_each"].mean()),
                    "log_loss_three_terms": log_loss_three,
                    "log_loss_gap": log_loss_gap,
                    "log_loss_gap_se": log_loss_gap_se,
                    "log_loss_gap_share": abs(log_loss_gap) / log_loss_direct,
                }
            )
    return pd.DataFrame(rows)
