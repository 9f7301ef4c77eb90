"""A linear C-SVM on the top-|t| genes of each training set, fitted on every leave-one-out and
leave-two-out training set of a dataset at once.

The support vector machine of the Varma and Simon (2006) re-simulation ("Cross-Validation",
Evidence and Impact: "an SVM by leave-one-out"): a C-SVM on the linear kernel X_S X_S^T / |S| of
the genes S of largest |two-sample t| on the training set alone (``top_genes``); with |S| = p, all
genes. Every training set of a leave-one-out loop (the data less one sample) and of a nested one
(less two) is fitted, for every (gene count, C) of the grid, by the exact batched solver
``methods.svm_dual.solve_dual``: the fit on all the data starts the leave-one-out fits, and the
fit less sample i starts the fits less i and j. Kernels cover all n samples, so the held-out
samples are scored from the same matrix. Labels are 0 and 1; class 0 is libsvm's +1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cvsuite.methods.shrunken_centroids import class_totals
from cvsuite.methods.svm_dual import solve_dual


@dataclass(frozen=True)
class SvmGrid:
    """The tuning grid, flattened gene count first: setting s is (gene_counts[s // len(costs)],
    costs[s % len(costs)]). Gene counts ascend and are capped at p (all genes); costs ascend."""

    gene_counts: tuple[int, ...]
    costs: tuple[float, ...]

    @classmethod
    def of(cls, gene_counts, costs, n_features: int) -> SvmGrid:
        return cls(
            gene_counts=tuple(sorted({min(int(k), n_features) for k in gene_counts})),
            costs=tuple(sorted(float(c) for c in costs)),
        )

    def settings(self) -> list[tuple[int, float]]:
        return [(k, c) for k in self.gene_counts for c in self.costs]


@dataclass(frozen=True)
class LeaveOutMistakes:
    """Whether each held-out sample is misclassified, per setting of the grid, for one dataset.

    ``loo`` (n, S): sample i by the fit on all but i. ``pairs`` (n, n, S) or None: [i, j] is
    sample j by the fit on all but {i, j} (outer fold i, inner test j of a nested leave-one-out).
    ``full_alpha`` (S, n) and ``full_bias`` (S,): the fits on all the data, on ``full_genes[k]``.
    """

    loo: np.ndarray
    pairs: np.ndarray | None
    full_alpha: np.ndarray
    full_bias: np.ndarray
    full_genes: dict[int, np.ndarray]


def leave_out_mistakes(xs, y: np.ndarray, grid: SvmGrid, *, nested: bool, batch: int = 10) -> list[LeaveOutMistakes]:
    """Fit every leave-one-out (and, if ``nested``, leave-two-out) training set of each dataset in
    ``xs`` (each n x p, labels ``y``) at every setting of the grid.

    Genes are ranked on each training set alone. The fits on all the data of every dataset and
    setting are solved together (from scratch, the costly start, shared by many problems), then
    the leave-one-out fits ``batch`` datasets at a time (each from its dataset's fit on all the
    data), then per dataset the leave-two-out fits (each from the fit less the first of its two
    samples): one fit less {i, j} serves both orders of the nested loop.
    """
    n = len(y)
    p = xs[0].shape[1]
    settings = grid.settings()
    counts = np.array([k for k, _ in settings])
    costs = np.array([c for _, c in settings])
    ranks = np.minimum(counts, n)
    ranked_count = max([k for k in grid.gene_counts if k < p], default=0)
    loo_rows = np.arange(n)[:, None]
    # One ranking call per dataset for all the data (row n: no sample left out) and each sample left out.
    sets = np.vstack([[[n]], loo_rows])
    ranked = [(both[0], both[1:]) for both in (top_genes(x, y, sets, ranked_count) for x in xs)]
    all_genes = [x @ x.T / p for x in xs]  # the kernel of every training set at gene count p
    full_kernels, genes = [], []
    for x, (full_ranked, _), every_gene in zip(xs, ranked, all_genes):
        by_count = dict(
            zip(grid.gene_counts, _kernels_by_count(x, full_ranked, full_ranked[None], grid.gene_counts, every_gene))
        )
        full_kernels += [by_count[k][0] for k in counts]
        genes.append({k: (np.arange(p) if k >= p else full_ranked[:k]) for k in grid.gene_counts})
    full = solve_dual(np.stack(full_kernels), y, np.ones((len(full_kernels), n), dtype=bool),
                      np.tile(costs, len(xs)), rank=np.tile(ranks, len(xs)))  # fmt: skip
    wrong_loo, loo_states = [], []
    for first in range(0, len(xs), batch):
        chunk = range(first, min(first + batch, len(xs)))
        kernels = []
        for d in chunk:
            by_count = dict(
                zip(
                    grid.gene_counts,
                    _kernels_by_count(xs[d], ranked[d][0], ranked[d][1], grid.gene_counts, all_genes[d]),
                )
            )
            kernels += [by_count[k] for k in counts]
        problems = len(kernels)
        kernels = np.concatenate(kernels)
        starts = full.state[first * len(settings) : (first + len(chunk)) * len(settings)]
        loo_train = np.tile(~np.eye(n, dtype=bool), (problems, 1))
        loo_costs, loo_ranks = np.repeat(np.tile(costs, len(chunk)), n), np.repeat(np.tile(ranks, len(chunk)), n)
        loo = solve_dual(kernels, y, loo_train, loo_costs, warm=np.repeat(starts, n, axis=0), rank=loo_ranks)
        wrong = _misclassified(loo, kernels, y, np.tile(loo_rows, (problems, 1)))[:, 0]
        wrong_loo += list(wrong.reshape(len(chunk), len(settings), n).transpose(0, 2, 1))
        loo_states += list(loo.state.reshape(len(chunk), len(settings) * n, n))
    results = []
    for d, x in enumerate(xs):
        block = slice(d * len(settings), (d + 1) * len(settings))
        pairs = (
            _leave_two_out(x, y, grid, genes[d], loo_state=loo_states[d], full_kernel=all_genes[d]) if nested else None
        )
        results.append(LeaveOutMistakes(wrong_loo[d], pairs, full.alpha[block], full.bias[block], genes[d]))
    return results


def _kernels_by_count(x, full_ranked, ranked, gene_counts, every_gene) -> list[np.ndarray]:
    """For each gene count k, the kernels (L, n, n) of the training sets ranked ``ranked`` (L, >= k);
    k >= p is all genes, ``every_gene`` for every set."""
    n, p = x.shape
    columns = gene_columns(x) if min(gene_counts) < p else None  # shared by the gene counts
    out = []
    for k in gene_counts:
        if k >= p:
            out.append(np.broadcast_to(every_gene, (len(ranked), n, n)))
        else:
            out.append(top_gene_kernels(x, full_ranked, [ranked], k, columns=columns)[0])
    return out


def _leave_two_out(x, y, grid: SvmGrid, full_genes: dict, *, loo_state: np.ndarray, full_kernel) -> np.ndarray:
    """[i, j, s]: sample j misclassified by the fit on all but {i, j} at setting s; ``loo_state``
    (S * n, n) holds the leave-one-out partitions, setting by setting, that start the fits."""
    n, p = x.shape
    settings = grid.settings()
    pairs = np.array([(i, j) for i in range(n) for j in range(i + 1, n)])
    ranked_count = max([k for k in grid.gene_counts if k < p], default=0)
    full_ranked = full_genes[ranked_count] if ranked_count else None
    pair_ranked = top_genes(x, y, pairs, ranked_count)
    by_count = dict(
        zip(grid.gene_counts, _kernels_by_count(x, full_ranked, pair_ranked, grid.gene_counts, full_kernel))
    )
    kernels = np.concatenate([by_count[k] for k, _ in settings])
    train = np.ones((len(pairs), n), dtype=bool)
    train[np.arange(len(pairs))[:, None], pairs] = False
    train = np.tile(train, (len(settings), 1))
    costs = np.repeat([c for _, c in settings], len(pairs))
    ranks = np.repeat([min(k, n) for k, _ in settings], len(pairs))
    first = (np.arange(len(settings))[:, None] * n + pairs[:, 0][None, :]).ravel()
    fits = solve_dual(kernels, y, train, costs, warm=loo_state[first], rank=ranks)
    held = np.tile(pairs, (len(settings), 1))
    wrong = _misclassified(fits, kernels, y, held).reshape(len(settings), len(pairs), 2)
    out = np.zeros((n, n, len(settings)), dtype=bool)
    out[pairs[:, 0], pairs[:, 1]] = wrong[:, :, 1].T
    out[pairs[:, 1], pairs[:, 0]] = wrong[:, :, 0].T
    return out


def _misclassified(fits, kernels, y, held_out) -> np.ndarray:
    """A decision f > 0 is class 0 and f <= 0 class 1, as libsvm's (and SVC's) ``predict``."""
    decision = fits.decisions(kernels, y, held_out)
    return np.where(decision > 0, 0, 1) != y[held_out]


def top_genes(x: np.ndarray, y: np.ndarray, left_out: np.ndarray, count: int, chunk: int = 8) -> np.ndarray:
    """For each training set (the data less the samples of one row of ``left_out``, (L, w) sample
    indices), the ``count`` genes of largest |two-sample t| (pooled variance) on that set alone,
    best first: shape (L, count).

    Each training set lacks only a sample or two, so its class sums and sums of squares are the
    whole data's less the left-out rows'. Within a training set t^2 is proportional to
    (mean difference)^2 / (within-class sum of squares), which ranks the genes as |t| does.
    """
    left_out = np.asarray(left_out, dtype=int).reshape(len(left_out), -1)
    ranked = np.empty((len(left_out), count), dtype=np.intp)
    if count == 0:
        return ranked
    squares = x * x
    labels = np.append(y, -1)[left_out]  # n stands for "no sample"
    totals = class_totals(x, y, squares)
    sizes = [np.count_nonzero(y == k) for k in (0, 1)]
    whole = [_class_terms(*totals[k], x, squares, np.empty((1, 0), dtype=int), sizes[k]) for k in (0, 1)]
    # A class that loses no sample has the whole data's terms: computed once, not per set (a
    # leave-one-out set keeps one class whole). Sets are taken by how many samples of each class
    # they lack, a few at a time: small arrays stay in cache.
    lost = np.stack([(labels == k).sum(axis=1) for k in (0, 1)], axis=1)
    for pattern in np.unique(lost, axis=0):
        members = np.flatnonzero((lost == pattern).all(axis=1))
        for start in range(0, len(members), chunk):
            sets = members[start : start + chunk]
            rows, mine = left_out[sets], labels[sets]
            terms = [
                _class_terms(*totals[k], x, squares, rows[mine == k].reshape(len(sets), pattern[k]), sizes[k])
                if pattern[k]
                else whole[k]
                for k in (0, 1)
            ]
            ranked[sets] = _best_genes(*terms, count)
    return ranked


def _class_terms(total, total_squared, x, squares, mine, size):
    """One class's means, sums of squares and sums * means on each training set, the class less
    its left-out samples ``mine`` (a row per set, in the order they were given): (len(mine), p)."""
    sums, squares = _less_rows(total, x, mine), _less_rows(total_squared, squares, mine)
    means = sums / (size - mine.shape[1])
    return means, squares, np.multiply(sums, means, out=sums)


def _best_genes(class_0, class_1, count: int) -> np.ndarray:
    """The ``count`` genes of largest (mean difference)^2 / (within-class sum of squares), best
    first, from the terms of each class (``_class_terms``, a row per set or one for all)."""
    # difference = means_0 - means_1 and within = sum over the classes of (squares - sums *
    # means), in the order of operations the ranking has always used. (The old sums started at
    # 0, and 0 + v differs from v only at v = -0: squares are never -0, and the difference only
    # enters squared.)
    (means_0, squares_0, products_0), (means_1, squares_1, products_1) = class_0, class_1
    difference = means_0 - means_1
    within = squares_0 - products_0 + squares_1 - products_1
    key = np.multiply(difference, difference, out=difference)
    np.divide(key, np.maximum(within, 0.0, out=within), out=key)
    worst_first = np.negative(key, out=key)
    best = np.argpartition(worst_first, count - 1, axis=1)[:, :count]
    rows = np.arange(len(best))[:, None]
    order = np.argsort(worst_first[rows, best], axis=1, kind="stable")
    return best[rows, order]


def _less_rows(total: np.ndarray, rows: np.ndarray, left_out: np.ndarray) -> np.ndarray:
    """``total`` less ``rows[j]`` for each j of a row of ``left_out``, in turn: (len(left_out), p)."""
    if left_out.shape[1] == 0:
        return np.repeat(total[None], len(left_out), axis=0)
    out = np.subtract(total, rows[left_out[:, 0]])
    for column in left_out.T[1:]:
        np.subtract(out, rows[column], out=out)
    return out


def top_gene_kernels(x: np.ndarray, full_ranked: np.ndarray, ranked_sets, k: int, *, columns=None) -> list:
    """The kernels X_S X_S^T / k over all n samples for the top-k genes S of each training set,
    for each array of rankings in ``ranked_sets`` ((L, >= k) each, or None): (L, n, n) each.
    ``columns``, if the caller has it, is ``gene_columns(x)``.

    Training sets that lack a sample or two share most of their top genes with the whole data, so
    each kernel is the whole data's top-k kernel plus the genes it gained less those it lost.
    """
    base_genes = full_ranked[:k]
    base = x[:, base_genes] @ x[:, base_genes].T
    if columns is None:
        columns = gene_columns(x)
    place = np.full(x.shape[1], -1)  # each gene's place among the base genes; -1 off them
    place[base_genes] = np.arange(k)
    out = []
    for ranked in ranked_sets:
        if ranked is None:
            out.append(None)
            continue
        mine = ranked[:, :k]
        places = place[mine]
        gained = places < 0  # (L, k)
        kept = np.zeros(mine.shape, dtype=bool)
        kept[np.nonzero(~gained)[0], places[~gained]] = True
        lost = ~kept  # (L, k), over the base genes
        width = int(max(gained.sum(axis=1).max(initial=0), 1))
        plus = _first_marked(mine, gained, width)
        minus = _first_marked(np.broadcast_to(base_genes, mine.shape), lost, width)
        kernels = np.broadcast_to(base, (len(mine), *base.shape)).copy()
        for genes, change in ((plus, np.add), (minus, np.subtract)):
            block = columns[genes]  # (L, width, n); the padding, -1, is the zero row
            change(kernels, np.matmul(block.transpose(0, 2, 1), block), out=kernels)
        out.append(np.divide(kernels, k, out=kernels))
    return out


def gene_columns(x: np.ndarray) -> np.ndarray:
    """x.T, contiguous, with a row of zeros after the last gene's: a gene index of -1 picks it."""
    return np.vstack([x.T, np.zeros((1, len(x)))])


def _first_marked(genes: np.ndarray, marked: np.ndarray, width: int) -> np.ndarray:
    """Per row, the marked genes in their order, padded with -1 to ``width``."""
    out = np.full((len(marked), width), -1)
    rows, places = np.nonzero(marked)
    out[rows, np.cumsum(marked, axis=1)[rows, places] - 1] = genes[rows, places]
    return out
