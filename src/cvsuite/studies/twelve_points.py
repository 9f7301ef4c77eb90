"""The twelve-point example of "Estimating Out-of-Sample Error" (Checks, worked example), and its lost data.

Twelve observations at x = 1, ..., 12, "close to y = 2x"; a straight line and a degree-5 polynomial
fitted by least squares; four folds assigned by position ({1,5,9}, {2,6,10}, {3,7,11}, {4,8,12}).
The document prints the statistics (training errors, held-out errors, two of the polynomial's fold
errors, the fold standard deviations, two differences and two ratios) but its table of y values did
not survive. This module recomputes every statistic from a candidate table, recovers tables that
reproduce the printed figures at their printed precision (an inverse problem), and checks the
document's conclusions on the recovered table and on fresh data.

Every statistic is a quadratic form in y: a least-squares residual, fitted on all twelve points or
on the nine outside a fold and evaluated on the fold, is a linear map of y. Both models contain the
line, so adding any a + b x to y changes no statistic, and y -> -y changes none either: the printed
figures can only ever determine y up to a line and a reflection about it. The search therefore runs
in the (n - 2)-dimensional complement of span{1, x}.

The published numbers are never read here: the figures a table must reproduce are passed in.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import least_squares

from cvsuite.methods.folds import positional_folds
from cvsuite.published.printed_numbers import parse_printed, reads_the_same, write_as_printed

MODELS = ("line", "polynomial")

# The named statistics a target may use; each is a function of the fold statistics of both models.
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
_FOLD_NAME = re.compile(r"^(line|polynomial)_fold_(\d+)$")


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
        return (f"fold error {self.fold_error}, CV {self.cv.replace('_', ' ')}, "
                f"s.d. ddof {self.fold_sd_ddof}, training error {self.training_error.replace('_', ' ')}")


def conventions_grid(fold_errors, cv, fold_sd_ddofs, training_errors) -> list[Convention]:
    """Every combination of the given choices, in the order given (fold error varies slowest)."""
    return [Convention(f, c, int(d), t) for f, c, d, t in itertools.product(fold_errors, cv, fold_sd_ddofs, training_errors)]


# ----------------------------------------------------------------------------------------------
# Folds, fits and the quadratic forms of the statistics

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
    return polynomial_basis(x, len(coefficients) - 1, x_design) @ coefficients


def residual_operators(x, degree: int, folds) -> tuple[np.ndarray, list[np.ndarray]]:
    """The linear maps from y to residuals: the training residuals of the fit on all points (n x n),
    and for each fold the held-out residuals of the fit on the other folds (|fold| x n)."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    design = polynomial_basis(x, degree, x)
    training = np.eye(n) - design @ np.linalg.pinv(design)
    held_out = []
    for fold in folds:
        train = np.setdiff1d(np.arange(n), fold)
        operator = np.zeros((len(fold), n))
        operator[np.arange(len(fold)), fold] = 1.0
        operator[:, train] -= design[fold] @ np.linalg.pinv(design[train])
        held_out.append(operator)
    return training, held_out


def sum_of_squares_forms(x, degrees, folds) -> np.ndarray:
    """Matrices A[m, 0] (training) and A[m, j] (fold j) with residual sum of squares = y' A y,
    for model m of ``degrees``; shape (models, 1 + folds, n, n)."""
    forms = []
    for degree in degrees:
        training, held_out = residual_operators(x, degree, folds)
        forms.append([training.T @ training] + [r.T @ r for r in held_out])
    return np.array(forms)


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
    def of(cls, n_observations: int, line_degree: int, polynomial_degree: int, n_folds: int) -> "Design":
        """The worked example's design: x = 1..n, the line and the polynomial, folds by position."""
        x = np.arange(1, n_observations + 1, dtype=float)
        folds = tuple(positional_folds(n_observations, n_folds))
        smallest_training = n_observations - max(len(f) for f in folds)
        if max(line_degree, polynomial_degree) + 1 > smallest_training:
            raise ValueError(f"a degree-{polynomial_degree} polynomial needs {polynomial_degree + 1} training points; "
                             f"with {n_folds} folds of {n_observations} observations the smallest training set has {smallest_training}")
        return cls(x, (line_degree, polynomial_degree), folds)

    @property
    def n(self) -> int:
        return len(self.x)

    @property
    def fold_sizes(self) -> np.ndarray:
        return np.array([len(f) for f in self.folds], dtype=float)

    def forms(self) -> np.ndarray:
        return sum_of_squares_forms(self.x, self.degrees, self.folds)


def _fold_statistics(q, design: Design, convention: Convention) -> dict:
    """Training error, fold errors, CV, fold s.d. and standard error s.d./sqrt(k) per model, from the
    sums of squares ``q`` (..., M, 1 + K): the only place the conventions are applied."""
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


# Where each named statistic sits in the flat vector [training, cv, sd, se, folds] of the models.
_PARTS = ("training", "cv", "sd", "se")


def _flat(parts: dict, lead: tuple) -> np.ndarray:
    """The statistics as one flat vector per table: [training(M), cv(M), sd(M), se(M), folds(M K)]."""
    return np.concatenate([parts[p].reshape(*lead, -1) for p in _PARTS + ("folds",)], axis=-1)


