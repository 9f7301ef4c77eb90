"""The optimism of the tuned classifier's cross-validation error, and nested cross-validation.

Varma and Simon (2006), 'Bias in error estimation when using cross-validation for model
selection', BMC Bioinformatics 7:91, as "Cross-Validation" (Evidence and Impact; Pitfalls:
'Reporting the winner's cross-validation score') quotes it: datasets of 40 samples (20 per class)
and 6,000 features; nearest shrunken centroids tuned by 10-fold cross-validation and a support
vector machine tuned by leave-one-out; the minimum cross-validation error reported as if it were
the tuned classifier's error, against its true error and against nested cross-validation (the
tuning repeated inside a leave-one-out outer loop).

Dataset r of a scenario draws from ``numpy.random.default_rng([seed, r])``, in this order:

1. X, (n0 + n1) x p standard normal, rows of class 0 first; class 1 then has ``signal_shift``
   added to its first ``signal_features`` features (0 for the "null" data)
   (``data.two_class_gaussian.simulate_dataset``);
2. the 10-fold partition of the shrunken-centroid tuning (``methods.folds.stratified_dealt_folds``);
3. for each outer leave-one-out fold i = 0, ..., n-1 in turn, the 10-fold partition of the tuning
   repeated on the n - 1 remaining samples (only where the scenario computes the nested estimate
   of shrunken centroids).

The paper's SVM grid is not recoverable from what the document quotes; the SVM here is a linear
C-SVM on the genes of largest |two-sample t| of each training set (gene selection repeated inside
every fold), tuned over (number of genes) x C (``methods.linear_svm``). A linear SVM on all genes
is the grid's last row; alone, its leave-one-out error is dominated by the intercept favouring the
training majority, which leave-one-out always makes the held-out sample's opposite class (see
NOTES of the study).

The SVM draws nothing. The true error of each tuned classifier is computed exactly, not on a test
sample: both classifiers are linear in x, and x is Gaussian with identity covariance within each
class, so the error of ``w . x + b`` is a normal tail probability
(``data.two_class_gaussian.linear_rule_error``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.two_class_gaussian import Dataset, linear_rule_error, simulate_dataset
from cvsuite.methods import shrunken_centroids as nsc
from cvsuite.methods.folds import stratified_dealt_folds
from cvsuite.methods.linear_svm import SvmSolver, fit_svm, gene_count_kernels, svm_path, svm_predict, top_genes
from cvsuite.methods.monte_carlo import mean_and_se

CLASSIFIERS = ("shrunken_centroids", "svm")


@dataclass(frozen=True)
class SimulationSettings:
    """The design and both tuning grids (config.yaml's varma_simon_selection_bias block)."""

    datasets: int  # simulated datasets per scenario
    per_class: int  # samples per class
    n_features: int
    n_thresholds: int  # shrunken centroids: size of pamr's threshold grid
    n_folds: int  # shrunken centroids: K of the tuning cross-validation
    prior_rule: str  # shrunken centroids: "class_proportions" or "equal" (methods.shrunken_centroids.class_prior)
    costs: tuple[float, ...]  # SVM: the costs C of the grid
    gene_counts: tuple[int, ...]  # SVM: top-|t| gene counts of the grid; n_features or more means all genes
    ties: str  # which of equal minima is chosen: "simplest" or "most_complex" (pick)


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


def shrunken_centroid_study(
    data: Dataset,
    rng: np.random.Generator,
    *,
    n_thresholds: int,
    n_folds: int,
    prior_rule: str,
    ties: str,
    nested: bool = True,
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
    prior = nsc.class_prior(y, prior_rule)
    folds = stratified_dealt_folds(y, n_folds, rng)  # step 2
    errors = nsc.cv_errors(x, y, folds, thresholds, prior, x_squared=x_squared)
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
        inner_prior = nsc.class_prior(y_in, prior_rule)
        inner_folds = stratified_dealt_folds(y_in, n_folds, rng)  # step 3
        inner = nsc.cv_errors(x_in, y_in, inner_folds, inner_thresholds, inner_prior, x_squared=x_squared[keep])
        threshold = inner_thresholds[pick(inner, ties, simplest_last=True)]
        wrong += int(nsc.predict(outer_fits, i, x[i], threshold, inner_prior)[0] != y[i])
    return {**result, "nested_cv_error": wrong / n}


def svm_study(
    data: Dataset,
    *,
    costs: Sequence[float],
    gene_counts: Sequence[int],
    ties: str,
    nested: bool = True,
    solver: SvmSolver = fit_svm,
) -> dict:
    """Tuned by leave-one-out on all the data; nested inside leave-one-out; true error of the tuned fit.

    The tuning grid is (number of top-|t| genes, ranked on each training set alone) x (cost C),
    flattened gene count first; with a count >= p the kernel is the all-gene X X^T / p, computed
    once per dataset. Every training set is the data less one or two samples, and every kernel
    covers all n samples, so the held-out rows are read from the same matrix. In the nested loop
    the training set of outer fold i, inner fold j is all but {i, j}, the same as that of outer
    fold j, inner fold i: one fit per pair serves both. Without ``nested`` only the n leave-one-
    out training sets are fitted and the nested estimate is NaN. ``solver`` fits one C-SVM
    (``methods.linear_svm.SvmSolver``).
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
            for c, fit in enumerate(svm_path(kernel[keep][:, keep], y[keep], costs, solver=solver)):
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
    final = svm_path(kernel, y, costs[costs <= cost], solver=solver)[-1]
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


def selection_bias_simulation(scenarios: dict[str, dict], settings: SimulationSettings) -> pd.DataFrame:
    """One row per scenario, dataset and classifier: minimum CV error, nested estimate, true error.

    ``scenarios`` maps a name to ``{seed, signal_features, signal_shift, nested}``, ``nested``
    listing the classifiers whose nested estimate is computed there (NaN for the others); dataset
    r of a scenario draws from ``default_rng([seed, r])`` in the module's draw order. Errors are
    in percent.
    """
    rows = []
    for name, scenario in scenarios.items():
        for r in range(settings.datasets):
            rng = np.random.default_rng([scenario["seed"], r])
            data = simulate_dataset(
                rng, settings.per_class, settings.n_features, scenario["signal_features"], scenario["signal_shift"]
            )
            results = {
                "shrunken_centroids": shrunken_centroid_study(
                    data,
                    rng,
                    n_thresholds=settings.n_thresholds,
                    n_folds=settings.n_folds,
                    prior_rule=settings.prior_rule,
                    ties=settings.ties,
                    nested="shrunken_centroids" in scenario["nested"],
                ),
                "svm": svm_study(
                    data,
                    costs=settings.costs,
                    gene_counts=settings.gene_counts,
                    ties=settings.ties,
                    nested="svm" in scenario["nested"],
                ),
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


def selection_bias_design(settings: SimulationSettings) -> pd.DataFrame:
    """The design as one row: samples, per class, features, the outer leave-one-out training size."""
    return pd.DataFrame(
        [
            {
                "samples": 2 * settings.per_class,
                "samples_per_class": settings.per_class,
                "features": settings.n_features,
                "outer_training_samples": 2 * settings.per_class - 1,
                "datasets_per_scenario": settings.datasets,
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
