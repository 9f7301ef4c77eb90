import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import yaml
from sklearn.datasets import load_iris

from conftest import project_records
from cvsuite.methods.folds import leave_one_out_folds, stratified_dealt_folds, stratified_round_robin_folds
from cvsuite.methods.majority_class import expected_shuffled_kfold_accuracy, fold_class_counts, fold_hits
from cvsuite.published.published_values import published_value
from cvsuite.studies.kohavi_iris_majority import (
    class_count_summary,
    folds_not_leaving_minority,
    majority_cv_study,
    majority_study,
    protocol_estimates,
    spread,
)
from cvsuite.studies.kohavi_iris_majority_random_labels import (
    AT_RANDOM,
    check_design,
    exact_law,
    fold_sizes,
    leave_one_out_accuracy,
    random_kfold_accuracy,
    random_labels_table,
    round_robin_fold_counts,
    stratified_kfold_accuracy,
)

ROOT = Path(__file__).resolve().parents[1]
BALANCED = np.repeat([0, 1, 2], 8)  # 24 items, 8 per class: a small stand-in for Iris


def test_leave_one_out_on_iris_scores_kohavis_published_zero_in_every_fold():
    claims = project_records()
    iris = load_iris()
    estimates, _, folds = majority_study(
        iris.target, list(iris.target_names), ["lowest_label"], n_folds=10, partitions=2, first_seed=0, tie_seed=0
    )
    loo = estimates.set_index("scheme").loc["leave-one-out"]
    assert loo["accuracy_percent"] == published_value(claims, "kohavi1995.loo.accuracy")
    assert loo["fold_range_percent"] == published_value(claims, "kohavi1995.loo.fold-range")
    assert len(folds[folds["protocol"] == "leave-one-out"]) == 150


def test_the_study_runs_every_tie_break_and_names_the_predicted_classes():
    estimates, runs, folds = majority_study(
        BALANCED, ["a", "b", "c"], ["lowest_label", "highest_label"], n_folds=4, partitions=3, first_seed=0, tie_seed=0
    )
    assert estimates["tie_break"].tolist() == ["lowest_label"] * 3 + ["highest_label"] * 3
    assert len(runs) == 2 * (1 + 3 + 3)
    assert (folds["predicted_class_name"] == np.array(["a", "b", "c"])[folds["predicted_class"]]).all()


@pytest.mark.parametrize("k", [2, 3, 5, 8])
def test_stratified_partition_covers_every_item_once_with_class_proportions(k):
    folds = stratified_dealt_folds(BALANCED, k, np.random.default_rng(11))
    assert sorted(np.concatenate(folds).tolist()) == list(range(len(BALANCED)))
    per_class = np.array([np.bincount(BALANCED[f], minlength=3) for f in folds])
    assert per_class.max(axis=0).tolist() == [int(np.ceil(8 / k))] * 3
    assert (per_class.max(axis=0) - per_class.min(axis=0) <= 1).all()


def test_stratified_partition_refuses_impossible_fold_counts():
    with pytest.raises(ValueError, match="between 2 and n"):
        stratified_dealt_folds(BALANCED, 1, np.random.default_rng(0))


def test_shuffled_kfold_average_is_consistent_with_its_exact_expectation():
    runs, _ = majority_cv_study(
        BALANCED, 3, n_folds=4, partitions=400, first_seed=0, tie_break="lowest_label", tie_seed=0
    )
    shuffled = runs[runs["scheme"] == "shuffled"]["accuracy_percent"].to_numpy()
    se = np.std(shuffled, ddof=1) / np.sqrt(len(shuffled))
    exact = 100 * expected_shuffled_kfold_accuracy((8, 8, 8), 4, "lowest_label")
    assert abs(shuffled.mean() - exact) <= 4 * se


def test_shuffled_partition_r_is_the_permutation_of_default_rng_first_seed_plus_r():
    _, folds = majority_cv_study(
        BALANCED, 3, n_folds=4, partitions=2, first_seed=5, tie_break="lowest_label", tie_seed=0
    )
    first = folds[folds["protocol"] == "shuffled 4-fold"]
    chunks = np.array_split(np.random.default_rng(5).permutation(24), 4)
    held_out = [np.bincount(BALANCED[c], minlength=3) for c in chunks]
    remaining = [np.bincount(BALANCED, minlength=3) - h for h in held_out]
    assert first["predicted_class"].tolist() == [int(np.argmax(r)) for r in remaining]
    assert first["hits"].tolist() == [int(h[np.argmax(r)]) for h, r in zip(held_out, remaining)]


def test_stratified_folds_of_balanced_classes_give_the_same_score_in_every_fold_and_partition():
    runs, folds = majority_cv_study(BALANCED, 3, n_folds=4, partitions=20, first_seed=3, tie_break="random", tie_seed=1)
    estimates = protocol_estimates(runs, np.bincount(BALANCED)).set_index("scheme")
    assert estimates.loc["stratified", "spread_over_partitions_percent"] == 0.0
    assert estimates.loc["stratified", "accuracy_percent_se"] == 0.0
    assert estimates.loc["stratified", "fold_range_percent"] == 0.0
    assert estimates.loc["stratified", "accuracy_percent"] == estimates.loc["stratified", "full_data_accuracy_percent"]
    assert estimates.loc["leave-one-out", "fold_sd_percent"] == 0.0


