"""A linear C-SVM on a precomputed kernel, its cost path, and top-|t| gene selection for it.

The support vector machine of the Varma and Simon (2006) re-simulation ("Cross-Validation",
Evidence and Impact: "an SVM by leave-one-out"): a C-SVM on the linear kernel X_S X_S^T / |S| of
the genes S of largest |two-sample t| on the training set alone (``top_genes``,
``gene_count_kernels``). The kernel covers all samples, so a held-out sample's kernel row with
the training points is read from the same matrix.

The solver is one function of (kernel, labels, C) returning an ``SvmFit`` (``SvmSolver``);
``fit_svm`` is scikit-learn's ``SVC``, and ``svm_path`` takes any other solver in its place.
Labels are 0 and 1 throughout.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import sklearn
from sklearn.svm import SVC


@dataclass(frozen=True)
class SvmFit:
    """A two-class C-SVM in libsvm's own orientation: class 0 iff
    ``kernel[:, support] @ coef + intercept > 0``, where ``coef`` holds y_i alpha_i with y_i = +1
    for class 0 and -1 for class 1 (so 0 <= |coef| <= C)."""

    support: np.ndarray
    coef: np.ndarray
    intercept: float
    bounded: bool  # some multiplier at its bound C


# What a solver is: (training kernel (n, n), labels (n,) in {0, 1}, cost C) -> the fit.
SvmSolver = Callable[[np.ndarray, np.ndarray, float], SvmFit]


def fit_svm(kernel: np.ndarray, y: np.ndarray, cost: float) -> SvmFit:
    """The C-SVM of ``sklearn.svm.SVC(kernel="precomputed", C=cost)``, SVC's defaults otherwise.

    The leave-one-out and nested loops fit tens of thousands of 38- and 39-point problems, and
    SVC's argument checks cost about 15 times its solve; the checks of parameters and of finite
    values are skipped (``sklearn.config_context``), as every kernel here is a finite product of
    standard normal draws. SVC reports a binary fit with libsvm's signs flipped (class 1 iff its
    ``decision_function`` > 0); negating ``dual_coef_`` and ``intercept_`` back is exact. SVC
    draws one seed from numpy's global generator per fit; libsvm uses it only for probability
    estimates, which are off, and nothing here reads that generator.
    """
    with sklearn.config_context(skip_parameter_validation=True, assume_finite=True):
        svc = SVC(kernel="precomputed", C=cost).fit(kernel, y)
    coef = -svc.dual_coef_[0]
    # No multiplier at its bound C means the hard-margin solution.
    bounded = bool(np.any(np.abs(coef) >= cost * (1 - 1e-9)))
    return SvmFit(support=svc.support_, coef=coef, intercept=-float(svc.intercept_[0]), bounded=bounded)


def svm_predict(fit: SvmFit, kernel_rows: np.ndarray) -> np.ndarray:
    """Class (0 or 1) of each test row; ``kernel_rows`` holds kernels with the fit's training points.

    A decision of exactly 0 goes to class 1, as in libsvm's (and so SVC's) ``predict``.
    """
    decision = np.atleast_2d(kernel_rows)[:, fit.support] @ fit.coef + fit.intercept
    return np.where(decision > 0, 0, 1)


def svm_path(kernel: np.ndarray, y: np.ndarray, costs: np.ndarray, *, solver: SvmSolver = fit_svm) -> list[SvmFit]:
    """One fit per cost, ascending. Once a fit has no multiplier at its bound it is the
    hard-margin SVM, which is also the solution for every larger C: it is reused, not refitted."""
    fits: list[SvmFit] = []
    for cost in costs:
        if fits and not fits[-1].bounded:
            fits.append(fits[-1])
        else:
            fits.append(solver(kernel, y, float(cost)))
    return fits


def top_genes(x: np.ndarray, y: np.ndarray, leave_outs: list[list[int]], count: int, chunk: int = 256) -> np.ndarray:
    """For each training set (the data less the samples of one entry of ``leave_outs``), the
    ``count`` genes of largest |two-sample t| (pooled variance) on that set alone, best first.

    Each training set lacks only a sample or two, so its class sums and sums of squares are the
    whole data's less the left-out rows'; ``chunk`` sets at a time bound the memory. Shape
    (len(leave_outs), count).
    """
    n = len(y)
    # One zero row at index n stands for "no sample": left-out lists are padded with it.
    padded = np.vstack([x, np.zeros((1, x.shape[1]))])
    padded_squared = padded * padded
    width = max((len(left) for left in leave_outs), default=0)
    ranked = np.empty((len(leave_outs), count), dtype=np.intp)
    for start in range(0, len(leave_outs), chunk):
        block = leave_outs[start : start + chunk]
        means, counts, within = [], [], 0.0
        for k in (0, 1):
            in_class = np.flatnonzero(y == k)
            out = np.full((len(block), width), n)
            for row, left in enumerate(block):
                mine = [i for i in left if y[i] == k]
                out[row, : len(mine)] = mine
            n_k = (len(in_class) - (out < n).sum(axis=1))[:, None].astype(float)
            # The left-out rows are few: the class totals less those rows.
            sums = x[in_class].sum(axis=0) - padded[out].sum(axis=1)
            squares = padded_squared[in_class].sum(axis=0) - padded_squared[out].sum(axis=1)
            means.append(sums / n_k)
            counts.append(n_k)
            within = within + squares - sums * means[-1]
        # t^2 ranks the genes as |t| does, without the square root and absolute value passes.
        difference = means[0] - means[1]
        scale = (1 / counts[0] + 1 / counts[1]) / (counts[0] + counts[1] - 2)
        t_squared = difference * difference / (np.maximum(within, 0.0) * scale)
        best = np.argpartition(-t_squared, count - 1, axis=1)[:, :count]
        order = np.argsort(-np.take_along_axis(t_squared, best, axis=1), axis=1, kind="stable")
        ranked[start : start + chunk] = np.take_along_axis(best, order, axis=1)
    return ranked


def gene_count_kernels(
    x: np.ndarray, ranked: np.ndarray, gene_counts: list[int], full_kernel: np.ndarray
) -> list[np.ndarray]:
    """The linear kernel X_S X_S^T / |S| over all n samples for the top-k genes S of one training
    set, for each k; k >= p is all genes: the precomputed ``full_kernel``, not recomputed.

    Dividing by |S| makes a cost C mean the same for every gene count."""
    p = x.shape[1]
    kernels = []
    for k in gene_counts:
        if k >= p:
            kernels.append(full_kernel)
        else:
            chosen = x[:, ranked[:k]]
            kernels.append(chosen @ chosen.T / k)
    return kernels
