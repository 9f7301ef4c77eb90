"""Cross-validating the best single split among predictors unrelated to the labels: ESL §7.10.3.

Hastie, Tibshirani and Friedman (2009), §7.10.3 "Does Cross-Validation Really Work?": N = 20
samples in two equal classes, p = 500 standard Gaussian predictors independent of the labels, and a
"stump", the single split of a single predictor that minimises the training misclassification
error. Fitted to all samples it looks good; five-fold cross-validation, which re-chooses the
predictor and the split in every fold, averages about the true 50% over 50 datasets (Figure 7.11).
Cited by "Cross-Validation", How It Works.

Three estimates are computed on the same folds, to separate the two effects the book describes
(Figure 7.11 top right: the choice of predictor; bottom left: the choice of split point):
``full_data_stump`` (predictor and split from all samples, scored fold by fold: the "simple
argument" of the book, equal to the training error), ``full_data_predictor`` (predictor from all
samples, split re-estimated in each fold) and ``cross_validated_stump`` (both re-chosen in each
fold: cross-validation done right).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.null_predictors import NullDesign, balanced_labels
from cvsuite.methods.folds import fold_of, permutation_folds
from cvsuite.methods.monte_carlo import cv_error_expectations, expectation_row, mean_and_se, ratio_and_se
from cvsuite.methods.stumps import restricted_orders, sorted_orders, split_errors, stump_from_orders
from cvsuite.studies.esl_wrong_and_right_way_summaries import CHANCE_ERROR_PERCENT, printed_draw

PROCEDURES = ("full_data_stump", "full_data_predictor", "cross_validated_stump")

# Registry rows drawn as the figures' published references.
PUBLISHED_CV_ERROR = "esl.7103.cv-error"
PUBLISHED_REFIT_ERRORS = "esl.7103.fig711.refit-split-errors"
# Registry rows of figures the book read off one held-out fold, by the statistic they are a draw of
# (``heldout_draws``).
ONE_FOLD_DRAWS = {
    "full_data_predictor_heldout_errors": PUBLISHED_REFIT_ERRORS,
    "full_data_predictor_heldout_error_percent": "esl.7103.fig711.refit-split-error-percent",
    "full_data_stump_heldout_errors": "esl.7103.fig711.full-split-errors",
}


def stump_cross_validation(x: np.ndarray, y: np.ndarray, folds: np.ndarray, orders: np.ndarray | None = None) -> dict:
    """The three estimates on one dataset and one set of folds.

    Returns the stump fitted to all samples, and per procedure the 0/1 errors of every sample
    (each scored by its own fold's model), plus for each fold the held-out error counts of the
    full-data stump and of the full-data predictor with its split re-estimated (Figure 7.11's top
    right and bottom left, one fold at a time). One sort of each predictor serves every fold, and
    every set of folds of the dataset when passed in (``orders``, ``sorted_orders(x)``).
    """
    n_folds = int(folds.max()) + 1
    everyone = np.arange(x.shape[1])
    orders = sorted_orders(x) if orders is None else orders
    full = stump_from_orders(x, y, orders, everyone)
    errors = {p: np.zeros(len(y), dtype=int) for p in PROCEDURES}
    for k in range(n_folds):
        test, train = folds == k, folds != k
        fold_orders = restricted_orders(orders, train)
        models = {
            "full_data_stump": full,
            "full_data_predictor": stump_from_orders(x, y, fold_orders[[full.predictor]], everyone[[full.predictor]]),
            "cross_validated_stump": stump_from_orders(x, y, fold_orders, everyone),
        }
        for procedure, model in models.items():
            errors[procedure][test] = model.predict(x[test]) != y[test]
    fold_errors = {p: np.bincount(folds, weights=errors[p], minlength=n_folds) for p in PROCEDURES}
    return {"full_stump": full, "errors": errors, "fold_errors": fold_errors, "fold_sizes": np.bincount(folds)}


def simulate_label_free_split(
    design: NullDesign, stratified: list[bool], *, datasets: int, n_folds: int, test_points: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Re-simulate §7.10.3 under each fold construction in ``stratified``, on the same ``datasets``
    datasets of ``design``.

    Draw order of dataset d, from ``default_rng([seed, d])``: ``NullDesign.dataset`` (the samples x
    predictors matrix of standard Gaussians, then the one permutation each construction cuts its
    folds from); then, if ``test_points`` > 0, that many fresh values of the full-data stump's
    predictor (the only one its prediction reads), with balanced labels.

    Returns a per-dataset table, one row per dataset and construction (``setting`` indexes
    ``stratified``), with the three CV errors in percent, the full-data stump's training errors and,
    for setting 0, its error on the fresh samples; and a per-fold table of setting 0 with the
    held-out error counts of each procedure.
    """
    y = design.labels
    rows, fold_rows = [], []
    for data in design.datasets(datasets):
        orders = sorted_orders(data.x)
        for i, strat in enumerate(stratified):
            folds = fold_of(permutation_folds(data.order, y, n_folds, strat), design.samples)
            result = stump_cross_validation(data.x, y, folds, orders)
            full = result["full_stump"]
            row = {
                "dataset": data.index,
                "setting": i,
                "stratified": strat,
                "full_data_predictor_index": full.predictor,
                "full_data_training_errors": full.training_errors,
            }
            for procedure in PROCEDURES:
                row[f"{procedure}_cv_error_percent"] = 100.0 * result["errors"][procedure].mean()
            if i == 0:
                if test_points:
                    predicted = full.predict_from_values(data.rng.standard_normal(test_points))
                    row["true_error_percent"] = 100.0 * float((predicted != balanced_labels(test_points)).mean())
                for k in range(n_folds):
                    fold_rows.append(
                        {
                            "dataset": data.index,
                            "fold": k,
                            "validation_size": int(result["fold_sizes"][k]),
                            **{f"{p}_heldout_errors": int(result["fold_errors"][p][k]) for p in PROCEDURES},
                        }
                    )
            rows.append(row)
    return pd.DataFrame(rows), pd.DataFrame(fold_rows)


def summarise_procedures(per_dataset: pd.DataFrame) -> pd.DataFrame:
    """One row per procedure: mean CV error over the datasets given, its Monte Carlo SE, the spread."""
    rows = []
    for procedure in PROCEDURES:
        values = per_dataset[f"{procedure}_cv_error_percent"]
        mean, se = mean_and_se(values)
        rows.append(
            {
                "procedure": procedure,
                "datasets": len(values),
                "cv_error_percent": mean,
                "cv_error_percent_se": se,
                "cv_error_sd_percent": float(values.std(ddof=1)),
                "cv_error_min_percent": float(values.min()),
                "cv_error_max_percent": float(values.max()),
            }
        )
    return pd.DataFrame(rows)


def published_statistics(per_dataset: pd.DataFrame, per_fold: pd.DataFrame, design_datasets: int) -> pd.DataFrame:
    """The statistics ESL §7.10.3 prints, estimated from every dataset, with the SE of a comparison.

    Each row: ``expected``, our estimate of the statistic's expected value, with ``mc_se`` its
    Monte Carlo SE; ``design_sd``, the standard deviation of the statistic as the book computed it
    (a mean over ``design_datasets`` datasets; one held-out fold of one dataset, Figure 7.11; or 0
    for an exact population value); and ``expected_se`` = sqrt(mc_se^2 + design_sd^2), the standard
    error of the gap between a printed value of the statistic and ``expected``. Held-out fold
    statistics are averaged per dataset before their SE is taken (folds of a dataset are dependent).
    """
    rows = cv_error_expectations(per_dataset, PROCEDURES, design_datasets)

    def add(*fields):
        rows.append(expectation_row(*fields))

    for procedure in ("full_data_stump", "full_data_predictor"):
        counts = per_fold[f"{procedure}_heldout_errors"].astype(float)
        for unit, values in (("errors", counts), ("percent", 100.0 * counts / per_fold["validation_size"])):
            mean, se = mean_and_se(values.groupby(per_fold["dataset"]).mean())
            name = f"{procedure}_heldout_{'errors' if unit == 'errors' else 'error_percent'}"
            add(name, unit, "one held-out fold of one dataset", len(values), mean, se, float(values.std(ddof=1)))
    return pd.DataFrame(rows)


def heldout_error_distribution(per_fold: pd.DataFrame) -> pd.DataFrame:
    """How often one held-out fold shows each error count, for each of the three procedures."""
    rows = []
    for procedure in PROCEDURES:
        counts = per_fold[f"{procedure}_heldout_errors"]
        for size in sorted(per_fold["validation_size"].unique()):
            of_size = counts[per_fold["validation_size"] == size]
            for errors in range(int(size) + 1):
                rows.append(
                    {
                        "procedure": procedure,
                        "validation_size": int(size),
                        "heldout_errors": errors,
                        "folds": int((of_size == errors).sum()),
                        "share_percent": 100.0 * float((of_size == errors).mean()),
                    }
                )
    return pd.DataFrame(rows)


def one_dataset_stumps(
    design: NullDesign, dataset: int, *, n_folds: int, stratified: bool, marked: int
) -> pd.DataFrame:
    """Figure 7.11's top panels for one dataset: every predictor's own best stump.

    Per predictor: its stump's training errors on all samples; and, for the first fold of the
    dataset's partition, the training errors of its stump fitted to the other folds and that
    stump's errors on the held-out fold. ``marked`` flags the predictors of fewest full-data errors
    (the book colours six), ranked by errors then index.
    """
    y, data = design.labels, design.dataset(dataset)
    x = data.x
    folds = fold_of(permutation_folds(data.order, y, n_folds, stratified), design.samples)
    test, train = folds == 0, folds != 0
    orders = sorted_orders(x)
    full_errors = split_errors(y, orders).min(axis=(1, 2))
    fold_orders = restricted_orders(orders, train)
    rows = []
    for j in range(design.predictors):
        stump = stump_from_orders(x, y, fold_orders[[j]], np.array([j]))
        rows.append(
            {
                "predictor": j,
                "full_data_training_errors": int(full_errors[j]),
                "fold_training_errors": stump.training_errors,
                "fold_heldout_errors": int((stump.predict(x[test]) != y[test]).sum()),
            }
        )
    table = pd.DataFrame(rows)
    rank = np.lexsort((table["predictor"].to_numpy(), table["full_data_training_errors"].to_numpy()))
    table["marked"] = False
    table.loc[rank[:marked], "marked"] = True
    table["training_samples"] = int(train.sum())
    table["heldout_samples"] = int(test.sum())
    return table


def setting_summary(per_dataset: pd.DataFrame, stratified: list[bool], design_datasets: int) -> pd.DataFrame:
    """The three CV errors under each fold construction, over the first ``design_datasets`` datasets
    and over all of them (the same datasets and permutations in every construction), and the
    cross-validated stump's optimism (chance minus its CV error) over that of the predictor chosen
    once on all samples, its split refitted in each fold, a ratio of means with its delta-method SE
    (``cross_validated_stump_optimism_over_full_data_predictor``): near 0 when re-choosing the
    predictor in each fold removes the optimism of choosing it once."""
    rows = []
    for i, strat in enumerate(stratified):
        runs = per_dataset[per_dataset["setting"] == i]
        for label, chosen in (("book_design", runs[runs["dataset"] < design_datasets]), ("all", runs)):
            summary = summarise_procedures(chosen).set_index("procedure")
            row = {"setting": i, "stratified": strat, "datasets_used": label, "datasets": len(chosen)}
            for procedure in PROCEDURES:
                row[f"{procedure}_cv_error_percent"] = summary.loc[procedure, "cv_error_percent"]
                row[f"{procedure}_cv_error_percent_se"] = summary.loc[procedure, "cv_error_percent_se"]
            ratio = "cross_validated_stump_optimism_over_full_data_predictor"
            row[ratio], row[f"{ratio}_se"] = ratio_and_se(
                CHANCE_ERROR_PERCENT - chosen["cross_validated_stump_cv_error_percent"],
                CHANCE_ERROR_PERCENT - chosen["full_data_predictor_cv_error_percent"],
            )
            rows.append(row)
    return pd.DataFrame(rows)


def setup_table(design: NullDesign, n_folds: int, datasets: int) -> pd.DataFrame:
    """The book's design as the study ran it, one row: "N = 20 samples", "p = 500 quantitative
    predictors", "5-fold cross-validation applied to 50 simulated datasets" (the figures' datasets)."""
    return pd.DataFrame(
        [{"samples": design.samples, "predictors": design.predictors, "folds": n_folds, "datasets": datasets}]
    )


def heldout_draws(per_fold: pd.DataFrame, printed: dict[str, float]) -> pd.DataFrame:
    """Figure 7.11's one-fold error counts (and the percent of four) against the printed ones.

    ``printed`` maps a statistic, ``<procedure>_heldout_errors`` or
    ``<procedure>_heldout_error_percent``, to the value the book prints for its one fold; each
    row says how often one of our held-out folds falls below, on or above it (``printed_draw``).
    """
    rows = []
    for statistic, value in printed.items():
        procedure, _, unit = statistic.partition("_heldout_")
        counts = per_fold[f"{procedure}_heldout_errors"].astype(float)
        values = counts if unit == "errors" else 100.0 * counts / per_fold["validation_size"]
        rows.append(printed_draw(statistic, values, value))
    return pd.DataFrame(rows)