def test_the_monte_carlo_se_of_shuffled_kfold_is_the_sample_sd_over_root_r():
    runs, _ = majority_cv_study(
        BALANCED, 3, n_folds=4, partitions=30, first_seed=0, tie_break="lowest_label", tie_seed=0
    )
    estimates = protocol_estimates(runs, np.bincount(BALANCED)).set_index("scheme")
    shuffled = runs.loc[runs["scheme"] == "shuffled", "accuracy_percent"].to_numpy()
    assert estimates.loc["shuffled", "accuracy_percent_se"] == pytest.approx(
        np.std(shuffled, ddof=1) / np.sqrt(30), rel=1e-12
    )
    assert estimates.loc["shuffled", "spread_over_partitions_percent"] == pytest.approx(np.std(shuffled), rel=1e-12)


def test_identical_values_have_exactly_zero_spread():
    assert spread(np.full(7, 100 / 3)) == 0.0
    assert spread([1.0, 2.0]) == pytest.approx(0.5)


def test_class_count_summary_reports_smallest_and_largest_class():
    row = class_count_summary(np.array([0, 0, 1, 2, 2, 2]), ["a", "b", "c"]).iloc[0]
    assert (row["min_class_count"], row["max_class_count"], row["count_c"]) == (1, 3, 3)


def test_deleting_an_instance_makes_its_class_the_minority_only_on_balanced_data():
    iris = load_iris()
    assert folds_not_leaving_minority(iris.target) == 0
    assert class_count_summary(iris.target, list(iris.target_names)).iloc[0]["loo_folds_not_leaving_minority"] == 0
    # Counts 3, 2: deleting one of the three leaves 2 against 2, a tie, not a minority; of the two, 1 against 3.
    assert folds_not_leaving_minority(np.array([0, 0, 0, 1, 1])) == 3


# Leave-one-out's variance on an unstable learner: the majority predictor on fair-coin labels.


def examples_offsets(labels: np.ndarray, n_folds: int, seed: int) -> np.ndarray:
    """The first fold of each class that ``stratified_round_robin_folds(labels, K, default_rng(seed))``
    draws, replayed: per class in label order, its permutation, then its offset."""
    rng = np.random.default_rng(seed)
    offsets = np.zeros(2, dtype=int)
    for label in np.unique(labels):
        rng.permutation(np.count_nonzero(labels == label))
        offsets[label] = rng.integers(n_folds)
    return offsets


@pytest.mark.parametrize("n_folds", [2, 3, 5, 10])
@pytest.mark.parametrize("seed", range(4))
def test_fold_counts_and_accuracy_are_those_of_the_examples_fold_maker(n_folds, seed):
    labels = np.random.default_rng(100 + seed).integers(0, 2, 23 + seed)
    folds = stratified_round_robin_folds(labels, n_folds, np.random.default_rng(seed))
    offsets = examples_offsets(labels, n_folds, seed)
    _, held_out, _ = fold_class_counts(labels, folds, 2)
    counts = np.bincount(labels, minlength=2)
    for c in (0, 1):
        assert round_robin_fold_counts(counts[c], offsets[c], n_folds).tolist() == held_out[:, c].tolist()
    _, _, hits, _ = fold_hits(labels, folds, 2, "lowest_label")  # the predictor fitted fold by fold
    n = len(labels)
    assert stratified_kfold_accuracy(np.array(counts[1]), offsets, n, n_folds) == hits.sum() / n


@pytest.mark.parametrize("n", [12, 13])
def test_leave_one_out_accuracy_is_that_of_the_predictor_fitted_fold_by_fold(n):
    for count_1 in range(n + 1):
        labels = np.array([0] * (n - count_1) + [1] * count_1)
        _, _, hits, _ = fold_hits(labels, leave_one_out_folds(n), 2, "lowest_label")
        assert leave_one_out_accuracy(count_1, n) == hits.sum() / n


def test_leave_one_out_scores_zero_when_the_counts_tie_and_the_majority_share_otherwise():
    assert leave_one_out_accuracy(20, 40) == 0.0
    assert leave_one_out_accuracy(np.array([18, 23, 0]), 40).tolist() == [22 / 40, 23 / 40, 1.0]


def exact_leave_one_out_law(n: int) -> tuple[Fraction, Fraction]:
    """Mean and variance of leave-one-out's accuracy over class counts Binomial(n, 1/2), exactly:
    a held-out 0 is right when the others keep m_0 - 1 >= m_1 (ties to label 0), a held-out 1
    when m_1 - 1 > m_0."""
    probability = [Fraction(math.comb(n, m1), 2**n) for m1 in range(n + 1)]
    accuracy = [Fraction((n - m1) * (n - m1 - 1 >= m1) + m1 * (m1 - 1 > n - m1), n) for m1 in range(n + 1)]
    mean = sum(p * a for p, a in zip(probability, accuracy))
    return mean, sum(p * (a - mean) ** 2 for p, a in zip(probability, accuracy))


