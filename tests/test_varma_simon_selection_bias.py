from dataclasses import replace

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.svm import SVC

from cvsuite.data.two_class_gaussian import simulate_dataset
from cvsuite.methods import shrunken_centroids as nsc
from cvsuite.methods.folds import stratified_dealt_folds
from cvsuite.studies.varma_simon_selection_bias import (
    SimulationSettings,
    pick,
    selection_bias_design,
    selection_bias_simulation,
    selection_bias_summary,
    shrunken_centroid_study,
    svm_study,
)

SMALL = SimulationSettings(
    datasets=2, per_class=6, n_features=40, n_thresholds=10, n_folds=3, prior_rule="equal",
    costs=(1.0,), gene_counts=(5,), ties="simplest",
)  # fmt: skip


def small_data(seed=0, per_class=8, features=60, signal_features=0, shift=0.0):
    return simulate_dataset(np.random.default_rng(seed), per_class, features, signal_features, shift)


def test_dataset_r_is_drawn_from_seed_and_r_and_the_tuning_partition_is_the_next_draw():
    """Draw order of the module's docstring, rebuilt with numpy alone: X, then one permutation per
    class dealt to the folds in turn; the SVM draws nothing."""
    scenario = {"seed": 3, "signal_features": 2, "signal_shift": 1.5, "nested": []}
    settings = replace(SMALL, datasets=3, n_thresholds=30, gene_counts=(40,))
    table = selection_bias_simulation({"class_difference": scenario}, settings)
    n, p, shift = 12, 40, np.zeros(40)
    shift[:2] = 1.5
    y = np.repeat([0, 1], 6)
    for r in range(3):
        rng = np.random.default_rng([3, r])
        x = rng.standard_normal((n, p))
        x[6:] += shift
        dealt = np.concatenate([rng.permutation(np.flatnonzero(y == k)) for k in (0, 1)])
        folds = [np.sort(dealt[f::3]) for f in range(3)]

        full = nsc.fit_centroids(x, y, np.ones((1, n), dtype=bool))
        thresholds = np.linspace(0, np.abs(full.d).max(), 30)
        errors = nsc.cv_errors(x, y, folds, thresholds, np.array([0.5, 0.5]))
        simplest = np.flatnonzero(errors == errors.min())[-1]
        centroids = table[(table["dataset"] == r) & (table["classifier"] == "shrunken_centroids")].iloc[0]
        assert centroids["min_cv_error_percent"] == pytest.approx(100 * errors.min())
        assert centroids["chosen_threshold"] == pytest.approx(thresholds[simplest])

        # One grid point (all genes, C = 1): the tuned SVM is SVC on all the data; its exact error.
        svc = SVC(C=1.0, kernel="precomputed").fit(x @ x.T / p, y)
        w, b = x[svc.support_].T @ svc.dual_coef_[0] / p, svc.intercept_[0]  # class 1 iff w . x + b > 0
        true_error = 0.5 * (norm.cdf(b / np.linalg.norm(w)) + norm.cdf(-(shift @ w + b) / np.linalg.norm(w)))
        svm = table[(table["dataset"] == r) & (table["classifier"] == "svm")].iloc[0]
        assert svm["true_error_percent"] == pytest.approx(100 * true_error)


def test_tuning_folds_of_an_outer_training_set_spread_each_class():
    y = np.repeat([0, 1], (20, 19))  # the study's 40 samples less one, in 10 folds
    parts = stratified_dealt_folds(y, 10, np.random.default_rng(1))
    assert sorted(np.concatenate(parts).tolist()) == list(range(39))
    for k in (0, 1):
        in_class = [np.sum(y[part] == k) for part in parts]
        assert max(in_class) - min(in_class) <= 1


def test_pick_breaks_ties_toward_the_requested_end():
    errors = np.array([0.4, 0.2, 0.3, 0.2])
    assert pick(errors, "simplest", simplest_last=True) == 3
    assert pick(errors, "simplest", simplest_last=False) == 1
    assert pick(errors, "most_complex", simplest_last=False) == 3
    with pytest.raises(ValueError, match="ties"):
        pick(errors, "random", simplest_last=True)