def _plan(names, design: Design) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each named statistic: kind (0 plain, 1 difference, 2 ratio) and the flat positions i, j,
    so that it is b[i], b[i] - b[j] or b[i] / b[j]."""
    m_count, k = len(design.degrees), len(design.folds)

    def at(part, model, fold=None):
        m = MODELS.index(model)
        if part == "folds":
            if not 1 <= fold <= k:
                raise ValueError(f"statistic '{model}_fold_{fold}': there is no fold {fold} (k = {k})")
            return len(_PARTS) * m_count + m * k + fold - 1
        return _PARTS.index(part) * m_count + m

    plans = []
    for name in names:
        match = _FOLD_NAME.match(name)
        plain = {"line_training_error": ("training", "line"), "polynomial_training_error": ("training", "polynomial"),
                 "line_cv": ("cv", "line"), "polynomial_cv": ("cv", "polynomial"),
                 "line_fold_sd": ("sd", "line"), "polynomial_fold_sd": ("sd", "polynomial")}
        if match:
            plans.append((0, at("folds", match[1], int(match[2])), 0))
        elif name in plain:
            plans.append((0, at(*plain[name]), 0))
        elif name == "training_error_gain":
            plans.append((1, at("training", "line"), at("training", "polynomial")))
        elif name == "cv_difference":
            plans.append((1, at("cv", "polynomial"), at("cv", "line")))
        elif name == "polynomial_cv_over_training":
            plans.append((2, at("cv", "polynomial"), at("training", "polynomial")))
        elif name == "polynomial_cv_over_line_cv":
            plans.append((2, at("cv", "polynomial"), at("cv", "line")))
        else:
            raise ValueError(f"unknown statistic '{name}' (known: {', '.join(STATISTICS)})")
    kind, i, j = (np.array(c) for c in zip(*plans))
    return kind, i, j


def _apply_plan(plan, b, db=None):
    """The named statistics from the flat vector(s) b (..., nb), and with db (nb, D) their gradients."""
    kind, i, j = plan
    numerator = b[..., i] - np.where(kind == 1, b[..., j], 0.0)
    denominator = np.where(kind == 2, b[..., j], 1.0)
    values = numerator / denominator
    if db is None:
        return values
    d_num = db[i] - np.where((kind == 1)[:, None], db[j], 0.0)
    d_den = np.where((kind == 2)[:, None], db[j], 0.0)
    return values, (d_num * denominator[:, None] - numerator[:, None] * d_den) / (denominator**2)[:, None]


def fold_statistics(ys, design: Design, convention: Convention, forms=None) -> dict:
    """Training error (N, M), fold errors (N, M, K), CV, fold s.d. and standard error s.d./sqrt(K)
    (N, M) of a batch of tables ``ys`` (N, n); models in the order of ``design.degrees``."""
    forms = design.forms() if forms is None else forms
    return _fold_statistics(sums_of_squares(ys, forms), design, convention)


def statistic_values(ys, names, design: Design, convention: Convention, forms=None) -> np.ndarray:
    """The named statistics (STATISTICS) of a batch of tables: shape (N, len(names))."""
    stats = fold_statistics(ys, design, convention, forms)
    return _apply_plan(_plan(names, design), _flat(stats, (stats["cv"].shape[0],)))


# ----------------------------------------------------------------------------------------------
# Printed precision

@dataclass(frozen=True)
class PrintedTargets:
    """The printed figures a table must reproduce: names, texts as printed, values, last-digit units."""

    names: tuple[str, ...]
    texts: tuple[str, ...]

    @classmethod
    def of(cls, printed: dict[str, str]) -> "PrintedTargets":
        for name in printed:
            if name not in STATISTICS and not _FOLD_NAME.match(name):
                raise ValueError(f"printed statistic '{name}' is not one of {', '.join(STATISTICS)}")
        return cls(tuple(printed), tuple(str(t) for t in printed.values()))

    @property
    def values(self) -> np.ndarray:
        return np.array([parse_printed(t).value for t in self.texts])

    @property
    def units(self) -> np.ndarray:
        """One unit of the last printed digit (0.0001 for 0.1314, 0.1 for 3.9)."""
        return np.array([10.0 ** -parse_printed(t).decimals for t in self.texts])


def misses_in_printed_units(values, targets: PrintedTargets) -> np.ndarray:
    """|recomputed - printed| in units of the last printed digit; reading the same needs at most 0.5."""
    return np.abs(np.asarray(values) - targets.values) / targets.units


def reads_as_printed(values, targets: PrintedTargets) -> np.ndarray:
    """Whether each recomputed value, written at its printed precision, reads as printed: (N, S) booleans.

    A cheap distance screen first, then the exact text comparison of ``printed_numbers`` for the
    values near enough to matter (a value exactly halfway is decided by the text, as the comparison is).
    """
    values = np.atleast_2d(values)
    near = misses_in_printed_units(values, targets) <= 0.5 + 1e-9
    out = np.zeros_like(near)
    for i, j in zip(*np.nonzero(near)):
        out[i, j] = reads_the_same(float(values[i, j]), parse_printed(targets.texts[j]))
    return out


def printed_check(y, design: Design, convention: Convention, targets: PrintedTargets) -> pd.DataFrame:
    """One row per printed figure: printed, recomputed from ``y``, written as printed, and whether they agree."""
    values = statistic_values(np.asarray(y)[None, :], targets.names, design, convention)[0]
    agree = reads_as_printed(values[None, :], targets)[0]
    return pd.DataFrame({
        "statistic": targets.names,
        "printed": targets.texts,
        "recomputed": values,
        "recomputed_as_printed": [write_as_printed(v, parse_printed(t)) for v, t in zip(values, targets.texts)],
        "reads_the_same": agree,
        "miss_in_printed_units": misses_in_printed_units(values, targets),
    })


# ----------------------------------------------------------------------------------------------
# Arithmetic screen of a convention: what the summaries alone rule out

def arithmetic_problems(targets: PrintedTargets, design: Design, convention: Convention) -> list[str]:
    """Reasons, from the printed summaries alone, why no table can exist under ``convention``.

    Two necessary conditions, each checked at the edges of the printed precision:

    1. Held-out error is never below training error in total: with full-data residuals r and hat
       matrix H, the residuals of fold V under the fit without it are (I - H_VV)^-1 r_V, whose norm
       is at least |r_V|; summed over a partition, the held-out sum of squares is at least the
       training one (for each model).
    2. A model's k fold errors must be able to have the printed mean, s.d. and individual folds:
       given the printed folds, the rest sum to a known total and their spread can take any value
       between all-equal and all-but-one at zero.
    """
    printed = dict(zip(targets.names, zip(targets.values, targets.units)))
    n, k = design.n, len(design.folds)
    sizes = design.fold_sizes
    problems = []

    def interval(name):
        value, unit = printed[name]
        return value - unit / 2, value + unit / 2

    for model, degree in zip(MODELS, design.degrees):
        train_name, cv_name = f"{model}_training_error", f"{model}_cv"
        if train_name in printed and cv_name in printed:
            train_den = n if convention.training_error == "mean" else n - degree - 1
            training_ss_low = interval(train_name)[0] * train_den
            cv_high = interval(cv_name)[1]
            if convention.cv == "pooled":
                held_out_ss_high = cv_high * n
            elif convention.fold_error == "mean":
                held_out_ss_high = cv_high * k * sizes.mean()  # equal folds: sum of |V| x fold mean
            else:
                held_out_ss_high = cv_high * k
            if held_out_ss_high < training_ss_low:
                problems.append(f"{model}: held-out sum of squares at most {held_out_ss_high:.4f}, "
                                f"below the training sum of squares of at least {training_ss_low:.4f}")
        fold_names = [name for name in printed if (m := _FOLD_NAME.match(name)) and m[1] == model]
        sd_name = f"{model}_fold_sd"
        if cv_name in printed and sd_name in printed and fold_names:
            if not _fold_summary_possible([interval(f) for f in fold_names], interval(cv_name),
                                          interval(sd_name), design, convention):
                listed = ", ".join(f"{f} = {targets.texts[targets.names.index(f)]}" for f in fold_names)
                problems.append(f"{model}: no {k} fold errors have the printed mean, s.d. and {listed}")
    return problems


def _fold_summary_possible(fold_intervals, cv_interval, sd_interval, design: Design, convention: Convention) -> bool:
    """Whether some fold errors, the given ones inside their intervals and the rest non-negative,
    have a CV and s.d. inside theirs; checked on a 3-point grid (ends and centre) of each interval."""
    n, k = design.n, len(design.folds)
    free = k - len(fold_intervals)
    grids = [np.linspace(lo, hi, 3) for lo, hi in fold_intervals] + [np.linspace(*cv_interval, 3)]
    for point in itertools.product(*grids):
        given, cv = np.array(point[:-1]), point[-1]
        if convention.cv == "pooled" and convention.fold_error == "sum":
            total = cv * n  # the fold errors are sums of squares adding up to the pooled total
        elif convention.cv == "pooled":
            total = cv * k  # equal folds: the pooled mean equals the mean of fold means
        else:
            total = cv * k
        rest = total - given.sum()
        if rest < 0:
            continue
        mean = total / k
        fixed_ss = ((given - mean) ** 2).sum()
        # The free folds' squared spread about the mean runs from all equal to all-but-one at zero.
        low = fixed_ss + free * (rest / free - mean) ** 2 if free else fixed_ss
        high = fixed_ss + ((rest - mean) ** 2 + (free - 1) * mean**2 if free else 0.0)
        sd_low, sd_high = (math.sqrt(v / (k - convention.fold_sd_ddof)) for v in (low, high))
        if sd_low <= sd_interval[1] and sd_high >= sd_interval[0]:
            return True
    return False


# ----------------------------------------------------------------------------------------------
# The inverse problem

def line_complement_basis(x) -> np.ndarray:
    """An orthonormal basis (n x (n - 2)) of the vectors orthogonal to 1 and x: the only part of y
    the statistics can see."""
    x = np.asarray(x, dtype=float)
    q, _ = np.linalg.qr(np.column_stack([np.ones_like(x), x]), mode="complete")
    return q[:, 2:]


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a multi-start search: every start's end point and largest miss."""

    tables: np.ndarray        # (starts, n) end points, y = slope x + basis z
    largest_miss: np.ndarray  # (starts,) largest |recomputed - printed| in printed units
    consistent: np.ndarray    # (starts,) every figure reads as printed

    @property
    def consistent_tables(self) -> np.ndarray:
        return self.tables[self.consistent]


