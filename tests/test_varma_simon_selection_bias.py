import numpy as np
import pytest
from scipy.stats import norm
from sklearn.svm import SVC

from cvsuite.methods import shrunken_centroids as nsc
from cvsuite.studies.varma_simon_selection_bias import (
    fit_svm,
    gene_count_kernels,
    linear_rule_error,
    pick,
    selection_bias_design,
    selection_bias_simulation,
    selection_bias_summary,
    shrunken_centroid_study,
    simulate_dataset,
    stratified_folds,
    svm_path,
    svm_predict,
    svm_study,
    top_genes,
)


def small_data(seed=0, per_class=8, features=60, signal_features=0, shift=0.0):
    return simulate_dataset(np.random.default_rng(seed), per_class, features, signal_features, shift)


def reference_fit(x, y, threshold, prior):
    """pamr's nsc written out gene by gene for one training set, for checking the vectorised code."""
    n = len(y)
    counts = np.array([np.sum(y == 0), np.sum(y == 1)])
    means = np.array([x[y == k].mean(axis=0) for k in (0, 1)])
    overall = x.mean(axis=0)
    within = sum(((x[y == k] - means[k]) ** 2).sum(axis=0) for k in (0, 1))
    sd = np.sqrt(within / (n - 2))
    scale = sd + np.median(sd)
    m = np.sqrt(1 / counts - 1 / n)
    centroids = []
    for k in (0, 1):
        d = (means[k] - overall) / (m[k] * scale)
        centroids.append(m[k] * np.sign(d) * np.maximum(np.abs(d) - threshold, 0))
    return overall, scale, centroids, np.log(prior)


def reference_predict(fit, x_test):
    overall, scale, centroids, log_prior = fit
    z = (x_test - overall) / scale
    score = [z @ c - c @ c / 2 + log_prior[k] for k, c in enumerate(centroids)]
    return np.where(score[0] >= score[1], 0, 1)


def test_simulated_null_data_has_balanced_classes_and_no_shift():
    data = small_data(per_class=5, features=7)
    assert data.x.shape == (10, 7)
    assert data.y.tolist() == [0] * 5 + [1] * 5
    assert not data.class_means.any()


def test_simulated_signal_shifts_only_the_first_features_of_class_one():
    data = small_data(signal_features=3, shift=2.0)
    assert data.class_means[1, :3].tolist() == [2.0, 2.0, 2.0]
    assert not data.class_means[1, 3:].any() and not data.class_means[0].any()


def test_simulation_refuses_more_signal_features_than_features():
    with pytest.raises(ValueError, match="more signal features"):
        simulate_dataset(np.random.default_rng(0), 4, 5, 6, 1.0)


@pytest.mark.parametrize("per_class, folds", [((20, 20), 10), ((20, 19), 10), ((5, 4), 3)])
def test_stratified_folds_partition_the_samples_and_spread_each_class(per_class, folds):
    y = np.repeat([0, 1], per_class)
    parts = stratified_folds(y, folds, np.random.default_rng(1))
    assert sorted(np.concatenate(parts).tolist()) == list(range(len(y)))
    for k in (0, 1):
        in_class = [np.sum(y[p] == k) for p in parts]
        assert max(in_class) - min(in_class) <= 1


def test_stratified_folds_refuse_impossible_fold_counts():
    with pytest.raises(ValueError, match="between 2 and n"):
        stratified_folds(np.array([0, 1, 0]), 4, np.random.default_rng(0))


def test_vectorised_centroid_fits_match_a_gene_by_gene_fit():
    data = small_data(seed=3, signal_features=4, shift=1.0)
    train = np.ones((3, len(data.y)), dtype=bool)
    train[0, [0, 9]] = False
    train[1, [2, 3, 12]] = False
    fits = nsc.fit_centroids(data.x, data.y, train)
    for row in range(3):
        x, y = data.x[train[row]], data.y[train[row]]
        overall, scale, centroids, _ = reference_fit(x, y, 0.0, np.array([0.5, 0.5]))
        assert np.allclose(fits.overall[row], overall)
        assert np.allclose(fits.scale[row], scale)
        assert np.allclose(fits.m[row, 0] * fits.d[row], centroids[0])
        assert np.allclose(-fits.m[row, 1] * fits.d[row], centroids[1])  # two classes: d_1 = -d_0


