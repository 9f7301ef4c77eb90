"""The statistics of a table of (x, y) under a convention: "Estimating Out-of-Sample Error", worked example.

Two least-squares polynomials (the worked example's straight line and degree-5 polynomial), K
folds, and the figures the worked example prints of them: training errors, held-out fold errors,
CV_k, the fold standard deviation and the standard error s.d./sqrt(k) (Steps 1-5), and the
differences and ratios of "Reading the result". How squared residuals become those figures (mean or
sum, ddof, ...) is a ``Convention``, because the document fixes only part of it.

Every statistic is a quadratic form in y: a least-squares residual, fitted on all points or on the
points outside a fold and evaluated on the fold, is a linear map of y (``sum_of_squares_forms``).
That makes the statistics of many tables one batched computation (``fold_statistics``), and their
gradient in y cheap (``cvsuite.studies.recover_twelve_points_search``).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass

import numpy as np

from cvsuite.methods.folds import fold_of, positional_folds

MODELS = ("line", "polynomial")

# The named statistics a printed figure may be; each is a function of the fold statistics of both models.
STATISTICS = {
    "line_training_error": "the line's training error on all twelve observations",
    "polynomial_training_error": "the polynomial's training error on all twelve observations",
    "line_cv": "the line's held-out error CV_4",
    "polynomial_cv": "the polynomial's held-out error CV_4",
    "line_fold_<j>": "the line's error on fold j (fitted on the other folds)",
    "polynomial_fold_<j>": "the polynomial's error on fold j",
    "line_fold_sd": "standard deviation of the line's fold errors",
    "polynomial_fold_sd": "standard deviation of the polynomial's fold errors",
    "training_error_gain": "line minus polynomial training error ('gained 0.0009 of training error')",
    "cv_difference": "polynomial minus line held-out error ('cost 0.1661 of test error')",
    "polynomial_cv_over_training": "polynomial held-out over its training error ('3.9 times')",
    "polynomial_cv_over_line_cv": "polynomial over line held-out error ('2.3 times')",
}
FOLD_STATISTIC = re.compile(r"^(line|polynomial)_fold_(\d+)$")


def is_statistic(name: str) -> bool:
    """Whether ``name`` is one of STATISTICS (``<model>_fold_<j>`` for any j)."""
    return name in STATISTICS or FOLD_STATISTIC.match(name) is not None


@dataclass(frozen=True)
class Convention:
    """How the document turns squared residuals into its printed figures.

    - ``fold_error``: a fold's error is the ``mean`` or the ``sum`` of its squared held-out residuals
    - ``cv``: CV_k is the ``mean_of_folds`` (the procedure's step 5) or the ``pooled`` mean squared
      error over all held-out points (the same number when the fold error is a mean and the folds
      are equal)
    - ``fold_sd_ddof``: delta degrees of freedom of the fold standard deviation (0 or 1)
    - ``training_error``: the residual sum of squares over n (``mean``) or over n - p
      (``per_residual_df``)

    The standard error is always the fold s.d. over sqrt(k), as step 5 says; no printed figure tests it.
    """

    fold_error: str = "mean"
    cv: str = "mean_of_folds"
    fold_sd_ddof: int = 1
    training_error: str = "mean"

    def __post_init__(self):
        if self.fold_error not in ("mean", "sum"):
            raise ValueError(f"fold_error must be 'mean' or 'sum', got '{self.fold_error}'")
        if self.cv not in ("mean_of_folds", "pooled"):
            raise ValueError(f"cv must be 'mean_of_folds' or 'pooled', got '{self.cv}'")
        if self.fold_sd_ddof not in (0, 1):
            raise ValueError(f"fold_sd_ddof must be 0 or 1, got {self.fold_sd_ddof}")
        if self.training_error not in ("mean", "per_residual_df"):
            raise ValueError(f"training_error must be 'mean' or 'per_residual_df', got '{self.training_error}'")

    @property
    def label(self) -> str:
        return (
            f"fold error {self.fold_error}, CV {self.cv.replace('_', ' ')}, "
            f"s.d. ddof {self.fold_sd_ddof}, training error {self.training_error.replace('_', ' ')}"
        )


def conventions_grid(fold_errors, cv, fold_sd_ddofs, training_errors) -> list[Convention]:
    """Every combination of the given choices, in the order given (fold error varies slowest)."""
    return [
        Convention(f, c, int(d), t) for f, c, d, t in itertools.product(fold_errors, cv, fold_sd_ddofs, training_errors)
    ]


# ----------------------------------------------------------------------------------------------
# Fits and the quadratic forms of the statistics


def polynomial_basis(x, degree: int, x_design) -> np.ndarray:
    """Columns 1, u, ..., u^degree of u = x rescaled so that the design points span [-1, 1].

    The rescaling only conditions the arithmetic: a least-squares fit does not depend on the basis.
    """
    x_design = np.asarray(x_design, dtype=float)
    centre, half_range = (x_design.max() + x_design.min()) / 2, (x_design.max() - x_design.min()) / 2
    return np.vander((np.asarray(x, dtype=float) - centre) / half_range, degree + 1, increasing=True)


def least_squares_coefficients(x, y, degree: int, x_design) -> np.ndarray:
    """The least-squares polynomial of the given degree through (x, y), in ``polynomial_basis``."""
    return np.linalg.lstsq(polynomial_basis(x, degree, x_design), np.asarray(y, dtype=float), rcond=None)[0]


def predict(coefficients, x, x_design) -> np.ndarray:
    """The polynomial of ``coefficients`` (in ``polynomial_basis`` on ``x_design``) at ``x``."""
    return polynomial_basis(x, len(coefficients) - 1, x_design) @ coefficients


def residual_operators(x, degree: int, folds) -> tuple[np.ndarray, list[np.ndarray]]:
    """The linear maps from y to residuals: the training residuals of the fit on all points (n x n),
    and for each fold the held-out residuals of the fit on the other folds (|fold| x n). Read-only:
    each is computed once per process (``_held_out_operator``)."""
    x = np.ascontiguousarray(x, dtype=float)
    points = x.tobytes()
    return _training_operator(points, degree), [_held_out_operator(points, degree, _indices(fold)) for fold in folds]


def sum_of_squares_forms(x, degrees, folds) -> np.ndarray:
    """Matrices A[m, 0] (training) and A[m, j] (fold j) with residual sum of squares = y' A y,
    for model m of ``degrees``; shape (models, 1 + folds, n, n)."""
    x = np.ascontiguousarray(x, dtype=float)
    points = x.tobytes()
    return np.array(
        [
            [_training_form(points, degree)] + [_held_out_form(points, degree, _indices(fold)) for fold in folds]
            for degree in degrees
        ]
    )


def _indices(fold) -> tuple[int, ...]:
    return tuple(int(i) for i in np.asarray(fold).ravel())


# The same fold comes back many times: random partitions redraw it (a 10-fold partition of twelve
# points has 78 possible folds, and the worked example's studies draw 1,600 partitions), and the
# statistics of one design are asked for again by each study that reads it. Each map is therefore
# computed once per process from the x values' bytes, the degree and the fold: the same arithmetic
# on the same inputs, so the same bits as computing it every time. Bounded, for studies that draw
# thousands of designs.
_CACHED = functools.lru_cache(maxsize=1 << 14)


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


@_CACHED
def _training_operator(points: bytes, degree: int) -> np.ndarray:
    x = np.frombuffer(points)
    design = polynomial_basis(x, degree, x)
    return _read_only(np.eye(len(x)) - design @ np.linalg.pinv(design))


@_CACHED
def _held_out_operator(points: bytes, degree: int, fold: tuple[int, ...]) -> np.ndarray:
    x = np.frombuffer(points)
    n, fold = len(x), np.array(fold, dtype=int)
    design = polynomial_basis(x, degree, x)
    train = np.setdiff1d(np.arange(n), fold)
    operator = np.zeros((len(fold), n))
    operator[np.arange(len(fold)), fold] = 1.0
    operator[:, train] -= design[fold] @ np.linalg.pinv(design[train])
    return _read_only(operator)


@_CACHED
def _training_form(points: bytes, degree: int) -> np.ndarray:
    training = _training_operator(points, degree)
    return _read_only(training.T @ training)


@_CACHED
def _held_out_form(points: bytes, degree: int, fold: tuple[int, ...]) -> np.ndarray:
    held_out = _held_out_operator(points, degree, fold)
    return _read_only(held_out.T @ held_out)


def sums_of_squares(ys, forms) -> np.ndarray:
    """Residual sums of squares of every model, fit and fold, for a batch of tables (N, n) -> (N, M, 1 + K)."""
    ys = np.atleast_2d(np.asarray(ys, dtype=float))
    models, parts, n, _ = forms.shape
    flat = forms.reshape(models * parts, n, n)
    # einsum's own loops rather than a BLAS product: each table's value then does not depend on how
    # many tables share the call (or on BLAS threads), so results are the same bytes in any batch.
    out = np.stack([np.einsum("ij,ij->i", np.einsum("ni,ij->nj", ys, a), ys) for a in flat], axis=1)
    return out.reshape(len(ys), models, parts)


# ----------------------------------------------------------------------------------------------
# From sums of squares to the printed statistics


@dataclass(frozen=True)
class Design:
    """What the statistics need besides y: the x values, the models' degrees, the folds."""

    x: np.ndarray
    degrees: tuple[int, ...]
    folds: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, n_observations: int, line_degree: int, polynomial_degree: int, n_folds: int) -> Design:
        """The worked example's design: x = 1..n, the line and the polynomial, folds by position (Step 2)."""
        x = np.arange(1, n_observations + 1, dtype=float)
        folds = tuple(positional_folds(n_observations, n_folds))
        smallest_training = n_observations - max(len(f) for f in folds)
        if max(line_degree, polynomial_degree) + 1 > smallest_training:
            raise ValueError(
                f"a degree-{polynomial_degree} polynomial needs {polynomial_degree + 1} training points; "
                f"with {n_folds} folds of {n_observations} observations "
                f"the smallest training set has {smallest_training}"
            )
        return cls(x, (line_degree, polynomial_degree), folds)

    @property
    def n(self) -> int:
        return len(self.x)

    @property
    def fold_sizes(self) -> np.ndarray:
        return np.array([len(f) for f in self.folds], dtype=float)

    @property
    def fold_numbers(self) -> np.ndarray:
        """The fold (1..K, as the document numbers them) of each observation."""
        return fold_of(list(self.folds), self.n) + 1

    def forms(self) -> np.ndarray:
        return sum_of_squares_forms(self.x, self.degrees, self.folds)