class _Objective:
    """Misses (recomputed - aim) / scale of the named statistics at z, and their Jacobian, for the
    table y = slope x + basis z; one evaluation serves both (the optimiser asks for them apart).

    The same arithmetic as ``statistic_values``, laid out as small matrix products for speed: the
    training errors, fold errors and CVs are linear in the sums of squares, the fold s.d. is the
    norm of the centred fold errors, and each named statistic is a plain value, a difference or a
    ratio of those.
    """

    def __init__(self, design: Design, convention: Convention, names, forms_z):
        m_count, parts, dim, _ = forms_z.shape
        k = parts - 1
        self.forms_z = forms_z.reshape(m_count * parts, dim, dim)
        # Linear part: q (M (1 + K)) -> the flat layout of ``_flat``; its sd and se rows are not linear
        # in q and are overwritten at each evaluation.
        probe = np.eye(m_count * parts).reshape(m_count * parts, m_count, parts)
        stats = _fold_statistics(probe, design, convention)
        self.linear = _flat(stats, (m_count * parts,)).T          # (nb, M (1 + K))
        centred = stats["folds"] - stats["folds"].mean(axis=-1, keepdims=True)   # (M(1+K), M, K)
        self.centring = np.transpose(centred, (1, 2, 0))           # (M, K, M (1 + K))
        self.sd_rows = [_PARTS.index("sd") * m_count + m for m in range(m_count)]
        self.se_rows = [_PARTS.index("se") * m_count + m for m in range(m_count)]
        self.sd_den, self.root_k = k - convention.fold_sd_ddof, math.sqrt(k)
        kind, i, j = _plan(names, design)
        nb = self.linear.shape[0]
        self.numerator = np.eye(nb)[i] - np.where((kind == 1)[:, None], np.eye(nb)[j], 0.0)
        self.denominator = np.where((kind == 2)[:, None], np.eye(nb)[j], 0.0)
        self.denominator_offset = np.where(kind == 2, 0.0, 1.0)
        self.plain = kind == 0
        self._z = None

    def _evaluate(self, z):
        if self._z is None or not np.array_equal(z, self._z):
            half = self.forms_z @ z                                   # (M (1 + K), D)
            q, dq = half @ z, 2.0 * half
            b, db = self.linear @ q, self.linear @ dq
            centred, d_centred = self.centring @ q, self.centring @ dq      # (M, K), (M, K, D)
            sd = np.sqrt((centred**2).sum(axis=1) / self.sd_den)
            d_sd = np.einsum("mk,mkd->md", centred, d_centred) / (self.sd_den * np.maximum(sd, 1e-300)[:, None])
            b[self.sd_rows], db[self.sd_rows] = sd, d_sd
            b[self.se_rows], db[self.se_rows] = sd / self.root_k, d_sd / self.root_k
            num, d_num = self.numerator @ b, self.numerator @ db
            den, d_den = self.denominator @ b + self.denominator_offset, self.denominator @ db
            self._values = num / den
            self._grads = (d_num * den[:, None] - num[:, None] * d_den) / (den**2)[:, None]
            self._z = np.array(z)
        return self._values, self._grads

    def misses(self, z, aim, scale):
        return (self._evaluate(z)[0] - aim) / scale

    def jacobian(self, z, aim, scale):
        return self._evaluate(z)[1] / scale[:, None]


