"""Screening predictors before or inside cross-validation: ESL §7.10.2, re-simulated.

Hastie, Tibshirani and Friedman (2009), §7.10.2 "The Wrong and Right Way to Do Cross-validation":
on N samples in two equal classes and p standard Gaussian predictors independent of the labels,
screen the m predictors most correlated with the labels, classify by 1-nearest neighbour on them,
and estimate the error by K-fold cross-validation. The wrong way screens once on all N samples and
cross-validates only the classifier; the right way repeats the screening inside every fold on the
training samples alone. Figure 7.10 is the histogram of the selected predictors' correlations with
the labels computed on a held-out fold. Cited by "Cross-Validation" (Pitfalls, 'Selecting before
cross-validating') and "Estimating Out-of-Sample Error" ('Variable selection on the full dataset
...').

The screening and the classifier are ``cvsuite.methods.correlation_screening``; the datasets are
``cvsuite.data.null_predictors``; what the runs find (summaries, the book's statistics, the gap
between the two ways) is read from them in ``esl_wrong_and_right_way_summaries``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.null_predictors import NullDesign, balanced_labels
from cvsuite.methods.correlation_screening import (
    correlations_from_sums,
    label_moments,
    nearest_neighbour_labels,
    subset_label_correlations,
    top_predictors,
)
from cvsuite.methods.folds import fold_of, permutation_folds

PROCEDURES = ("wrong_way", "right_way")


@dataclass(frozen=True)
class Setting:
    """The choices ESL §7.10.2 leaves open: selection rule, fold construction, number of folds."""

    selection: str
    stratified: bool
    folds: int


def open_choice_settings(default: Setting, sensitivity_folds) -> list[Setting]:
    """The book's reading first, then each open choice of §7.10.2 changed on its own: the other
    selection rule, the other fold construction, and every K of ``sensitivity_folds`` but the default's."""
    other_selection = "absolute" if default.selection == "signed" else "signed"
    settings = [
        default,
        Setting(other_selection, default.stratified, default.folds),
        Setting(default.selection, not default.stratified, default.folds),
    ]
    return settings + [
        Setting(default.selection, default.stratified, k) for k in sensitivity_folds if k != default.folds
    ]


