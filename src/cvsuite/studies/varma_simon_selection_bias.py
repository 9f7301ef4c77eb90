"""The optimism of the tuned classifier's cross-validation error, and nested cross-validation.

Varma and Simon (2006), 'Bias in error estimation when using cross-validation for model
selection', BMC Bioinformatics 7:91, as "Cross-Validation" (Evidence and Impact; Pitfalls:
'Reporting the winner's cross-validation score') quotes it, gathered from the shards of
``studies.varma_simon_datasets``: means over datasets of the minimum cross-validation error, the
nested estimate and the true error, each with the standard error the comparison with the paper
uses.

Two things make that standard error:

- ours, the Monte Carlo error of the mean over our datasets (``monte_carlo.mean_and_se``);
- the paper's, the sampling error of its own mean over its datasets. Its per-dataset spread is
  not printed, so ours stands in: s.d. / sqrt(published datasets).

Combined, se = sqrt(ours^2 + paper's^2) (``combined_se``): the two means are independent. Shares
(the abstract's 'less than 30%') use the binomial error at the shrunk share (x + 1) / (n + 2) for
both.

The nested estimate costs a leave-one-out loop per outer fold, so it is computed on the first
datasets only, and its mean over all datasets is estimated with the minimum CV error as a control
variate (``control_variate_mean``): the mean minimum over all datasets plus the mean of (nested -
minimum) over those with the nested loop. The two are correlated (about 0.9 for the SVM), so the
difference varies far less than either; the estimate is unbiased for the mean nested estimate,
and equals the plain mean when every dataset has the nested loop.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.studies.varma_simon_datasets import CLASSIFIERS, SimulationSettings

ESTIMATES = ("min_cv_error_percent", "nested_cv_error_percent", "true_error_percent")


def combined_se(ours: float, spread: float, published_datasets: int) -> float:
    """sqrt(ours^2 + spread^2 / published_datasets): our Monte Carlo s.e. and the published mean's
    own sampling error, its per-dataset s.d. taken to be ours (``spread``)."""
    return float(np.sqrt(ours**2 + spread**2 / published_datasets))


def control_variate_mean(everywhere: np.ndarray, difference: np.ndarray) -> tuple[float, float]:
    """Mean of X = M + D, M observed on N datasets and D = X - M on their first m: M's mean over
    all N plus D's over the m, and its standard error.

    Var = (var M + 2 cov(M, D)) / N + var D / m, the covariance taken over the m (sample moments,
    ddof 1). With m = N the mean is X's plain mean and the s.e. is X's s.d. / sqrt(N) exactly.
    """
    everywhere, difference = np.asarray(everywhere, dtype=float), np.asarray(difference, dtype=float)
    total, m = len(everywhere), len(difference)
    if m == 0:
        return float("nan"), float("nan")
    mean = float(everywhere.mean() + difference.mean())
    if m < 2:
        return mean, float("nan")
    covariance = np.cov(everywhere[:m], difference, ddof=1)[0, 1]
    variance = (everywhere.var(ddof=1) + 2 * covariance) / total + difference.var(ddof=1) / m
    return mean, float(np.sqrt(max(variance, 0.0)))


def selection_bias_summary(
    per_dataset: pd.DataFrame, low_error_percent: float, published_datasets: int
) -> pd.DataFrame:
    """Per scenario and classifier: the means over datasets, their standard errors (module docstring).

    ``X_mc_se`` is ours alone and ``X_se`` the combined one the comparison reads. Besides the three
    estimates: the optimism of the minimum (minimum - true) and the bias of the nested estimate
    (nested - true), differenced dataset by dataset; and the share of datasets whose minimum CV
    error is below ``low_error_percent`` (the abstract's 'less than 30%').
    """
    rows = []
    for (scenario, classifier), group in per_dataset.groupby(["scenario", "classifier"], sort=False):
        group = group.sort_values("dataset")
        minimum, true = group["min_cv_error_percent"].to_numpy(), group["true_error_percent"].to_numpy()
        nested = group["nested_cv_error_percent"].to_numpy()
        has_nested = ~np.isnan(nested)
        if not (has_nested == (np.arange(len(group)) < has_nested.sum())).all():
            raise ValueError(f"{scenario}, {classifier}: the nested estimate must be on the first datasets")
        nested = nested[has_nested]
        row = {"scenario": scenario, "classifier": classifier, "datasets": len(group), "nested_datasets": len(nested)}
        values = {
            "min_cv_error_percent": (*mean_and_se(minimum), _sd(minimum)),
            "nested_cv_error_percent": (*control_variate_mean(minimum, nested - minimum[: len(nested)]), _sd(nested)),
            "true_error_percent": (*mean_and_se(true), _sd(true)),
            "min_cv_optimism_points": (*mean_and_se(minimum - true), _sd(minimum - true)),
            "nested_bias_points": (
                *control_variate_mean(minimum - true, nested - minimum[: len(nested)]),
                _sd(nested - true[: len(nested)]),
            ),
        }
        for column, (mean, ours, spread) in values.items():
            row[column] = mean
            row[f"{column}_se"] = combined_se(ours, spread, published_datasets)
            row[f"{column}_mc_se"] = ours
        below = int((minimum < low_error_percent).sum())
        row["min_cv_below_low_percent"] = 100 * below / len(group)
        # Binomial errors at the shrunk share (below + 1) / (datasets + 2), so that neither is zero
        # when no dataset (or every one) falls below.
        shrunk = (below + 1) / (len(group) + 2)
        ours = 100 * float(np.sqrt(shrunk * (1 - shrunk) / len(group)))
        row["min_cv_below_low_percent_se"] = combined_se(ours, 100 * np.sqrt(shrunk * (1 - shrunk)), published_datasets)
        row["min_cv_below_low_percent_mc_se"] = ours
        row["low_error_percent"] = low_error_percent
        row["published_datasets"] = published_datasets
        rows.append(row)
    return pd.DataFrame(rows)


def gather_shards(table: pd.DataFrame, scenarios: list[str]) -> pd.DataFrame:
    """The shards' rows in one order: scenario by scenario (config order), then by dataset and
    classifier, whatever the split into shards."""
    keys = {
        "scenario": {s: k for k, s in enumerate(scenarios)},
        "classifier": {c: k for k, c in enumerate(CLASSIFIERS)},
    }
    return table.sort_values(
        ["scenario", "dataset", "classifier"],
        key=lambda column: column.map(keys.get(column.name, {})) if column.name in keys else column,
        kind="stable",
    ).reset_index(drop=True)


def _sd(values: np.ndarray) -> float:
    """The per-dataset s.d. (ddof 1)."""
    return float(np.std(values, ddof=1)) if len(values) > 1 else float("nan")


def selection_bias_design(settings: SimulationSettings, published_datasets: int) -> pd.DataFrame:
    """The design as one row: samples, per class, features, the outer leave-one-out training size,
    and the number of datasets the paper is taken to have averaged."""
    return pd.DataFrame(
        [
            {
                "samples": 2 * settings.per_class,
                "samples_per_class": settings.per_class,
                "features": settings.n_features,
                "outer_training_samples": 2 * settings.per_class - 1,
                "published_datasets": published_datasets,
            }
        ]
    )