def solve_from(z0, objective: _Objective, targets: PrintedTargets, aim=None, relative_first: bool = True) -> np.ndarray:
    """One deterministic local solve from ``z0``, in two runs of scipy's ``least_squares`` (trust
    region reflective, exact trust-region solves, analytic Jacobian): first on the relative misses
    of the directly printed statistics alone (a smoother landscape: more starts reach a solution than
    when the differences and ratios pull too), at most 40 evaluations; then on the misses of all of
    them in printed units (what must end below 0.5), at most 20 more.

    Why not Levenberg-Marquardt (``method="lm"``, MINPACK), which is faster: its internal linear
    algebra runs in work arrays whose memory alignment changes from run to run, so its steps differ
    in the last bits and, over a search with many starts, some solves end elsewhere on the set of
    solutions; "trf" gives the same bytes on every run.

    ``aim`` replaces the printed values as the point aimed at (to sample inside the printed precision);
    ``relative_first=False`` skips the first run (for starts already near a solution).
    """
    aim = targets.values if aim is None else np.asarray(aim, dtype=float)
    relative = np.where(objective.plain & (aim != 0), np.abs(aim), np.inf)

    def run(z, scale, evaluations):
        return least_squares(objective.misses, z, jac=objective.jacobian, args=(aim, scale), method="trf",
                             tr_solver="exact", xtol=1e-12, ftol=1e-12, gtol=1e-12, max_nfev=evaluations).x

    z = np.asarray(z0, dtype=float)
    return run(run(z, relative, 40) if relative_first else z, targets.units, 20)


def search_tables(design: Design, convention: Convention, targets: PrintedTargets, slope: float,
                  starts: np.ndarray, aims: np.ndarray | None = None, relative_first: bool = True) -> SearchResult:
    """Solve from each start (rows of ``starts``, points in the line complement) with ``solve_from``
    and judge each end point: y = slope x + basis z, recomputed and compared with the printed figures."""
    basis = line_complement_basis(design.x)
    forms = design.forms()
    objective = _Objective(design, convention, targets.names, np.einsum("ia,mkij,jb->mkab", basis, forms, basis))
    ends = np.array([solve_from(z0, objective, targets, None if aims is None else aims[i], relative_first)
                     for i, z0 in enumerate(starts)])
    tables = slope * design.x + ends @ basis.T
    values = statistic_values(tables, targets.names, design, convention, forms)
    misses = misses_in_printed_units(values, targets)
    return SearchResult(tables, misses.max(axis=1), reads_as_printed(values, targets).all(axis=1))