def test_threshold_scores_equal_the_explicitly_soft_thresholded_discriminant():
    rng = np.random.default_rng(2)
    d, z, m = 2 * rng.standard_normal(300), rng.standard_normal((5, 300)), np.array([0.21, 0.26])
    for thresholds in (np.linspace(0, np.abs(d).max(), 30), np.array([0.0, 0.3, 0.31, 1.7, 2.5])):
        shrunk = nsc.soft_threshold(d, thresholds)
        direct = (m[0] + m[1]) * z @ shrunk.T - 0.5 * (m[0] ** 2 - m[1] ** 2) * (shrunk**2).sum(axis=1) + 0.4
        assert np.allclose(nsc.threshold_scores(z, d, m, 0.4, thresholds), direct)


def test_thresholds_survived_counts_thresholds_strictly_below_including_grid_points():
    thresholds = np.linspace(0, 3.0, 7)
    values = np.concatenate([thresholds, thresholds + 1e-12, [0.0, 10.0]])
    assert nsc.survived_thresholds(values, thresholds).tolist() == np.searchsorted(thresholds, values, side="left").tolist()


def test_last_threshold_of_the_grid_keeps_no_gene():
    data = small_data(seed=4)
    fits = nsc.fit_centroids(data.x, data.y, np.ones((1, len(data.y)), dtype=bool))
    grid = nsc.threshold_grid(fits.d[0], 30)
    assert len(grid) == 30 and grid[0] == 0
    assert not nsc.soft_threshold(fits.d[0], grid[-1:]).any()


def test_cv_errors_match_refitting_the_reference_on_each_fold():
    data = small_data(seed=5, per_class=10, signal_features=5, shift=1.0)
    folds = stratified_folds(data.y, 5, np.random.default_rng(0))
    prior = np.array([0.5, 0.5])
    fits = nsc.fit_centroids(data.x, data.y, np.ones((1, 20), dtype=bool))
    thresholds = nsc.threshold_grid(fits.d[0], 8)
    expected = np.zeros(len(thresholds))
    for fold in folds:
        train = np.setdiff1d(np.arange(20), fold)
        for t, threshold in enumerate(thresholds):
            fit = reference_fit(data.x[train], data.y[train], threshold, prior)
            expected[t] += np.sum(reference_predict(fit, data.x[fold]) != data.y[fold])
    assert np.allclose(nsc.cv_errors(data.x, data.y, folds, thresholds, prior), expected / 20)


def test_predict_with_every_gene_shrunk_away_follows_the_prior():
    data = small_data(seed=6)
    keep = np.arange(1, len(data.y))  # class 0 is now the minority
    fits = nsc.fit_centroids(data.x[keep], data.y[keep], np.ones((1, len(keep)), dtype=bool))
    everything = float(np.abs(fits.d).max())
    prior = np.bincount(data.y[keep]) / len(keep)
    assert nsc.predict(fits, 0, data.x, everything, prior).tolist() == [1] * len(data.y)
    assert nsc.predict(fits, 0, data.x, everything, np.array([0.5, 0.5])).tolist() == [0] * len(data.y)  # ties: class 0


def test_linear_rule_reproduces_the_centroid_predictions():
    data = small_data(seed=7, signal_features=6, shift=1.5)
    fits = nsc.fit_centroids(data.x, data.y, np.ones((1, len(data.y)), dtype=bool))
    prior = np.array([0.5, 0.5])
    test = np.random.default_rng(8).standard_normal((50, data.x.shape[1]))
    w, b = nsc.linear_rule(fits, 0, 0.7, prior)
    assert np.array_equal(np.where(test @ w + b >= 0, 0, 1), nsc.predict(fits, 0, test, 0.7, prior))


