import numpy as np
import pytest
from sklearn.svm import SVC

from cvsuite.methods.svm_dual import AT_COST, AT_ZERO, FREE, solve_dual


def linear_kernel(x):
    return x @ x.T / x.shape[1]


def kkt_by_hand(kernel, y, train, cost, alpha, bias):
    """The C-SVM's optimality conditions, written out afresh: y_i f(x_i) >= 1 where a_i = 0,
    = 1 where 0 < a_i < C, <= 1 where a_i = C; 0 <= a <= C; sum y_i a_i = 0. Largest failure."""
    sign = np.where(y == 0, 1.0, -1.0)
    margin = sign * (kernel @ (alpha * sign) + bias)
    worst = abs(float(alpha @ sign)) / cost
    for i in np.flatnonzero(train):
        if alpha[i] == 0:
            worst = max(worst, 1 - margin[i])
        elif alpha[i] == cost:
            worst = max(worst, margin[i] - 1)
        else:
            worst = max(worst, abs(margin[i] - 1), -alpha[i] / cost, (alpha[i] - cost) / cost)
    assert (alpha[~train] == 0).all()
    return worst


def problems(seed, count, n=24, features=60, shift=0.8):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    kernels, trains = [], []
    for _ in range(count):
        x = rng.standard_normal((n, features))
        x[y == 1, :3] += shift
        kernels.append(linear_kernel(x))
        train = np.ones(n, dtype=bool)
        train[rng.choice(n, 2, replace=False)] = False
        trains.append(train)
    return np.array(kernels), y, np.array(trains)


def test_two_points_give_the_hard_margin_closed_form():
    """Two points a (class 0) and b (class 1): a = 2 / |a - b|^2 on both, b from a's margin."""
    kernel = np.array([[2.0, 0.5], [0.5, 1.0]])
    y = np.array([0, 1])
    fit = solve_dual(kernel, y, np.ones((1, 2), dtype=bool), 100.0)
    multiplier = 2 / (2.0 + 1.0 - 2 * 0.5)
    assert fit.alpha[0] == pytest.approx([multiplier, multiplier], rel=1e-12)
    assert fit.bias[0] == pytest.approx(1 - multiplier * (2.0 - 0.5), rel=1e-12)
    assert (fit.state[0] == FREE).all()


def test_two_points_below_the_hard_margin_cost_take_libsvms_midpoint_bias():
    """C below 2 / |a - b|^2: both multipliers at C; b is the middle of the interval the two
    margins allow, -(f0(a) + f0(b)) / 2 with f0 the decision before b (libsvm's calculate_rho)."""
    kernel = np.array([[2.0, 0.5], [0.5, 1.0]])
    cost = 0.25
    fit = solve_dual(kernel, np.array([0, 1]), np.ones((1, 2), dtype=bool), cost)
    assert (fit.alpha[0] == cost).all() and (fit.state[0] == AT_COST).all()
    f_a, f_b = cost * (2.0 - 0.5), cost * (0.5 - 1.0)
    assert fit.bias[0] == pytest.approx(-(f_a + f_b) / 2, rel=1e-12)


@pytest.mark.parametrize("cost", [0.02, 0.3, 5.0])
def test_solutions_meet_the_optimality_conditions_to_1e_9(cost):
    kernels, y, trains = problems(1, 30)
    fits = solve_dual(kernels, y, trains, cost)
    for k in range(len(kernels)):
        assert kkt_by_hand(kernels[k], y, trains[k], cost, fits.alpha[k], fits.bias[k]) <= 1e-9


def test_rank_deficient_kernels_are_solved_exactly_too():
    """A linear kernel on 3 features has rank 3: at most 4 points can be free."""
    kernels, y, trains = problems(2, 30, features=3, shift=0.5)
    fits = solve_dual(kernels, y, trains, 1.0, rank=3)
    for k in range(len(kernels)):
        assert kkt_by_hand(kernels[k], y, trains[k], 1.0, fits.alpha[k], fits.bias[k]) <= 1e-9
    assert ((fits.state == FREE).sum(axis=1) <= 4).all()


@pytest.mark.parametrize("cost", [0.05, 1.0])
def test_decisions_are_those_of_svc_run_to_a_tight_tolerance(cost):
    kernels, y, trains = problems(3, 12)
    fits = solve_dual(kernels, y, trains, cost)
    held_out = np.array([np.flatnonzero(~t) for t in trains])
    ours = fits.decisions(kernels, y, held_out)
    for k in range(len(kernels)):
        keep = np.flatnonzero(trains[k])
        svc = SVC(kernel="precomputed", C=cost, tol=1e-12).fit(kernels[k][np.ix_(keep, keep)], y[keep])
        # SVC orients the binary decision the other way (class 1 positive).
        assert np.allclose(-svc.decision_function(kernels[k][np.ix_(held_out[k], keep)]), ours[k], atol=1e-7)


def test_predictions_are_svcs_at_its_default_tolerance_except_near_zero():
    """libsvm stops at a KKT gap of 1e-3, so its decision can differ from the exact one by about that."""
    kernels, y, trains = problems(4, 40)
    fits = solve_dual(kernels, y, trains, 1.0)
    everyone = np.tile(np.arange(len(y)), (len(kernels), 1))
    ours = fits.decisions(kernels, y, everyone)
    for k in range(len(kernels)):
        keep = np.flatnonzero(trains[k])
        svc = SVC(kernel="precomputed", C=1.0).fit(kernels[k][np.ix_(keep, keep)], y[keep])
        theirs = svc.predict(kernels[k][:, keep])
        clear = np.abs(ours[k]) > 1e-2
        assert np.array_equal(np.where(ours[k] > 0, 0, 1)[clear], theirs[clear])


def test_a_warm_start_reaches_the_same_solution_as_a_cold_one():
    kernels, y, trains = problems(5, 20)
    cold = solve_dual(kernels, y, trains, 0.5)
    everything = solve_dual(kernels, y, np.ones_like(trains), 0.5)
    warm = solve_dual(kernels, y, trains, 0.5, warm=everything.state)
    assert np.allclose(warm.alpha, cold.alpha, atol=1e-12) and np.allclose(warm.bias, cold.bias, atol=1e-12)
    assert set(np.unique(warm.state)) <= {AT_ZERO, FREE, AT_COST}


def test_a_problem_with_one_class_only_is_refused():
    with pytest.raises(ValueError, match="both classes"):
        solve_dual(np.eye(3), np.array([0, 0, 1]), np.array([[True, True, False]]), 1.0)
