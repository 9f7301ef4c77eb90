from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.svm import SVC

from cvsuite.data.two_class_gaussian import simulate_dataset
from cvsuite.methods import shrunken_centroids as nsc
from cvsuite.methods.folds import stratified_dealt_folds
from cvsuite.methods.linear_svm import SvmGrid
from cvsuite.studies.varma_simon_datasets import (
    SimulationSettings,
    pick,
    shrunken_centroid_study,
    simulate_datasets,
    svm_studies,
)
from cvsuite.studies.varma_simon_selection_bias import (
    combined_se,
    control_variate_mean,
    gather_shards,
    selection_bias_design,
    selection_bias_summary,
)

SMALL = SimulationSettings(
    per_class=6, n_features=40, n_thresholds=10, n_folds=3, prior_rule="equal",
    costs=(1.0,), gene_counts=(5,), ties="simplest",
)  # fmt: skip


def scenario(seed, signal_features=0, shift=0.0, datasets=2, nested=0):
    """A scenario whose classifiers are both tuned on ``datasets`` datasets, nested on ``nested``."""
    counts = {"shrunken_centroids": datasets, "svm": datasets}
    return {"seed": seed, "signal_features": signal_features, "signal_shift": shift, "datasets": counts,
            "nested": {"shrunken_centroids": nested, "svm": nested}}  # fmt: skip


def simulation(name, spec, settings):
    return simulate_datasets(name, spec, range(max(spec["datasets"].values())), settings)


def small_data(seed=0, per_class=8, features=60, signal_features=0, shift=0.0):
    return simulate_dataset(np.random.default_rng(seed), per_class, features, signal_features, shift)


def test_dataset_r_is_drawn_from_seed_and_r_and_the_tuning_partition_is_the_next_draw():
    """Draw order of the module's docstring, rebuilt with numpy alone: X, then one permutation per
    class dealt to the folds in turn; the SVM draws nothing."""
    settings = replace(SMALL, n_thresholds=30, gene_counts=(40,))
    table = simulation("class_difference", scenario(3, 2, 1.5, datasets=3), settings)
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

        # One grid point (all genes, C = 1): the tuned SVM is SVC (run to a tight tolerance) on all the data.
        svc = SVC(C=1.0, kernel="precomputed", tol=1e-12).fit(x @ x.T / p, y)
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
    (result,) = svm_studies([data], grid=SvmGrid.of(counts, costs, 30), ties="simplest", nested=True)
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
            svc = SVC(C=c, kernel="precomputed", tol=1e-12).fit(x[:, genes] @ x[:, genes].T / k, y)
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
    (svm,) = svm_studies([data], grid=SvmGrid.of((5, 100), (0.1, 1.0), 100), ties="simplest", nested=False)
    assert sc["true_error"] == pytest.approx(0.5) and svm["true_error"] == pytest.approx(0.5)
    assert np.isnan(sc["nested_cv_error"]) and np.isnan(svm["nested_cv_error"])


def test_minimum_ten_fold_error_of_shrunken_centroids_is_optimistic_on_null_data():
    settings = replace(
        SMALL, per_class=10, n_features=300, n_thresholds=30, n_folds=5, prior_rule="class_proportions",
    )  # fmt: skip
    table = simulation("no_difference", scenario(1, datasets=40), settings)
    summary = selection_bias_summary(table, 30, 1000)
    assert summary["true_error_percent"].tolist() == pytest.approx([50.0, 50.0])
    centroids = summary[summary["classifier"] == "shrunken_centroids"].iloc[0]
    assert centroids["min_cv_error_percent"] + 2 * centroids["min_cv_error_percent_mc_se"] < 50


