import numpy as np
import pytest

from cvsuite.data.two_class_gaussian import simulate_dataset
from cvsuite.methods import shrunken_centroids as nsc
from cvsuite.methods.folds import stratified_dealt_folds


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
    expected = np.searchsorted(thresholds, values, side="left")
    assert nsc.survived_thresholds(values, thresholds).tolist() == expected.tolist()


def test_last_threshold_of_the_grid_keeps_no_gene():
    data = small_data(seed=4)
    fits = nsc.fit_centroids(data.x, data.y, np.ones((1, len(data.y)), dtype=bool))
    grid = nsc.threshold_grid(fits.d[0], 30)
    assert len(grid) == 30 and grid[0] == 0
    assert not nsc.soft_threshold(fits.d[0], grid[-1:]).any()


def test_cv_errors_match_refitting_the_reference_on_each_fold():
    data = small_data(seed=5, per_class=10, signal_features=5, shift=1.0)
    folds = stratified_dealt_folds(data.y, 5, np.random.default_rng(0))
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
    prior = nsc.class_prior(data.y[keep], "class_proportions")
    assert nsc.predict(fits, 0, data.x, everything, prior).tolist() == [1] * len(data.y)
    equal = nsc.class_prior(data.y[keep], "equal")
    assert nsc.predict(fits, 0, data.x, everything, equal).tolist() == [0] * len(data.y)  # ties: class 0


def test_class_prior_is_the_class_proportions_or_equal():
    y = np.array([0, 0, 0, 1])
    assert nsc.class_prior(y, "class_proportions").tolist() == [0.75, 0.25]
    assert nsc.class_prior(y, "equal").tolist() == [0.5, 0.5]
    with pytest.raises(ValueError, match="prior must be"):
        nsc.class_prior(y, "uniform")


def test_linear_rule_reproduces_the_centroid_predictions():
    data = small_data(seed=7, signal_features=6, shift=1.5)
    fits = nsc.fit_centroids(data.x, data.y, np.ones((1, len(data.y)), dtype=bool))
    prior = np.array([0.5, 0.5])
    test = np.random.default_rng(8).standard_normal((50, data.x.shape[1]))
    w, b = nsc.linear_rule(fits, 0, 0.7, prior)
    assert np.array_equal(np.where(test @ w + b >= 0, 0, 1), nsc.predict(fits, 0, test, 0.7, prior))
