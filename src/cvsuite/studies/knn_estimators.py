"""Part 1 of the shape-image study: four estimates of one fixed classifier's accuracy.

"Cross-Validation", section Example: Part 1's table of estimators, the prose after it, and the
scikit-learn cross-check at the end of the listing, computed from the per-dataset rows that the
shards of ``shape_image_datasets`` write.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import consecutive_folds, stratified_round_robin_folds
from cvsuite.methods.knn import HeldOutTask, blurred_features, held_out_predictions_literal, squared_distances
from cvsuite.methods.monte_carlo import standard_error


def true_accuracy_range(estimates: pd.DataFrame) -> pd.DataFrame:
    """The range of the fixed classifier's true accuracy over datasets ("0.560-0.650")."""
    per_dataset = estimates.groupby("dataset", sort=True)["true_accuracy"].first()
    return pd.DataFrame(
        [
            {
                "n_datasets": len(per_dataset),
                "true_accuracy_min": per_dataset.min(),
                "true_accuracy_max": per_dataset.max(),
            }
        ]
    )


def estimator_summary(estimates: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per estimator: mean and sample s.d. (ddof = 1) of estimate - true, as "Cross-Validation",
    Example, Part 1 prints them.

    Adds the Monte Carlo standard error of the mean and the mean over it: how far from zero the
    bias lies in its standard errors ("none of the four estimators shows a bias that 40 datasets can
    distinguish from zero").
    """
    rows = []
    for name in order:
        errors = estimates.loc[estimates["estimator"] == name, "error"]
        mean, se = float(errors.mean()), standard_error(errors)
        rows.append(
            {
                "estimator": name,
                "held_out_images": int(estimates.loc[estimates["estimator"] == name, "held_out_images"].iloc[0]),
                "n_datasets": len(errors),
                "mean_error": mean,
                "mean_error_se": se,
                "sd_error": float(errors.std(ddof=1)),
                "mean_error_over_se": mean / se if se > 0 else np.nan,
            }
        )
    return pd.DataFrame(rows)


def repartition_summary(repartitions: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Range and sample s.d. of one dataset's estimates over repeated random partitions ("Cross-
    Validation", Example, Part 1: "seed 0, 20 repartitions").

    Estimators with no repetitions (the chosen dataset outside the seeds run) get empty values.
    """
    rows = []
    for name in order:
        values = repartitions.loc[repartitions["estimator"] == name, "estimate"]
        empty = values.empty
        rows.append(
            {
                "estimator": name,
                "dataset": int(repartitions["dataset"].iloc[0]) if not empty else np.nan,
                "repetitions": len(values),
                "estimate_min": np.nan if empty else values.min(),
                "estimate_max": np.nan if empty else values.max(),
                "estimate_sd": np.nan if empty else float(values.std(ddof=1)),
                "range_points": np.nan if empty else 100 * (values.max() - values.min()),
            }
        )
    return pd.DataFrame(rows)


def spread_comparison(
    summary: pd.DataFrame,
    repeated: pd.DataFrame,
    estimates: pd.DataFrame,
    repartitions: pd.DataFrame,
    holdout: str,
    kfold: str,
) -> pd.DataFrame:
    """The prose after Part 1: how the spreads compare (``spreads``).

    "The holdout estimate ... its error varies about twice as much as that of 5-fold" (a ratio of
    s.d.s); "The partition-to-partition spread of 5-fold is smaller than its error across datasets:
    repeating cross-validation with new partitions removes the first kind of noise but not the
    second". The variance of 5-fold's error across datasets holds both kinds; its variance across
    one dataset's repartitions holds the first only. Their difference, the dataset component, is
    what repetition cannot remove; its standard error adds the two variances' (each the standard
    error of a mean of squared deviations), the datasets and the repartitions being independent.
    """
    sd = summary.set_index("estimator")["sd_error"]
    rep_sd = repeated.set_index("estimator")["estimate_sd"]
    across_datasets = estimates.loc[estimates["estimator"] == kfold, "error"]
    across_partitions = repartitions.loc[repartitions["estimator"] == kfold, "estimate"]
    component = float(across_datasets.var(ddof=1) - across_partitions.var(ddof=1))
    component_se = float(np.hypot(_variance_se(across_datasets), _variance_se(across_partitions)))
    return pd.DataFrame(
        [
            {
                "holdout_over_kfold_sd": sd[holdout] / sd[kfold],
                "kfold_partition_sd": rep_sd.get(kfold, np.nan),
                "kfold_dataset_sd": sd[kfold],
                "dataset_component_variance": component,
                "dataset_component_variance_se": component_se,
            }
        ]
    )


def _variance_se(values: pd.Series) -> float:
    """The standard error of a sample variance: that of the mean of the squared deviations."""
    return standard_error((values - values.mean()) ** 2)


def crosscheck_table(
    design: ShapeImageDesign, per_class: int, *, sigma: float, k: int, n_folds: int, seed: int
) -> pd.DataFrame:
    """The listing's closing scikit-learn cross-check, as a one-row table (``sklearn_crosscheck``).

    Draw order from ``default_rng(seed)``: one dataset of ``per_class`` images per class, then one
    ``stratified_round_robin_folds`` partition into ``n_folds``; the classifier blurs by ``sigma``
    and votes among ``k`` neighbours. ``seed`` is also scikit-learn's ``random_state``.
    """
    rng = np.random.default_rng(seed)
    images, labels = draw_shape_images(per_class, rng, design)
    folds = stratified_round_robin_folds(labels, n_folds, rng)
    return pd.DataFrame([sklearn_crosscheck(blurred_features(images, sigma), labels, folds, k, seed)])


def sklearn_crosscheck(features: np.ndarray, labels: np.ndarray, folds: list[np.ndarray], k: int, seed: int) -> dict:
    """Compare our folds and K-fold accuracy with scikit-learn's on the same images.

    Our stratified folds against ``StratifiedKFold(shuffle=True)``'s per-class counts, unshuffled
    ``KFold`` against ``consecutive_folds``, and our pooled K-fold accuracy against
    ``cross_val_score`` of ``KNeighborsClassifier`` on the same splits (equal folds here, so pooled
    equals the mean of the folds: ``accuracy_difference``). And "a Pipeline passed to cross_val_score
    refits its preprocessing in every fold" (How to Apply It, step 3): a scaler and the classifier in
    a Pipeline, the scaler's fitted means read by the scorer in each fold, against its training
    images' own means and against the whole set's. The two booleans are the listing's printed ones.
    And a model that has memorised its file, a 1-nearest-neighbour classifier: its accuracy on the
    images it was fitted to, against its cross-validated accuracy on the same splits ("would be near
    100% for a model that had memorised the file").
    """
    from sklearn.model_selection import KFold, StratifiedKFold, cross_val_score
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    n, n_folds = len(labels), len(folds)
    n_classes = int(labels.max()) + 1
    theirs = [test for _, test in StratifiedKFold(n_folds, shuffle=True, random_state=seed).split(features, labels)]
    same_counts = all(
        np.array_equal(np.bincount(labels[a], minlength=n_classes), np.bincount(labels[b], minlength=n_classes))
        for a, b in zip(folds, theirs)
    )
    blocks = all(
        np.array_equal(test, block)
        for (_, test), block in zip(KFold(n_folds).split(features), consecutive_folds(n, n_folds))
    )
    # The document's sentence names StratifiedKFold beside KFold; on images stored class by class,
    # unshuffled, it deals each class's members in order, so its folds are not consecutive blocks.
    stratified_blocks = all(
        np.array_equal(test, block)
        for (_, test), block in zip(StratifiedKFold(n_folds).split(features, labels), consecutive_folds(n, n_folds))
    )
    splits = [(np.setdiff1d(np.arange(n), test), test) for test in folds]
    scores = cross_val_score(KNeighborsClassifier(k), features, labels, cv=splits)  # one per fold
    sklearn_accuracy = float(scores.mean())
    distances = squared_distances(features, features)[None]
    tested, predictions = held_out_predictions_literal(
        distances, HeldOutTask(labels, np.arange(n), folds, (k,), n_classes)
    )
    ours = float((predictions[0, :, 0] == labels[tested]).mean())
    fitted_means = []

    def scaler_reading_score(pipeline, x, y) -> float:
        fitted_means.append(pipeline[0].mean_.copy())
        return pipeline.score(x, y)

    pipeline = make_pipeline(StandardScaler(), KNeighborsClassifier(k))
    cross_val_score(pipeline, features, labels, cv=splits, scoring=scaler_reading_score)
    # Each fold's scaler against its own training images' means, and against the whole set's.
    own = [np.abs(mean - features[train].mean(axis=0)).max() for mean, (train, _) in zip(fitted_means, splits)]
    whole = [np.abs(mean - features.mean(axis=0)).max() for mean in fitted_means]
    memorised = KNeighborsClassifier(1).fit(features, labels)
    memorised_cv = float(cross_val_score(KNeighborsClassifier(1), features, labels, cv=splits).mean())
    return {
        "folds": n_folds,
        "per_class_counts_match_stratified_kfold": same_counts,
        "unshuffled_kfold_is_consecutive_blocks": blocks,
        "unshuffled_stratified_kfold_is_consecutive_blocks": stratified_blocks,
        "ours_accuracy": ours,
        "sklearn_accuracy": sklearn_accuracy,
        "sklearn_scores": len(scores),
        "accuracy_difference": ours - sklearn_accuracy,
        "pipeline_fits": len(fitted_means),
        "pipeline_scaler_mean_gap_to_training_images": float(max(own)),
        "pipeline_scaler_mean_gap_to_whole_set": float(min(whole)),
        "memorising_training_accuracy": float(memorised.score(features, labels)),
        "memorising_cv_accuracy": memorised_cv,
    }
