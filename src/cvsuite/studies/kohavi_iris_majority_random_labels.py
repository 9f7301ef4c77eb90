"""Leave-one-out's variance on an unstable learner: the majority predictor on fair-coin labels.

"Cross-Validation", Variants, says leave-one-out's "variance can be high", and that "Real
algorithms are only approximately stable, which is why the variance does depend on $K$ in
practice"; "Estimating Out-of-Sample Error" says leave-one-out's losses are "strongly dependent
and their average more variable" than five or ten folds'. The majority-class predictor of
Kohavi's (1995) example is as unstable as a learner gets: deleting one instance can flip its
prediction. This design measures the spread over samples of its cross-validated accuracy under
stratified K-fold (the Example's folds), under K-fold with the folds assigned at random ("Estimating
Out-of-Sample Error", the procedure's step 3: "folds of roughly equal size, assigned at random")
and under leave-one-out, on the same samples.

A sample: n instances of two classes, each label an independent fair coin (the features play no
part). Whatever the predictor predicts, a fresh label is right half the time, so its true
accuracy is exactly 1/2 on every sample. Leave-one-out scores 0 whenever the class counts tie
(deleting an instance always makes its class the minority) and the majority share otherwise, so
its accuracy jumps between 0 and a little over 1/2.

The predictor predicts the most frequent training label, ties to the lowest label (the
Example's ``np.bincount(...).argmax()``, the study's ``lowest_label`` rule). Its CV accuracy
(pooled hits over n) depends only on each fold's held-out class counts, so nothing is fitted.

Folds: the Example's ``stratified_folds`` (``cvsuite.methods.folds.stratified_round_robin_folds``)
deals class c's m_c items, in a random order, round-robin to the folds from a random first fold
o_c, so fold f holds m_c // K + [(f - o_c) mod K < m_c mod K] items of class c. The within-class
order only decides which same-class items share a fold, which no count (and so no accuracy of the
majority predictor) can see: only the offsets are drawn (``round_robin_fold_counts``;
``test_fold_counts_are_those_of_the_examples_fold_maker`` pins the counts to the fold maker's).
Leave-one-out (K = n) draws nothing; the fold maker at K = n would not give it (two classes
dealt to n folds from two offsets can share a fold and leave another empty).

Folds at random: each sample's labels in a random order, cut into consecutive folds of
``consecutive_folds``' sizes (K - n mod K folds of n // K, the first n mod K one larger). Assignment
and labels are independent, so every held-out label is a fair coin the predictor has not seen:
the CV accuracy's mean is exactly 1/2 at every K, and the fewer training items cost nothing.
Stratifying makes each fold's class counts follow the sample's, and so the majority the held-out
fold scores: its mean accuracy is above 1/2.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd
from scipy.special import comb

from cvsuite.methods.folds import consecutive_folds
from cvsuite.methods.monte_carlo import standard_error

STRATIFIED, AT_RANDOM, LEAVE_ONE_OUT = "stratified", "random", "leave-one-out"

TRUE_ACCURACY = 0.5  # a fair-coin label is predicted right half the time, whatever the prediction


def random_labels(rng: np.random.Generator, samples: int, n: int) -> np.ndarray:
    """Fair-coin labels, one row per sample: ``rng.integers(0, 2, size=(samples, n))``."""
    return rng.integers(0, 2, size=(samples, n))


def majority_hits(held_out_0, held_out_1, count_0, count_1):
    """Hits of the two-class majority predictor trained without a fold, on that fold.

    The fold holds ``held_out_c`` items of class c, of the ``count_c`` in the sample; the predictor
    trained on the rest predicts class 0 unless class 1 has strictly more training items (ties to
    the lowest label), and scores the held-out items of the class it predicts. Broadcasts.
    """
    predicts_0 = count_0 - held_out_0 >= count_1 - held_out_1
    return np.where(predicts_0, held_out_0, held_out_1)


def leave_one_out_accuracy(count_1, n: int):
    """Leave-one-out accuracy of the majority predictor on n labels of which ``count_1`` are 1.

    A held-out 0 is scored right when the n - 1 others still have at least as many 0s as 1s, a
    held-out 1 when they have strictly more 1s. So 0 when the counts tie (deleting any instance
    makes its class the minority), and the majority share max(m_0, m_1) / n when they differ by
    at least 2.
    """
    count_1 = np.asarray(count_1)
    count_0 = n - count_1
    hits = count_0 * majority_hits(1, 0, count_0, count_1) + count_1 * majority_hits(0, 1, count_0, count_1)
    return hits / n


def round_robin_fold_counts(class_count, offset, n_folds: int):
    """Items of one class in each fold of the Example's round robin: fold f gets
    m // K + [(f - offset) mod K < m mod K]. ``class_count`` and ``offset`` broadcast against
    each other; the folds are a new last axis."""
    class_count = np.asarray(class_count)[..., None]
    shifted = (np.arange(n_folds) - np.asarray(offset)[..., None]) % n_folds
    return class_count // n_folds + (shifted < class_count % n_folds)


def stratified_kfold_accuracy(count_1, offsets, n: int, n_folds: int):
    """Stratified K-fold accuracy (pooled hits over n) of the majority predictor, per sample.

    ``offsets[..., c]`` is the first fold of class c in the Example's round robin.
    """
    count_1 = np.asarray(count_1)
    count_0 = n - count_1
    held_out_0 = round_robin_fold_counts(count_0, offsets[..., 0], n_folds)
    held_out_1 = round_robin_fold_counts(count_1, offsets[..., 1], n_folds)
    hits = majority_hits(held_out_0, held_out_1, count_0[..., None], count_1[..., None])
    return hits.sum(axis=-1) / n


def fold_sizes(n: int, n_folds: int) -> np.ndarray:
    """The sizes of ``consecutive_folds``, those of every fold maker that cuts a permutation into
    chunks: the first n mod K hold one more."""
    return np.array([len(fold) for fold in consecutive_folds(n, n_folds)])


def random_kfold_accuracy(shuffled_labels: np.ndarray, n_folds: int) -> np.ndarray:
    """K-fold accuracy (pooled hits over n) of the majority predictor, per sample, with each row of
    ``shuffled_labels`` (samples x n, labels already in a random order) cut into consecutive folds
    of ``fold_sizes``."""
    n = shuffled_labels.shape[-1]
    sizes = fold_sizes(n, n_folds)
    held_out_1 = np.add.reduceat(shuffled_labels, np.concatenate([[0], np.cumsum(sizes)[:-1]]), axis=-1)
    held_out_0 = sizes - held_out_1
    count_1 = shuffled_labels.sum(axis=-1, keepdims=True)
    hits = majority_hits(held_out_0, held_out_1, n - count_1, count_1)
    return hits.sum(axis=-1) / n


def check_design(n: int, folds) -> None:
    """Refuse a K the design cannot run: 2 <= K, and n >= 2K so that every fold holds an item (the
    larger class, of at least n / 2 items, deals one to each fold); K = n is leave-one-out, added anyway."""
    for k in folds:
        if k < 2 or 2 * k > n:
            raise ValueError(
                f"kohavi_iris_majority.random_labels: K = {k} with n = {n}; each K must be at least 2 and at "
                "most n / 2, so that the round robin fills every fold"
            )


def cv_accuracies(seed: int, samples: int, n: int, folds) -> dict[tuple[str, int], np.ndarray]:
    """The CV accuracy of every sample under stratified K-fold and under K-fold with folds at
    random, for each K of ``folds``, and under leave-one-out, all on the same samples; keyed by
    (fold assignment, K), leave-one-out as (``LEAVE_ONE_OUT``, n).

    Draw order, one generator ``default_rng(seed)``: the labels of all samples (``random_labels``,
    sample by sample, n each), then for each K of ``folds`` in order the round-robin offsets of
    all samples, ``integers(0, K, size=(samples, 2))`` (sample by sample, class 0 then class 1:
    the Example's one ``rng.integers(n_folds)`` per class), then for each K of ``folds`` in order
    ``permuted(labels, axis=1)``, each sample's labels in a random order. Leave-one-out draws
    nothing. The stratified draws come first, so adding the folds at random moved none of them.
    """
    check_design(n, folds)
    rng = np.random.default_rng(seed)
    labels = random_labels(rng, samples, n)
    count_1 = labels.sum(axis=1)
    accuracy = {}
    for k in folds:
        offsets = rng.integers(0, k, size=(samples, 2))
        accuracy[STRATIFIED, k] = stratified_kfold_accuracy(count_1, offsets, n, k)
    for k in folds:
        accuracy[AT_RANDOM, k] = random_kfold_accuracy(rng.permuted(labels, axis=1), k)
    accuracy[LEAVE_ONE_OUT, n] = leave_one_out_accuracy(count_1, n)
    return accuracy


def sample_sd(values) -> float:
    """The s.d. over samples (ddof = 1), exactly 0.0 when every value is equal (see ``standard_error``)."""
    values = np.asarray(values, dtype=float)
    return 0.0 if values.max() == values.min() else float(values.std(ddof=1))


def sd_influence(values: np.ndarray) -> np.ndarray:
    """Each sample's influence on the sample s.d. s (ddof = 1): ((x_i - mean)^2 - s^2) / (2 s).

    The delta method: s^2 is a mean of squared deviations, and s = sqrt(s^2) moves by 1 / (2 s)
    per unit of s^2. The s.d. of these values over root N is the standard error of s; the
    difference of two samples' influences, sample by sample, gives the standard error of a
    difference of s.d.s on the same samples. All zero when the values are all equal.
    """
    values = np.asarray(values, dtype=float)
    sd = sample_sd(values)
    if sd == 0.0:
        return np.zeros_like(values)
    return ((values - values.mean()) ** 2 - sd**2) / (2 * sd)


def random_folds_moments(n: int, n_folds: int, count_1: int) -> tuple[float, float]:
    """E[A] and E[A^2] of the K-fold accuracy A with folds at random, given ``count_1`` ones among
    the n labels: a fold of s items holds h ones with the hypergeometric probability
    C(m, h) C(n - m, s - h) / C(n, s), and a second fold of t, given the first, b ones with
    C(m - h, b) C(n - m - s + h, t - b) / C(n - s, t). A is a sum over folds, so its square needs
    each fold's law and each ordered pair of distinct folds' joint law; folds come in at most two
    sizes, so the sums run over sizes, weighted by how many folds (or pairs) have them."""
    count_0 = n - count_1
    sizes, folds_of_size = np.unique(fold_sizes(n, n_folds), return_counts=True)

    def fold_law(size, ones, zeros):  # held-out ones of a fold drawn from the pool, and their law
        held_out = np.arange(max(0, size - zeros), min(size, ones) + 1)
        return held_out, comb(ones, held_out) * comb(zeros, size - held_out) / comb(ones + zeros, size)

    def hits(size, held_out_1):
        return majority_hits(size - held_out_1, held_out_1, count_0, count_1).astype(float)

    first = second = 0.0
    for s, s_folds in zip(sizes, folds_of_size):
        h, p = fold_law(s, count_1, count_0)
        hits_s = hits(s, h)
        first += s_folds * p @ hits_s
        second += s_folds * p @ hits_s**2
        for t, t_folds in zip(sizes, folds_of_size):
            pairs = s_folds * (t_folds - (s == t))
            if pairs:
                expected_second = [q @ hits(t, b) for b, q in (fold_law(t, count_1 - i, count_0 - s + i) for i in h)]
                second += pairs * p @ (hits_s * np.array(expected_second))
    return first / n, second / n**2


@functools.cache  # a law of three integers, asked for once per table row
def exact_law(n: int, n_folds: int, assignment: str = STRATIFIED) -> tuple[float, float]:
    """Exact mean and s.d. of the CV accuracy over samples: class-1 count Binomial(n, 1/2) and,
    for stratified K-fold (K < n), offsets uniform on 0..K-1 and independent; for folds at random
    (``AT_RANDOM``), every assignment equally likely (``random_folds_moments``); K = n is
    leave-one-out."""
    count_1 = np.arange(n + 1)
    weight = np.array([math.comb(n, m) for m in count_1], dtype=float) / 2.0**n
    if assignment == AT_RANDOM and n_folds < n:
        moments = np.array([random_folds_moments(n, n_folds, m) for m in count_1])
        mean = float(weight @ moments[:, 0])
        return mean, float(np.sqrt(max(weight @ moments[:, 1] - mean**2, 0.0)))
    if n_folds == n:
        accuracy = leave_one_out_accuracy(count_1, n)
    else:
        o0, o1 = np.meshgrid(np.arange(n_folds), np.arange(n_folds), indexing="ij")
        offsets = np.stack([o0.ravel(), o1.ravel()], axis=-1)
        accuracy = stratified_kfold_accuracy(count_1[:, None], offsets[None], n, n_folds)
        weight = np.repeat(weight[:, None] / n_folds**2, n_folds**2, axis=1)
    mean = float(np.sum(weight * accuracy))
    return mean, float(np.sqrt(max(np.sum(weight * (accuracy - mean) ** 2), 0.0)))


def random_labels_table(seed: int, samples: int, n: int, folds) -> pd.DataFrame:
    """One row per protocol, on the samples of ``cv_accuracies``: stratified K-fold for the K of
    ``folds`` ascending, then K-fold with folds at random, then leave-one-out (K = n); its
    ``assignment`` says which (``stratified``, ``random``, ``leave-one-out``), and:

    - ``mean_accuracy`` (``_se``: s.d. over samples, ddof = 1, over root N), a fraction;
    - ``cv_sd``: s.d. over samples of the CV accuracy (ddof = 1); ``cv_sd_se`` its delta-method
      standard error (``sd_influence``);
    - ``zero_accuracy_share``: share of samples whose CV accuracy is exactly 0;
    - ``true_accuracy``: 1/2, exactly, on every sample;
    - ``exact_mean_accuracy``, ``exact_cv_sd``: the same two from the exact law (``exact_law``);
    - ``exact_pessimism``: the exact bias of the CV error, 1 - ``exact_mean_accuracy``, over the
      true error 1/2, as a share of it (0 when unbiased, negative when optimistic);
    - ``loo_minus_k_cv_sd``: leave-one-out's ``cv_sd`` less this row's, on the same samples, and
      ``loo_minus_k_cv_sd_se``, the s.d. of the paired influence differences over root N (0 and 0
      on the leave-one-out row);
    - ``exact_variance_over_independent``: the exact variance of the CV accuracy over that of a mean
      of n independent 0/1 hits with the same mean, a(1 - a)/n: how much the dependence between
      the held-out losses adds to the average's variance (1 when they are independent).
    """
    accuracy = cv_accuracies(seed, samples, n, sorted(folds))
    loo = accuracy[LEAVE_ONE_OUT, n]
    loo_influence = sd_influence(loo)
    rows = []
    for (assignment, k), values in accuracy.items():
        exact_mean, exact_sd = exact_law(n, k, assignment)
        gap_influence = loo_influence - sd_influence(values)
        rows.append(
            {
                "protocol": LEAVE_ONE_OUT if k == n else f"{assignment} {k}-fold",
                "assignment": assignment,
                "K": k,
                "samples": samples,
                "n": n,
                "mean_accuracy": float(values.mean()),
                "mean_accuracy_se": standard_error(values),
                "cv_sd": sample_sd(values),
                "cv_sd_se": standard_error(sd_influence(values)),
                "zero_accuracy_share": float(np.mean(values == 0)),
                "true_accuracy": TRUE_ACCURACY,
                "exact_mean_accuracy": exact_mean,
                "exact_cv_sd": exact_sd,
                # rounded at 1e-12, below which the float sums of the exact law carry no digit
                "exact_pessimism": round((TRUE_ACCURACY - exact_mean) / (1 - TRUE_ACCURACY), 12) + 0.0,
                "loo_minus_k_cv_sd": 0.0 if k == n else sample_sd(loo) - sample_sd(values),
                "loo_minus_k_cv_sd_se": 0.0 if k == n else standard_error(gap_influence),
                "exact_variance_over_independent": exact_sd**2 / (exact_mean * (1 - exact_mean) / n),
            }
        )
    return pd.DataFrame(rows)
