"""Part 1 of "Cross-Validation"'s Example compared estimator by estimator, and its design.

Part 1's table is a mean and an s.d. over 40 datasets of four estimates of one classifier's
accuracy. The four estimates are made on the same datasets, so every comparison between them is
paired dataset by dataset (``paired_differences``): that is what gives 40 datasets the power to
see, for instance, that leave-one-out is more pessimistic than 10-fold, contrary to the text.
The design numbers of the Example (``setup_table``), the training-set sizes its estimators use and
how closely their stratified folds keep the class proportions (``training_sizes_table``) and each
estimate's correlation with the truth (``estimate_truth_correlation``) are tabled for the registry,
whose records judge the document's sentences on them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.folds import leave_one_out_folds, stratified_round_robin_folds, training_sizes
from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.studies.shape_image_datasets import ShapeStudySettings


def setup_table(settings: ShapeStudySettings, datasets: int) -> pd.DataFrame:
    """The Example's design as the study ran it, one row: the numbers its prose states.

    "Each 16x16 grayscale image shows one of four shapes ... at a random shift of up to two pixels,
    with contrast drawn from 0.5 to 1.0 ... noise of standard deviation 0.6. A dataset has 80
    images, 20 per class; for each of 40 datasets the script also draws 4,000 fresh images";
    "(blur sigma = 1 pixel, k = 5)", "one stratified 80/20 holdout split", "20 random partitions";
    Part 2's "(5 outer folds, with the whole selection repeated by 5-fold cross-validation inside
    each outer training set)" over "42 combinations".
    """
    design, classes = settings.design, len(settings.design.masks())
    return pd.DataFrame(
        [
            {
                "image_size": design.size,
                "classes": classes,
                "max_shift": design.max_shift,
                "contrast_low": design.contrast[0],
                "contrast_high": design.contrast[1],
                "noise_sd": design.noise_sd,
                "images": classes * settings.images_per_class,
                "images_per_class": settings.images_per_class,
                "fresh_images": classes * settings.fresh_per_class,
                "datasets": datasets,
                "blur_sigma": settings.fixed_sigma,
                "k": settings.fixed_k,
                "holdout_percent": 100 / settings.holdout_folds,
                "repartitions": settings.repartitions,
                "outer_folds": settings.outer_folds,
                "inner_folds": settings.selection_folds,
                "candidates": len(settings.sigmas) * len(settings.ks),
            }
        ]
    )


def example_partitions(settings: ShapeStudySettings, seed: int) -> dict[str, list[np.ndarray]]:
    """One partition of the Example's labels for each estimator, drawn as a dataset draws them.

    Draw order from ``default_rng(seed)``: the holdout's stratified partition (its first fold is
    held out), then one stratified partition per K of ``kfold_folds``; leave-one-out draws nothing.
    Only their sizes and class counts are read, which the round-robin deal fixes up to the random
    first fold of each class.
    """
    classes = len(settings.design.masks())
    labels = np.repeat(np.arange(classes), settings.images_per_class)
    rng = np.random.default_rng(seed)
    names = settings.estimator_names()
    partitions = {names[0]: stratified_round_robin_folds(labels, settings.holdout_folds, rng)[:1]}
    for name, k in zip(names[1:], settings.kfold_folds):
        partitions[name] = stratified_round_robin_folds(labels, k, rng)
    partitions[names[-1]] = leave_one_out_folds(len(labels))
    return partitions


def _shared_training_share_min(n: int, folds: list[np.ndarray]) -> float:
    """The least, over ordered pairs of distinct fold models, of the share of the first's training
    images the second also trains on; NaN for a single model."""
    if len(folds) < 2:
        return float("nan")
    training = np.ones((len(folds), n), dtype=np.int64)
    for i, fold in enumerate(folds):
        training[i, fold] = 0
    shared = training @ training.T
    share = shared / np.diag(shared)[:, None]
    np.fill_diagonal(share, np.inf)
    return float(share.min())


def training_sizes_table(settings: ShapeStudySettings, partitions: dict[str, list[np.ndarray]]) -> pd.DataFrame:
    """Per estimator: how many models it trains and on how many images, against n(K - 1)/K.

    "The K models are trained on n(K-1)/K images, not n" (How It Works); Bengio and Grandvalet's
    n - n/K is the same number. The holdout is one fold of ``holdout_folds``. ``train_images_gap_max``
    is the largest distance of a training set's size from n(K - 1)/K; ``class_count_gap_max`` the
    largest distance, in images, of a class's count in a fold from its share of the dataset times the
    fold's size ("every fold has approximately the class proportions of the whole set"), over the
    folds that can hold every class (none for leave-one-out); ``held_out_once`` how many images are
    held out by exactly one of its models ("use every example in the estimate", Purpose);
    ``shared_training_share_min`` the least share of one model's training images that another model
    of the same estimator also trains on ("models that share most of their training data"; none for
    the holdout's single model).
    """
    classes = len(settings.design.masks())
    n = classes * settings.images_per_class
    labels = np.repeat(np.arange(classes), settings.images_per_class)
    ks = [settings.holdout_folds, *settings.kfold_folds, n]
    rows = []
    for (name, folds), k in zip(partitions.items(), ks):
        sizes = training_sizes(n, folds)
        rows.append(
            {
                "estimator": name,
                "images": n,
                "folds": k,
                "models": len(folds),
                "train_images_min": int(sizes.min()),
                "train_images_max": int(sizes.max()),
                "n_times_k_minus_1_over_k": n * (k - 1) / k,
                "n_minus_n_over_k": n - n / k,
                "train_images_gap_max": float(np.abs(sizes - n * (k - 1) / k).max()),
                "class_count_gap_max": _class_count_gap(labels, folds),
                "held_out_once": int((np.bincount(np.concatenate(folds), minlength=n) == 1).sum()),
                "shared_training_share_min": _shared_training_share_min(n, folds),
            }
        )
    return pd.DataFrame(rows)


def _class_count_gap(labels: np.ndarray, folds: list[np.ndarray]) -> float:
    """The largest |count of a class in a fold - its share of the dataset x the fold's size|, in
    images, over the folds that hold at least one image per class; NaN if there are none."""
    classes, counts = np.unique(labels, return_counts=True)
    shares = counts / len(labels)
    gaps = [
        np.abs(np.array([(labels[fold] == c).sum() for c in classes]) - shares * len(fold)).max()
        for fold in folds
        if len(fold) >= len(classes)
    ]
    return float(max(gaps)) if gaps else np.nan


def paired_differences(estimates: pd.DataFrame, pairs: list[tuple[str, str]]) -> pd.DataFrame:
    """Two estimators compared on the same datasets: their errors and squared errors, differenced.

    Per pair (estimator, versus): the mean over datasets of error(estimator) - error(versus) (the
    difference of their biases) and of the squared errors (of their mean squared errors, the
    "spread" of the prose), each with the standard error of a paired mean, their ratios to it, and
    the ratio of the two s.d.s of the error.
    """
    errors = estimates.pivot(index="dataset", columns="estimator", values="error")
    rows = []
    for name, versus in pairs:
        difference, difference_se = mean_and_se(errors[name] - errors[versus])
        squared, squared_se = mean_and_se(errors[name] ** 2 - errors[versus] ** 2)
        rows.append(
            {
                "estimator": name,
                "versus": versus,
                "datasets": len(errors),
                "mean_difference": difference,
                "mean_difference_se": difference_se,
                "mean_difference_over_se": difference / difference_se,
                "squared_error_difference": squared,
                "squared_error_difference_se": squared_se,
                "squared_error_difference_over_se": squared / squared_se,
                "sd_ratio": float(errors[name].std(ddof=1) / errors[versus].std(ddof=1)),
            }
        )
    return pd.DataFrame(rows)


def comparison_pairs(order: list[str]) -> list[tuple[str, str]]:
    """Every pair of Part 1's estimators, each later one against each earlier one (draw order)."""
    return [(order[j], order[i]) for i in range(len(order)) for j in range(i + 1, len(order))]


def estimate_truth_correlation(estimates: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per estimator: the correlation over datasets of its estimate with the true accuracy.

    The analogue, in the document's example, of ESL §7.12's correlation of CV estimates with
    Err_T. Standard error (1 - r^2) / sqrt(m - 3) for m datasets (Fisher's z, delta method).
    """
    rows = []
    for name in order:
        block = estimates[estimates["estimator"] == name]
        r = float(np.corrcoef(block["estimate"], block["true_accuracy"])[0, 1])
        rows.append(
            {
                "estimator": name,
                "datasets": len(block),
                "correlation": r,
                "correlation_se": (1 - r**2) / np.sqrt(len(block) - 3) if len(block) > 3 else np.nan,
            }
        )
    return pd.DataFrame(rows)