def test_linear_rule_error_is_the_normal_tail_and_half_for_a_constant_rule():
    means = np.array([[0.0, 0.0], [2.0, 0.0]])
    w, b = np.array([-1.0, 0.0]), 1.0  # boundary at x1 = 1, halfway between the means
    assert linear_rule_error(w, b, means) == pytest.approx(norm.cdf(-1.0))
    assert linear_rule_error(np.zeros(2), 3.0, means) == 0.5


def test_linear_rule_error_matches_a_large_test_sample():
    rng = np.random.default_rng(9)
    means = np.array([[0.0, 0.0, 0.0], [0.8, 0.3, 0.0]])
    w, b = np.array([-1.0, -0.5, 0.2]), 0.3
    y = rng.integers(0, 2, 200_000)
    x = means[y] + rng.standard_normal((len(y), 3))
    empirical = np.mean(np.where(x @ w + b >= 0, 0, 1) != y)
    assert linear_rule_error(w, b, means) == pytest.approx(empirical, abs=0.005)


@pytest.mark.parametrize("cost", [0.01, 0.3, 10.0])
def test_direct_libsvm_fit_agrees_with_svc_on_a_precomputed_kernel(cost):
    data = small_data(seed=10, per_class=10, signal_features=5, shift=1.0)
    kernel = data.x @ data.x.T / data.x.shape[1]
    keep = np.arange(1, 20)
    fit = fit_svm(kernel[np.ix_(keep, keep)], data.y[keep], cost)
    svc = SVC(C=cost, kernel="precomputed").fit(kernel[np.ix_(keep, keep)], data.y[keep])
    rows = kernel[:, keep]
    assert np.array_equal(svm_predict(fit, rows), svc.predict(rows))
    assert np.allclose(-(rows[:, fit.support] @ fit.coef + fit.intercept), svc.decision_function(rows))


def test_svm_path_reuses_the_hard_margin_fit_only_when_no_multiplier_is_bounded():
    data = small_data(seed=11, per_class=10, features=500)
    kernel = data.x @ data.x.T / 500
    costs = np.array([0.01, 100.0, 1000.0])
    path = svm_path(kernel, data.y, costs)
    assert path[0].bounded  # tiny C: multipliers at C
    assert not path[1].bounded and path[2] is path[1]  # separable: hard margin from C = 100 on
    direct = fit_svm(kernel, data.y, 1000.0)
    assert np.array_equal(svm_predict(direct, kernel), svm_predict(path[2], kernel))


def test_top_genes_rank_by_t_on_the_training_set_alone():
    data = small_data(seed=12, per_class=6, features=40, signal_features=3, shift=3.0)
    leave_outs = [[0], [2, 9], []]
    ranked = top_genes(data.x, data.y, leave_outs, 5, chunk=2)
    for row, left in enumerate(leave_outs):
        keep = np.setdiff1d(np.arange(12), left)
        x, y = data.x[keep], data.y[keep]
        a, b = x[y == 0], x[y == 1]
        pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(keep) - 2)
        t = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled * (1 / len(a) + 1 / len(b)))
        assert ranked[row].tolist() == np.argsort(-t, kind="stable")[:5].tolist()


def test_all_gene_kernel_is_the_precomputed_one_not_a_copy():
    data = small_data(seed=13)
    full = data.x @ data.x.T / data.x.shape[1]
    kernels = gene_count_kernels(data.x, np.arange(5), [3, data.x.shape[1]], full)
    assert kernels[1] is full
    assert np.allclose(kernels[0], data.x[:, :3] @ data.x[:, :3].T / 3)


def test_pick_breaks_ties_toward_the_requested_end():
    errors = np.array([0.4, 0.2, 0.3, 0.2])
    assert pick(errors, "simplest", simplest_last=True) == 3
    assert pick(errors, "simplest", simplest_last=False) == 1
    assert pick(errors, "most_complex", simplest_last=False) == 3
    with pytest.raises(ValueError, match="ties"):
        pick(errors, "random", simplest_last=True)


