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

    Adds the Monte Carlo standard error of the mean, and whether the mean is within two of them of
    zero ("none of the four estimators shows a bias that 40 datasets can distinguish from zero").
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
                "bias_distinguishable_from_zero": bool(abs(mean) > 2 * se),
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


def spread_findings(summary: pd.DataFrame, repeated: pd.DataFrame, holdout: str, kfold: str) -> pd.DataFrame:
    """The prose after Part 1: how the spreads compare.

    "The holdout estimate ... its error varies about twice as much as that of 5-fold" (a ratio of
    s.d.s); "The partition-to-partition spread of 5-fold is smaller than its error across datasets".
    """
    sd = summary.set_index("estimator")["sd_error"]
    rep_sd = repeated.set_index("estimator")["estimate_sd"]
    return pd.DataFrame(
        [
            {
                "holdout_over_kfold_sd": sd[holdout] / sd[kfold],
                "kfold_partition_sd": rep_sd.get(kfold, np.nan),
                "kfold_dataset_sd": sd[kfold],
                "partition_spread_below_dataset_spread": bool(rep_sd.get(kfold, np.nan) < sd[kfold]),
                "no_estimator_bias_distinguishable": bool(not summary["bias_distinguishable_from_zero"].any()),
            }
        ]
    )


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
    equals the mean of the folds). And "a Pipeline passed to cross_val_score refits its preprocessing
    in every fold" (How to Apply It, step 3): a scaler and the classifier in a Pipeline, the scaler's
    fitted means read by the scorer in each fold against its training images' own means.
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
    splits = [(np.setdiff1d(np.arange(n), test), test) for test in folds]
    sklearn_accuracy = float(cross_val_score(KNeighborsClassifier(k), features, labels, cv=splits).mean())
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
    return {
        "folds": n_folds,
        "per_class_counts_match_stratified_kfold": same_counts,
        "unshuffled_kfold_is_consecutive_blocks": blocks,
        "ours_accuracy": ours,
        "sklearn_accuracy": sklearn_accuracy,
        "accuracies_agree": bool(abs(ours - sklearn_accuracy) < 1e-12),
        "pipeline_fits": len(fitted_means),
        "pipeline_refits_preprocessing_per_fold": bool(
            len(fitted_means) == n_folds and max(own) < 1e-12 and min(whole) > 1e-6
        ),
        "pipeline_scaler_mean_gap_to_whole_set": float(min(whole)),
    }
