"""The K table's sample looked at more closely: what its words about the table rest on.

The table ("Regularization and Cross-Validation" §8.2.4, From scratch) is a mean over 40 shuffles of
one sample. On that same sample: many more shuffles (``precision_table``: is its bias bias or
noise?), the two sources of error the book names, fold model by fold model (``error_sources``),
and the neighbouring degrees (``other_degrees``, ranked by ``degree_ranking``), which show what the
leave-one-out "+0.000063" and "it can reorder models" rest on. Statistics only: the registry's
judges decide what they say about the sentences.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, polynomial_design
from cvsuite.methods.folds import fold_size_range, leave_one_out_folds
from cvsuite.methods.least_squares_cv import kfold_estimates, kfold_fold_risks, shuffle_permutations
from cvsuite.methods.monte_carlo import mean_and_se, standard_error
from cvsuite.studies.k_bias import KBiasSettings, cv_fold_risks, full_data_risk, least_squares_risk, response_variance


def _fits(n: int, k: int, parameters: int) -> bool:
    """Whether every K-fold training set of n points has at least as many points as parameters."""
    return fold_size_range(n, k)["train_size_min"] >= parameters


def precision_table(samples: SineSamples, settings: KBiasSettings, shuffles: int) -> pd.DataFrame:
    """The K table's mean over many more shuffles of the same sample: is its bias bias or noise?

    Shuffles ``first_seed`` onward, so the first ``settings.shuffles`` are the table's own. One row
    per K whose training sets can fit the polynomial: the mean estimate and its standard error,
    the bias in standard errors, the share of shuffles reading above the truth (with its s.e.),
    their median, and the fall of the estimate to the next K in standard errors, paired by shuffle.
    Leave-one-out (K = N) has one partition: its estimate is exact, its standard error 0. The truth
    is one number of the sample, so the bias's standard error (``bias_se``) is the estimate's.
    """
    x, y, n, degree = samples.x, samples.y, len(samples.y), settings.degree
    design = polynomial_design(x, degree, samples.half_width)
    truth = full_data_risk(samples, degree)
    spread_of_y = response_variance(samples)
    permutations = shuffle_permutations(n, range(settings.first_seed, settings.first_seed + shuffles))
    estimates = {}
    for k in sorted(settings.fold_counts):
        if k == n:
            exact = cv_fold_risks(x, y, leave_one_out_folds(n), degree, samples.half_width).mean()
            estimates[k] = np.full(shuffles, exact)
        elif _fits(n, k, degree + 1):
            estimates[k] = kfold_estimates(design, y, permutations, k)
    ks = list(estimates)
    rows = []
    for i, k in enumerate(ks):
        values = estimates[k]
        mean, se = mean_and_se(values)
        if k == n:  # one partition: the estimate is exact, not a mean of noisy draws
            mean, se = float(values[0]), 0.0
        above, above_se = mean_and_se(values > truth)
        falls = values - estimates[ks[i + 1]] if i + 1 < len(ks) else np.array([np.nan])
        fall, fall_se = float(falls.mean()), standard_error(falls)
        rows.append(
            {
                "K": int(k),
                "shuffles": shuffles,
                "cv_estimate": mean,
                "cv_estimate_se": se,
                "bias": mean - truth,
                "bias_se": se,
                "bias_over_se": _over(mean - truth, se),
                "share_above_truth": above,
                "share_above_truth_se": above_se,
                "shuffle_median": float(np.median(values)),
                "fall_to_next_k": fall,
                "fall_to_next_k_se": fall_se,
                "fall_over_se": _over(fall, fall_se),
                "bias_over_truth": (mean - truth) / truth,
                "bias_over_truth_se": se / truth,
                "bias_over_response_variance": (mean - truth) / spread_of_y,
                "bias_over_response_variance_se": se / spread_of_y,
            }
        )
    return pd.DataFrame(rows)


def _over(value: float, se: float) -> float:
    """value / se, infinite (with value's sign) when the standard error is exactly 0."""
    if np.isnan(value) or np.isnan(se):
        return float("nan")
    return float(value / se) if se > 0 else float(np.copysign(np.inf, value))


def error_sources(samples: SineSamples, settings: KBiasSettings) -> pd.DataFrame:
    """The book's two sources of error in Equation 8.13, fold model by fold model, per K.

    On the table's shuffles. (1) the finite training set: a fold's model f^(k) has a true risk
    R_true(f^(k)) (on the test points) above the full-data model's; ``training_effect`` is the mean
    over shuffles of the folds' mean true risk minus the truth. (2) the finite validation set:
    R(f^(k), V^(k)) misses R_true(f^(k)); ``validation_effect`` is the mean over shuffles of the
    estimate minus the folds' mean true risk (the two add up to the bias). Per fold, (2) is measured
    relatively, |R(f, V) / R_true(f) - 1|, its median over shuffles and folds
    (``per_fold_validation_error``); averaged over the K folds of a shuffle, the median of
    |mean of (R(f, V) / R_true(f) - 1)| (``averaged_validation_error``). K whose training sets
    cannot fit the polynomial are left out. Beside them: source (2) per fold over its value at the
    smallest K (``per_fold_validation_error_over_smallest_k``), averaged over per fold
    (``averaged_over_per_fold``), and the fold models' mean true risk over the truth
    (``fold_models_risk_over_truth``: how much worse the fold models are than the full-data one),
    and source (1)'s share of the bias the two make (``training_share_of_bias``: "the reason is
    source (1)", on this sample).
    """
    y, n, degree = samples.y, len(samples.y), settings.degree
    design, test_design = samples.designs(degree)
    truth = full_data_risk(samples, degree)
    permutations = shuffle_permutations(n, range(settings.first_seed, settings.first_seed + settings.shuffles))
    rows = []
    for k in sorted(settings.fold_counts):
        if not _fits(n, k, degree + 1):
            continue
        held_out, tested = kfold_fold_risks(design, y, permutations, k, test=(test_design, samples.y_test))
        relative = held_out / tested - 1
        rows.append(
            {
                "K": int(k),
                "training_effect": float(tested.mean(axis=1).mean() - truth),
                "validation_effect": float((held_out.mean(axis=1) - tested.mean(axis=1)).mean()),
                "per_fold_validation_error": float(np.median(np.abs(relative))),
                "averaged_validation_error": float(np.median(np.abs(relative.mean(axis=1)))),
                "fold_models_risk_over_truth": float(tested.mean(axis=1).mean() / truth),
            }
        )
    table = pd.DataFrame(rows)
    if len(table):
        per_fold = table["per_fold_validation_error"]
        table["per_fold_validation_error_over_smallest_k"] = per_fold / per_fold.iloc[0]
        table["averaged_over_per_fold"] = table["averaged_validation_error"] / per_fold
        table["training_share_of_bias"] = table["training_effect"] / (
            table["training_effect"] + table["validation_effect"]
        )
    return table


def other_degrees(samples: SineSamples, settings: KBiasSettings) -> pd.DataFrame:
    """The same sample fitted at the degrees within two of the document's: truth, the smallest K's
    estimate (mean over the table's shuffles) and leave-one-out's, and leave-one-out's error in
    percent of the truth. Degrees whose smallest-K training sets cannot fit them are left out."""
    x, y, n, half_width = samples.x, samples.y, len(samples.y), samples.half_width
    small = min(settings.fold_counts)
    permutations = shuffle_permutations(n, range(settings.first_seed, settings.first_seed + settings.shuffles))
    rows = []
    for degree in range(max(0, settings.degree - 2), settings.degree + 3):
        if not _fits(n, small, degree + 1):
            continue
        truth = least_squares_risk(x, y, samples.x_test, samples.y_test, degree, half_width)
        design = polynomial_design(x, degree, half_width)
        loo = float(cv_fold_risks(x, y, leave_one_out_folds(n), degree, half_width).mean())
        rows.append(
            {
                "degree": degree,
                "truth": truth,
                "small_k": small,
                "small_k_estimate": float(kfold_estimates(design, y, permutations, small).mean()),
                "loo_estimate": loo,
                "loo_error_percent": 100 * (loo / truth - 1),
            }
        )
    return pd.DataFrame(rows)


def degree_ranking(others: pd.DataFrame) -> pd.DataFrame:
    """How the smallest K ranks the neighbouring degrees (``other_degrees``) against their truth, in one
    row: the degrees compared, the pairs of degrees the two rankings order oppositely (discordant
    pairs: "it can reorder models"), and leave-one-out's largest |error| in percent of the truth."""
    if others.empty:
        return pd.DataFrame(columns=["small_k", "degrees", "discordant_pairs", "largest_loo_error_percent"])
    by_truth = others["truth"].rank().to_numpy()
    by_small_k = others["small_k_estimate"].rank().to_numpy()
    pairs = [(i, j) for i in range(len(others)) for j in range(i + 1, len(others))]
    discordant = sum((by_truth[i] - by_truth[j]) * (by_small_k[i] - by_small_k[j]) < 0 for i, j in pairs)
    return pd.DataFrame(
        [
            {
                "small_k": int(others["small_k"].iloc[0]),
                "degrees": len(others),
                "discordant_pairs": int(discordant),
                "largest_loo_error_percent": float(others["loo_error_percent"].abs().max()),
            }
        ]
    )


def validation_noise(samples: SineSamples, degree: int, sizes, draws: int, seed: int) -> pd.DataFrame:
    """One predictor scored on validation sets of growing size: "you want the validation set large
    (so the estimate is not noisy)" (§8.2.4). The full-data fit of the document's sample is scored
    on ``draws`` random subsets of each size of its 4000 test points (without replacement, from
    ``default_rng(seed)``, sizes in order); per size, the median of |R(f, V) / R_true(f) - 1| over
    the subsets, R_true being its risk on all the test points. The training set does not change, so
    only the validation set's size moves the figure."""
    theta = np.linalg.lstsq(polynomial_design(samples.x, degree, samples.half_width), samples.y, rcond=None)[0]
    losses = (samples.y_test - polynomial_design(samples.x_test, degree, samples.half_width) @ theta) ** 2
    truth = losses.mean()
    rng = np.random.default_rng(seed)
    rows = []
    for size in sizes:
        risks = np.array([losses[rng.choice(len(losses), size, replace=False)].mean() for _ in range(draws)])
        rows.append(
            {
                "validation_size": int(size),
                "draws": int(draws),
                "median_relative_error": float(np.median(np.abs(risks / truth - 1))),
            }
        )
    return pd.DataFrame(rows)
