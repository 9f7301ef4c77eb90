"""Unshuffled folds on data stored class by class ("Cross-Validation", Pitfalls).

"Ordered data without shuffling. With images stored class by class, unshuffled folds can hold out
whole classes." The document prints no numbers. This module stores a labelled sample class by
class, cuts it into folds the ways scikit-learn offers, and records which classes each fold holds
out, what cross-validation then reports, and what the models it scored would achieve on fresh data.

The data: ``n_classes`` Gaussian classes in ``n_features`` dimensions, class means drawn
N(0, separation^2 I) afresh for every data set, unit within-class noise. The classifier: nearest
class centroid (Euclidean), which, like any classifier, can only answer with a class it was
trained on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold, StratifiedKFold

from cvsuite.methods.monte_carlo import mean_and_se, standard_error

SCHEMES = ("unshuffled", "shuffled", "stratified", "stratified_unshuffled")


def class_ordered_sample(n_classes: int, per_class: int, test_per_class: int, n_features: int,
                         separation: float, rng: np.random.Generator):
    """A training sample stored class by class, and a fresh test sample from the same classes.

    Draw order: the class means (n_classes x n_features), then the training features row by row
    (class 0's rows first, then class 1's, ...), then the test features in the same order.
    Returns (X, labels, X_test, labels_test).
    """
    means = separation * rng.standard_normal((n_classes, n_features))
    labels = np.repeat(np.arange(n_classes), per_class)
    X = means[labels] + rng.standard_normal((labels.size, n_features))
    labels_test = np.repeat(np.arange(n_classes), test_per_class)
    X_test = means[labels_test] + rng.standard_normal((labels_test.size, n_features))
    return X, labels, X_test, labels_test


def folds_for(scheme: str, labels: np.ndarray, n_folds: int, random_state: int) -> list[np.ndarray]:
    """The held-out indices of each fold under one of scikit-learn's splitters.

    unshuffled: ``KFold(n_folds)`` (consecutive blocks, scikit-learn's default for KFold);
    shuffled: ``KFold(n_folds, shuffle=True, random_state)``; stratified:
    ``StratifiedKFold(n_folds, shuffle=True, random_state)``; stratified_unshuffled:
    ``StratifiedKFold(n_folds)``, what ``cross_val_score(classifier, X, y, cv=n_folds)`` uses.
    """
    splitters = {
        "unshuffled": KFold(n_folds),
        "shuffled": KFold(n_folds, shuffle=True, random_state=random_state),
        "stratified": StratifiedKFold(n_folds, shuffle=True, random_state=random_state),
        "stratified_unshuffled": StratifiedKFold(n_folds),
    }
    if scheme not in splitters:
        raise ValueError(f"unknown fold scheme '{scheme}'; known: {', '.join(SCHEMES)}")
    return [test for _, test in splitters[scheme].split(np.zeros((labels.size, 1)), labels)]


def nearest_centroid_predict(X_train, labels_train, X_eval, n_classes: int) -> np.ndarray:
    """Label each row of X_eval with the training class whose mean is nearest (ties: lower label).

    Classes absent from the training rows cannot be predicted.
    """
    return _nearest_centroid(*_class_sums(X_train, labels_train, n_classes), X_eval)


def _class_sums(X, labels, n_classes: int):
    # Per-class sums and counts: those of a training set are the data set's minus the held-out fold's.
    one_hot = (labels[:, None] == np.arange(n_classes)[None, :]).astype(float)
    return one_hot.T @ X, one_hot.sum(axis=0)


def _nearest_centroid(sums, counts, X_eval) -> np.ndarray:
    present = counts > 0
    centroids = sums[present] / counts[present, None]
    distances = np.einsum("ij,ij->i", centroids, centroids)[None, :] - 2 * X_eval @ centroids.T
    return np.flatnonzero(present)[np.argmin(distances, axis=1)]


def fold_class_composition(labels: np.ndarray, folds: list[np.ndarray], n_classes: int) -> np.ndarray:
    """counts[k, c]: members of class c held out in fold k."""
    return np.array([np.bincount(labels[fold], minlength=n_classes) for fold in folds])


def whole_classes_held_out(composition: np.ndarray) -> int:
    """How many (fold, class) pairs hold out every member of a class, leaving none to train on."""
    totals = composition.sum(axis=0)
    return int(np.sum((composition == totals[None, :]) & (totals[None, :] > 0)))


def cross_validate(X, labels, X_test, labels_test, folds: list[np.ndarray], n_classes: int) -> dict:
    """One scheme on one data set: the CV accuracy and what lies behind it.

    cv_accuracy pools correct answers over every held-out observation. fold_models_true_accuracy
    is the size-weighted accuracy of the K fold models on the fresh test sample: what the models
    CV scored can actually do. unseen_class_percent is the share of held-out observations whose
    class is absent from their fold's training set. cv_std_error_points is the s.d. of the fold
    accuracies over sqrt(K), the spread the procedure block's step 5 says to report.
    """
    n, n_folds, n_features = labels.size, len(folds), X.shape[1]
    fold_of = np.empty(n, dtype=np.intp)
    for k, fold in enumerate(folds):
        fold_of[fold] = k
    # All K fold models at once: the class sums held out by each fold, and the training sums as
    # the data set's minus those; a class with no training member has no centroid (infinitely far).
    cell = fold_of * n_classes + labels
    held_counts = np.bincount(cell, minlength=n_folds * n_classes).reshape(n_folds, n_classes)
    one_hot = (cell[:, None] == np.arange(n_folds * n_classes)[None, :]).astype(float)
    held_sums = (one_hot.T @ X).reshape(n_folds, n_classes, n_features)
    counts = held_counts.sum(axis=0)[None, :] - held_counts
    centroids = (held_sums.sum(axis=0)[None, :, :] - held_sums) / np.maximum(counts, 1)[:, :, None]
    present = counts > 0
    squared_norms = np.where(present, np.einsum("kcd,kcd->kc", centroids, centroids), np.inf)

    own = squared_norms[fold_of] - 2 * np.einsum("nd,ncd->nc", X, centroids[fold_of])
    hits = np.argmin(own, axis=1) == labels
    fold_sizes = held_counts.sum(axis=1)
    fold_accuracies = 100 * np.bincount(fold_of, weights=hits, minlength=n_folds) / fold_sizes

    test = squared_norms.reshape(1, -1) - 2 * X_test @ centroids.reshape(-1, n_features).T
    test_hits = np.argmin(test.reshape(len(labels_test), n_folds, n_classes), axis=2) == labels_test[:, None]
    return {
        "cv_accuracy_percent": 100 * hits.mean(),
        "fold_models_true_accuracy_percent": 100 * float(test_hits.mean(axis=0) @ fold_sizes) / n,
        "unseen_class_percent": 100 * np.mean(~present[fold_of, labels]),
        "whole_classes_held_out": whole_classes_held_out(held_counts),
        "cv_std_error_points": standard_error(fold_accuracies),
    }


def simulate_ordered_folds(n_classes: int, per_class: int, test_per_class: int, n_features: int, separation: float,
                           fold_counts, n_datasets: int, first_seed: int) -> pd.DataFrame:
    """Per data set, number of folds K and scheme: the CV accuracy, its diagnosis and the truth.

    Data set s is drawn with ``default_rng(first_seed + s)`` (see ``class_ordered_sample``) and its
    shuffled splitters use ``random_state = first_seed + s``. true_accuracy_percent is the accuracy
    on the fresh test sample of the classifier fitted on all observations (the same for every scheme).
    """
    for k in fold_counts:
        if not 2 <= k <= per_class:
            raise ValueError(f"K = {k} folds: stratified folds need at least {k} members per class, and K at least 2; "
                             f"per_class is {per_class}")
    rows = []
    for s in range(n_datasets):
        X, labels, X_test, labels_test = class_ordered_sample(n_classes, per_class, test_per_class, n_features,
                                                              separation, np.random.default_rng(first_seed + s))
        truth = 100 * np.mean(nearest_centroid_predict(X, labels, X_test, n_classes) == labels_test)
        for k in fold_counts:
            for scheme in SCHEMES:
                result = cross_validate(X, labels, X_test, labels_test, folds_for(scheme, labels, k, first_seed + s), n_classes)
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
    for col in ("cv_accuracy_percent", "fold_models_true_accuracy_percent", "true_accuracy_percent",
                "unseen_class_percent", "whole_classes_held_out", "cv_std_error_points"):
        row[col], row[f"{col}_se"] = mean_and_se(group[col])
    row["cv_minus_truth_points"], row["cv_minus_truth_points_se"] = mean_and_se(group["cv_accuracy_percent"] - group["true_accuracy_percent"])
    row["cv_minus_fold_models_points"], row["cv_minus_fold_models_points_se"] = mean_and_se(
        group["cv_accuracy_percent"] - group["fold_models_true_accuracy_percent"])
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
        rows += [{"scheme": scheme, "fold": k + 1, "class": c, "held_out": int(counts[k, c])}
                 for k in range(counts.shape[0]) for c in range(n_classes)]
    return pd.DataFrame(rows)


def ordered_folds_verdict(summary: pd.DataFrame, n_folds: int, n_classes: int, per_class: int,
                          decision_standard_errors: float) -> pd.DataFrame:
    """The one-row verdict at K = ``n_folds``: the claims in words as booleans, effects with MC SEs.

    - unshuffled_folds_hold_out_whole_classes: unshuffled KFold holds out every member of some
      class in some fold, in at least one simulated data set ("With images stored class by class,
      unshuffled folds can hold out whole classes").
    - shuffled_folds_hold_out_no_whole_class: shuffled and stratified folds never do.
    - unshuffled_estimate_collapses: the unshuffled CV accuracy lies below chance (1/n_classes)
      and the true accuracy above it, each beyond ``decision_standard_errors`` MC SEs.
    - shuffled_folds_estimate_honestly: for shuffled and stratified folds, CV accuracy minus the
      true accuracy of the models they scored stays, bounds included, within the standard error
      the CV reports itself (step 5 of "Estimating Out-of-Sample Error": the s.d. of the fold
      accuracies over sqrt(K), averaged over data sets).
    """
    z = decision_standard_errors
    at_k = summary[summary["folds"] == n_folds].set_index("scheme")
    if at_k.empty:
        raise ValueError(f"K = {n_folds} is not among the simulated numbers of folds")
    unshuffled = at_k.loc["unshuffled"]
    chance = 100 / n_classes
    row = {"folds": int(n_folds), "classes": int(n_classes), "per_class": int(per_class), "datasets": int(unshuffled["datasets"]),
           "chance_accuracy_percent": chance,
           "true_accuracy_percent": unshuffled["true_accuracy_percent"], "true_accuracy_percent_se": unshuffled["true_accuracy_percent_se"]}
    for scheme in SCHEMES:
        r = at_k.loc[scheme]
        row[f"{scheme}_cv_accuracy_percent"], row[f"{scheme}_cv_accuracy_percent_se"] = r["cv_accuracy_percent"], r["cv_accuracy_percent_se"]
        row[f"{scheme}_whole_classes_held_out"] = r["whole_classes_held_out"]
        row[f"{scheme}_cv_minus_fold_models_points"] = r["cv_minus_fold_models_points"]
        row[f"{scheme}_cv_minus_fold_models_points_se"] = r["cv_minus_fold_models_points_se"]
        row[f"{scheme}_cv_std_error_points"] = r["cv_std_error_points"]
    row["unshuffled_fold_models_true_accuracy_percent"] = unshuffled["fold_models_true_accuracy_percent"]
    row["unshuffled_fold_models_true_accuracy_percent_se"] = unshuffled["fold_models_true_accuracy_percent_se"]
    row["unshuffled_unseen_class_percent"] = unshuffled["unseen_class_percent"]
    row["collapse_points"], row["collapse_points_se"] = -unshuffled["cv_minus_truth_points"], unshuffled["cv_minus_truth_points_se"]

    row["unshuffled_folds_hold_out_whole_classes"] = bool(unshuffled["datasets_with_a_whole_class_held_out"] > 0)
    row["shuffled_folds_hold_out_no_whole_class"] = bool(
        all(at_k.loc[s, "datasets_with_a_whole_class_held_out"] == 0 for s in ("shuffled", "stratified")))
    row["unshuffled_estimate_collapses"] = bool(
        unshuffled["cv_accuracy_percent"] + z * unshuffled["cv_accuracy_percent_se"] < chance
        and unshuffled["true_accuracy_percent"] - z * unshuffled["true_accuracy_percent_se"] > chance)
    row["shuffled_folds_estimate_honestly"] = bool(all(
        abs(at_k.loc[s, "cv_minus_fold_models_points"]) + z * at_k.loc[s, "cv_minus_fold_models_points_se"]
        < at_k.loc[s, "cv_std_error_points"] for s in ("shuffled", "stratified")))
    row["verdict"] = _ordered_sentence(row)
    return pd.DataFrame([row])


def _ordered_sentence(r: dict) -> str:
    hold = ("hold out whole classes" if r["unshuffled_folds_hold_out_whole_classes"] else "hold out no whole class")
    collapse = "collapses" if r["unshuffled_estimate_collapses"] else "does not collapse"
    honest = ("match the accuracy of the models they scored within their own standard errors"
              if r["shuffled_folds_estimate_honestly"] else "miss the accuracy of the models they scored")
    if r["shuffled_folds_hold_out_no_whole_class"]:
        held_out_by_shuffled = "hold out no whole class"
    else:
        held_out_by_shuffled = (f"hold out {r['shuffled_whole_classes_held_out']:.1f} and "
                                f"{r['stratified_whole_classes_held_out']:.1f} whole classes per data set")
    return (
        f"With {r['classes']} classes of {r['per_class']} stored class by class, {r['folds']} unshuffled folds {hold} "
        f"({r['unshuffled_whole_classes_held_out']:.1f} per data set; {r['unshuffled_unseen_class_percent']:.0f}% of held-out "
        f"observations belong to a class their training folds never saw), so the CV accuracy {collapse} to "
        f"{r['unshuffled_cv_accuracy_percent']:.1f}% ± {r['unshuffled_cv_accuracy_percent_se']:.1f}% (its fold standard error "
        f"{r['unshuffled_cv_std_error_points']:.1f} points) against a true "
        f"{r['true_accuracy_percent']:.1f}% ± {r['true_accuracy_percent_se']:.1f}% (chance {r['chance_accuracy_percent']:.0f}%), "
        f"although the fold models themselves score {r['unshuffled_fold_models_true_accuracy_percent']:.1f}% on fresh data; "
        f"shuffled and stratified folds {held_out_by_shuffled}, report {r['shuffled_cv_accuracy_percent']:.1f}% and "
        f"{r['stratified_cv_accuracy_percent']:.1f}%, and {honest}."
    )
