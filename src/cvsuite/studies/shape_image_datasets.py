"""One dataset of the shape-image kNN study of "Cross-Validation", section Example, start to end.

Part 1 compares four estimates of one fixed classifier's accuracy (a stratified holdout, K-fold
for each K, leave-one-out) with its true accuracy on fresh images; on one chosen dataset it also
repeats the holdout and K-fold over new random partitions. Part 2 selects (blur, k) from a grid by
K-fold CV and compares the winner's CV score, a nested estimate and the chosen model's true
accuracy, for each of a nested sequence of candidate sets (the last is the whole grid, the
document's selection).

All random draws of a dataset come from one ``numpy.random.default_rng(seed)``, in the document's
order: the labelled images, the fresh images, Part 1's partitions (holdout, each K), the
repartitions (chosen dataset only), then Part 2's selection partition, the outer partition, and one
inner partition per outer fold. Everything else is arithmetic on those draws, so a dataset's rows
depend on its seed and the settings alone: any split of the datasets into shards gives the same rows.

Beside the document's Part 1, each estimate is split into the two sources of its error that
"Cross-Validation" names (``fold_models``): training on n(K-1)/K images instead of n (the true
accuracy of the models the estimator trained, against the full model's) and scoring them on the
held-out images (the estimate against those models' true accuracy); a class-balanced leave-one-out
(one image of each class out, which draws nothing) is added there, to tell the two apart. On the
document's own datasets, every candidate of Part 2 has its selection CV score and its true accuracy
tabled (``candidate_scores``): how well the CV ranking of the candidates holds against their truth.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from cvsuite.data.shape_images import draw_shape_images
from cvsuite.methods.folds import (
    class_balanced_leave_one_out,
    largest_round_robin_fold,
    leave_one_out_folds,
    stratified_round_robin_folds,
)
from cvsuite.methods.knn import (
    HeldOutTask,
    blurred_features,
    fold_model_accuracies,
    has_row_ties,
    held_out_predictions_literal,
    held_out_predictions_of_tasks,
    majority_votes,
    ranked_by_blurred_distance,
    squared_distances,
)
from cvsuite.studies.shape_image_settings import ShapeStudySettings, kfold_name

BALANCED_LOO = "class-balanced leave-one-out"


@dataclass
class DatasetResult:
    """One dataset's rows for the three tables the study's gather steps combine."""

    estimates: pd.DataFrame
    repartitions: pd.DataFrame
    selection: pd.DataFrame
    fold_models: pd.DataFrame
    candidate_scores: pd.DataFrame


class _Dataset:
    """The images of one dataset, their distances per blur, and lazily the fresh-image accuracies."""

    def __init__(self, seed: int, s: ShapeStudySettings):
        self.rng = np.random.default_rng(seed)
        images, labels = draw_shape_images(s.images_per_class, self.rng, s.design)
        fresh, fresh_labels = draw_shape_images(s.fresh_per_class, self.rng, s.design)
        self._index(s, images, labels, fresh, fresh_labels)

    @classmethod
    def of_images(cls, s: ShapeStudySettings, images, labels, fresh, fresh_labels) -> _Dataset:
        """A dataset of the given labelled and fresh images (no random stream of its own)."""
        data = cls.__new__(cls)
        data.rng = None
        data._index(s, images, labels, fresh, fresh_labels)
        return data

    def _index(self, s: ShapeStudySettings, images, labels, fresh, fresh_labels) -> None:
        self.settings = s
        self.n_classes = len(s.design.masks())
        self.images, self.labels, self.fresh, self.fresh_labels = images, labels, fresh, fresh_labels
        self.features = {sigma: blurred_features(self.images, sigma) for sigma in s.sigmas}
        self.distances = np.stack([squared_distances(self.features[sigma], self.features[sigma]) for sigma in s.sigmas])
        # Sort each distance row once; if two distances in a row tie, fall back to the document's
        # per-fold sort, whose tie order a single sort cannot promise to match.
        self.ranking = None if has_row_ties(self.distances) else np.argsort(self.distances, axis=-1)
        self._true = {}
        self._fresh_ranking = {}

    def fresh_ranking(self, sigma: float, places: int | None = None) -> np.ndarray:
        """The ``places`` nearest labelled images of each fresh image at blur ``sigma``, nearest
        first: the first columns of the document's ``argsort`` of the fresh-by-labelled distances.
        By default as many as any of the study's models reads at that blur (``_places``).

        Ranked without blurring the fresh images (``ranked_by_blurred_distance``); where a row's
        first places are not certainly the document's (two distances within rounding of a tie), the
        document's own arithmetic ranks them: every fresh image blurred, the distances formed and
        sorted, exactly as the listing does.
        """
        places = self._places(sigma) if places is None else places
        ranking, certain = self._fresh_ranking.get(sigma, (None, 0))
        if certain < places:
            ranking, sure = ranked_by_blurred_distance(self.fresh, self.features[sigma], sigma, places)
            if not sure:
                fresh = blurred_features(self.fresh, sigma)
                ranking = np.argsort(squared_distances(fresh, self.features[sigma]), axis=1)
            certain = places if sure else ranking.shape[1]
            self._fresh_ranking[sigma] = ranking, certain
        return ranking[:, :places]

    def _places(self, sigma: float) -> int:
        """How many of the fresh images' nearest labelled images the study reads at a blur: the
        largest k, and at the fixed classifier's blur also its k plus the largest fold any of its
        partitions can hold (a fold model's k nearest are among them)."""
        s, n = self.settings, len(self.labels)
        if sigma != s.fixed_sigma:
            return min(max(s.ks), n)
        fold_counts = (s.holdout_folds, *s.kfold_folds, s.repartition_folds)
        largest = max(self.n_classes, *(largest_round_robin_fold(self.labels, k) for k in fold_counts))
        return min(max(max(s.ks), s.fixed_k + largest), n)

    def true_accuracy(self, sigma: float, k: int) -> float:
        """Accuracy on the fresh images of the model trained on all labelled images."""
        if sigma not in self._true:
            nearest = self.fresh_ranking(sigma)
            predictions = majority_votes(self.labels[nearest], self.settings.ks, self.n_classes)
            self._true[sigma] = (predictions == self.fresh_labels[:, None]).mean(axis=0)
        return float(self._true[sigma][self.settings.ks.index(k)])

    def fold_model_accuracy(self, partitions: list[list[np.ndarray]]) -> list[float]:
        """For each partition, the fixed classifier's true accuracy (on the fresh images) of the
        models its cross-validation trains, one per fold on the images outside it, weighted as the
        pooled estimate weighs them: by the number of images each scores."""
        s = self.settings
        # A fold model's k nearest are among the first k + (its fold's size) of the full ranking.
        places = s.fixed_k + max(len(fold) for folds in partitions for fold in folds)
        ranking = self.fresh_ranking(s.fixed_sigma, min(places, len(self.labels)))
        return [
            float(
                np.average(
                    fold_model_accuracies(ranking, self.labels, self.fresh_labels, folds, s.fixed_k, self.n_classes),
                    weights=[len(f) for f in folds],
                )
            )
            for folds in partitions
        ]

    def hits(self, cross_validations, blur_rows=None, ks=None) -> list[np.ndarray]:
        """Correct held-out predictions, shape (n_blurs, n_ks), pooled over the folds, of each
        (universe, folds) in ``cross_validations``; all blurs and ks unless given."""
        rows = slice(None) if blur_rows is None else blur_rows
        ks = self.settings.ks if ks is None else ks
        tasks = [HeldOutTask(self.labels, universe, folds, ks, self.n_classes) for universe, folds in cross_validations]
        if self.ranking is not None:
            results = held_out_predictions_of_tasks(self.ranking[rows], tasks)
        else:
            results = [held_out_predictions_literal(self.distances[rows], task) for task in tasks]
        return [(predictions == self.labels[tested][None, :, None]).sum(axis=1) for tested, predictions in results]

    def fixed_accuracies(self, partitions: list[list[np.ndarray]]) -> list[float]:
        """The fixed classifier's pooled held-out accuracy on each partition: hits over held-out images."""
        s = self.settings
        everything = np.arange(len(self.labels))
        row = s.sigmas.index(s.fixed_sigma)
        hits = self.hits([(everything, folds) for folds in partitions], blur_rows=[row], ks=(s.fixed_k,))
        return [float(h[0, 0] / sum(len(f) for f in folds)) for h, folds in zip(hits, partitions)]


def simulate_dataset(seed: int, s: ShapeStudySettings) -> DatasetResult:
    """Parts 1 and 2 of the document's Example for the dataset drawn from ``default_rng(seed)``."""
    return _tables([_dataset_rows(seed, s)])


def _dataset_rows(seed: int, s: ShapeStudySettings) -> dict[str, list[dict]]:
    """``simulate_dataset``'s rows, table by table, as dicts: a shard builds each table once from
    all its datasets' rows (a DataFrame per dataset and table cost more than the arithmetic)."""
    data = _Dataset(seed, s)
    y, rng = data.labels, data.rng
    everything = np.arange(len(y))

    # Part 1: the fixed classifier, four estimates against its true accuracy.
    true = data.true_accuracy(s.fixed_sigma, s.fixed_k)
    partitions = [stratified_round_robin_folds(y, s.holdout_folds, rng)[:1]]
    partitions += [stratified_round_robin_folds(y, k, rng) for k in s.kfold_folds]
    partitions += [leave_one_out_folds(len(y))]
    estimates = [
        {
            "dataset": seed,
            "estimator": name,
            "held_out_images": sum(len(f) for f in folds),
            "estimate": estimate,
            "true_accuracy": true,
            "error": estimate - true,
        }
        for name, folds, estimate in zip(s.estimator_names(), partitions, data.fixed_accuracies(partitions))
    ]
    fold_models = _fold_models(data, partitions, estimates, seed, s.ranked_seeds[0] <= seed < s.ranked_seeds[1])

    repeated = []
    if seed == s.repartition_seed:
        redrawn = []  # holdout, K-fold, holdout, K-fold, ...: the draw order
        for _ in range(s.repartitions):
            redrawn.append(stratified_round_robin_folds(y, s.holdout_folds, rng)[:1])
            redrawn.append(stratified_round_robin_folds(y, s.repartition_folds, rng))
        names = [s.estimator_names()[0], kfold_name(s.repartition_folds)] * s.repartitions
        for i, (name, estimate) in enumerate(zip(names, data.fixed_accuracies(redrawn))):
            repeated.append({"dataset": seed, "repetition": i // 2, "estimator": name, "estimate": estimate})

    # Part 2: selection over the grid, non-nested and nested, with the draws of the full procedure.
    selection_folds = stratified_round_robin_folds(y, s.selection_folds, rng)
    inner_runs, outer_runs = [], []
    for test in stratified_round_robin_folds(y, s.outer_folds, rng):
        train = np.setdiff1d(everything, test)
        inner_runs.append((train, [train[f] for f in stratified_round_robin_folds(y[train], s.selection_folds, rng)]))
        outer_runs.append((everything, [test]))  # trained on the outer training set
    hits = [h.ravel() for h in data.hits([(everything, selection_folds)] + inner_runs + outer_runs)]
    selection_hits, inner_hits, outer_hits = hits[0], hits[1 : 1 + len(inner_runs)], hits[1 + len(inner_runs) :]
    settings = [(sigma, k) for sigma in s.sigmas for k in s.ks]  # the document's order: blur, then k
    rows = []
    for sigmas, ks in s.candidate_sets:
        members = np.array([i for i, (sigma, k) in enumerate(settings) if sigma in sigmas and k in ks])
        winner = members[np.argmax(selection_hits[members])]  # first best, as max() over a dict
        nested_hits = sum(outer[members[np.argmax(inner[members])]] for inner, outer in zip(inner_hits, outer_hits))
        sigma, k = settings[winner]
        score, nested, truth = selection_hits[winner] / len(y), nested_hits / len(y), data.true_accuracy(sigma, k)
        rows.append(
            {
                "dataset": seed,
                "n_candidates": len(members),
                "winner_sigma": sigma,
                "winner_k": k,
                "non_nested_score": score,
                "nested_estimate": nested,
                "true_accuracy": truth,
                "optimism": score - truth,
                "nested_error": nested - truth,
            }
        )
    ranked = s.ranked_seeds[0] <= seed < s.ranked_seeds[1]
    scores = [
        {
            "dataset": seed,
            "sigma": sigma,
            "k": k,
            "cv_score": selection_hits[i] / len(y),
            "true_accuracy": data.true_accuracy(sigma, k),
        }
        for i, (sigma, k) in enumerate(settings)
        if ranked
    ]
    return {
        "estimates": estimates,
        "repartitions": repeated,
        "selection": rows,
        "fold_models": fold_models,
        "candidate_scores": scores,
    }


def _fold_models(
    data: _Dataset, partitions: list[list[np.ndarray]], estimates: list[dict], seed: int, documents: bool
) -> list[dict]:
    """Each Part 1 estimate, and a class-balanced leave-one-out, split into its two sources of error.

    ``training_size_effect``: the true accuracy of the models the estimator trained minus the full
    model's (what training on fewer images costs); ``validation_effect``: the estimate minus the
    true accuracy of those same models (what scoring them on the held-out images adds). The two
    add up to the estimate's error. The balanced leave-one-out draws nothing, so the stream and
    every other table are unchanged. Its fold models are measured on every dataset: the robustness
    study reads them to measure leave-one-out's scoring effect against it (``knn_bias_sources``).
    """
    balanced = class_balanced_leave_one_out(data.labels)
    n = len(data.labels)
    names = [row["estimator"] for row in estimates] + [BALANCED_LOO]
    values = [row["estimate"] for row in estimates] + data.fixed_accuracies([balanced])
    true = estimates[0]["true_accuracy"]
    rows = []
    every = partitions + [balanced]
    models_of = data.fold_model_accuracy(every)
    for name, folds, estimate, models in zip(names, every, values, models_of):
        held = sum(len(f) for f in folds)
        rows.append(
            {
                "dataset": seed,
                "estimator": name,
                "training_images": sum(len(f) * (n - len(f)) for f in folds) / held,
                "estimate": estimate,
                "fold_models_true_accuracy": models,
                "true_accuracy": true,
                "training_size_effect": models - true,
                "validation_effect": estimate - models,
            }
        )
    return rows


def simulate_datasets(seeds, s: ShapeStudySettings, progress=None) -> DatasetResult:
    """The rows of several datasets, in seed order; ``progress(done, total)`` after each, if given."""
    seeds = list(seeds)
    rows = []
    for seed in seeds:
        rows.append(_dataset_rows(seed, s))
        if progress is not None:
            progress(len(rows), len(seeds))
    return _tables(rows)


def _tables(rows: list[dict[str, list[dict]]]) -> DatasetResult:
    """Each table built once from every dataset's rows, in order, its columns in the order of the
    rows' keys (a table no dataset has rows for, as the repartitions of a shard without the chosen
    dataset, is written with the columns its step declares: ``cvsuite.workflow.study_job``)."""
    return DatasetResult(
        **{
            field.name: pd.DataFrame([row for dataset in rows for row in dataset[field.name]])
            for field in fields(DatasetResult)
        }
    )
