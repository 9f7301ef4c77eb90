"""The statistics of "Regularization and Cross-Validation"'s conclusions on fresh regression samples.

The companion of ``robustness`` for the sine example: each conclusion's statistic with its standard
error over samples (one sample, the document's, at its own scale), in the same form as
``robustness.shape_image_statistics``; and the fresh samples' K-bias table K by K. The records of
the registry judge them (``registry/regularization_and_cross_validation.yaml``): nothing here says
whether a conclusion holds.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se, standard_error


def _uncertainty_ratio(coverage: float, samples: int) -> tuple[float, float]:
    """A coverage of the interval of 2 reported uncertainties read as their size: if the estimate is
    normal about the truth with s.d. s, the interval 2u covers P(|Z| <= 2u / s), so u / s is half the
    normal quantile of (1 + coverage) / 2, with the binomial standard error carried by the delta
    method. Every sample covered would read as an infinitely wide interval: half a sample is taken
    off first, as for a share observed at its end."""
    coverage = min(coverage, 1 - 0.5 / samples)
    z = NormalDist().inv_cdf((1 + coverage) / 2)
    return z / 2, math.sqrt(coverage * (1 - coverage) / samples) / (4 * NormalDist().pdf(z))


def _share(flags) -> tuple[float, float]:
    flags = np.asarray(flags, dtype=float)
    return float(flags.mean()), standard_error(flags)


def _over_se(mean: float, se: float) -> float:
    """``mean`` in standard errors; infinite (with the mean's sign) where every sample agrees."""
    return mean / se if se > 0 else float(np.sign(mean)) * np.inf


def with_lower_bound(sources: pd.DataFrame, bias: pd.DataFrame) -> pd.DataFrame:
    """``sources`` with ``training_effect_lower_bound``: each sample's training effect (its fold
    models' true risk minus the full model's, source (1)) capped at the full model's own true risk
    (``bias``'s ``truth``, K by K).

    Sample by sample the capped value is at most the training effect, so its mean is a lower bound of
    the training effect's mean, which a near-singular fold fit (a risk a thousand times the truth)
    cannot inflate the way it inflates the mean and its standard error. By the identity of the
    estimator for exchangeable data (the estimate averages to its fold models' true risk), the
    training effect's mean is the bias's: a lower bound above 0 is an upward bias."""
    truth = bias[["dataset", "K", "truth"]]
    merged = sources.drop(columns=["truth"], errors="ignore").merge(truth, on=["dataset", "K"])
    return merged.assign(training_effect_lower_bound=np.minimum(merged["training_effect"], merged["truth"]))


def k_bias_statistics(bias: pd.DataFrame, sources: pd.DataFrame) -> list[dict]:
    """The statistics of "Regularization and Cross-Validation" §8.2.4's conclusions on one set of
    samples (one column ``dataset`` each), each with its standard error over the samples.

    - ``cv_biased_upward``: the lower bound of the bias's mean (``with_lower_bound``) at the K where
      it is fewest standard errors above 0; on one sample (the document's) the sample's own capped
      training effect at the K where it is least.
    - ``cv_estimates_smaller_training_sets``: what "a different and worse model" is measured by, the
      fold models' true risk minus the full model's at the smallest K (source (1)).
    - ``bias_falls_with_k``: the share of samples whose bias (mean over shuffles minus the truth)
      falls at every step of K, as the document's table falls.
    - ``loo_zero_spread``: the largest spread of the leave-one-out estimate over shuffles.
    - ``std_error_understates_spread``: the share of samples whose spread over shuffles exceeds the
      first shuffle's standard error, at K = 5 (the document's) or the middle K.
    """
    rows = []
    by_k = bias.pivot(index="dataset", columns="K", values="bias")
    ks = list(by_k.columns)
    single = len(by_k) == 1
    bounded = with_lower_bound(sources, bias)
    moments = {k: mean_and_se(block["training_effect_lower_bound"]) for k, block in bounded.groupby("K")}
    if single:
        weakest = min(ks, key=lambda k: moments[k][0])
    else:
        weakest = min(ks, key=lambda k: _over_se(*moments[k]))
    mean, se = moments[weakest]
    rows.append(
        {
            "conclusion": "cv_biased_upward",
            "statistic": "fold models' true risk - the full model's, capped sample by sample at the full model's risk "
            f"(a lower bound of the bias's mean), at the K where it is {'least' if single else 'fewest SE above 0'} "
            f"(K = {weakest})",
            "estimate": mean,
            "se": se,
        }
    )
    smallest = min(ks)
    training, training_se = mean_and_se(sources.loc[sources["K"] == smallest, "training_effect"])
    rows.append(
        {
            "conclusion": "cv_estimates_smaller_training_sets",
            "statistic": f"fold models' true risk - the full model's (source (1)) at K = {smallest}",
            "estimate": training,
            "se": training_se,
        }
    )
    falls = np.all(np.diff(by_k.to_numpy(), axis=1) < 0, axis=1)
    share, se = _share(falls)
    rows.append(
        {
            "conclusion": "bias_falls_with_k",
            "statistic": f"share of samples whose bias falls at every step of K = {', '.join(map(str, ks))}",
            "estimate": share,
            "se": se,
        }
    )
    loo = bias.loc[bias["K"] == bias["K"].max(), "spread_over_shuffles"]
    rows.append(
        {
            "conclusion": "loo_zero_spread",
            "statistic": "largest spread of the leave-one-out estimate over shuffles",
            "estimate": float(loo.max()),
            "se": 0.0,
        }
    )
    middle = 5 if 5 in ks else ks[len(ks) // 2]
    at_k = bias[bias["K"] == middle]
    share, se = _share(at_k["spread_over_shuffles"] > at_k["std_error"])
    rows.append(
        {
            "conclusion": "std_error_understates_spread",
            "statistic": "share of samples where the spread over shuffles exceeds one partition's standard error "
            f"(K = {middle})",
            "estimate": share,
            "se": se,
        }
    )
    return rows


def ridge_statistics(exchange: pd.DataFrame) -> list[dict]:
    """§8.2.3: the share of samples on which the best lambda buys a fall in expected risk with a rise
    in training risk."""
    bought = ((exchange["expected_risk_fall_percent"] > 0) & (exchange["train_risk_rise_percent"] > 0)).to_numpy(float)
    return [
        {
            "conclusion": "penalty_trades_train_for_expected",
            "statistic": "share of samples where the best lambda lowers expected risk and raises training risk",
            "estimate": bought.mean(),
            "se": standard_error(bought),
        }
    ]


def k_bias_by_k(bias: pd.DataFrame, sources: pd.DataFrame) -> pd.DataFrame:
    """Per K over the fresh regression samples: the bias (a mean error) with its standard error, the
    share of samples whose estimate reads above the truth, the median bias, and the book's two
    sources of error (fold models' true risk over the truth; estimate over the fold models' risk),
    each a mean with its standard error: what "biased upward" and "estimates the risk of a model
    trained on (K-1)/K N points" rest on, K by K. Then the lower bound of the training effect's mean
    (``with_lower_bound``) with its standard error, and the median over samples of the spread over
    shuffles over the first shuffle's standard error ("nearly three times larger"). Last, what "an
    estimate of R_true with a known uncertainty" rests on: how often the estimate lies within 2 of
    the first shuffle's standard errors of the truth (``std_error_coverage``), and within 2 of the
    uncertainty the document's Pitfalls teach a run to report, the standard error or, where
    re-running with new seeds moves the answer more, the spread over shuffles (``reseeded_coverage``),
    binomial standard errors; and each coverage on the uncertainty's own scale: the reported
    uncertainty over the one a normal estimate's coverage implies (``std_error_uncertainty_ratio``,
    ``reseeded_uncertainty_ratio``, 1 when it covers 95.4%), by the delta method. And the mean true
    risk, and the mean bias over it (``mean_bias_over_truth``), a ratio of means with its
    delta-method standard error."""
    rows = []
    bounded = with_lower_bound(sources, bias)
    merged = bias.merge(
        bounded[["dataset", "K", "training_effect", "validation_effect", "training_effect_lower_bound"]],
        on=["dataset", "K"],
    )
    for k, block in merged.groupby("K", sort=True):
        mean, se = mean_and_se(block["bias"])
        above, above_se = _share(block["bias"] > 0)
        training, training_se = mean_and_se(block["training_effect"])
        validation, validation_se = mean_and_se(block["validation_effect"])
        bound, bound_se = mean_and_se(block["training_effect_lower_bound"])
        covered, covered_se = _share(block["bias"].abs() <= 2 * block["std_error"])
        reported = np.maximum(block["std_error"], block["spread_over_shuffles"])
        recipe, recipe_se = _share(block["bias"].abs() <= 2 * reported)
        ratio, ratio_se = _uncertainty_ratio(recipe, len(block))
        own, own_se = _uncertainty_ratio(covered, len(block))
        relative, relative_se = ratio_and_se(block["bias"], block["truth"])
        rows.append(
            {
                "K": int(k),
                "samples": len(block),
                "mean_bias": mean,
                "mean_bias_se": se,
                "mean_bias_over_se": mean / se if se > 0 else np.nan,
                "share_above_truth": above,
                "share_above_truth_se": above_se,
                "median_bias": float(block["bias"].median()),
                "training_effect": training,
                "training_effect_se": training_se,
                "validation_effect": validation,
                "validation_effect_se": validation_se,
                "training_effect_lower_bound": bound,
                "training_effect_lower_bound_se": bound_se,
                "median_spread_over_std_error": float(block["spread_over_std_error"].median()),
                "std_error_coverage": covered,
                "std_error_coverage_se": covered_se,
                "std_error_uncertainty_ratio": own,
                "std_error_uncertainty_ratio_se": own_se,
                "reseeded_coverage": recipe,
                "reseeded_coverage_se": recipe_se,
                "reseeded_uncertainty_ratio": ratio,
                "reseeded_uncertainty_ratio_se": ratio_se,
                "mean_truth": float(block["truth"].mean()),
                "mean_bias_over_truth": relative,
                "mean_bias_over_truth_se": relative_se,
            }
        )
    return pd.DataFrame(rows)


def leave_one_out_coverage(
    samples: int, n: int, degree: int, noise: float, half_width: float, seed: int, batch: int = 2000
) -> pd.DataFrame:
    """How well leave-one-out's own standard error knows its uncertainty ("an estimate of R_true with a
    known uncertainty"), over ``samples`` fresh samples of §8.2.4's design: n points x uniform on
    [-half_width, half_width], targets sin(1.4 x) + 0.3 x plus N(0, noise^2), a least-squares
    polynomial of ``degree``. At K = N every partition is the same, so re-running moves nothing and
    the page's uncertainty is its standard error sigma / sqrt(K), sigma the s.d. (ddof = 1) of the N
    held-out losses. The share of samples whose estimate lies within 2 of it of the true risk, with
    its binomial standard error, and that share read as the uncertainty over the one a normal
    estimate implies (``_uncertainty_ratio``).

    Leave-one-out by the hat matrix (each held-out residual is the full fit's over 1 - h_ii); the
    true risk exactly, the noise variance plus the fit's mean squared distance from the signal under
    x uniform (a 1001-point midpoint rule). Draws from ``default_rng(seed)``, batch by batch: the
    x of every sample of the batch, then their noise."""
    rng = np.random.default_rng(seed)
    edges = np.linspace(-half_width, half_width, 1002)
    grid = (edges[:-1] + edges[1:]) / 2
    grid_design = np.vander(grid / half_width, degree + 1, increasing=True)
    covered = []
    for start in range(0, samples, batch):
        size = min(batch, samples - start)
        x = rng.uniform(-half_width, half_width, (size, n))
        y = np.sin(1.4 * x) + 0.3 * x + noise * rng.standard_normal((size, n))
        design = np.power((x / half_width)[..., None], np.arange(degree + 1))
        inverse = np.linalg.inv(np.einsum("sni,snj->sij", design, design))
        theta = np.einsum("sij,snj,sn->si", inverse, design, y)
        leverage = np.einsum("sni,sij,snj->sn", design, inverse, design)
        held_out = ((y - np.einsum("sni,si->sn", design, theta)) / (1 - leverage)) ** 2
        estimate = held_out.mean(axis=1)
        std_error = held_out.std(axis=1, ddof=1) / np.sqrt(n)
        distance = np.sin(1.4 * grid) + 0.3 * grid - theta @ grid_design.T
        truth = noise**2 + (distance**2).mean(axis=1)
        covered.append(np.abs(estimate - truth) <= 2 * std_error)
    share, share_se = _share(np.concatenate(covered))
    ratio, ratio_se = _uncertainty_ratio(share, samples)
    return pd.DataFrame(
        [
            {
                "K": n,
                "samples": samples,
                "std_error_coverage": share,
                "std_error_coverage_se": share_se,
                "uncertainty_ratio": ratio,
                "uncertainty_ratio_se": ratio_se,
            }
        ]
    )
