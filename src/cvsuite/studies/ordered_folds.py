"""Unshuffled folds on data stored class by class ("Cross-Validation", Pitfalls).

"Ordered data without shuffling. With images stored class by class, unshuffled folds can hold out
whole classes." The document prints no numbers. This module stores a labelled sample class by
class, cuts it into folds the ways scikit-learn offers, and records which classes each fold holds
out, what cross-validation then reports, and what the models it scored would achieve on fresh data.

The data (``cvsuite.data.gaussian_classes``): Gaussian classes, class means drawn afresh for every
data set. The classifier (``cvsuite.methods.nearest_centroid``): nearest class centroid, which,
like any classifier, can only answer with a class it was trained on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.gaussian_classes import GaussianClasses, class_ordered_sample
from cvsuite.methods.folds import consecutive_folds, fold_of, legacy_shuffled_kfold, stratified_kfold
from cvsuite.methods.monte_carlo import mean_and_se, standard_error
from cvsuite.methods.nearest_centroid import FoldCentroids, nearest_centroid_predict

SCHEMES = ("unshuffled", "shuffled", "stratified", "stratified_unshuffled")
UNSHUFFLED_SCHEMES = ("unshuffled", "stratified_unshuffled")  # the schemes whose folds draw nothing


def folds_for(scheme: str, labels: np.ndarray, n_folds: int, random_state: int) -> list[np.ndarray]:
    """The held-out indices of each fold under one of scikit-learn's splitters.

    unshuffled: ``KFold(n_folds)``, consecutive blocks, scikit-learn's default for KFold
    (``consecutive_folds``); shuffled: ``KFold(n_folds, shuffle=True, random_state)``
    (``legacy_shuffled_kfold``); stratified: ``StratifiedKFold(n_folds, shuffle=True,
    random_state)``; stratified_unshuffled: ``StratifiedKFold(n_folds)``, what
    ``cross_val_score(classifier, X, y, cv=n_folds)`` uses.
    """
    if scheme == "unshuffled":
        return consecutive_folds(len(labels), n_folds)
    if scheme == "shuffled":
        return legacy_shuffled_kfold(len(labels), n_folds, random_state)
    if scheme == "stratified":
        return stratified_kfold(labels, n_folds, random_state)
    if scheme == "stratified_unshuffled":
        return stratified_kfold(labels, n_folds)
    raise ValueError(f"unknown fold scheme '{scheme}'; known: {', '.join(SCHEMES)}")


def fold_class_composition(labels: np.ndarray, folds: list[np.ndarray], n_classes: int) -> np.ndarray:
    """counts[k, c]: members of class c held out in fold k."""
    return np.array([np.bincount(labels[fold], minlength=n_classes) for fold in folds])


def whole_classes_held_out(composition: np.ndarray) -> int:
    """How many (fold, class) pairs hold out every member of a class, leaving none to train on."""
    totals = composition.sum(axis=0)
    return int(np.sum((composition == totals[None, :]) & (totals[None, :] > 0)))


def cross_validate(X, labels, X_test, labels_test, folds: list[np.ndarray], *, n_classes: int) -> dict:
    """One scheme on one data set: the CV accuracy and what lies behind it.

    cv_accuracy pools correct answers over every held-out observation. fold_models_true_accuracy
    is the size-weighted accuracy of the K fold models on the fresh test sample: what the models
    CV scored can actually do. unseen_class_percent is the share of held-out observations whose
    class is absent from their fold's training set. cv_std_error_points is the s.d. of the fold
    accuracies over sqrt(K), the spread the procedure block's step 5 says to report.
    """
    n, n_folds = labels.size, len(folds)
    fold_ids = fold_of(folds, n)
    models = FoldCentroids.fit(X, labels, fold_ids, n_folds, n_classes)
    hits = models.predict_held_out(X, fold_ids) == labels
    fold_sizes = models.held_counts.sum(axis=1)
    fold_accuracies = 100 * np.bincount(fold_ids, weights=hits, minlength=n_folds) / fold_sizes
    test_hits = models.predict_each_model(X_test) == labels_test[:, None]
    return {
        "cv_accuracy_percent": 100 * hits.mean(),
        "fold_models_true_accuracy_percent": 100 * float(test_hits.mean(axis=0) @ fold_sizes) / n,
        "unseen_class_percent": 100 * np.mean(models.train_counts[fold_ids, labels] == 0),
        "whole_classes_held_out": whole_classes_held_out(models.held_counts),
        "cv_std_error_points": standard_error(fold_accuracies),
    }


def simulate_ordered_folds(design: GaussianClasses, fold_counts, *, n_datasets: int, first_seed: int) -> pd.DataFrame:
    """Per data set, number of folds K and scheme: the CV accuracy, its diagnosis and the truth.

    Data set s is drawn with ``default_rng(first_seed + s)`` (see ``class_ordered_sample``) and its
    shuffled splitters use ``random_state = first_seed + s``. true_accuracy_percent is the accuracy
    on the fresh test sample of the classifier fitted on all observations (the same for every scheme).
    """
    for k in fold_counts:
        if not 2 <= k <= design.per_class:
            raise ValueError(
                f"K = {k} folds: stratified folds need at least {k} members per class, and K at least 2; "
                f"per_class is {design.per_class}"
            )
    n_classes = design.n_classes
    rows = []
    # Unshuffled schemes draw nothing: their folds depend on the labels and K alone (the labels are
    # the same in every data set), so scikit-learn's StratifiedKFold is not rerun for each.
    drawless: dict[tuple, list[np.ndarray]] = {}
    for s in range(n_datasets):
        X, labels, X_test, labels_test = class_ordered_sample(design, np.random.default_rng(first_seed + s))
        truth = 100 * np.mean(nearest_centroid_predict(X, labels, X_test, n_classes) == labels_test)
        for k in fold_counts:
            for scheme in SCHEMES:
                if scheme in UNSHUFFLED_SCHEMES:
                    key = (scheme, k, labels.tobytes())
                    if key not in drawless:
                        drawless[key] = folds_for(scheme, labels, k, first_seed + s)
                    folds = drawless[key]
                else:
                    folds = folds_for(scheme, labels, k, first_seed + s)
                result = cross_validate(X, labels, X_test, labels_test, folds, n_classes=n_classes)
                rows.append({"dataset": s, "folds": int(k), "scheme": scheme, **result, "true_accuracy_percent": truth})
    return pd.DataFrame(rows)


def ordered_folds_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per K and scheme: mean CV accuracy, truth, the gap and the diagnosis, with Monte Carlo SEs.

    cv_minus_fold_models is CV accuracy minus the fold models' true accuracy, data set by data set:
    0 in expectation for a scheme that scores its models on observations like those they will meet.
    """
    rows = []
    for k in sorted(runs["folds"].unique()):
        for scheme in SCHEMES:
            rows.append(_summary_row(int(k), scheme, runs[(runs["folds"] == k) & (runs["scheme"] == scheme)]))
    return pd.DataFrame(rows)


