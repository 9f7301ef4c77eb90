import numpy as np
import pytest
from sklearn.svm import SVC

from cvsuite.data.two_class_gaussian import simulate_dataset
from cvsuite.methods.linear_svm import fit_svm, gene_count_kernels, svm_path, svm_predict, top_genes


def small_data(seed=0, per_class=8, features=60, signal_features=0, shift=0.0):
    return simulate_dataset(np.random.default_rng(seed), per_class, features, signal_features, shift)


def linear_kernel(x):
    return x @ x.T / x.shape[1]


@pytest.mark.parametrize("cost", [0.01, 0.3, 10.0])
def test_fit_predicts_as_svc_and_its_decision_is_svcs_negated(cost):
    data = small_data(seed=10, per_class=10, signal_features=5, shift=1.0)
    kernel = linear_kernel(data.x)
    keep = np.arange(1, 20)
    fit = fit_svm(kernel[np.ix_(keep, keep)], data.y[keep], cost)
    svc = SVC(C=cost, kernel="precomputed").fit(kernel[np.ix_(keep, keep)], data.y[keep])
    rows = kernel[:, keep]
    assert np.array_equal(svm_predict(fit, rows), svc.predict(rows))
    assert np.allclose(-(rows[:, fit.support] @ fit.coef + fit.intercept), svc.decision_function(rows))


@pytest.mark.parametrize("cost", [0.05, 1.0, 100.0])
def test_fit_satisfies_the_c_svm_optimality_conditions(cost):
    """KKT conditions of min 1/2 |w|^2 + C sum xi, in libsvm's orientation (class 0 is +1), to
    libsvm's stopping tolerance 1e-3: what any solver put in fit_svm's place must satisfy."""
    data = small_data(seed=16, per_class=12, features=80, signal_features=4, shift=0.8)
    kernel, sign = linear_kernel(data.x), np.where(data.y == 0, 1.0, -1.0)
    fit = fit_svm(kernel, data.y, cost)
    alpha = np.zeros(len(sign))
    alpha[fit.support] = fit.coef * sign[fit.support]
    assert (alpha >= 0).all() and (alpha <= cost * (1 + 1e-12)).all()
    assert abs(fit.coef.sum()) < 1e-9 * cost * len(sign)  # sum of y_i alpha_i = 0
    margin = sign * (kernel[:, fit.support] @ fit.coef + fit.intercept)
    tol = 1e-3
    free = (alpha > 1e-12) & (alpha < cost * (1 - 1e-9))
    assert (margin[alpha <= 1e-12] >= 1 - tol).all()
    assert (np.abs(margin[free] - 1) <= tol).all()
    assert (margin[alpha >= cost * (1 - 1e-9)] <= 1 + tol).all()
    assert fit.bounded == bool((alpha >= cost * (1 - 1e-9)).any())


def test_svm_path_reuses_the_hard_margin_fit_only_when_no_multiplier_is_bounded():
    data = small_data(seed=11, per_class=10, features=500)
    kernel = linear_kernel(data.x)
    solved = []

    def counting_solver(kernel, y, cost):
        solved.append(cost)
        return fit_svm(kernel, y, cost)

    path = svm_path(kernel, data.y, np.array([0.01, 100.0, 1000.0]), solver=counting_solver)
    assert path[0].bounded  # tiny C: multipliers at C
    assert not path[1].bounded and path[2] is path[1]  # separable: hard margin from C = 100 on
    assert solved == [0.01, 100.0]
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
    full = linear_kernel(data.x)
    kernels = gene_count_kernels(data.x, np.arange(5), [3, data.x.shape[1]], full)
    assert kernels[1] is full
    assert np.allclose(kernels[0], data.x[:, :3] @ data.x[:, :3].T / 3)
