"""The two knobs of "Regularization and Cross-Validation", See it move: lambda and the number of folds.

"Two knobs, and they interact. Regularisation strength and the number of folds": the sketch traces
the degree-12 ridge path on the 25 points and shows what K-fold cross-validation reports for each
setting against the true expected risk, "so you can see the bias directly". Here, for each lambda of
the printed table and each K, Equation 8.13's estimate of the ridge fit averaged over shuffled
partitions (shuffle s is ``default_rng(first_seed + s).permutation(N)`` cut into K chunks, as the
K-bias table cuts them, so the K's are paired by shuffle), against the expected risk of the fit to
all 25 points (the ten-lambda table's). Statistics only: the registry's judges decide what they say.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples
from cvsuite.methods.folds import canonical_partition, chunked_folds
from cvsuite.methods.least_squares_cv import shuffle_permutations
from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.methods.ridge import ridge_coefficient_path


def fold_estimates(design: np.ndarray, y: np.ndarray, folds: list[np.ndarray], lambdas: np.ndarray) -> np.ndarray:
    """Equation 8.13 for each lambda: the mean over folds of the held-out risk of the ridge fit to
    the other points (``ridge_coefficient_path``, training points in index order)."""
    risks = []
    for fold in canonical_partition(folds):
        train = np.ones(len(y), dtype=bool)
        train[fold] = False
        thetas = ridge_coefficient_path(design[train], y[train], lambdas)
        residuals = y[fold][None, :] - thetas @ design[fold].T
        risks.append((residuals**2).mean(axis=1))
    return np.mean(risks, axis=0)


def lambda_by_folds(
    samples: SineSamples,
    degree: int,
    lambdas: np.ndarray,
    truth: np.ndarray,
    fold_counts: list[int],
    shuffles: int,
    first_seed: int,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Two tables. Per lambda and K: the CV estimate over the shuffles with its standard error, the
    truth (``truth``, the full-data fit's expected risk at each lambda), the bias and its share of the
    truth, and whether that lambda is the one the CV estimates at that K would choose. Per lambda: the
    folds' effect on the estimate, the smallest K's bias less the largest's (paired by shuffle), and
    that effect less the one at the lambda the largest K's estimates choose (the interaction of the
    two knobs), each with its standard error."""
    design, _ = samples.designs(degree)
    permutations = shuffle_permutations(len(samples.y), range(first_seed, first_seed + shuffles))
    estimates = np.array(
        [
            [fold_estimates(design, samples.y, chunked_folds(order, k), lambdas) for order in permutations]
            for k in fold_counts
        ]
    )  # K x shuffles x lambdas
    rows = []
    for i, k in enumerate(fold_counts):
        means = estimates[i].mean(axis=0)
        chosen = int(np.argmin(means))
        for j, lam in enumerate(lambdas):
            estimate, estimate_se = mean_and_se(estimates[i, :, j])
            rows.append(
                {
                    "lambda": float(lam),
                    "K": int(k),
                    "shuffles": shuffles,
                    "truth": float(truth[j]),
                    "cv_estimate": estimate,
                    "cv_estimate_se": estimate_se,
                    "bias": estimate - float(truth[j]),
                    "bias_se": estimate_se,
                    "bias_over_truth": (estimate - float(truth[j])) / float(truth[j]),
                    "chosen_by_cv": j == chosen,
                }
            )
    by_setting = pd.DataFrame(rows)
    folds_effect = estimates[0] - estimates[-1]  # shuffles x lambdas; the truth cancels in a difference of biases
    reference = int(np.argmin(estimates[-1].mean(axis=0)))
    effects = []
    for j, lam in enumerate(lambdas):
        effect, effect_se = mean_and_se(folds_effect[:, j])
        interaction, interaction_se = mean_and_se(folds_effect[:, j] - folds_effect[:, reference])
        effects.append(
            {
                "lambda": float(lam),
                "smallest_k": int(fold_counts[0]),
                "largest_k": int(fold_counts[-1]),
                "folds_effect": effect,
                "folds_effect_se": effect_se,
                "reference_lambda": float(lambdas[reference]),
                "interaction": interaction,
                "interaction_se": interaction_se,
                "chosen_lambdas_across_k": int(by_setting.loc[by_setting["chosen_by_cv"], "lambda"].nunique()),
            }
        )
    return by_setting, pd.DataFrame(effects)