def _summary_row(k: int, scheme: str, group: pd.DataFrame) -> dict:
    row = {"folds": int(k), "scheme": scheme, "datasets": len(group)}
    for col in (
        "cv_accuracy_percent",
        "fold_models_true_accuracy_percent",
        "true_accuracy_percent",
        "unseen_class_percent",
        "whole_classes_held_out",
        "cv_std_error_points",
    ):
        row[col], row[f"{col}_se"] = mean_and_se(group[col])
    row["cv_minus_truth_points"], row["cv_minus_truth_points_se"] = mean_and_se(
        group["cv_accuracy_percent"] - group["true_accuracy_percent"]
    )
    row["cv_minus_fold_models_points"], row["cv_minus_fold_models_points_se"] = mean_and_se(
        group["cv_accuracy_percent"] - group["fold_models_true_accuracy_percent"]
    )
    row["datasets_with_a_whole_class_held_out"] = int((group["whole_classes_held_out"] > 0).sum())
    return row


def composition_table(n_classes: int, per_class: int, n_folds: int, random_state: int) -> pd.DataFrame:
    """Tidy fold-by-class counts of a class-ordered data set under every scheme: scheme, fold, class, held_out.

    The labels of every simulated data set are the same (stored class by class), so the
    composition depends on the data set only through the shuffled splitters' ``random_state``.
    """
    labels = np.repeat(np.arange(n_classes), per_class)
    rows = []
    for scheme in SCHEMES:
        counts = fold_class_composition(labels, folds_for(scheme, labels, n_folds, random_state), n_classes)
        rows += [
            {"scheme": scheme, "fold": k + 1, "class": c, "held_out": int(counts[k, c])}
            for k in range(counts.shape[0])
            for c in range(n_classes)
        ]
    return pd.DataFrame(rows)