def statistics_from_sums(q, design: Design, convention: Convention) -> dict:
    """Training error, fold errors, CV, fold s.d. and standard error s.d./sqrt(k) per model, from the
    sums of squares ``q`` (..., M, 1 + K): the only place the conventions are applied.

    The fold s.d. is written out (not ``numpy.std``) because its ddof is a convention, and so that
    ``cvsuite.studies.recover_twelve_points_search`` can differentiate the very same arithmetic.
    """
    n, k = design.n, len(design.folds)
    params = np.array([d + 1 for d in design.degrees], dtype=float)
    train_den = np.full(len(params), float(n)) if convention.training_error == "mean" else n - params
    fold_den = design.fold_sizes if convention.fold_error == "mean" else np.ones(k)
    train = q[..., 0] / train_den
    folds = q[..., 1:] / fold_den
    cv = folds.mean(axis=-1) if convention.cv == "mean_of_folds" else q[..., 1:].sum(axis=-1) / n
    centred = folds - folds.mean(axis=-1, keepdims=True)
    sd = np.sqrt((centred**2).sum(axis=-1) / (k - convention.fold_sd_ddof))
    return {"training": train, "folds": folds, "cv": cv, "sd": sd, "se": sd / math.sqrt(k)}


def fold_statistics(ys, design: Design, convention: Convention, forms=None) -> dict:
    """Training error (N, M), fold errors (N, M, K), CV, fold s.d. and standard error s.d./sqrt(K)
    (N, M) of a batch of tables ``ys`` (N, n); models in the order of ``design.degrees``."""
    forms = design.forms() if forms is None else forms
    return statistics_from_sums(sums_of_squares(ys, forms), design, convention)


