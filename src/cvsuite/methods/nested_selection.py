"""Grid selection by cross-validation, non-nested and nested, for any learner and any per-item score.

"Cross-Validation", Variants (nested cross-validation): the whole selection, its own inner
cross-validation included, is repeated inside every outer training set, and the outer folds only
assess. Step 4 of "How to Apply It" ("Combine the scores consistently") is a parameter here:

- ``mean_of_folds``: the unweighted mean of the per-fold mean scores, as scikit-learn's
  ``GridSearchCV`` (``best_score_``) and ``cross_val_score(...).mean()`` report;
- ``pooled``: the mean over all held-out items at once (ESL eq. 7.48, the document's
  ``cv_accuracy``: hits over all held-out images), which is what ``GridSearchCV(iid=True)``
  computed before scikit-learn 0.22.

The two agree when the folds have equal sizes; otherwise they can pick different winners.

A learner enters as ``fit_and_score(setting, X_train, y_train, X_test, y_test)`` returning one
score per test item (1.0 for a hit and 0.0 for a miss gives accuracy); ``estimator_scorer``
builds one from a factory of scikit-learn-style estimators. Folds are index arrays; every
training set is the complement of its fold in increasing index order, as scikit-learn's splitters
hand it to ``fit``, so a learner whose solution depends on the order of its training items
(libsvm's does, through its working-set selection) sees the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Callable, Sequence

import numpy as np

COMBINES = ("mean_of_folds", "pooled")

FitAndScore = Callable[[dict, np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def parameter_grid(grid: dict[str, Sequence]) -> list[dict]:
    """Every combination of the grid's values, in scikit-learn's ``ParameterGrid`` order.

    Names sorted alphabetically, the last name varying fastest: {"C": [1, 10], "gamma": [a, b]}
    gives (1, a), (1, b), (10, a), (10, b). The order matters: ties go to the first setting.
    """
    names = sorted(grid)
    for name in names:
        if len(grid[name]) == 0:
            raise ValueError(f"the grid gives no values for '{name}'")
    return [dict(zip(names, values)) for values in product(*(grid[name] for name in names))]


def estimator_scorer(make_estimator: Callable[[dict], object]) -> FitAndScore:
    """A ``fit_and_score`` that fits ``make_estimator(setting)`` and scores each test item 1.0 if predicted right."""

    def fit_and_score(setting, X_train, y_train, X_test, y_test):
        model = make_estimator(setting).fit(X_train, y_train)
        return (model.predict(X_test) == y_test).astype(float)

    return fit_and_score


def combine_fold_scores(fold_scores: Sequence[np.ndarray], how: str) -> float:
    """One cross-validation score from the per-item scores of each fold.

    ``mean_of_folds``: each fold's mean, then their unweighted mean (numpy's mean over the fold
    means, in fold order, the arithmetic of ``GridSearchCV``'s ``np.average``). ``pooled``: the
    sum of all item scores over the number of held-out items.
    """
    if how == "mean_of_folds":
        return float(np.mean([np.mean(scores) for scores in fold_scores]))
    if how == "pooled":
        return float(sum(np.sum(scores) for scores in fold_scores) / sum(len(scores) for scores in fold_scores))
    raise ValueError(f"combine must be one of {', '.join(COMBINES)}, got '{how}'")


def held_out_scores(
    fit_and_score: FitAndScore, settings: list[dict], X, y, folds: Sequence[np.ndarray],
    within: np.ndarray | None = None, cache: dict | None = None,
) -> list[list[np.ndarray]]:
    """Per setting, per fold: the per-item scores of the model trained without the fold.

    ``folds`` index into ``within`` (the items the cross-validation runs on; all items if None):
    fold f holds items ``within[folds[f]]`` and trains on the rest of ``within``, in increasing
    position. ``cache`` (a dict kept by the caller for one data set and one ``settings`` list)
    stores each fit by setting index and absolute train/test indices, so that selections run
    under several combining rules, or non-nested and nested runs that share a split, fit each
    model once.
    """
    within = np.arange(len(y)) if within is None else np.asarray(within)
    positions = np.arange(len(within))
    table = [[None] * len(folds) for _ in settings]
    for f, fold in enumerate(folds):
        test = within[np.sort(fold)]
        train = within[np.setdiff1d(positions, fold)]
        for s in range(len(settings)):
            table[s][f] = fitted_scores(fit_and_score, settings, s, X, y, train, test, cache)
    return table


def fitted_scores(fit_and_score: FitAndScore, settings: list[dict], s: int, X, y, train, test, cache: dict | None = None) -> np.ndarray:
    """The per-item scores on ``test`` of setting ``s`` trained on ``train``, fitted once per cache."""
    key = (s, train.tobytes(), test.tobytes())
    if cache is not None and key in cache:
        return cache[key]
    scores = np.asarray(fit_and_score(settings[s], X[train], y[train], X[test], y[test]), dtype=float)
    if scores.shape != (len(test),):
        raise ValueError(f"fit_and_score returned {scores.shape} scores for {len(test)} test items")
    if cache is not None:
        cache[key] = scores
    return scores


def best_setting(score_table: list[list[np.ndarray]], how: str) -> tuple[int, float, np.ndarray]:
    """The index of the best setting, its score, and every setting's score.

    Ties go to the first setting in grid order, as ``GridSearchCV`` does (rank by ``min`` method,
    then the first of rank 1).
    """
    scores = np.array([combine_fold_scores(folds, how) for folds in score_table])
    best = int(np.flatnonzero(scores == scores.max())[0])
    return best, float(scores[best]), scores


@dataclass(frozen=True)
class Selection:
    """A non-nested selection: the winner, its cross-validation score, and all settings' scores."""

    setting: int
    score: float
    scores: np.ndarray