def test_nested_svm_matches_a_direct_double_loop():
    data = small_data(seed=14, per_class=5, features=30, signal_features=3, shift=1.0)
    costs, counts = np.array([0.1, 1.0]), [3, 30]
    result = svm_study(data, costs, counts, "simplest")
    n = len(data.y)
    grid = [(k, c) for k in counts for c in costs]

    def errors_on(train, tests):
        """Misclassified tests at each grid point, genes ranked and SVM fitted on ``train`` only."""
        x, y = data.x[train], data.y[train]
        a, b = x[y == 0], x[y == 1]
        pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(train) - 2)
        order = np.argsort(-np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled * (1 / len(a) + 1 / len(b))), kind="stable")
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
    sc = shrunken_centroid_study(data, np.random.default_rng(0), 10, 5, "class_proportions", "simplest", nested=False)
    svm = svm_study(data, np.array([0.1, 1.0]), [5, 100], "simplest", nested=False)
    assert sc["true_error"] == pytest.approx(0.5) and svm["true_error"] == pytest.approx(0.5)
    assert np.isnan(sc["nested_cv_error"]) and np.isnan(svm["nested_cv_error"])


def test_minimum_ten_fold_error_of_shrunken_centroids_is_optimistic_on_null_data():
    table = selection_bias_simulation(
        {"no_difference": {"seed": 1, "signal_features": 0, "signal_shift": 0.0, "nested": []}},
        datasets=40, per_class=10, n_features=300, n_thresholds=30, n_folds=5,
        prior_rule="class_proportions", costs=np.array([0.1, 1.0]), gene_counts=[5, 20, 300], ties="simplest",
    )
    summary = selection_bias_summary(table, 30)
    assert summary["true_error_percent"].tolist() == pytest.approx([50.0, 50.0])
    centroids = summary[summary["classifier"] == "shrunken_centroids"].iloc[0]
    assert centroids["min_cv_error_percent"] + 2 * centroids["min_cv_error_percent_se"] < 50


def test_simulation_is_a_deterministic_function_of_its_seeds():
    arguments = dict(
        scenarios={"class_difference": {"seed": 3, "signal_features": 2, "signal_shift": 1.0, "nested": ["shrunken_centroids"]}},
        datasets=2, per_class=6, n_features=40, n_thresholds=10, n_folds=3, prior_rule="equal",
        costs=np.array([1.0]), gene_counts=[5], ties="simplest",
    )
    first, second = selection_bias_simulation(**arguments), selection_bias_simulation(**arguments)
    assert first.equals(second)


def test_summary_standard_error_is_sample_sd_over_root_datasets():
    table = selection_bias_simulation(
        {"no_difference": {"seed": 4, "signal_features": 0, "signal_shift": 0.0, "nested": []}},
        datasets=4, per_class=6, n_features=40, n_thresholds=10, n_folds=3, prior_rule="equal",
        costs=np.array([1.0]), gene_counts=[5], ties="simplest",
    )
    summary = selection_bias_summary(table, 30)
    values = table[table["classifier"] == "svm"]["min_cv_error_percent"]
    row = summary[summary["classifier"] == "svm"].iloc[0]
    assert row["min_cv_error_percent_se"] == pytest.approx(values.std(ddof=1) / 2)
    assert row["min_cv_below_low_percent"] == pytest.approx(100 * np.mean(values < 30))


def test_share_below_the_low_error_has_a_positive_standard_error_even_at_zero():
    table = selection_bias_simulation(
        {"class_difference": {"seed": 5, "signal_features": 5, "signal_shift": 3.0, "nested": []}},
        datasets=3, per_class=6, n_features=40, n_thresholds=10, n_folds=3, prior_rule="equal",
        costs=np.array([1.0]), gene_counts=[5], ties="simplest",
    )
    summary = selection_bias_summary(table, 0.0)  # nothing lies below 0%
    assert (summary["min_cv_below_low_percent"] == 0).all()
    assert (summary["min_cv_below_low_percent_se"] > 0).all()


def test_design_row_has_the_outer_leave_one_out_training_size():
    row = selection_bias_design(20, 6000, 12).iloc[0]
    assert (row["samples"], row["samples_per_class"], row["features"], row["outer_training_samples"]) == (40, 20, 6000, 39)
