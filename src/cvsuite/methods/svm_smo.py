"""libsvm's SMO for many small C-SVM duals at once: the start ``svm_dual.solve_dual`` finishes exactly.

The dual and its notation are ``svm_dual``'s: minimise 1/2 a^T Q a - sum(a) subject to y^T a = 0,
0 <= a_i <= C, one problem per row of ``q`` (B, n, n).
"""

from __future__ import annotations

import numpy as np

TAU = 1e-12  # libsvm's TAU: the curvature used where the pair's kernel distance is not positive


def smo(q, signs, train, cost, *, eps: float = 1e-3, max_iter: int = 100_000) -> np.ndarray:
    """libsvm's SMO on B duals at once, from a = 0, until the maximal violating pair's gap is
    below ``eps`` (libsvm's stopping rule): second-order working-set selection (WSS 2 of Fan, Chen
    and Lin 2005) and libsvm's two-variable update with clipping. Returns the multipliers (B, n)."""
    batch, n = train.shape
    a = np.zeros((batch, n))
    grad = np.full((batch, n), -1.0)
    diagonal = np.einsum("bii->bi", q)
    todo = np.arange(batch)
    for _ in range(max_iter):
        if len(todo) == 0:
            break
        # q's rows are read where needed, not copied per iteration: (B, n, n) is most of the memory.
        aa, g, sg, tr, c = a[todo], grad[todo], signs[todo], train[todo], cost[todo, None]
        r = np.arange(len(todo))
        up = tr & np.where(sg > 0, aa < c, aa > 0)
        low = tr & np.where(sg > 0, aa > 0, aa < c)
        violation = -sg * g
        ranked = np.where(up, violation, -np.inf)
        i = ranked.argmax(axis=1)
        g_max = ranked[r, i]
        go = g_max - np.where(low, violation, np.inf).min(axis=1) >= eps
        q_i = q[todo, i]
        # K_ii + K_tt - 2 K_it, with K_it = y_i y_t Q_it
        curvature = diagonal[todo[r], i][:, None] + diagonal[todo] - 2.0 * sg[r, i][:, None] * sg * q_i
        curvature = np.where(curvature > 0, curvature, TAU)
        gain = g_max[:, None] - violation
        j = np.where(low & (violation < g_max[:, None]), -(gain * gain) / curvature, np.inf).argmin(axis=1)
        q_j = q[todo, j]
        quadratic = (diagonal[todo, i], diagonal[todo, j], q_i[r, j])
        new_i, new_j = _pair_update(quadratic, aa, g, sg, c[:, 0], i=i, j=j)
        step_i = np.where(go, new_i - aa[r, i], 0.0)
        step_j = np.where(go, new_j - aa[r, j], 0.0)
        g += q_i * step_i[:, None] + q_j * step_j[:, None]
        aa[r, i] += step_i
        aa[r, j] += step_j
        a[todo], grad[todo] = aa, g
        todo = todo[go]
    if len(todo):
        raise RuntimeError(f"SMO did not reach eps={eps:g} in {max_iter} iterations on {len(todo)} problems")
    return a


def _pair_update(quadratic, a, g, signs, cost, *, i, j):
    """libsvm's analytic solution for the pair (i, j), clipped to the box (Solver::Solve);
    ``quadratic`` is (Q_ii, Q_jj, Q_ij) of each problem."""
    r = np.arange(len(i))
    yi, yj, ai, aj, gi, gj = signs[r, i], signs[r, j], a[r, i], a[r, j], g[r, i], g[r, j]
    qii, qjj, qij = quadratic
    opposite = yi != yj
    quad = np.where(opposite, qii + qjj + 2 * qij, qii + qjj - 2 * qij)
    quad = np.where(quad > 0, quad, TAU)
    # y_i != y_j: a_i - a_j is kept.
    delta = (-gi - gj) / quad
    diff = ai - aj
    oi, oj = ai + delta, aj + delta
    hit = (diff > 0) & (oj < 0)
    oi, oj = np.where(hit, diff, oi), np.where(hit, 0.0, oj)
    hit = (diff <= 0) & (oi < 0)
    oi, oj = np.where(hit, 0.0, oi), np.where(hit, -diff, oj)
    hit = (diff > 0) & (oi > cost)
    oi, oj = np.where(hit, cost, oi), np.where(hit, cost - diff, oj)
    hit = (diff <= 0) & (oj > cost)
    oi, oj = np.where(hit, cost + diff, oi), np.where(hit, cost, oj)
    # y_i == y_j: a_i + a_j is kept.
    delta = (gi - gj) / quad
    total = ai + aj
    si, sj = ai - delta, aj + delta
    hit = (total > cost) & (si > cost)
    si, sj = np.where(hit, cost, si), np.where(hit, total - cost, sj)
    hit = (total <= cost) & (sj < 0)
    si, sj = np.where(hit, total, si), np.where(hit, 0.0, sj)
    hit = (total > cost) & (sj > cost)
    si, sj = np.where(hit, total - cost, si), np.where(hit, cost, sj)
    hit = (total <= cost) & (si < 0)
    si, sj = np.where(hit, 0.0, si), np.where(hit, total, sj)
    return np.where(opposite, oi, si), np.where(opposite, oj, sj)