def test_summary_errors_are_ours_and_the_papers_combined():
    """Ours: s.d. / sqrt(datasets); the paper's: the same s.d. / sqrt(published datasets); combined in quadrature."""
    table = simulation("no_difference", scenario(4, datasets=4), SMALL)
    summary = selection_bias_summary(table, 30, 10)
    values = table[table["classifier"] == "svm"]["min_cv_error_percent"]
    row = summary[summary["classifier"] == "svm"].iloc[0]
    assert row["min_cv_error_percent_mc_se"] == pytest.approx(values.std(ddof=1) / 2)
    assert row["min_cv_error_percent_se"] == pytest.approx(np.sqrt(values.var(ddof=1) / 4 + values.var(ddof=1) / 10))
    assert row["min_cv_below_low_percent"] == pytest.approx(100 * np.mean(values < 30))
    assert combined_se(3.0, 40.0, 100) == pytest.approx(5.0)  # sqrt(9 + 1600 / 100)


def test_share_below_the_low_error_has_the_binomial_error_of_the_shrunk_share_at_zero():
    table = simulation("class_difference", scenario(5, 5, 3.0, datasets=3), SMALL)
    summary = selection_bias_summary(table, 0.0, 1000)  # nothing lies below 0%
    assert (summary["min_cv_below_low_percent"] == 0).all()
    # (0 + 1) / (3 + 2) = 0.2 of 3 datasets, and of the paper's 1000
    assert summary["min_cv_below_low_percent_mc_se"].tolist() == pytest.approx([100 * np.sqrt(0.2 * 0.8 / 3)] * 2)
    expected = 100 * np.sqrt(0.2 * 0.8 / 3 + 0.2 * 0.8 / 1000)
    assert summary["min_cv_below_low_percent_se"].tolist() == pytest.approx([expected] * 2)


def test_control_variate_mean_is_the_plain_mean_when_every_dataset_is_nested():
    rng = np.random.default_rng(7)
    minimum = rng.normal(35, 10, 12)
    nested = minimum + rng.normal(10, 4, 12)
    mean, se = control_variate_mean(minimum, nested - minimum)
    assert mean == pytest.approx(nested.mean(), rel=1e-12)
    assert se == pytest.approx(nested.std(ddof=1) / np.sqrt(12), rel=1e-12)


def test_control_variate_error_is_the_variance_of_m_bar_plus_d_bar():
    """Var(mean of M over N + mean of D over the first m) = (var M + 2 cov(M, D)) / N + var D / m,
    checked against the spread of the estimate over many simulated studies."""
    rng = np.random.default_rng(8)
    total, m, studies = 40, 8, 4000
    minimum = rng.normal(0, 3, (studies, total))
    difference = 0.5 * minimum[:, :m] + rng.normal(0, 1, (studies, m))
    estimates = minimum.mean(axis=1) + difference.mean(axis=1)
    formula = (9 + 2 * 0.5 * 9) / total + (0.25 * 9 + 1) / m
    assert estimates.var() == pytest.approx(formula, rel=0.06)
    ses = [control_variate_mean(minimum[s], difference[s])[1] for s in range(200)]
    assert np.mean(np.square(ses)) == pytest.approx(formula, rel=0.1)


def test_shards_split_any_way_give_the_same_table():
    spec = scenario(9, datasets=5, nested=2)
    settings = replace(SMALL, gene_counts=(5, 40))
    whole = simulate_datasets("no_difference", spec, range(5), settings)
    parts = [simulate_datasets("no_difference", spec, range(a, b), settings) for a, b in ((3, 5), (0, 1), (1, 3))]
    gathered = gather_shards(pd.concat(parts, ignore_index=True), ["no_difference"])
    pd.testing.assert_frame_equal(gathered, whole)
    assert whole["nested_cv_error_percent"].notna().tolist() == [True] * 4 + [False] * 6


def test_design_row_has_the_outer_leave_one_out_training_size():
    row = selection_bias_design(replace(SMALL, per_class=20, n_features=6000), 1000).iloc[0]
    assert row.to_dict() == {
        "samples": 40, "samples_per_class": 20, "features": 6000,
        "outer_training_samples": 39, "published_datasets": 1000,
    }  # fmt: skip
