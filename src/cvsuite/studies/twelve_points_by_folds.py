"""What CV_k estimates, on the worked example's own design: "Estimating Out-of-Sample Error".

The document says CV_k estimates "the error of the procedure applied to training sets of size about
n(k-1)/k", that "for small n ... the estimate is mildly pessimistic", "A bias that shrinks as k grows
and vanishes at k=n", that leave-one-out "estimates the error of the model actually being fitted" while
its "held-out losses [are] strongly dependent and their average more variable", and that "Five or ten
folds trade a little bias for a steadier estimate".

On the worked example's design (x = 1..12, the line and the degree-5 polynomial, folds by position)
with fresh data y = a + b x + e, e ~ N(0, s^2), these are exact: both models contain the line, so
each held-out residual is a linear map of e alone, CV_k is a quadratic form e'Ae with E = s^2 tr(A)
and Var = 2 s^4 tr(A^2), and the error of the model fitted to all n observations on a new observation
at one of the design's x is s^2 (1 + p/n). Every figure below is in units of s^2 (so it depends on
neither the recovered table nor the noise level) for each k that divides n into folds the polynomial
can be fitted without.

Readings (criteria) of the words:
- "about n(k-1)/k": every training set within one observation of n(k-1)/k;
- "mildly pessimistic": E[CV_k] above the full-sample error by less than MILD_PERCENT, at the
  example's k, for both candidates;
- "shrinks as k grows": the pessimism does not increase from one k to the next, for both;
- "vanishes at k = n": the pessimism of leave-one-out is below VANISHING_PERCENT, for both;
- "their average more variable": the s.d. of leave-one-out's CV above that of the example's k, for both;
- "trade a little bias for a steadier estimate": at the example's k, more pessimism and a smaller
  s.d. than leave-one-out, for both.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import MODELS, Convention, Design, statistics_from_sums
from cvsuite.methods.folds import positional_folds

MILD_PERCENT = 10.0
VANISHING_PERCENT = 1.0


def equal_fold_counts(n: int, largest_degree: int) -> list[int]:
    """The k (2..n) that split n observations into equal folds leaving at least largest_degree + 1 to fit."""
    return [k for k in range(2, n + 1) if n % k == 0 and n - n // k >= largest_degree + 1]


def cv_quadratic_forms(design: Design, convention: Convention) -> np.ndarray:
    """The matrices A_m with CV_k of model m = y' A_m y, shape (M, n, n).

    CV is linear in the residual sums of squares (``statistics_from_sums``), so its coefficients are
    read off by applying the convention to each unit sum, and A_m is the same combination of the sums'
    own quadratic forms.
    """
    forms = design.forms()  # (M, 1 + K, n, n)
    models, parts = forms.shape[:2]
    unit = np.zeros((parts, models, parts))
    for i in range(parts):
        unit[i, :, i] = 1.0
    coefficients = statistics_from_sums(unit, design, convention)["cv"]  # (parts, M)
    return np.einsum("im,mijk->mjk", coefficients, forms)


def expectations_by_folds(x, degrees, fold_counts, convention: Convention) -> pd.DataFrame:
    """Per model and k: fold and training sizes, fits, E[CV_k] and s.d.(CV_k), the full-sample error
    and the pessimism 100 (E[CV_k] / full-sample error - 1); all in units of the noise variance."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    rows = []
    for k in fold_counts:
        design = Design(x, tuple(degrees), tuple(positional_folds(n, k)))
        forms = cv_quadratic_forms(design, convention)
        training_forms = design.forms()[:, 0]
        for m, (model, degree) in enumerate(zip(MODELS, degrees)):
            expected = float(np.trace(forms[m]))
            sd = float(np.sqrt(2 * np.trace(forms[m] @ forms[m])))
            parameters = n - float(np.trace(training_forms[m]))  # trace of the hat matrix
            full_sample = 1 + parameters / n
            sizes = design.fold_sizes
            rows.append(
                {
                    "model": model,
                    "degree": int(degree),
                    "folds": int(k),
                    "fold_size": int(sizes.max()),
                    "training_size": int(n - sizes.max()),
                    "training_size_formula": n * (k - 1) / k,
                    "fits": len(design.folds),
                    "expected_cv": expected,
                    "cv_sd": sd,
                    "full_sample_error": full_sample,
                    "pessimism_percent": 100 * (expected / full_sample - 1),
                }
            )
    return pd.DataFrame(rows)


