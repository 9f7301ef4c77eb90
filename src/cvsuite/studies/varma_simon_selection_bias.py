"""The optimism of the tuned classifier's cross-validation error, and nested cross-validation.

Varma and Simon (2006), 'Bias in error estimation when using cross-validation for model
selection', BMC Bioinformatics 7:91, as "Cross-Validation" (Evidence and Impact; Pitfalls:
'Reporting the winner's cross-validation score') quotes it: datasets of 40 samples (20 per class)
and 6,000 features; nearest shrunken centroids tuned by 10-fold cross-validation and a support
vector machine tuned by leave-one-out; the minimum cross-validation error reported as if it were
the tuned classifier's error, against its true error and against nested cross-validation (the
tuning repeated inside a leave-one-out outer loop).

One simulated dataset (``simulate_dataset``), in this draw order from one
``numpy.random.default_rng``:

1. X, (n0 + n1) x p standard normal, rows of class 0 first; class 1 then has ``signal_shift``
   added to its first ``signal_features`` features (0 for the "null" data);
2. the 10-fold partition of the shrunken-centroid tuning (``stratified_folds``);
3. for each outer leave-one-out fold i = 0, ..., n-1 in turn, the 10-fold partition of the tuning
   repeated on the n - 1 remaining samples.

The paper's SVM grid is not recoverable from what the document quotes; the SVM here is a linear
C-SVM on the genes of largest |two-sample t| of each training set (gene selection repeated inside
every fold), tuned over (number of genes) x C. A linear SVM on all genes is the grid's last row;
alone, its leave-one-out error is dominated by the intercept favouring the training majority,
which leave-one-out always makes the held-out sample's opposite class (see NOTES of the study).

The SVM draws nothing. The true error of each tuned classifier is computed exactly, not on a test
sample: both classifiers are linear in x, and x is Gaussian with identity covariance within each
class, so the error of ``w . x + b`` on class k is a normal tail probability
(``linear_rule_error``); the two classes are taken as equally likely, as in the balanced designs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm
from sklearn.svm import _libsvm

from cvsuite.methods import shrunken_centroids as nsc
from cvsuite.methods.folds import stratified_dealt_folds
from cvsuite.methods.monte_carlo import mean_and_se

CLASSIFIERS = ("shrunken_centroids", "svm")


@dataclass(frozen=True)
class Dataset:
    """A simulated training set and the class means that define its population."""

    x: np.ndarray
    y: np.ndarray
    class_means: np.ndarray  # (2, p)


def simulate_dataset(rng: np.random.Generator, per_class: int, n_features: int, signal_features: int, signal_shift: float) -> Dataset:
    """Step 1 of the draw order: ``per_class`` samples of each class, class 1 shifted on the first
    ``signal_features`` features by ``signal_shift`` (no shift: the null data)."""
    if signal_features > n_features:
        raise ValueError("there cannot be more signal features than features")
    x = rng.standard_normal((2 * per_class, n_features))
    y = np.repeat([0, 1], per_class)
    means = np.zeros((2, n_features))
    means[1, :signal_features] = signal_shift
    x[y == 1] += means[1]
    return Dataset(x=x, y=y, class_means=means)


def stratified_folds(y: np.ndarray, n_folds: int, rng: np.random.Generator) -> list[np.ndarray]:
    """K folds with the classes spread as evenly as they go (pamr's balanced folds)."""
    return stratified_dealt_folds(y, n_folds, rng)


def pick(errors: np.ndarray, ties: str, simplest_last: bool) -> int:
    """Index of the least error on a tuning grid; ``ties`` says which of several equal minima wins.

    ``ties`` is ``simplest`` (the most regularised setting) or ``most_complex``;
    ``simplest_last`` says in which direction the grid runs (thresholds ascending: the last is the
    simplest; gene counts and costs ascending: the first is).
    """
    best = np.flatnonzero(errors == errors.min())
    if ties not in ("simplest", "most_complex"):
        raise ValueError(f"ties must be 'simplest' or 'most_complex', got '{ties}'")
    take_last = (ties == "simplest") == simplest_last
    return int(best[-1] if take_last else best[0])


def linear_rule_error(w: np.ndarray, b: float, class_means: np.ndarray) -> float:
    """Exact error of 'class 0 iff w . x + b >= 0' when x ~ N(mean_k, I) and P(class) = 1/2.

    A constant rule (w = 0) is wrong on exactly one class: error 1/2.
    """
    length = float(np.linalg.norm(w))
    if length == 0.0:
        return 0.5
    margin = (class_means @ w + b) / length
    return 0.5 * (norm.cdf(-margin[0]) + norm.cdf(margin[1]))


def class_prior(y: np.ndarray, rule: str) -> np.ndarray:
    """The shrunken centroids' prior: pamr's default, the class proportions, or equal."""
    if rule == "class_proportions":
        return np.bincount(y, minlength=2) / len(y)
    if rule == "equal":
        return np.array([0.5, 0.5])
    raise ValueError(f"prior must be 'class_proportions' or 'equal', got '{rule}'")


# --- nearest shrunken centroids ------------------------------------------------------------------


def shrunken_centroid_study(
    data: Dataset, rng: np.random.Generator, n_thresholds: int, n_folds: int, prior_rule: str, ties: str, nested: bool = True
) -> dict:
    """Tuned by K-fold CV on all the data; nested inside leave-one-out; true error of the tuned fit.

    Draws steps 2 and 3 of the draw order from ``rng`` (step 3 only when ``nested``; without it
    the nested estimate is NaN).
    """
    x, y = data.x, data.y
    n = len(y)
    x_squared = x * x
    everything = np.ones((1, n), dtype=bool)
    full = nsc.fit_centroids(x, y, everything, x_squared)
    thresholds = nsc.threshold_grid(full.d[0], n_thresholds)
    prior = class_prior(y, prior_rule)
    errors = nsc.cv_errors(x, y, stratified_folds(y, n_folds, rng), thresholds, prior, x_squared)
    chosen = pick(errors, ties, simplest_last=True)
    w, b = nsc.linear_rule(full, 0, thresholds[chosen], prior)

    result = {
        "min_cv_error": float(errors[chosen]),
        "nested_cv_error": float("nan"),
        "true_error": linear_rule_error(w, b, data.class_means),
        "chosen_threshold": float(thresholds[chosen]),
        "chosen_cost": float("nan"),
        "chosen_genes": int(np.count_nonzero(np.abs(full.d[0]) > thresholds[chosen])),
    }
    if not nested:
        return result
    outer = ~np.eye(n, dtype=bool)
    outer_fits = nsc.fit_centroids(x, y, outer, x_squared)
    wrong = 0
    for i in range(n):
        keep = outer[i]
        x_in, y_in = x[keep], y[keep]
        inner_thresholds = nsc.threshold_grid(outer_fits.d[i], n_thresholds)
        inner_prior = class_prior(y_in, prior_rule)
        inner = nsc.cv_errors(x_in, y_in, stratified_folds(y_in, n_folds, rng), inner_thresholds, inner_prior, x_squared[keep])
        threshold = inner_thresholds[pick(inner, ties, simplest_last=True)]
        wrong += int(nsc.predict(outer_fits, i, x[i], threshold, inner_prior)[0] != y[i])
    return {**result, "nested_cv_error": wrong / n}


# --- support vector machine on a precomputed linear kernel ---------------------------------------


@dataclass(frozen=True)
class SvmFit:
    """A C-SVM in libsvm's own orientation: class 0 iff ``kernel[:, support] @ coef + intercept > 0``."""

    support: np.ndarray
    coef: np.ndarray
    intercept: float
    bounded: bool  # some multiplier at its bound C


def fit_svm(kernel: np.ndarray, y: np.ndarray, cost: float) -> SvmFit:
    """The C-SVM that ``sklearn.svm.SVC(kernel='precomputed', C=cost)`` fits, without its checks.

    SVC validates its arguments on every call (about 1 ms here, 25 times the solve); the leave-one-
    out and nested loops fit thousands of 38- and 39-point problems, so this calls the same libsvm
    solver with SVC's defaults directly. tests/test_varma_simon_selection_bias.py pins the result
    to SVC's. Labels 0 and 1 are passed as SVC passes them (floats, sorted classes).
    """
    _libsvm.set_verbosity_wrap(0)  # as SVC(verbose=False) does before each fit
    support, _, _, coef, intercept, *_ = _libsvm.fit(
        np.ascontiguousarray(kernel, dtype=np.float64),
        y.astype(np.float64),
        svm_type=0,
        kernel="precomputed",
        C=float(cost),
        tol=1e-3,
        cache_size=200.0,
        class_weight=np.empty(0),
        sample_weight=np.empty(0),
        shrinking=1,
        probability=0,
        max_iter=-1,
        random_seed=0,
    )
    coef = coef[0]
    # A multiplier strictly inside (0, C) everywhere means the hard-margin solution.
    return SvmFit(support=support, coef=coef, intercept=float(intercept[0]), bounded=bool(np.any(np.abs(coef) >= cost * (1 - 1e-9))))


def svm_predict(fit: SvmFit, kernel_rows: np.ndarray) -> np.ndarray:
    """Class (0 or 1) of each test row; ``kernel_rows`` holds kernels with the fit's training points."""
    decision = np.atleast_2d(kernel_rows)[:, fit.support] @ fit.coef + fit.intercept
    return np.where(decision > 0, 0, 1)


def svm_path(kernel: np.ndarray, y: np.ndarray, costs: np.ndarray) -> list[SvmFit]:
    """One fit per cost, ascending. Once a fit has no multiplier at its bound it is the
    hard-margin SVM, which is also the solution for every larger C: it is reused, not refitted."""
    fits: list[SvmFit] = []
    for cost in costs:
        if fits and not fits[-1].bounded:
            fits.append(fits[-1])
        else:
            fits.append(fit_svm(kernel, y, cost))
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


def gene_count_kernels(x: np.ndarray, ranked: np.ndarray, gene_counts: list[int], full_kernel: np.ndarray) -> list[np.ndarray]:
    """The linear kernel X_S X_S^T / |S| over all n samples for the top-k genes S of one training
    set, for each k; k >= p is all genes: the precomputed ``full_kernel``, not recomputed."""
    p = x.shape[1]
    kernels = []
    for k in gene_counts:
        if k >= p:
            kernels.append(full_kernel)
        else:
            chosen = x[:, ranked[:k]]
            kernels.append(chosen @ chosen.T / k)
    return kernels


def svm_study(data: Dataset, costs: np.ndarray, gene_counts: list[int], ties: str, nested: bool = True) -> dict:
    """Tuned by leave-one-out on all the data; nested inside leave-one-out; true error of the tuned fit.

    The tuning grid is (number of top-|t| genes, ranked on each training set alone) x (cost C),
    flattened gene count first; with a count >= p the kernel is the all-gene X X^T / p, computed
    once per dataset. Every training set is the data less one or two samples, and every kernel
    covers all n samples, so the held-out rows are read from the same matrix. In the nested loop
    the training set of outer fold i, inner fold j is all but {i, j}, the same as that of outer
    fold j, inner fold i: one fit per pair serves both. Without ``nested`` only the n leave-one-
    out training sets are fitted and the nested estimate is NaN.
    """
    x, y = data.x, data.y
    n, p = x.shape
    costs = np.sort(np.asarray(costs, dtype=float))  # svm_path's reuse of the hard margin needs C ascending
    gene_counts = sorted({min(int(k), p) for k in gene_counts})
    full_kernel = x @ x.T / p
    ranked_needed = max([k for k in gene_counts if k < p], default=0)
    grid = [(k, c) for k in gene_counts for c in costs]
    everyone = np.arange(n)

    # Every training set of both loops: all but i (n of them), then all but {i, j} (n(n-1)/2).
    leave_outs = [[i] for i in range(n)] + ([[i, j] for i in range(n) for j in range(i + 1, n)] if nested else [])
    ranked = top_genes(x, y, leave_outs, ranked_needed) if ranked_needed else np.zeros((len(leave_outs), 0), dtype=int)

    def misclassified(row: int) -> np.ndarray:
        """Whether each left-out sample of training set ``row`` is misclassified, per grid point."""
        left = leave_outs[row]
        keep = np.delete(everyone, left)
        wrong = np.zeros((len(left), len(grid)), dtype=bool)
        for a, kernel in enumerate(gene_count_kernels(x, ranked[row], gene_counts, full_kernel)):
            rows = kernel[left][:, keep]
            for c, fit in enumerate(svm_path(kernel[keep][:, keep], y[keep], costs)):
                wrong[:, a * len(costs) + c] = svm_predict(fit, rows) != y[left]
        return wrong

    wrong_loo = np.vstack([misclassified(i) for i in range(n)])  # (n, grid): fit on all but i
    loo_errors = wrong_loo.mean(axis=0)
    chosen = pick(loo_errors, ties, simplest_last=False)

    wrong_inner = np.zeros((n, n, len(grid)), dtype=bool)  # [i, j]: outer fold i, inner test point j
    for row in range(n, len(leave_outs)):
        i, j = leave_outs[row]
        both = misclassified(row)
        wrong_inner[j, i], wrong_inner[i, j] = both[0], both[1]
    nested_error = float("nan")
    if nested:
        nested_wrong = 0
        for i in range(n):
            inner_errors = np.delete(wrong_inner[i], i, axis=0).mean(axis=0)
            nested_wrong += int(wrong_loo[i, pick(inner_errors, ties, simplest_last=False)])
        nested_error = nested_wrong / n

    k, cost = grid[chosen]
    genes = np.arange(p) if k >= p else top_genes(x, y, [[]], k)[0]
    kernel = x[:, genes] @ x[:, genes].T / len(genes)
    final = svm_path(kernel, y, costs[costs <= cost])[-1]
    # libsvm's decision w . x_S + b with w = X_S^T coef / |S| over the support vectors; zero off S.
    w = np.zeros(p)
    w[genes] = x[np.ix_(final.support, genes)].T @ final.coef / len(genes)
    return {
        "min_cv_error": float(loo_errors[chosen]),
        "nested_cv_error": nested_error,
        "true_error": linear_rule_error(w, final.intercept, data.class_means),
        "chosen_threshold": float("nan"),
        "chosen_cost": float(cost),
        "chosen_genes": int(len(genes)),
    }


# --- the simulation and its summary --------------------------------------------------------------


def selection_bias_simulation(
    scenarios: dict[str, dict],
    datasets: int,
    per_class: int,
    n_features: int,
    n_thresholds: int,
    n_folds: int,
    prior_rule: str,
    costs: np.ndarray,
    gene_counts: list[int],
    ties: str,
) -> pd.DataFrame:
    """One row per scenario, dataset and classifier: minimum CV error, nested estimate, true error.

    ``scenarios`` maps a name to ``{seed, signal_features, signal_shift, nested}``, ``nested``
    listing the classifiers whose nested estimate is computed there (NaN for the others); dataset
    r of a scenario draws from ``default_rng([seed, r])`` in the module's draw order. Errors are
    in percent.
    """
    costs = np.sort(np.asarray(costs, dtype=float))
    rows = []
    for name, scenario in scenarios.items():
        for r in range(datasets):
            rng = np.random.default_rng([scenario["seed"], r])
            data = simulate_dataset(rng, per_class, n_features, scenario["signal_features"], scenario["signal_shift"])
            results = {
                "shrunken_centroids": shrunken_centroid_study(
                    data, rng, n_thresholds, n_folds, prior_rule, ties, nested="shrunken_centroids" in scenario["nested"]
                ),
                "svm": svm_study(data, costs, gene_counts, ties, nested="svm" in scenario["nested"]),
            }
            for classifier, result in results.items():
                rows.append(
                    {
                        "scenario": name,
                        "dataset": r,
                        "classifier": classifier,
                        "min_cv_error_percent": 100 * result["min_cv_error"],
                        "nested_cv_error_percent": 100 * result["nested_cv_error"],
                        "true_error_percent": 100 * result["true_error"],
                        "chosen_threshold": result["chosen_threshold"],
                        "chosen_cost": result["chosen_cost"],
                        "chosen_genes": result["chosen_genes"],
                    }
                )
    return pd.DataFrame(rows)


def selection_bias_design(per_class: int, n_features: int, datasets: int) -> pd.DataFrame:
    """The design as one row: samples, per class, features, the outer leave-one-out training size."""
    return pd.DataFrame(
        [
            {
                "samples": 2 * per_class,
                "samples_per_class": per_class,
                "features": n_features,
                "outer_training_samples": 2 * per_class - 1,
                "datasets_per_scenario": datasets,
            }
        ]
    )


def selection_bias_summary(per_dataset: pd.DataFrame, low_error_percent: float) -> pd.DataFrame:
    """Means over datasets with their Monte Carlo standard errors (``monte_carlo.mean_and_se``).

    Besides the three estimates: the optimism of the minimum (minimum CV error - true error) and
    the bias of the nested estimate (nested - true), differenced dataset by dataset before
    averaging; and the share of datasets whose minimum CV error is below ``low_error_percent``
    (the abstract's 'less than 30%'), with a binomial SE.
    """
    rows = []
    for (scenario, classifier), group in per_dataset.groupby(["scenario", "classifier"], sort=False):
        row = {"scenario": scenario, "classifier": classifier, "datasets": len(group)}
        columns = {
            "min_cv_error_percent": group["min_cv_error_percent"],
            "nested_cv_error_percent": group["nested_cv_error_percent"],
            "true_error_percent": group["true_error_percent"],
            "min_cv_optimism_points": group["min_cv_error_percent"] - group["true_error_percent"],
            "nested_bias_points": group["nested_cv_error_percent"] - group["true_error_percent"],
        }
        for column, values in columns.items():
            row[column], row[f"{column}_se"] = mean_and_se(values)
        below = int((group["min_cv_error_percent"] < low_error_percent).sum())
        row["min_cv_below_low_percent"] = 100 * below / len(group)
        # Binomial SE at the shrunk share (below + 1) / (datasets + 2), so that it is not zero
        # when no dataset (or every one) falls below.
        shrunk = (below + 1) / (len(group) + 2)
        row["min_cv_below_low_percent_se"] = 100 * float(np.sqrt(shrunk * (1 - shrunk) / len(group)))
        row["low_error_percent"] = low_error_percent
        rows.append(row)
    return pd.DataFrame(rows)