@dataclass(frozen=True)
class NestedEstimate:
    """A nested cross-validation: the setting chosen in each outer fold and the outer item scores."""

    chosen: tuple[int, ...]
    outer_scores: tuple[np.ndarray, ...]
    inner_scores: tuple[np.ndarray, ...]

    def estimate(self, how: str) -> float:
        """The nested estimate, the outer fold scores combined by ``how``."""
        return combine_fold_scores(self.outer_scores, how)


def non_nested_cv(
    fit_and_score: FitAndScore, settings: list[dict], X, y, folds: Sequence[np.ndarray], combine: str,
    cache: dict | None = None,
) -> Selection:
    """Select a setting by cross-validation and report the winner's own score (optimistic)."""
    table = held_out_scores(fit_and_score, settings, X, y, folds, cache=cache)
    setting, score, scores = best_setting(table, combine)
    return Selection(setting, score, scores)


def nested_cv(
    fit_and_score: FitAndScore, settings: list[dict], X, y,
    outer_folds: Sequence[np.ndarray], inner_folds: Sequence[Sequence[np.ndarray]], combine: str,
    cache: dict | None = None,
) -> NestedEstimate:
    """Repeat the whole selection inside each outer training set; score its winner on the outer fold.

    ``inner_folds[k]`` is the inner partition of outer fold k's training set, as positions in it
    (0 .. n_train - 1, the training items in increasing index order), which is what a splitter
    given ``X[train]`` returns. The inner selection uses ``combine``; the winner is refitted on
    the whole outer training set and scored item by item on the outer fold; ``estimate(how)``
    combines those. Fits shared with other calls are taken from ``cache``.
    """
    if len(inner_folds) != len(outer_folds):
        raise ValueError(f"{len(inner_folds)} inner partitions given for {len(outer_folds)} outer folds")
    everything = np.arange(len(y))
    chosen, outer_scores, inner_scores = [], [], []
    for outer, inner in zip(outer_folds, inner_folds):
        train = np.setdiff1d(everything, outer)
        table = held_out_scores(fit_and_score, settings, X, y, inner, within=train, cache=cache)
        setting, _, scores = best_setting(table, combine)
        chosen.append(setting)
        outer_scores.append(fitted_scores(fit_and_score, settings, setting, X, y, train, np.sort(outer), cache))
        inner_scores.append(scores)
    return NestedEstimate(tuple(chosen), tuple(outer_scores), tuple(inner_scores))
