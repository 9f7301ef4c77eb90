"""What "Regularization and Cross-Validation" concludes from its K table, tested as inferences.

The table (§8.2.4, From scratch) is a mean over 40 shuffles of one sample. Whether its bias "is not
noise" is a question about that mean's own standard error (k_bias.csv ``cv_estimate_se``), about
what a single shuffle contributes to it (``shuffle_summary``), and about what many more shuffles of
the same sample show (``precision_table``). The two sources of error the book names are separated
fold model by fold model (``error_sources``), and the same sample fitted at neighbouring degrees
shows what the leave-one-out "+0.000063" and "it can reorder models" rest on (``other_degrees``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, polynomial_design
from cvsuite.methods.folds import fold_size_range, leave_one_out_folds
from cvsuite.methods.least_squares_cv import kfold_estimates, kfold_fold_risks, shuffle_permutations
from cvsuite.methods.monte_carlo import mean_and_se, standard_error
from cvsuite.studies.document_claims import claims_table
from cvsuite.studies.k_bias import KBiasSettings, ShuffleRuns, cv_fold_risks, full_data_risk, least_squares_risk

NOISE_SE = 2.0  # a mean "is not noise" when it lies more than two of its standard errors from the truth
SIGN_LEVEL = 0.05  # one-sided level of the sign test that an overestimate is systematic


def sign_test_p(above: int, draws: int) -> float:
    """One-sided p-value of ``above`` of ``draws`` reading above the truth when each is as likely to
    read below: P(X >= above), X ~ Binomial(draws, 1/2), exactly.

    "This is not noise" is a claim about the sign of the overestimate, whose size over shuffles is
    heavy-tailed at small K (a near-singular fold fit can read a hundred times the truth): one such
    shuffle swamps a mean and its standard error, but counts once in a sign test.
    """
    return math.fsum(math.comb(draws, j) for j in range(above, draws + 1)) / 2**draws


def _fits(n: int, k: int, parameters: int) -> bool:
    """Whether every K-fold training set of n points has at least as many points as parameters."""
    return fold_size_range(n, k)["train_size_min"] >= parameters


def precision_table(samples: SineSamples, settings: KBiasSettings, shuffles: int) -> pd.DataFrame:
    """The K table's mean over many more shuffles of the same sample: is its bias bias or noise?

    Shuffles ``first_seed`` onward, so the first ``settings.shuffles`` are the table's own. One row
    per K whose training sets can fit the polynomial: the mean estimate and its standard error,
    the bias in standard errors, the share of shuffles reading above the truth (with its s.e.),
    their median, and the fall of the estimate to the next K in standard errors, paired by shuffle.
    Leave-one-out (K = N) has one partition: its estimate is exact, its standard error 0.
    """
    x, y, n, degree = samples.x, samples.y, len(samples.y), settings.degree
    design = polynomial_design(x, degree, samples.half_width)
    truth = full_data_risk(samples, degree)
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
                "bias_over_se": _over(mean - truth, se),
                "share_above_truth": above,
                "share_above_truth_se": above_se,
                "shuffle_median": float(np.median(values)),
                "fall_to_next_k": fall,
                "fall_to_next_k_se": fall_se,
                "fall_over_se": _over(fall, fall_se),
                "bias_over_truth": (mean - truth) / truth,
                "bias_over_truth_se": se / truth,
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
    cannot fit the polynomial are left out.
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
            }
        )
    return pd.DataFrame(rows)


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


@dataclass(frozen=True)
class KBiasEvidence:
    """The tables the claims are read from, and the data they were computed on."""

    table: pd.DataFrame
    summary: pd.DataFrame
    precision: pd.DataFrame
    sources: pd.DataFrame
    others: pd.DataFrame
    runs: list[ShuffleRuns]
    n: int
    std_error_min_folds: int


def _every_point_once(runs: list[ShuffleRuns], n: int) -> bool:
    """Every point validated exactly once and trained on K - 1 times, in every shuffle of every K."""
    for run in runs:
        for partition in run.partitions:
            validated = np.bincount(np.concatenate(partition), minlength=n)
            if not (validated == 1).all() or len(partition) != run.k:
                return False
    return True


def k_bias_claims(e: KBiasEvidence) -> pd.DataFrame:
    """Each sentence about the K table as a claim with its criterion; claims about a K the
    config does not run are left out (the registry then reads 'not computed at this config')."""
    t = e.table.sort_values("K").set_index("K")
    s = e.summary.set_index("K")
    p = e.precision.set_index("K")
    truth = float(t["truth"].iloc[0])
    claims = []
    for k in t.index:
        bias, ratio = t.loc[k, "bias"], t.loc[k, "bias_over_se"]
        share = s.loc[k, "std_errors_below_spread_share"]
        share_se = np.sqrt(share * (1 - share) / s.loc[k, "shuffles"])
        if s.loc[k, "distinct_partitions"] > 1:  # leave-one-out's shuffles are one partition: no draws to count
            p_sign = sign_test_p(int(s.loc[k, "shuffles_above_truth"]), int(s.loc[k, "shuffles"]))
            claims.append(
                (
                    f"overestimate_systematic_at_k{k}",
                    p_sign < SIGN_LEVEL,
                    p_sign,
                    f"K = {k}: more shuffles read above the truth than chance would put there: a one-sided sign test "
                    f"of the shuffles' estimates against the truth, p below {SIGN_LEVEL:g}; value: p",
                )
            )
        claims += [
            (
                f"bias_beyond_noise_at_k{k}",
                ratio > NOISE_SE,
                ratio,
                f"K = {k}: the mean over the shuffles lies more "
                f"than {NOISE_SE:g} of its standard errors above the truth ('This is not noise')",
            ),
            (
                f"mean_not_from_one_shuffle_at_k{k}",
                s.loc[k, "largest_shuffle_share_of_estimate"] < 0.5,
                s.loc[k, "largest_shuffle_share_of_estimate"],
                f"K = {k}: the largest shuffle supplies less than half "
                "of the mean ('the mean over 40 shuffles rather than a bad draw')",
            ),
            (
                f"bias_a_few_percent_at_k{k}",
                100 * bias / truth <= 5,
                100 * bias / truth,
                f"K = {k}: the bias is at most 5% of the truth ('bias of a few percent'); value in percent",
            ),
            (
                f"spread_nearly_three_times_std_error_at_k{k}",
                2.5 <= t.loc[k, "spread_over_std_error"] < 3,
                t.loc[k, "spread_over_std_error"],
                f"K = {k}: spread over shuffles / the first shuffle's standard "
                "error in [2.5, 3) ('nearly three times larger')",
            ),
            (
                f"std_error_understates_spread_at_k{k}",
                share > 0.5 + 2 * share_se,
                share,
                f"K = {k}: the share of shuffles whose own standard error is below the spread exceeds one half "
                "by two standard errors ('reporting only the standard error would overstate the precision')",
            ),
        ]
        if k in p.index:
            z = p.loc[k, "bias_over_se"]
            claims.append(
                (
                    f"bias_beyond_noise_at_k{k}_over_many_shuffles",
                    z > NOISE_SE,
                    z,
                    f"K = {k}: as bias_beyond_noise_at_k{k}, over {int(p.loc[k, 'shuffles'])} shuffles",
                )
            )
    falls = np.diff(t["bias"].to_numpy())
    steps = s["fall_to_next_k"] / s["fall_to_next_k_se"]
    claims += [
        (
            "bias_positive_at_every_k",
            bool((t["bias"] > 0).all()),
            int((t["bias"] > 0).sum()),
            "the mean over the shuffles is above the truth at every K ('biased upward'); value: how many K",
        ),
        (
            "bias_falls_at_every_step",
            bool((falls < 0).all()),
            int((falls < 0).sum()),
            "the bias is smaller at every larger K ('The bias falls monotonically'); value: falling steps",
        ),
        (
            "bias_falls_beyond_noise_at_every_step",
            bool((steps.dropna() > NOISE_SE).all()),
            steps.min(),
            f"every fall to the next K exceeds {NOISE_SE:g} standard errors (paired by shuffle); value: the smallest",
        ),
    ]
    if len(p):
        claims += [
            (
                "bias_beyond_noise_at_every_k_over_many_shuffles",
                bool((p["bias_over_se"] > NOISE_SE).all()),
                p["bias_over_se"].min(),
                f"over {int(p['shuffles'].iloc[0])} shuffles every K's bias exceeds "
                f"{NOISE_SE:g} standard errors; value: the smallest ratio",
            ),
            (
                "bias_falls_beyond_noise_at_every_step_over_many_shuffles",
                bool((p["fall_over_se"].dropna() > NOISE_SE).all()),
                p["fall_over_se"].min(),
                f"over {int(p['shuffles'].iloc[0])} shuffles every fall exceeds {NOISE_SE:g} standard errors",
            ),
        ]
    wide = t[t.index >= e.std_error_min_folds]["std_error"]
    if len(wide):
        claims.append(
            (
                "std_error_roughly_flat",
                wide.max() / wide.min() < 1.5,
                wide.max() / wide.min(),
                f"K >= {e.std_error_min_folds}: largest / smallest standard error below 1.5 ('roughly flat')",
            )
        )
    claims += [
        (
            "every_point_validated_once",
            _every_point_once(e.runs, e.n),
            e.n,
            "in every shuffle of every K each point is in exactly one of the K validation folds, so in the other "
            "K - 1 training sets ('validation exactly once and as training K - 1 times'); value: points",
        ),
        (
            "one_fit_per_fold",
            bool((t["fits"] == t.index).all()),
            len(t),
            "each K-fold estimate fits K models ('You pay K training runs'); value: how many K",
        ),
    ]
    if e.n in t.index:
        loo = 100 * t.loc[e.n, "bias"] / truth
        claims += [
            ("loo_bias_negligible", abs(loo) < 1, loo, "K = N: |bias| below 1% of the truth ('negligible'); percent"),
            (
                "loo_has_one_partition",
                s.loc[e.n, "distinct_partitions"] == 1,
                s.loc[e.n, "distinct_partitions"],
                "K = N: every shuffle draws the same partition ('no shuffling freedom left')",
            ),
            ("loo_costs_n_fits", t.loc[e.n, "fits"] == e.n, t.loc[e.n, "fits"], "K = N costs N fits"),
        ]
    claims += _source_claims(e.sources.sort_values("K")) + _degree_claims(e.others)
    return claims_table(claims)


def _source_claims(sources: pd.DataFrame) -> list[tuple]:
    if len(sources) < 2:
        return []
    training = sources["training_effect"].to_numpy()
    per_fold, averaged = sources["per_fold_validation_error"], sources["averaged_validation_error"]
    return [
        (
            "large_k_fixes_training_error",
            bool((np.diff(training) < 0).all()),
            training[-1],
            "source (1), the folds' mean true risk above the truth, falls at every larger K; value: at the largest",
        ),
        (
            "large_k_worsens_validation_error_per_fold",
            per_fold.iloc[-1] > per_fold.iloc[0],
            per_fold.iloc[-1] / per_fold.iloc[0],
            "source (2) per fold, median |R(f, V) / R_true(f) - 1|, is larger "
            "at the largest K than at the smallest; value: their ratio",
        ),
        (
            "averaging_tames_validation_error",
            bool((averaged < per_fold).all()),
            (averaged / per_fold).max(),
            "at every K source (2) averaged over the K folds is below source (2) per fold; value: the largest ratio",
        ),
    ]


def _degree_claims(others: pd.DataFrame) -> list[tuple]:
    if len(others) < 2:
        return []
    by_truth = others["truth"].rank().to_numpy()
    by_small_k = others["small_k_estimate"].rank().to_numpy()
    discordant = sum(
        (by_truth[i] - by_truth[j]) * (by_small_k[i] - by_small_k[j]) < 0
        for i in range(len(others))
        for j in range(i + 1, len(others))
    )
    worst = others["loo_error_percent"].abs().max()
    return [
        (
            "small_k_reorders_models",
            discordant > 0,
            discordant,
            f"degrees {', '.join(map(str, others['degree']))} "
            f"ranked by K = {int(others['small_k'].iloc[0])} estimates and by truth disagree on some pair ('it can "
            "reorder models'); value: discordant pairs",
        ),
        (
            "loo_error_small_at_neighbouring_degrees",
            worst < 1,
            worst,
            "leave-one-out within 1% of the truth at "
            f"every degree {', '.join(map(str, others['degree']))} of the same sample; value: the largest |error| in %",
        ),
    ]
