import numpy as np
from sklearn.svm import SVC

from cvsuite.data.two_class_gaussian import simulate_dataset
from cvsuite.methods.linear_svm import SvmGrid, leave_out_mistakes, top_gene_kernels, top_genes


def small_data(seed=0, per_class=8, features=60, signal_features=0, shift=0.0):
    return simulate_dataset(np.random.default_rng(seed), per_class, features, signal_features, shift)


def t_ranking(x, y, keep, count):
    """|two-sample t| (pooled variance) on the samples ``keep`` alone, best first (stable ties)."""
    x, y = x[keep], y[keep]
    a, b = x[y == 0], x[y == 1]
    pooled = ((len(a) - 1) * a.var(axis=0, ddof=1) + (len(b) - 1) * b.var(axis=0, ddof=1)) / (len(keep) - 2)
    t = np.abs(a.mean(axis=0) - b.mean(axis=0)) / np.sqrt(pooled * (1 / len(a) + 1 / len(b)))
    return np.argsort(-t, kind="stable")[:count]


def test_top_genes_rank_by_t_on_the_training_set_alone():
    data = small_data(seed=12, per_class=6, features=40, signal_features=3, shift=3.0)
    left_out = np.array([[0, 12], [2, 9], [12, 12]])  # 12 = no sample: [0], [2, 9], []
    ranked = top_genes(data.x, data.y, left_out, 5, chunk=2)
    for row, left in enumerate(left_out):
        keep = np.setdiff1d(np.arange(12), left)
        assert ranked[row].tolist() == t_ranking(data.x, data.y, keep, 5).tolist()


def test_top_gene_kernels_are_the_product_over_each_sets_own_genes():
    data = small_data(seed=13, per_class=6, features=50, signal_features=4, shift=2.0)
    full = top_genes(data.x, data.y, np.zeros((1, 0), dtype=int), 8)[0]
    left_out = np.array([[0], [3], [7], [11]])
    ranked = top_genes(data.x, data.y, left_out, 8)
    for k in (3, 8):
        (kernels,) = top_gene_kernels(data.x, full, [ranked], k)
        for row in range(len(left_out)):
            genes = data.x[:, ranked[row, :k]]
            assert np.allclose(kernels[row], genes @ genes.T / k, rtol=1e-12, atol=1e-12)


def test_leave_out_mistakes_are_those_of_a_literal_loop_with_svc():
    """Every leave-one-out and leave-two-out fit, genes ranked on its own training set, scored on
    its held-out samples, against SVC run to a tight tolerance."""
    data = small_data(seed=14, per_class=5, features=30, signal_features=3, shift=1.0)
    grid = SvmGrid.of((3, 30), (0.1, 1.0), 30)
    (fits,) = leave_out_mistakes([data.x], data.y, grid, nested=True)
    n = len(data.y)

    def mistakes(keep, tests):
        out = []
        for k, c in grid.settings():
            genes = t_ranking(data.x, data.y, keep, k)
            x = data.x[:, genes]
            svc = SVC(C=c, kernel="precomputed", tol=1e-12).fit(x[keep] @ x[keep].T / k, data.y[keep])
            out.append(svc.predict(x[tests] @ x[keep].T / k) != data.y[tests])
        return np.array(out).T  # (tests, settings)

    for i in range(n):
        assert np.array_equal(fits.loo[i], mistakes(np.delete(np.arange(n), i), [i])[0])
        for j in range(i + 1, n):
            both = mistakes(np.setdiff1d(np.arange(n), [i, j]), [i, j])
            assert np.array_equal(fits.pairs[j, i], both[0]) and np.array_equal(fits.pairs[i, j], both[1])


def test_datasets_fitted_together_give_what_each_gives_alone():
    datasets = [small_data(seed=s, per_class=6, features=40) for s in (20, 21, 22)]
    grid = SvmGrid.of((4, 40), (0.5,), 40)
    together = leave_out_mistakes([d.x for d in datasets], datasets[0].y, grid, nested=False)
    for data, fits in zip(datasets, together):
        (alone,) = leave_out_mistakes([data.x], data.y, grid, nested=False)
        assert np.array_equal(fits.loo, alone.loo)
        assert np.allclose(fits.full_alpha, alone.full_alpha, atol=1e-12)


def test_grid_caps_gene_counts_at_the_features_and_sorts():
    grid = SvmGrid.of((6000, 10, 50), (1.0, 0.1), 200)
    assert grid.gene_counts == (10, 50, 200) and grid.costs == (0.1, 1.0)
    assert grid.settings()[:3] == [(10, 0.1), (10, 1.0), (50, 0.1)]