def test_nested_svm_matches_a_direct_double_loop():
    data = small_data(seed=14, per_class=5, features=30, signal_features=3, shift=1.0)
    costs, counts = (0.1, 1.0), (3, 30)
    result = svm_study(data, costs=costs, gene_counts=counts, ties="simplest")
    n = len(data.y)
    grid = [(k, c) for k in counts for c in costs]

    def errors_on(train, tests):
        """Misclassified tests at each grid point, genes ranked and SVM fitted on ``train`` only."""
        x, y = data.x[train], data.y[train]
        a, b = x[y == 0], x[y == 1]
        pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(train) - 2)
        t = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled * (1 / len(a) + 1 / len(b)))
        order = np.argsort(-t, kind="stable")
        out = []
        for k, c in grid:
            genes = order[:k]
            svc = SVC(C=c, kernel="precomputed").fit(x[:, genes] @ x[:, genes].T / k, y)
            out.append(svc.predict(data.x[np.ix_(tests, genes)] @ x[:, genes].T / k) != data.y[tests])
        return np.array(out)  # (grid, tests)

    loo = np.array([errors_on(np.delete(np.arange(n), i), [i])[:, 0] for i in range(n)])
    assert result["min_cv_error"] == pytest.approx(loo.mean(axis=0).min())
    wrong = 0
    for i in range(n):
        rest = np.delete(np.arange(n), i)
        inner = np.mean([errors_on(np.delete(rest, np.flatnonzero(rest == j)), [j])[:, 0] for j in rest], axis=0)
        wrong += loo[i, pick(inner, "simplest", simplest_last=False)]
    assert result["nested_cv_error"] == pytest.approx(wrong / n)


def test_true_error_on_null_data_is_one_half_for_both_classifiers():
    data = small_data(seed=15, per_class=10, features=100)
    sc = shrunken_centroid_study(
        data, np.random.default_rng(0), n_thresholds=10, n_folds=5, prior_rule="class_proportions",
        ties="simplest", nested=False,
    )  # fmt: skip
    svm = svm_study(data, costs=(0.1, 1.0), gene_counts=(5, 100), ties="simplest", nested=False)
    assert sc["true_error"] == pytest.approx(0.5) and svm["true_error"] == pytest.approx(0.5)
    assert np.isnan(sc["nested_cv_error"]) and np.isnan(svm["nested_cv_error"])


def test_minimum_ten_fold_error_of_shrunken_centroids_is_optimistic_on_null_data():
    settings = replace(
        SMALL, datasets=40, per_class=10, n_features=300, n_thresholds=30, n_folds=5, prior_rule="class_proportions",
    )  # fmt: skip
    table = selection_bias_simulation(
        {"no_difference": {"seed": 1, "signal_features": 0, "signal_shift": 0.0, "nested": []}}, settings
    )
    summary = selection_bias_summary(table, 30)
    assert summary["true_error_percent"].tolist() == pytest.approx([50.0, 50.0])
    centroids = summary[summary["classifier"] == "shrunken_centroids"].iloc[0]
    assert centroids["min_cv_error_percent"] + 2 * centroids["min_cv_error_percent_se"] < 50


def test_summary_standard_error_is_sample_sd_over_root_datasets():
    table = selection_bias_simulation(
        {"no_difference": {"seed": 4, "signal_features": 0, "signal_shift": 0.0, "nested": []}},
        replace(SMALL, datasets=4),
    )
    summary = selection_bias_summary(table, 30)
    values = table[table["classifier"] == "svm"]["min_cv_error_percent"]
    row = summary[summary["classifier"] == "svm"].iloc[0]
    assert row["min_cv_error_percent_se"] == pytest.approx(values.std(ddof=1) / 2)
    assert row["min_cv_below_low_percent"] == pytest.approx(100 * np.mean(values < 30))


def test_share_below_the_low_error_has_the_binomial_error_of_the_shrunk_share_at_zero():
    table = selection_bias_simulation(
        {"class_difference": {"seed": 5, "signal_features": 5, "signal_shift": 3.0, "nested": []}},
        replace(SMALL, datasets=3),
    )
    summary = selection_bias_summary(table, 0.0)  # nothing lies below 0%
    assert (summary["min_cv_below_low_percent"] == 0).all()
    # (0 + 1) / (3 + 2) = 0.2 of 3 datasets
    assert summary["min_cv_below_low_percent_se"].tolist() == pytest.approx([100 * np.sqrt(0.2 * 0.8 / 3)] * 2)


def test_design_row_has_the_outer_leave_one_out_training_size():
    row = selection_bias_design(replace(SMALL, per_class=20, n_features=6000, datasets=12)).iloc[0]
    assert row.to_dict() == {
        "samples": 40, "samples_per_class": 20, "features": 6000,
        "outer_training_samples": 39, "datasets_per_scenario": 12,
    }  # fmt: skip