def schemes_at_k(summary: pd.DataFrame, design: GaussianClasses, n_folds: int) -> pd.DataFrame:
    """The four schemes side by side at K = ``n_folds``, one row: what each reports, how far that is
    from the models it scored, and what it holds out, with Monte Carlo SEs. Statistics only.

    ``design`` gives the number of classes and their size. Per scheme: the CV accuracy, the whole
    classes held out per data set and the data sets in which some fold holds out a whole class, CV
    minus the fold models' true accuracy and the CV's own fold standard error. Besides:
    ``unshuffled_cv_minus_chance_points`` (the unshuffled CV accuracy minus chance, 1/n_classes) and
    ``collapse_points`` (the truth minus the unshuffled CV accuracy), and, for the schemes that
    shuffle or stratify (whose fold standard error is positive), the distance of the CV from its fold
    models in units of that standard error, ``<scheme>_abs_cv_minus_fold_models_in_cv_std_errors``.
    """
    at_k = summary[summary["folds"] == n_folds].set_index("scheme")
    if at_k.empty:
        raise ValueError(f"K = {n_folds} is not among the simulated numbers of folds")
    unshuffled = at_k.loc["unshuffled"]
    chance = 100 / design.n_classes
    row = {
        "folds": int(n_folds),
        "classes": int(design.n_classes),
        "per_class": int(design.per_class),
        "datasets": int(unshuffled["datasets"]),
        "chance_accuracy_percent": chance,
        "true_accuracy_percent": unshuffled["true_accuracy_percent"],
        "true_accuracy_percent_se": unshuffled["true_accuracy_percent_se"],
    }
    for scheme in SCHEMES:
        r = at_k.loc[scheme]
        row[f"{scheme}_cv_accuracy_percent"], row[f"{scheme}_cv_accuracy_percent_se"] = (
            r["cv_accuracy_percent"],
            r["cv_accuracy_percent_se"],
        )
        row[f"{scheme}_whole_classes_held_out"] = r["whole_classes_held_out"]
        row[f"{scheme}_cv_minus_fold_models_points"] = r["cv_minus_fold_models_points"]
        row[f"{scheme}_cv_minus_fold_models_points_se"] = r["cv_minus_fold_models_points_se"]
        row[f"{scheme}_cv_std_error_points"] = r["cv_std_error_points"]
    row["unshuffled_fold_models_true_accuracy_percent"] = unshuffled["fold_models_true_accuracy_percent"]
    row["unshuffled_fold_models_true_accuracy_percent_se"] = unshuffled["fold_models_true_accuracy_percent_se"]
    row["unshuffled_unseen_class_percent"] = unshuffled["unseen_class_percent"]
    row["collapse_points"], row["collapse_points_se"] = (
        -unshuffled["cv_minus_truth_points"],
        unshuffled["cv_minus_truth_points_se"],
    )
    for scheme in SCHEMES:
        row[f"{scheme}_datasets_with_a_whole_class_held_out"] = int(
            at_k.loc[scheme, "datasets_with_a_whole_class_held_out"]
        )
    row["unshuffled_cv_minus_chance_points"] = unshuffled["cv_accuracy_percent"] - chance
    row["unshuffled_cv_minus_chance_points_se"] = unshuffled["cv_accuracy_percent_se"]
    for scheme in ("shuffled", "stratified"):
        r = at_k.loc[scheme]
        row[f"{scheme}_abs_cv_minus_fold_models_in_cv_std_errors"] = (
            abs(r["cv_minus_fold_models_points"]) / r["cv_std_error_points"]
        )
        row[f"{scheme}_abs_cv_minus_fold_models_in_cv_std_errors_se"] = (
            r["cv_minus_fold_models_points_se"] / r["cv_std_error_points"]
        )
    return pd.DataFrame([row])