def broad_starts(design: Design, targets: PrintedTargets, count: int, seed: int) -> np.ndarray:
    """Deterministic starting points: y = slope x + noise, projected on the line complement.

    Draw order: one ``default_rng(seed).standard_normal((count, n))``, row s for start s, observation
    order x = 1..n; scaled by the line's residual s.d. implied by the printed line training error
    (sqrt(e n / (n - 2))), so the starts have about the right size.
    """
    scale = math.sqrt(dict(zip(targets.names, targets.values)).get("line_training_error", 0.1) * design.n / (design.n - 2))
    noise = np.random.default_rng(seed).standard_normal((count, design.n))
    return scale * noise @ line_complement_basis(design.x)


def local_starts_and_aims(table, design: Design, targets: PrintedTargets, count: int, seed: int, start_sd: float):
    """Starts near a consistent table and aims spread over the printed precision, for sampling the
    consistent set around it.

    Draw order from ``default_rng(seed)``: first ``standard_normal((count, n))`` (start offsets,
    scaled by ``start_sd``, projected on the line complement), then ``uniform(-0.5, 0.5, (count, S))``
    (each aim = printed value + that many units of its last digit).
    """
    rng = np.random.default_rng(seed)
    basis = line_complement_basis(design.x)
    z_table = basis.T @ np.asarray(table, dtype=float)
    starts = z_table + start_sd * rng.standard_normal((count, design.n)) @ basis
    aims = targets.values + rng.uniform(-0.5, 0.5, (count, len(targets.names))) * targets.units
    return starts, aims


def screen_conventions(design: Design, conventions, targets: PrintedTargets, slope: float,
                       starts: np.ndarray) -> tuple[pd.DataFrame, dict]:
    """Each convention: ruled out by arithmetic (``arithmetic_problems``), or searched from the
    same starts; consistent if any start ends at a table reading every figure as printed.

    A convention that gives exactly the same figures as an earlier one on every start (pooled CV
    and the mean of fold means, over equal folds) is not searched again: it shares that verdict.
    Returns the screen table and, per convention label, the SearchResult of those searched.
    """
    basis = line_complement_basis(design.x)
    probe = slope * design.x + starts @ basis.T
    rows, searches, fingerprints = [], {}, []
    for convention in conventions:
        problems = arithmetic_problems(targets, design, convention)
        row = {"fold_error": convention.fold_error, "cv": convention.cv, "fold_sd_ddof": convention.fold_sd_ddof,
               "training_error": convention.training_error, "label": convention.label,
               "arithmetic": "; ".join(problems) if problems else "possible", "same_figures_as": "",
               "starts_searched": 0, "consistent_solutions": 0, "best_largest_miss_printed_units": np.nan}
        fingerprint = statistic_values(probe, targets.names, design, convention)
        twin = next((label for label, seen in fingerprints if np.allclose(seen, fingerprint, rtol=1e-12, atol=0)), None)
        fingerprints.append((convention.label, fingerprint))
        if not problems:
            if twin is not None and twin in searches:
                result = searches[twin]
                row["same_figures_as"] = twin
            else:
                result = search_tables(design, convention, targets, slope, starts)
            searches[convention.label] = result
            row.update(starts_searched=len(starts), consistent_solutions=int(result.consistent.sum()),
                       best_largest_miss_printed_units=float(result.largest_miss.min()))
        if problems:
            row["verdict"] = "ruled out by arithmetic"
        elif row["consistent_solutions"]:
            row["verdict"] = "consistent"
        else:
            row["verdict"] = "ruled out by search"
        rows.append(row)
    return pd.DataFrame(rows), searches


# ----------------------------------------------------------------------------------------------
# Identifiability: line, reflection, and the simplest representative

def line_part(y, x) -> np.ndarray:
    """The least-squares line through (x, y), evaluated at x: the part of y no statistic sees."""
    x = np.asarray(x, dtype=float)
    design = np.column_stack([np.ones_like(x), x])
    return design @ np.linalg.lstsq(design, np.asarray(y, dtype=float), rcond=None)[0]


def align_to(tables, reference, x) -> np.ndarray:
    """Tables moved onto the reference's line and reflected to its side (the statistics cannot tell):
    y -> line(reference) +/- (y - line(y)), the sign that agrees with the reference's residuals."""
    x = np.asarray(x, dtype=float)
    reference = np.asarray(reference, dtype=float)
    ref_line = line_part(reference, x)
    ref_resid = reference - ref_line
    tables = np.atleast_2d(tables)
    resid = tables - np.array([line_part(t, x) for t in tables])
    signs = np.where(resid @ ref_resid >= 0, 1.0, -1.0)
    return ref_line + signs[:, None] * resid


