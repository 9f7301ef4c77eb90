"""K-fold cross-validation of a least-squares fit over many random partitions at once.

Equation 8.13 of "Regularization and Cross-Validation" averaged over thousands of shuffles: what
it takes to say whether a mean over shuffles is bias or noise. A loop of ``numpy.linalg.lstsq``
costs about half a millisecond per 2-fold partition; stacking the fits of every shuffle that share
a fold position (they have the same training size) costs a tenth of that.
"""

from __future__ import annotations

import numpy as np

from cvsuite.methods.folds import consecutive_folds


def shuffle_permutations(n: int, seeds) -> np.ndarray:
    """One row per seed: ``default_rng(seed).permutation(n)``, the draw of ``folds.shuffled_partition``."""
    return np.array([np.random.default_rng(int(seed)).permutation(n) for seed in seeds], dtype=int).reshape(-1, n)


def kfold_fold_risks(
    design: np.ndarray,
    y: np.ndarray,
    permutations: np.ndarray,
    n_folds: int,
    *,
    test: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """Each fold model's risk on its own fold, and on ``test`` = (test design, test targets) if given.

    Row s of ``permutations`` cut by ``numpy.array_split`` into K chunks is the partition (the
    folds of ``folds.shuffled_partition`` when the row is its permutation); fold k's model is fitted
    by least squares on the other chunks. Returns two (shuffles, K) arrays, folds in chunk order.
    The fits of one fold position are solved as one stack, by QR and a triangular solve: the same
    risks as ``lstsq`` on each fold up to rounding (1e-12 relative on the document's data). Refused
    when a training set has fewer points than the design has columns (the fit would not be unique).
    """
    n, p = design.shape
    positions = consecutive_folds(n, n_folds)
    smallest = n - max(len(c) for c in positions)
    if smallest < p:
        raise ValueError(f"{n_folds}-fold training sets of {smallest} points cannot fit {p} coefficients")
    held_out = np.empty((len(permutations), n_folds))
    tested = np.empty((len(permutations), n_folds)) if test is not None else None
    for k, chunk in enumerate(positions):
        held = permutations[:, chunk]
        train = np.delete(permutations, chunk, axis=1)
        q, r = np.linalg.qr(design[train])
        theta = np.linalg.solve(r, np.einsum("smj,sm->sj", q, y[train])[..., None])[..., 0]
        held_out[:, k] = np.mean((y[held] - np.einsum("svj,sj->sv", design[held], theta)) ** 2, axis=1)
        if tested is not None:
            test_design, y_test = test
            tested[:, k] = np.mean((y_test - theta @ test_design.T) ** 2, axis=1)
    return held_out, tested


def kfold_estimates(design: np.ndarray, y: np.ndarray, permutations: np.ndarray, n_folds: int) -> np.ndarray:
    """The K-fold estimate (Equation 8.13: the mean of the K fold risks) for each permutation's partition."""
    return kfold_fold_risks(design, y, permutations, n_folds)[0].mean(axis=1)
