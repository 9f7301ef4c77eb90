"""An exact solver for many small C-SVMs at once, on precomputed kernels.

The C-SVM with bias in libsvm's dual form (Chang and Lin 2011, section 2.1), one problem per row:

    minimise  1/2 a^T Q a - sum(a)   subject to  y^T a = 0,  0 <= a_i <= C,   Q_ik = y_i y_k K_ik,

with y_i = +1 or -1 and the decision ``f(x) = sum_i a_i y_i K(x, x_i) + b``. At the optimum every
training point is in one of three sets: at zero (``y_i f(x_i) >= 1``), free (``y_i f(x_i) = 1``) or
at C (``y_i f(x_i) <= 1``). Given that partition the free multipliers and b solve one linear system
(the KKT equations of the free points and ``y^T a = 0``), so a solution is exact once its partition
is right: the free multipliers are the system's solution, the others exactly 0 or C.

``solve_dual`` finds the partition by a primal-dual active-set iteration (Hintermueller, Ito and
Kunisch 2003, SIAM J. Optim. 13:865): solve the system of the current partition, then move every
point whose condition fails (a free multiplier out of [0, C]; a bounded point on the wrong side of
its margin) and repeat. Started from the partition of a nearly equal problem (the study fits the
data less one sample, then less two), it usually stops after one or two solves. Problems it has
not finished within ``max_iter`` solves, and problems without a starting partition, are first
brought near the optimum by libsvm's own algorithm, SMO with second-order working-set selection
(Fan, Chen and Lin 2005, JMLR 6:1889; ``svm_smo.smo``), and the active-set iteration finishes them from
there. Every answer is checked: each KKT condition must hold to ``tol`` (``kkt_violation``), else
``solve_dual`` raises.

b follows libsvm (``Solver::calculate_rho``): with free points it is the value their equations
give; without, the midpoint of the interval of values the bounded points allow. Where the kernel
is rank-deficient the multipliers need not be unique, but w = sum a_i y_i x_i and (with a free
point) b are.

Many problems are solved at once: ``kernels`` (B, n, n) holds every problem's kernel over the same
n samples and ``train`` (B, n) which of them it trains on; the others have a = 0 and can be scored
from the same kernel rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cvsuite.methods.svm_smo import smo

AT_ZERO, FREE, AT_COST = 0, 1, 2
# Padded sizes of the free-point systems: problems are solved in groups of similar size.
SYSTEM_SIZES = (2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128)


@dataclass(frozen=True)
class DualSolutions:
    """The solutions of B problems: multipliers (B, n), zero off each training set; biases (B,);
    each point's set (B, n), AT_ZERO, FREE or AT_COST, which starts a nearly equal problem."""

    alpha: np.ndarray
    bias: np.ndarray
    state: np.ndarray

    def decisions(self, kernels: np.ndarray, labels: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """f(x) of sample ``rows[b, r]`` under fit b: shape (B, R). ``kernels`` as given to ``solve_dual``."""
        rows = np.asarray(rows)
        kernels = np.asarray(kernels, dtype=float)
        picked = kernels[rows] if kernels.ndim == 2 else np.take_along_axis(kernels, rows[:, :, None], axis=1)
        weights = self.alpha * _signs(labels, self.alpha.shape)
        return np.einsum("brn,bn->br", picked, weights) + self.bias[:, None]


class _Duals:
    """The matrices Q = diag(y) K diag(y) of B problems, kept as their kernels (B, n, n) or one
    (n, n) shared, with the labels of each problem: the products the iterations need are taken
    without forming Q, and for a subset of problems without copying kernels where it can."""

    def __init__(self, kernels, signs):
        self.kernels = np.asarray(kernels, dtype=float)
        self.signs = signs
        self.shared = self.kernels.ndim == 2

    def times(self, todo: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        """Q v for each problem of ``todo``, ``vectors`` (len(todo), n)."""
        signs = self.signs[todo]
        weighted = vectors * signs
        if self.shared:
            return (weighted @ self.kernels) * signs
        if 4 * len(todo) >= len(self.kernels):  # most problems: multiply them all rather than copy kernels
            full = np.zeros(self.signs.shape)
            full[todo] = weighted
            return np.matmul(self.kernels, full[:, :, None])[todo, :, 0] * signs
        return np.matmul(self.kernels[todo], weighted[:, :, None])[:, :, 0] * signs

    def kernel_rows(self, todo: np.ndarray, order: np.ndarray) -> np.ndarray:
        """K[order, :] (unsigned) for each problem of ``todo``, (len(todo), m, n): one index into
        the kernels' (B n, n) rows, much faster than two index arrays."""
        if self.shared:
            return self.kernels[order]
        n = self.kernels.shape[1]
        return self.kernels.reshape(-1, n)[todo[:, None] * n + order]

    def of(self, todo: np.ndarray) -> _Duals:
        """The problems ``todo`` alone, their kernels copied out (a shared kernel is not)."""
        return _Duals(self.kernels if self.shared else self.kernels[todo], self.signs[todo])

    def subset(self, todo: np.ndarray) -> np.ndarray:
        """Q of the problems ``todo``, formed: (len(todo), n, n)."""
        kernels = self.kernels if self.shared else self.kernels[todo]
        signs = self.signs[todo]
        return kernels * signs[:, :, None] * signs[:, None, :]


def solve_dual(
    kernels: np.ndarray,
    labels: np.ndarray,
    train: np.ndarray,
    cost,
    *,
    warm: np.ndarray | None = None,
    rank=None,
    tol: float = 1e-9,
    max_iter: int = 6,
) -> DualSolutions:
    """Solve B C-SVM duals exactly (module docstring).

    ``kernels`` (B, n, n) or one (n, n) for all; ``labels`` (n,) or (B, n) with class 0 as y = +1
    and class 1 as y = -1 (libsvm's orientation for labels 0 < 1); ``train`` (B, n) bool; ``cost``
    one C or (B,); ``warm`` (B, n) starting partitions (AT_ZERO, FREE, AT_COST), e.g. the ``state``
    of a problem with one training point more; ``rank`` the kernels' rank where it is below n (a
    linear kernel on k < n features has rank k), which bounds the free points by rank + 1. Raises
    if a KKT condition fails by more than ``tol``.
    """
    train = np.asarray(train, dtype=bool)
    batch, n = train.shape
    signs = _signs(labels, (batch, n))
    cost = np.broadcast_to(np.asarray(cost, dtype=float), (batch,)).copy()
    max_free = np.broadcast_to(np.asarray(n if rank is None else rank, dtype=int) + 1, (batch,))
    if not ((train & (signs > 0)).any(axis=1) & (train & (signs < 0)).any(axis=1)).all():
        raise ValueError("every problem needs training points of both classes")
    duals = _Duals(kernels, signs)
    problem = (duals, signs, train, cost, max_free)
    alpha, bias = np.zeros((batch, n)), np.zeros(batch)
    state = np.full((batch, n), AT_ZERO, dtype=np.int8)
    solution = (state, alpha, bias)  # written in place by the iterations
    todo = np.arange(batch)
    if warm is not None:
        start = np.where(train, warm, AT_ZERO).astype(np.int8)
        state[:] = start
        # Where the kernel's rank caps the free points below the training points (few genes),
        # freeing every violator at once nearly always runs into the cap and stalls there: such
        # problems start at most two at a time.
        capped = max_free < train.sum(axis=1)
        todo = _active_set(problem, solution, todo[~capped], max_iter=max_iter, tol=tol)
        todo = np.union1d(todo, np.flatnonzero(capped))
        if len(todo):  # overshot or capped: from the start, at most two freed points at a time
            state[todo] = start[todo]
            todo = _active_set(problem, solution, todo, max_iter=2 * n, tol=tol, one_at_a_time=2)
    if len(todo):  # libsvm's own algorithm to its default tolerance, then exact from its partition
        near = smo(duals.subset(todo), signs[todo], train[todo], cost[todo], eps=1e-3)
        state[todo] = partition(near, cost[todo], train[todo])
        todo = _active_set(problem, solution, todo, max_iter=3 * n, tol=tol, one_at_a_time=1)
    if len(todo):  # degenerate (more points on the margin than the rank allows free): SMO to tol itself
        alpha[todo] = smo(duals.subset(todo), signs[todo], train[todo], cost[todo], eps=tol / 10)
        state[todo] = partition(alpha[todo], cost[todo], train[todo])
        free = train[todo] & (alpha[todo] > 0) & (alpha[todo] < cost[todo, None])
        y_gradient = signs[todo] * (duals.times(todo, alpha[todo]) - 1.0)
        # libsvm's b with free multipliers: minus the mean of y_i G_i over them
        bias[todo] = -(y_gradient * free).sum(axis=1) / np.maximum(free.sum(axis=1), 1)
        todo = todo[:0]
    # A multiplier within rounding of a bound is at it: where none is left strictly inside (0, C),
    # b is not fixed by the equations, and libsvm takes the midpoint of the interval it may lie in.
    state[:] = partition(alpha, cost, train)
    alpha[:] = np.where(state == AT_ZERO, 0.0, np.where(state == AT_COST, cost[:, None], alpha))
    bounded = np.flatnonzero(~(state == FREE).any(axis=1))
    if len(bounded):
        at_cost = train[bounded] & (alpha[bounded] >= cost[bounded, None])
        gradient = duals.times(bounded, alpha[bounded]) - 1.0
        bias[bounded] = _midpoint_bias(signs[bounded], np.zeros_like(at_cost), at_cost, gradient, train[bounded])
    worst = kkt_violation(kernels, labels, train, cost, alpha=alpha, bias=bias)
    if len(todo) or (worst > tol).any():
        raise RuntimeError(
            f"C-SVM solve: KKT conditions fail by {worst.max():.3g} in {int((worst > tol).sum())} problems"
        )
    return DualSolutions(alpha=alpha, bias=bias, state=state)


def partition(alpha: np.ndarray, cost: np.ndarray, train: np.ndarray) -> np.ndarray:
    """Each point's set from multipliers: AT_ZERO, FREE or AT_COST (absent points AT_ZERO)."""
    cost = np.asarray(cost, dtype=float)[:, None]
    state = np.where(alpha <= 1e-12 * cost, AT_ZERO, np.where(alpha >= cost * (1 - 1e-12), AT_COST, FREE))
    return np.where(train, state, AT_ZERO).astype(np.int8)


def kkt_violation(kernels, labels, train, cost, *, alpha, bias) -> np.ndarray:
    """The largest failure of a KKT condition per problem, in units of the margin.

    With g_i = y_i f(x_i) - 1: g_i >= 0 where a_i = 0, g_i = 0 where 0 < a_i < C, g_i <= 0 where
    a_i = C; a within [0, C], zero off the training set; and |y^T a| / C.
    """
    train = np.asarray(train, dtype=bool)
    kernels = np.asarray(kernels, dtype=float)
    signs = _signs(labels, train.shape)
    cost = np.broadcast_to(np.asarray(cost, dtype=float), (len(train),))[:, None]
    weights = alpha * signs
    products = weights @ kernels if kernels.ndim == 2 else np.matmul(kernels, weights[:, :, None])[:, :, 0]
    g = signs * (products + bias[:, None]) - 1.0
    condition = np.where(alpha <= 0, np.maximum(-g, 0), np.where(alpha >= cost, np.maximum(g, 0), np.abs(g)))
    bounds = np.maximum(np.maximum(-alpha, alpha - cost), 0) / cost
    worst = np.where(train, np.maximum(condition, bounds), np.abs(alpha) / cost).max(axis=1)
    return np.maximum(worst, np.abs((alpha * signs).sum(axis=1)) / cost[:, 0])


def _signs(labels, shape) -> np.ndarray:
    labels = np.asarray(labels)
    if not np.isin(labels, (0, 1)).all():
        raise ValueError("labels must be 0 or 1")
    return np.broadcast_to(np.where(labels == 0, 1.0, -1.0), shape)


def _active_set(problem, solution, todo, *, max_iter: int, tol: float, one_at_a_time: int = 0, before=None):
    """Primal-dual active-set iterations on problems ``todo`` from their ``state``; writes alpha,
    bias and state in place and returns the problems not finished within ``max_iter`` solves.

    ``one_at_a_time`` > 0 frees at most that many bounded points per iteration, the worst violators
    (free points out of [0, C] still all go to their bound): slower, but it does not overshoot from
    a partition that is nearly right, as SMO's is. ``before``: each problem's partition one
    iteration back, if any."""
    duals, signs, train, cost, max_free = problem
    state, alpha, bias = solution
    # The next partition is a function of the current one alone, so a problem whose partition
    # comes back (period 1 or 2) would repeat it until max_iter: it leaves now, unfinished.
    repeating = []
    for iteration in range(max_iter):
        if len(todo) == 0:
            break
        if 2 * len(todo) <= len(train):  # most are done (or were): the rest go on by themselves
            rest = dict(max_iter=max_iter - iteration, tol=tol, one_at_a_time=one_at_a_time, before=before)
            return np.sort(np.concatenate([*repeating, _on_their_own(problem, solution, todo, **rest)]))
        st, tr, sg, c = state[todo], train[todo], signs[todo], cost[todo, None]
        free, upper = (st == FREE) & tr, (st == AT_COST) & tr
        fixed = np.where(upper, c, 0.0)
        a, b, solved = _free_system(duals, todo, signs=sg, train=tr, free=free, upper=upper, fixed=fixed)
        g = duals.times(todo, a) - 1.0 + sg * b[:, None]  # y_i f(x_i) - 1
        lower = (st == AT_ZERO) & tr
        # A free multiplier within rounding of its bound stays free (and is clipped): a point exactly
        # on its margin at a = 0 or C is a solution too, and moving it would cycle.
        to_zero = free & (a < -1e-12 * c)
        to_cost = free & (a > c * (1 + 1e-12))
        freed = (lower & (g < -tol)) | (upper & (g > tol))
        # Free the worst violators first, and no more than the kernel's rank allows: a free set
        # larger than rank + 1 makes the system singular (and the iteration cycle).
        room = max_free[todo] - (free & ~to_zero & ~to_cost).sum(axis=1)
        if one_at_a_time:
            room = np.minimum(room, one_at_a_time)
        limited = freed.sum(axis=1) > room
        blocked = limited & (room <= 0)  # a violator, and no room to free it: not done here
        if limited.any():
            violation = np.where(freed[limited], np.where(lower[limited], -g[limited], g[limited]), -np.inf)
            place = np.argsort(np.argsort(-violation, axis=1, kind="stable"), axis=1)
            freed[limited] &= place < np.maximum(room[limited], 0)[:, None]
        moved = to_zero | to_cost | freed
        unbalanced = ~free.any(axis=1) & (np.abs((fixed * sg).sum(axis=1)) > 1e-12 * c[:, 0])
        new = st.copy()
        new[to_zero], new[to_cost], new[freed] = AT_ZERO, AT_COST, FREE
        # Without free points y^T a = 0 may be out of reach: free the point nearest its margin among
        # those that can restore the balance (of the heavier class at C, or of the lighter at 0).
        stuck = unbalanced & ~moved.any(axis=1)
        if stuck.any():
            heavy = np.sign((fixed * sg).sum(axis=1))[:, None]
            helps = (upper & (sg == heavy)) | (lower & (sg == -heavy))
            nearest = np.argmin(np.where(helps, np.abs(g), np.inf), axis=1)
            new[stuck, nearest[stuck]] = FREE
        state[todo] = new
        alpha[todo] = np.where(tr, np.clip(a, 0.0, c), 0.0)
        bias[todo] = b
        done = solved & ~moved.any(axis=1) & ~unbalanced & ~blocked
        again = ~done & ((new == st).all(axis=1) | (before is not None and (new == before).all(axis=1)))
        repeating.append(todo[again])
        before, todo = st[~done & ~again], todo[~done & ~again]
    return np.sort(np.concatenate([*repeating, todo]))


def _on_their_own(problem, solution, todo, **iterations):
    """``_active_set`` on the problems ``todo`` as a batch of their own: each product with Q then
    reads their kernels only, not every kernel of the batch."""
    duals, signs, train, cost, max_free = problem
    own = (duals.of(todo), signs[todo], train[todo], cost[todo], max_free[todo])
    parts = tuple(whole[todo] for whole in solution)
    left = _active_set(own, parts, np.arange(len(todo)), **iterations)
    for whole, part in zip(solution, parts):
        whole[todo] = part
    return todo[left]


def _free_system(duals, todo, *, signs, train, free, upper, fixed):
    """The multipliers and b of each problem's partition: solve the KKT equations of its free
    points and y^T a = 0, problems grouped by their number of free points. Without free points b
    is libsvm's midpoint. Returns (alpha, b, solved); ``solved`` is False where the system was singular."""
    batch, n = free.shape
    alpha, b = fixed.copy(), np.zeros(batch)
    solved = np.ones(batch, dtype=bool)
    counts = free.sum(axis=1)
    none = np.flatnonzero(counts == 0)
    if len(none):
        gradient = duals.times(todo[none], fixed[none]) - 1.0
        b[none] = _midpoint_bias(signs[none], free[none], upper[none], gradient, train[none])
    sizes = np.array([s for s in SYSTEM_SIZES if s < n] + [n])
    group_of = np.where(counts == 0, -1, np.searchsorted(sizes, counts))
    free_first = np.argsort(~free, axis=1, kind="stable")
    for group in np.flatnonzero(np.bincount(group_of + 1, minlength=len(sizes) + 1)[1:]):
        rows = np.flatnonzero(group_of == group)
        m = int(sizes[group])
        order = free_first[rows, :m]
        row_of = rows[:, None]
        valid = free[row_of, order]
        kernel_rows = duals.kernel_rows(todo[rows], order)  # K[F, :]
        block = kernel_rows.reshape(-1)[(np.arange(len(rows) * m) * n).reshape(-1, m, 1) + order[:, None, :]]
        y_order = signs[row_of, order]
        y_free = y_order * valid
        system = np.zeros((len(rows), m + 1, m + 1))
        # Q[F, F] with the padding zeroed: y_i y_k is +-1 or a signed zero, so the product is
        # exactly K y_i y_k or the zero (of the same sign) that masking Q gives.
        np.multiply(block, y_free[:, :, None] * y_free[:, None, :], out=system[:, :m, :m])
        system[:, np.arange(m), np.arange(m)] += ~valid  # padding: a_pad = 0
        system[:, :m, m] = y_free
        system[:, m, :m] = y_free
        rhs = np.zeros((len(rows), m + 1))
        # The dual's gradient at the bounded multipliers, on the free rows: 1 - Q[F, U] C. As
        # y_F (K[F, :] (y C)): the same products up to the exact sign y_i, summed in the same order.
        signed_fixed = fixed[rows] * signs[rows]
        products = np.matmul(kernel_rows, signed_fixed[:, :, None])[:, :, 0] * y_order
        rhs[:, :m] = (1.0 - products) * valid
        rhs[:, m] = -signed_fixed.sum(axis=1)
        solution, ok = _solve(system, rhs)
        alpha[np.broadcast_to(row_of, order.shape)[valid], order[valid]] = solution[:, :m][valid]
        b[rows] = solution[:, m]
        solved[rows] = ok
    return alpha, b, solved


def _solve(system: np.ndarray, rhs: np.ndarray):
    """Batched solve; a singular system (rank-deficient kernel, too many free points) is flagged."""
    try:
        solution = np.linalg.solve(system, rhs[..., None])[..., 0]
        ok = np.isfinite(solution).all(axis=1)
    except np.linalg.LinAlgError:
        solution, ok = np.zeros(rhs.shape), np.zeros(len(rhs), dtype=bool)
        for k in range(len(rhs)):
            try:
                solution[k] = np.linalg.solve(system[k], rhs[k])
                ok[k] = np.isfinite(solution[k]).all()
            except np.linalg.LinAlgError:
                pass
    return np.where(ok[:, None], solution, 0.0), ok


def _midpoint_bias(signs, free, upper, gradient, train) -> np.ndarray:
    """libsvm's b without free points: minus the midpoint of [lb, ub] (Solver::calculate_rho)."""
    lower = train & ~free & ~upper
    upper = train & upper
    y_gradient = signs * gradient
    bounds_up = (upper & (signs < 0)) | (lower & (signs > 0))
    bounds_low = (upper & (signs > 0)) | (lower & (signs < 0))
    ub = np.where(bounds_up, y_gradient, np.inf).min(axis=1)
    lb = np.where(bounds_low, y_gradient, -np.inf).max(axis=1)
    return -(ub + lb) / 2