class ScreeningSums:
    """One dataset's label moments and the correlations screened on, shared by every setting.

    The settings of a dataset differ in how its one permutation is cut into folds and in the
    selection rule; two settings that cut the same folds (signed and absolute selection) screen on
    the same correlations, so each partition's correlations are computed once (``of_folds``).
    """

    def __init__(self, x: np.ndarray, y: np.ndarray):
        self.y = y
        self.moments = label_moments(x, y)
        self.total, self.total_y, self.total_yy = self.moments.sum(axis=0), y.sum(), (y * y).sum()
        self.everyone = correlations_from_sums(
            np.array([[len(y)]]), self.total[None, :], np.array([[self.total_y]]), np.array([[self.total_yy]])
        )[0]
        self._partitions: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}

    def of_folds(self, folds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per fold k (K x p): the correlations on the training samples, and on the held-out fold."""
        key = folds.tobytes()
        if key not in self._partitions:
            self._partitions[key] = self._fold_correlations(folds)
        return self._partitions[key]

    def _fold_correlations(self, folds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        y, n_folds = self.y, int(folds.max()) + 1
        held_out = (folds[None, :] == np.arange(n_folds)[:, None]).astype(float)
        # Training sums are the totals less the held-out fold's: one K-row product serves every fold,
        # for the training correlations that screen and the held-out ones of Figure 7.10.
        fold_size, fold_sums = held_out.sum(axis=1, keepdims=True), held_out @ self.moments
        fold_y, fold_yy = held_out @ y[:, None], held_out @ (y * y)[:, None]
        training = correlations_from_sums(
            len(y) - fold_size, self.total - fold_sums, self.total_y - fold_y, self.total_yy - fold_yy
        )
        return training, correlations_from_sums(fold_size, fold_sums, fold_y, fold_yy)


def screened_cross_validation(
    x: np.ndarray, y: np.ndarray, folds: np.ndarray, selected: int, selection: str, *, sums: ScreeningSums | None = None
) -> dict[str, dict[str, np.ndarray]]:
    """Both ways of §7.10.2 on one dataset, with the same folds.

    Returns, for "wrong_way" and "right_way": ``errors`` (0/1 per sample: the CV prediction of
    sample i comes from the model of its own fold), and ``heldout_correlations`` (K x selected: on
    each held-out fold, the correlation of the labels with the predictors that fold's model uses,
    Figure 7.10). With ``absolute`` selection a correlation is signed by the direction in which the
    predictor was selected, so that a leak shows as a positive mean in either rule. ``sums``,
    ``ScreeningSums(x, y)``, may be passed in when several fold settings share one dataset.
    """
    n_folds = int(folds.max()) + 1
    sums = ScreeningSums(x, y) if sums is None else sums
    everyone = sums.everyone
    training, validation = sums.of_folds(folds)

    full_choice = top_predictors(everyone, selected, selection)
    fold_choices = [top_predictors(training[k], selected, selection) for k in range(n_folds)]
    # The wrong way's predictors are the same in every fold: take their columns once.
    full_columns = x[:, full_choice]

    result = {}
    for procedure in PROCEDURES:
        errors = np.zeros(len(y), dtype=int)
        heldout = np.empty((n_folds, selected))
        for k in range(n_folds):
            test, train = folds == k, folds != k
            if procedure == "wrong_way":
                choice, screened_on, columns = full_choice, everyone, full_columns
            else:
                choice, screened_on = fold_choices[k], training[k]
                columns = x[:, choice]
            predicted = nearest_neighbour_labels(columns[train], y[train], columns[test])
            errors[test] = predicted != y[test]
            direction = np.sign(screened_on[choice]) if selection == "absolute" else 1.0
            heldout[k] = validation[k, choice] * direction
        result[procedure] = {"errors": errors, "heldout_correlations": heldout}
    return result


def simulate_wrong_and_right_way(
    design: NullDesign, settings: list[Setting], *, datasets: int, selected: int, test_points: int = 0
) -> tuple[pd.DataFrame, np.ndarray]:
    """Re-simulate §7.10.2 under each setting, on the same ``datasets`` datasets of ``design``.

    Draw order of dataset d, from ``default_rng([seed, d])``: ``NullDesign.dataset`` (the samples x
    predictors matrix of standard Gaussians, then the one permutation every setting cuts its folds
    from); then, if ``test_points`` > 0, a test_points x selected matrix of standard Gaussians:
    fresh samples' values of the predictors the final model of ``settings[0]`` uses (screened on
    all samples; the other predictors cannot move a 1-nearest-neighbour prediction, so they are not
    drawn), with balanced labels.

    Returns a per-dataset table, one row per dataset and setting (``setting`` indexes
    ``settings``): CV errors of both ways in percent, the mean held-out correlation of each way, the
    number of held-out folds of one class only (which have no correlation) and, for settings[0], the
    final model's error on the fresh samples; and the held-out correlations of settings[0], an
    array datasets x 2 x K x selected, [:, 0] the wrong way and [:, 1] the right way.
    """
    y = design.labels
    rows, correlations = [], []
    for data in design.datasets(datasets):
        sums = ScreeningSums(data.x, y)
        for i, setting in enumerate(settings):
            folds = fold_of(permutation_folds(data.order, y, setting.folds, setting.stratified), design.samples)
            ways = screened_cross_validation(data.x, y, folds, selected, setting.selection, sums=sums)
            row = {
                "dataset": data.index,
                "setting": i,
                "selection": setting.selection,
                "stratified": setting.stratified,
                "folds": setting.folds,
            }
            for procedure in PROCEDURES:
                row[f"{procedure}_cv_error_percent"] = 100.0 * ways[procedure]["errors"].mean()
            for procedure in PROCEDURES:
                row[f"{procedure}_heldout_correlation"] = _mean_of_defined(ways[procedure]["heldout_correlations"])
            row["single_class_folds"] = int(np.isnan(ways["wrong_way"]["heldout_correlations"][:, 0]).sum())
            if i == 0:
                correlations.append([ways[p]["heldout_correlations"] for p in PROCEDURES])
                if test_points:
                    error = final_model_test_error(
                        data.x,
                        y,
                        selected,
                        setting.selection,
                        rng=data.rng,
                        test_points=test_points,
                        moments=sums.moments,
                    )
                    row["true_error_percent"] = 100.0 * error
            rows.append(row)
    return pd.DataFrame(rows), np.array(correlations)


def _mean_of_defined(values: np.ndarray) -> float:
    """Mean of the non-NaN values; NaN if there are none (leave-one-out folds have no correlation)."""
    defined = values[~np.isnan(values)]
    return float(defined.mean()) if defined.size else float("nan")


def final_model_test_error(
    x: np.ndarray,
    y: np.ndarray,
    selected: int,
    selection: str,
    *,
    rng: np.random.Generator,
    test_points: int,
    moments: np.ndarray | None = None,
) -> float:
    """Error rate, on fresh samples, of the model both ways report: screened and fitted on all samples.

    Its expected value is exactly 1/2 whatever the model, since fresh labels are independent of
    fresh predictors and the classes are equal; the estimate checks that nothing leaks. ``moments``,
    ``label_moments(x, y)``, may be passed in when the dataset's are at hand.
    """
    correlations = subset_label_correlations(x, y, np.ones((1, len(y))), moments=moments)
    choice = top_predictors(correlations[0], selected, selection)
    fresh_x = rng.standard_normal((test_points, selected))
    fresh_y = balanced_labels(test_points)
    return float((nearest_neighbour_labels(x[:, choice], y, fresh_x) != fresh_y).mean())