# ----------------------------------------------------------------------------------------------
# The named statistics: plain values, differences and ratios of the flat vector of statistics

# Where each part sits in the flat vector [training(M), cv(M), sd(M), se(M), folds(M K)] of the models.
FLAT_PARTS = ("training", "cv", "sd", "se")
PLAIN, DIFFERENCE, RATIO = 0, 1, 2

_PLAIN_STATISTICS = {
    "line_training_error": ("training", "line"),
    "polynomial_training_error": ("training", "polynomial"),
    "line_cv": ("cv", "line"),
    "polynomial_cv": ("cv", "polynomial"),
    "line_fold_sd": ("sd", "line"),
    "polynomial_fold_sd": ("sd", "polynomial"),
}
_COMBINED_STATISTICS = {  # name: (kind, (part, model) of b[i], (part, model) of b[j])
    "training_error_gain": (DIFFERENCE, ("training", "line"), ("training", "polynomial")),
    "cv_difference": (DIFFERENCE, ("cv", "polynomial"), ("cv", "line")),
    "polynomial_cv_over_training": (RATIO, ("cv", "polynomial"), ("training", "polynomial")),
    "polynomial_cv_over_line_cv": (RATIO, ("cv", "polynomial"), ("cv", "line")),
}


def flat_statistics(stats: dict, lead: tuple) -> np.ndarray:
    """The statistics as one flat vector per table: [training(M), cv(M), sd(M), se(M), folds(M K)]."""
    return np.concatenate([stats[p].reshape(*lead, -1) for p in FLAT_PARTS + ("folds",)], axis=-1)