def closest_to_line(table, x, slope: float, decimals: int) -> np.ndarray:
    """Among the tables the statistics cannot tell from ``table`` and written with the same decimals
    (y + a + b x with a, b multiples of 10^-decimals, and the reflections about y = slope x), the one
    whose own least-squares line is closest to y = slope x (sum of squares over the x values).

    Reflection about y = slope x keeps that distance, so the two tie: the one whose first
    deviation from slope x that is not zero is positive is taken (an arbitrary, stated choice).
    """
    x = np.asarray(x, dtype=float)
    step = 10.0 ** -decimals
    table = np.asarray(table, dtype=float)
    design = np.column_stack([np.ones_like(x), x])
    intercept, gradient = np.linalg.lstsq(design, table - slope * x, rcond=None)[0]
    best, best_distance = None, np.inf
    for i0 in (math.floor(-intercept / step), math.ceil(-intercept / step)):
        for j0 in (math.floor(-gradient / step), math.ceil(-gradient / step)):
            for di, dj in itertools.product(range(-2, 3), repeat=2):
                a, b = (i0 + di) * step, (j0 + dj) * step
                candidate = np.round(table + a + b * x, decimals)
                distance = float(np.sum((line_part(candidate, x) - slope * x) ** 2))
                if distance < best_distance - 1e-12:
                    best, best_distance = candidate, distance
    mirror = np.round(2 * slope * x - best, decimals)
    deviation = best - slope * x
    first = deviation[np.flatnonzero(np.abs(deviation) > step / 2)]
    return best if first.size == 0 or first[0] > 0 else mirror


def table_class(table, x) -> tuple:
    """What the statistics can see of a table: its residuals from its own least-squares line, up to
    sign (the first residual larger than 1e-6 made positive), to 6 decimals. Two tables with the same
    class reproduce exactly the same figures."""
    resid = np.asarray(table, dtype=float) - line_part(table, x)
    big = np.flatnonzero(np.abs(resid) > 1e-6)
    if big.size and resid[big[0]] < 0:
        resid = -resid
    return tuple(float(v) for v in np.round(resid, 6) + 0.0)


def short_decimal_tables(solutions, design: Design, convention: Convention, targets: PrintedTargets,
                         slope: float, decimals: int, gauge_steps: int = 5) -> pd.DataFrame:
    """Tables written with ``decimals`` decimals that reproduce every printed figure, found by
    rounding consistent continuous solutions.

    A lattice table y* is found from a solution y_c when y_c + a + b (x - centre), for the right a and
    b, lies within half a lattice step of y* in every coordinate; a and b run over a grid of
    ``gauge_steps`` values across one lattice step (b scaled by the half-width of x), so the grid
    itself costs at most about 0.2 of a step. Found tables are grouped into classes (equal up to a
    line and a reflection) and each class written as its ``closest_to_line`` member.

    Returns one row per class: its y values, how many rounded candidates hit it, and its distance
    from y = slope x.
    """
    x = design.x
    step = 10.0 ** -decimals
    centre, half = (x.max() + x.min()) / 2, (x.max() - x.min()) / 2
    a_grid = np.arange(gauge_steps) / gauge_steps * step
    b_count = math.ceil(gauge_steps * half)
    b_grid = np.arange(b_count) / b_count * step
    shifts = np.array([a + b * (x - centre) for a in a_grid for b in b_grid])
    solutions = np.atleast_2d(solutions)
    candidates = np.round((solutions[:, None, :] + shifts[None, :, :]).reshape(-1, design.n), decimals)
    candidates, hits = np.unique(candidates, axis=0, return_counts=True)
    values = statistic_values(candidates, targets.names, design, convention)
    screened = (misses_in_printed_units(values, targets) <= 0.5 + 1e-9).all(axis=1)
    good = np.flatnonzero(screened)
    good = good[reads_as_printed(values[good], targets).all(axis=1)] if good.size else good
    classes: dict[tuple, dict] = {}
    for i in good:
        entry = classes.setdefault(table_class(candidates[i], x), {"member": candidates[i], "hits": 0})
        entry["hits"] += int(hits[i])
    rows = []
    for key, entry in classes.items():
        representative = closest_to_line(entry["member"], x, slope, decimals)
        rows.append({"decimals": decimals, "candidates_hit": entry["hits"], "class_key": " ".join(f"{v:.6f}" for v in key),
                     "line_distance": float(np.sum((line_part(representative, x) - slope * x) ** 2)),
                     **{f"y_{j + 1}": float(v) for j, v in enumerate(representative)}})
    columns = ["decimals", "candidates_hit", "class_key", "line_distance"] + [f"y_{j + 1}" for j in range(design.n)]
    table = pd.DataFrame(rows, columns=columns)
    return table.sort_values(["line_distance", "candidates_hit"], ascending=[True, False], kind="stable").reset_index(drop=True)


def lattice_neighbours(table, design: Design, convention: Convention, targets: PrintedTargets, decimals: int) -> dict:
    """How many tables one or two lattice steps (10^-decimals) away from ``table`` also reproduce
    every printed figure: every single-coordinate move (+/- one step) and every pair of moves."""
    step = 10.0 ** -decimals
    n = design.n
    moves = []
    for i in range(n):
        for s in (-1, 1):
            m = np.zeros(n)
            m[i] = s * step
            moves.append(m)
    for i, j in itertools.combinations(range(n), 2):
        for si, sj in itertools.product((-1, 1), repeat=2):
            m = np.zeros(n)
            m[i], m[j] = si * step, sj * step
            moves.append(m)
    candidates = np.round(np.asarray(table, dtype=float) + np.array(moves), decimals)
    values = statistic_values(candidates, targets.names, design, convention)
    consistent = reads_as_printed(values, targets).all(axis=1)
    return {"decimals": decimals, "step": step, "neighbours_tried": len(moves), "neighbours_consistent": int(consistent.sum()),
            "closest_neighbour_largest_miss_printed_units": float(misses_in_printed_units(values, targets).max(axis=1).min())}


