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
  the variance (how often a fit disagrees with the majority), as Domingos (2000) defines them.

Each gap, the direct error less the three terms, is a mean over the fits with its Monte Carlo
standard error. Statistics only: the registry's judges decide what they say.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.stats import norm

from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.studies.bias_variance import Fits


def decomposition_by_loss(fits: Fits, fresh_draws: int, seed: int) -> pd.DataFrame:
    """One row per sample size and degree: the direct expected error under squared and 0-1 loss,
    their three-term sums and gaps (direct less sum) with standard errors, and the gap's share of
    the direct error. Fresh responses: ``fresh_draws`` per fit and grid point, from
    ``default_rng(seed)``, drawn per sample size in order (samples x grid x draws) and shared by the
    degrees."""
    rng = np.random.default_rng(seed)
    truth, sigma = fits.truth, fits.noise
    bayes = truth > 0
    bayes_error = norm.cdf(-np.abs(truth) / sigma)  # P(y > 0 disagrees with the Bayes classifier)
    rows = []
    for n in fits.sizes:
        predictions = fits.predictions[n]  # degrees x samples x grid
        _, samples, grid = predictions.shape
        fresh = truth[None, :, None] + sigma * rng.standard_normal((samples, grid, fresh_draws))
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
                }
            )
    return pd.DataFrame(rows)