def statistic_plan(names, design: Design) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each named statistic: its kind (PLAIN, DIFFERENCE or RATIO) and the flat positions i, j,
    so that it is b[i], b[i] - b[j] or b[i] / b[j] of the flat vector b (``flat_statistics``)."""
    m_count, k = len(design.degrees), len(design.folds)

    def at(part, model, fold=None):
        m = MODELS.index(model)
        if part == "folds":
            if not 1 <= fold <= k:
                raise ValueError(f"statistic '{model}_fold_{fold}': there is no fold {fold} (k = {k})")
            return len(FLAT_PARTS) * m_count + m * k + fold - 1
        return FLAT_PARTS.index(part) * m_count + m

    plans = []
    for name in names:
        match = FOLD_STATISTIC.match(name)
        if match:
            plans.append((PLAIN, at("folds", match[1], int(match[2])), 0))
        elif name in _PLAIN_STATISTICS:
            plans.append((PLAIN, at(*_PLAIN_STATISTICS[name]), 0))
        elif name in _COMBINED_STATISTICS:
            kind, first, second = _COMBINED_STATISTICS[name]
            plans.append((kind, at(*first), at(*second)))
        else:
            raise ValueError(f"unknown statistic '{name}' (known: {', '.join(STATISTICS)})")
    kind, i, j = (np.array(c) for c in zip(*plans))
    return kind, i, j


def statistic_values(ys, names, design: Design, convention: Convention, forms=None) -> np.ndarray:
    """The named statistics (STATISTICS) of a batch of tables: shape (N, len(names))."""
    stats = fold_statistics(ys, design, convention, forms)
    b = flat_statistics(stats, (stats["cv"].shape[0],))
    kind, i, j = statistic_plan(names, design)
    numerator = b[..., i] - np.where(kind == DIFFERENCE, b[..., j], 0.0)
    denominator = np.where(kind == RATIO, b[..., j], 1.0)
    return numerator / denominator