def fold_count_claims(table: pd.DataFrame, example_folds: int) -> list[tuple[str, bool, float, str]]:
    """The sentences about k as (claim, holds, value, reading), from ``expectations_by_folds``."""
    n = int(table["training_size"].iloc[0] + table["fold_size"].iloc[0])
    if table["folds"].max() != n:
        raise ValueError(f"the claims about k = n need leave-one-out (k = {n}) among the fold counts")
    by_model = {model: part.sort_values("folds").set_index("folds") for model, part in table.groupby("model")}
    at_k = {model: part.loc[example_folds] for model, part in by_model.items()}
    loo = {model: part.loc[n] for model, part in by_model.items()}
    pessimism_k = [r["pessimism_percent"] for r in at_k.values()]
    shrinks = [bool(np.all(np.diff(p["pessimism_percent"].to_numpy()) <= 0)) for p in by_model.values()]
    loo_pessimism = [abs(r["pessimism_percent"]) for r in loo.values()]
    sd_ratio = [loo[m]["cv_sd"] / at_k[m]["cv_sd"] for m in by_model]
    trades = [
        at_k[m]["pessimism_percent"] > loo[m]["pessimism_percent"] and at_k[m]["cv_sd"] < loo[m]["cv_sd"]
        for m in by_model
    ]
    sizes = table["training_size"] - table["training_size_formula"]
    return [
        (
            "training_size_about_n_k_minus_1_over_k",
            bool(np.all(np.abs(sizes) < 1)),
            float(np.abs(sizes).max()),
            "every training set holds about n(k-1)/k observations (within one); value: the largest gap",
        ),
        (
            "larger_k_trains_on_more",
            all(bool(np.all(np.diff(p["training_size"].to_numpy()) > 0)) for p in by_model.values()),
            float(table["training_size"].max()),
            "the training size grows with k ('Larger k fits on more data'); value: the largest",
        ),
        (
            "computation_proportional_to_k",
            bool(np.all(table["fits"] == table["folds"])),
            float(table["fits"].max()),
            "CV_k fits k models ('at proportionally more computation'); value: fits at k = n",
        ),
        (
            "cv_mildly_pessimistic_at_example_k",
            all(0 < p < MILD_PERCENT for p in pessimism_k),
            float(max(pessimism_k)),
            f"E[CV_k] at the example's k exceeds the full-sample error by less than {MILD_PERCENT:g}% for both models "
            "('mildly pessimistic'); value: the larger pessimism, percent",
        ),
        (
            "pessimism_shrinks_as_k_grows",
            all(shrinks),
            float(max(pessimism_k)),
            "the pessimism does not increase from one k to the next, for both models ('shrinks as k grows'); "
            "value: the larger pessimism at the example's k, percent",
        ),
        (
            "pessimism_vanishes_at_k_equals_n",
            all(p < VANISHING_PERCENT for p in loo_pessimism),
            float(max(loo_pessimism)),
            f"leave-one-out's pessimism is below {VANISHING_PERCENT:g}% for both models ('vanishes at k=n', 'estimates "
            "the error of the model actually being fitted'); value: the larger, percent",
        ),
        (
            "loo_more_variable_than_example_k",
            all(r > 1 for r in sd_ratio),
            float(max(sd_ratio)),
            "leave-one-out's CV has a larger s.d. than CV at the example's k, for both models ('their average more "
            "variable'); value: the larger ratio of s.d.s, leave-one-out over the example's k",
        ),
        (
            "example_k_trades_bias_for_steadiness",
            all(trades),
            float(max(sd_ratio)),
            "at the example's k, more pessimism and a smaller s.d. than leave-one-out, for both models ('trade a "
            "little bias for a steadier estimate'); value: the larger ratio of s.d.s, leave-one-out over the "
            "example's k",
        ),
    ]


def loo_training_overlap(n: int) -> int:
    """The observations two leave-one-out training sets share: n - 2 of their n - 1 ('overlap in all
    but one observation'), the smallest over every pair."""
    training = [np.setdiff1d(np.arange(n), fold) for fold in positional_folds(n, n)]
    return min(len(np.intersect1d(a, b)) for i, a in enumerate(training) for b in training[i + 1 :])