def test_leave_one_out_matches_its_exact_binomial_mean_and_sd():
    mean, variance = exact_leave_one_out_law(40)
    assert mean == Fraction(1, 2)  # unbiased for the true 1/2, with n even
    table = random_labels_table(7, 4000, 40, [5, 10]).set_index("protocol")
    loo = table.loc["leave-one-out"]
    assert loo["exact_mean_accuracy"] == pytest.approx(float(mean), abs=1e-12)
    assert loo["exact_cv_sd"] == pytest.approx(math.sqrt(variance), abs=1e-12)
    assert abs(loo["mean_accuracy"] - float(mean)) < 4 * loo["mean_accuracy_se"]
    assert abs(loo["cv_sd"] - math.sqrt(variance)) < 4 * loo["cv_sd_se"]
    assert abs(loo["zero_accuracy_share"] - math.comb(40, 20) / 2**40) < 4 * math.sqrt(0.125 * 0.875 / 4000)
    # K-fold too, stratified and at random, against its exact law
    for k in ("stratified 5-fold", "stratified 10-fold", "random 5-fold", "random 10-fold"):
        assert abs(table.loc[k, "cv_sd"] - table.loc[k, "exact_cv_sd"]) < 4 * table.loc[k, "cv_sd_se"]
        assert (
            abs(table.loc[k, "mean_accuracy"] - table.loc[k, "exact_mean_accuracy"])
            < 4 * table.loc[k, "mean_accuracy_se"]
        )


def test_folds_at_random_leave_the_majority_predictor_unbiased_and_stratified_folds_do_not():
    table = random_labels_table(7, 200, 40, [5, 10]).set_index("protocol")
    # a held-out fair coin the predictor has not seen is right half the time
    unbiased = ["random 5-fold", "random 10-fold", "leave-one-out"]
    assert table.loc[unbiased, "exact_pessimism"].tolist() == [0.0] * 3
    # stratified folds score the sample's own majority share: optimistic
    assert (table.loc[["stratified 5-fold", "stratified 10-fold"], "exact_pessimism"] < -0.1).all()


@pytest.mark.parametrize("n, n_folds", [(6, 3), (7, 3), (6, 2)])
def test_the_exact_law_of_folds_at_random_is_that_of_every_assignment_and_labelling(n, n_folds):
    sizes = fold_sizes(n, n_folds)
    fold_of = np.repeat(np.arange(n_folds), sizes)
    orders = np.array(list(itertools.permutations(range(n))))
    accuracies = np.concatenate(  # each labelling, each order equally likely
        [random_kfold_accuracy(np.array(labels)[orders], n_folds) for labels in itertools.product((0, 1), repeat=n)]
    )
    assert len(set(fold_of)) == n_folds
    mean, sd = exact_law(n, n_folds, AT_RANDOM)
    assert mean == pytest.approx(np.mean(accuracies), abs=1e-12)
    assert sd == pytest.approx(np.std(accuracies), abs=1e-12)


def test_sd_standard_errors_match_the_spread_over_independent_replicate_runs():
    runs = [random_labels_table(seed, 500, 40, [5, 10]).set_index("protocol") for seed in range(60)]
    k_fold = ["stratified 5-fold", "stratified 10-fold", "random 5-fold", "random 10-fold"]
    for column in ("cv_sd", "loo_minus_k_cv_sd"):
        for k in k_fold if column.startswith("loo") else [*k_fold, "leave-one-out"]:
            observed = np.std([run.loc[k, column] for run in runs], ddof=1)
            reported = np.sqrt(np.mean([run.loc[k, f"{column}_se"] ** 2 for run in runs]))
            # 60 runs pin the observed spread to about 10%.
            assert 0.7 < reported / observed < 1.4, (column, k, reported, observed)


def test_at_the_defaults_leave_one_out_spreads_more_than_ten_and_five_fold_by_many_standard_errors():
    params = yaml.safe_load((ROOT / "config.yaml").read_text())["kohavi_iris_majority"]["random_labels"]
    table = random_labels_table(params["seed"], params["samples"], params["n"], params["folds"]).set_index("protocol")
    for k in ("stratified 5-fold", "stratified 10-fold", "random 5-fold", "random 10-fold"):
        assert table.loc[k, "loo_minus_k_cv_sd"] > 10 * table.loc[k, "loo_minus_k_cv_sd_se"]
        assert table.loc[k, "loo_minus_k_cv_sd"] == pytest.approx(
            table.loc["leave-one-out", "cv_sd"] - table.loc[k, "cv_sd"]
        )
    assert table.loc["leave-one-out", ["loo_minus_k_cv_sd", "loo_minus_k_cv_sd_se"]].tolist() == [0.0, 0.0]
    assert (table["true_accuracy"] == 0.5).all()


def test_the_random_labels_design_refuses_a_k_that_leaves_a_fold_empty():
    check_design(40, [5, 20])
    with pytest.raises(ValueError, match="K = 21 with n = 40"):
        check_design(40, [5, 21])