def spread_over_solutions(tables, reference, x) -> pd.DataFrame:
    """Per observation: the reference value and the s.d., min and max over ``tables`` once aligned to
    the reference's line and side (``align_to``)."""
    aligned = align_to(tables, reference, x)
    return pd.DataFrame({
        "y_sd": aligned.std(axis=0, ddof=1) if len(aligned) > 1 else np.zeros(len(reference)),
        "y_min": aligned.min(axis=0),
        "y_max": aligned.max(axis=0),
    })


# ----------------------------------------------------------------------------------------------
# The study on a table: fits, folds, contrasts, claims

def held_out_predictions(y, design: Design) -> np.ndarray:
    """Each observation's prediction by each model fitted without its fold: shape (M, n)."""
    y = np.asarray(y, dtype=float)
    out = np.zeros((len(design.degrees), design.n))
    for m, degree in enumerate(design.degrees):
        for fold in design.folds:
            train = np.setdiff1d(np.arange(design.n), fold)
            coef = least_squares_coefficients(design.x[train], y[train], degree, design.x)
            out[m, fold] = predict(coef, design.x[fold], design.x)
    return out


def fold_table(y, design: Design, convention: Convention) -> pd.DataFrame:
    """The worked example's step 3: one row per model and fold, its observations and held-out error."""
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    rows = []
    for m, model in enumerate(MODELS):
        for j, fold in enumerate(design.folds):
            rows.append({"model": model, "degree": design.degrees[m], "fold": j + 1,
                         "observations": " ".join(str(i + 1) for i in fold),
                         "held_out_error": float(stats["folds"][0, m, j])})
    return pd.DataFrame(rows)


def model_summary(y, design: Design, convention: Convention) -> pd.DataFrame:
    """Steps 1 and 4: per model, training error on all points, CV_k, fold s.d., standard error s.d./sqrt(k),
    the worst fold, and the fitted line's intercept and slope (for the line)."""
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    rows = []
    for m, model in enumerate(MODELS):
        folds = stats["folds"][0, m]
        rows.append({"model": model, "degree": design.degrees[m], "parameters": design.degrees[m] + 1,
                     "training_error": float(stats["training"][0, m]), "cv_error": float(stats["cv"][0, m]),
                     "fold_sd": float(stats["sd"][0, m]), "std_error": float(stats["se"][0, m]),
                     "worst_fold": int(np.argmax(folds)) + 1, "best_fold": int(np.argmin(folds)) + 1,
                     "cv_over_training": float(stats["cv"][0, m] / stats["training"][0, m])})
    return pd.DataFrame(rows)


def _check_fold(number: int, design: "Design", what: str) -> None:
    if not 1 <= number <= len(design.folds):
        raise ValueError(f"{what} = {number}: there are folds 1 to {len(design.folds)}")


def contrasts(y, design: Design, convention: Convention, fold_a: int, fold_b: int) -> pd.DataFrame:
    """"Reading the result": differences and ratios between the models, and the polynomial's fold
    ``fold_a`` over fold ``fold_b`` (one row)."""
    _check_fold(fold_a, design, "fold_a")
    _check_fold(fold_b, design, "fold_b")
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    train, cv, se, folds = stats["training"][0], stats["cv"][0], stats["se"][0], stats["folds"][0]
    line, poly = MODELS.index("line"), MODELS.index("polynomial")
    return pd.DataFrame([{
        "training_error_gain": float(train[line] - train[poly]),
        "cv_difference": float(cv[poly] - cv[line]),
        "polynomial_cv_over_training": float(cv[poly] / train[poly]),
        "polynomial_cv_over_line_cv": float(cv[poly] / cv[line]),
        "polynomial_fold_ratio": float(folds[poly, fold_a - 1] / folds[poly, fold_b - 1]),
        "fold_ratio_numerator_fold": fold_a,
        "fold_ratio_denominator_fold": fold_b,
        "cv_difference_over_line_std_error": float((cv[poly] - cv[line]) / se[line]),
        "cv_difference_over_polynomial_std_error": float((cv[poly] - cv[line]) / se[poly]),
    }])


def document_claims(y, design: Design, convention: Convention, edge_fold: int, fold_b: int, nearly: float) -> pd.DataFrame:
    """What "Reading the result" says in words, each checked on ``y``: one row per claim, ``holds``
    True or False, with the numbers it rests on.

    ``edge_fold`` is the fold holding the largest x (the document's fold 4), ``fold_b`` the fold it is
    compared with (fold 3), ``nearly`` the round number their ratio is 'nearly' (four).
    """
    _check_fold(edge_fold, design, "edge_fold")
    _check_fold(fold_b, design, "fold_b")
    stats = fold_statistics(np.asarray(y)[None, :], design, convention)
    train, cv, se, folds = stats["training"][0], stats["cv"][0], stats["se"][0], stats["folds"][0]
    line, poly = MODELS.index("line"), MODELS.index("polynomial")
    diff = cv[poly] - cv[line]
    excess = folds[poly] - folds[line]
    ratio = folds[poly, edge_fold - 1] / folds[poly, fold_b - 1]
    claims = [
        ("polynomial_ahead_on_training", train[poly] < train[line], train[line] - train[poly],
         "polynomial training error below the line's ('the polynomial is marginally ahead')"),
        ("line_held_out_above_training", cv[line] > train[line], cv[line] - train[line],
         "line held-out error above its training error ('larger, as expected')"),
        ("polynomial_held_out_above_training", cv[poly] > train[poly], cv[poly] - train[poly],
         "polynomial held-out error above its training error ('3.9 times its training error')"),
        ("polynomial_cv_above_line_cv", cv[poly] > cv[line], diff,
         "polynomial held-out error above the line's (the ranking)"),
        ("difference_exceeds_both_standard_errors", diff > se.max(), diff - se.max(),
         "'The difference between the two ... is larger than either standard error'"),
        ("edge_fold_is_polynomials_worst", int(np.argmax(folds[poly])) + 1 == edge_fold, folds[poly, edge_fold - 1],
         "the fold holding the largest x is the polynomial's worst ('The fourth fold is the informative one')"),
        ("edge_fold_over_fold_b_below_nearly", ratio < nearly, ratio,
         "'a factor of nearly four': the ratio is below four"),
        ("polynomial_excess_smallest_on_fold_b", int(np.argmin(excess)) + 1 == fold_b, excess[fold_b - 1],
         "the polynomial's excess over the line is smallest on fold 3 ('on fold 3 it is close to the line')"),
    ]
    return pd.DataFrame([{"claim": c, "holds": bool(h), "value": float(v), "reading": r} for c, h, v, r in claims])


# ----------------------------------------------------------------------------------------------
# Fresh data

def residual_sd(y, x) -> float:
    """The line's residual standard deviation, sqrt(RSS / (n - 2)): the noise level of fresh data."""
    y = np.asarray(y, dtype=float)
    return float(math.sqrt(np.sum((y - line_part(y, x)) ** 2) / (len(y) - 2)))


def fresh_data_statistics(design: Design, convention: Convention, slope: float, noise_sd: float,
                          draws: int, seed: int, batch: int = 20000) -> dict:
    """Fold statistics of ``draws`` fresh tables y = slope x + noise_sd e, e standard normal.

    Draw order: ``default_rng(seed).standard_normal((draws, n))`` drawn in consecutive batches of
    rows (same stream as one call), row d for table d, observation order x = 1..n.
    """
    rng = np.random.default_rng(seed)
    forms = design.forms()
    parts = []
    done = 0
    while done < draws:
        size = min(batch, draws - done)
        ys = slope * design.x + noise_sd * rng.standard_normal((size, design.n))
        parts.append(fold_statistics(ys, design, convention, forms))
        done += size
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def conclusion_frequencies(stats: dict, edge_fold: int, reference_difference: float | None = None) -> pd.DataFrame:
    """How often each conclusion of the document holds over fresh tables, with its Monte Carlo
    standard error sqrt(p (1 - p) / R); with ``reference_difference``, also how often the CV
    difference is at least that large."""
    line, poly = MODELS.index("line"), MODELS.index("polynomial")
    cv, se, folds, train = stats["cv"], stats["se"], stats["folds"], stats["training"]
    diff = cv[:, poly] - cv[:, line]
    worst = np.argmax(folds[:, poly], axis=1) + 1
    k = folds.shape[-1]
    events = {
        "polynomial_ahead_on_training": train[:, poly] < train[:, line],
        "polynomial_cv_above_line_cv": diff > 0,
        "difference_exceeds_both_standard_errors": diff > se.max(axis=1),
        "edge_fold_is_polynomials_worst": worst == edge_fold,
        "either_edge_fold_is_polynomials_worst": (worst == 1) | (worst == k),
        "all_conclusions": (diff > 0) & (diff > se.max(axis=1)) & (worst == edge_fold),
    }
    if reference_difference is not None:
        events["cv_difference_at_least_reference"] = diff >= reference_difference
    rows = []
    r = len(diff)
    for name, event in events.items():
        p = float(np.mean(event))
        rows.append({"conclusion": name, "draws": r, "frequency": p, "frequency_se": math.sqrt(p * (1 - p) / r),
                     "frequency_percent": 100 * p, "frequency_percent_se": 100 * math.sqrt(p * (1 - p) / r),
                     "holds_in_every_draw": bool(event.all())})
    return pd.DataFrame(rows)


def fits_table(y, design: Design) -> pd.DataFrame:
    """Step 1 and step 3 per observation: its fold, each model's fit on all points, and each model's
    prediction when the observation's fold is held out."""
    y = np.asarray(y, dtype=float)
    fold_of = np.zeros(design.n, dtype=int)
    for j, fold in enumerate(design.folds):
        fold_of[fold] = j + 1
    held_out = held_out_predictions(y, design)
    table = {"observation": np.arange(1, design.n + 1), "x": design.x, "y": y, "fold": fold_of}
    for m, (model, degree) in enumerate(zip(MODELS, design.degrees)):
        table[f"{model}_fit"] = predict(least_squares_coefficients(design.x, y, degree, design.x), design.x, design.x)
        table[f"{model}_held_out_prediction"] = held_out[m]
    return pd.DataFrame(table)


def histogram_table(values, bins: int, upper_quantile: float) -> pd.DataFrame:
    """Counts of ``values`` in ``bins`` equal bins from their minimum to their ``upper_quantile``
    quantile, plus one overflow row (``overflow`` True) from there to the maximum."""
    values = np.asarray(values, dtype=float)
    top = float(np.quantile(values, upper_quantile))
    counts, edges = np.histogram(values[values <= top], bins=bins, range=(float(values.min()), top))
    table = pd.DataFrame({"bin_left": edges[:-1], "bin_right": edges[1:], "count": counts, "overflow": False})
    extra = pd.DataFrame([{"bin_left": top, "bin_right": float(values.max()), "count": int((values > top).sum()), "overflow": True}])
    return pd.concat([table, extra], ignore_index=True)
