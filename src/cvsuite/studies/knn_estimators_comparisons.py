"""What "Cross-Validation" concludes from Part 1 of its Example, tested as inferences.

Part 1's table is a mean and an s.d. over 40 datasets of four estimates of one classifier's
accuracy. The four estimates are made on the same datasets, so every comparison between them is
paired dataset by dataset (``paired_differences``): that is what gives 40 datasets the power to
see, for instance, that leave-one-out is more pessimistic than 10-fold, contrary to the text.
The design numbers of the Example (``setup_table``) and the training-set sizes its estimators
use (``training_sizes_table``) are tabled for the registry; the claims are gathered by
``part_one_claims``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.special import fdtrc

from cvsuite.methods.folds import leave_one_out_folds, stratified_round_robin_folds, training_sizes
from cvsuite.methods.monte_carlo import mean_and_se
from cvsuite.studies.shape_image_datasets import ShapeStudySettings

SIGNIFICANT_SE = 2.0  # a paired difference counts when it exceeds two of its standard errors
A_LITTLE = (0.8, 1.0)  # "more folds help only a little further": an s.d. ratio in [0.8, 1) to 5-fold's
REPETITION_LEVEL = 0.05  # one-sided level of the F test that a dataset component remains


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


def training_sizes_table(settings: ShapeStudySettings, partitions: dict[str, list[np.ndarray]]) -> pd.DataFrame:
    """Per estimator: how many models it trains and on how many images, against n(K - 1)/K.

    "The K models are trained on n(K-1)/K images, not n" (How It Works); Bengio and Grandvalet's
    n - n/K is the same number. The holdout is one fold of ``holdout_folds``.
    """
    n = len(settings.design.masks()) * settings.images_per_class
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
            }
        )
    return pd.DataFrame(rows)


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


def dataset_component_test(dataset_sd: float, partition_sd: float, datasets: int, repartitions: int) -> dict:
    """Is the error across datasets larger than the partition noise of one dataset?

    F = s.d.(error across datasets)^2 / s.d.(estimate across repartitions)^2 on (datasets - 1,
    repartitions - 1) degrees of freedom, one-sided: a p-value below REPETITION_LEVEL says that a
    component remains which repetition (new partitions of the same images) cannot remove. It
    rests on one dataset's repartitions standing for every dataset's partition noise.
    """
    f = dataset_sd**2 / partition_sd**2
    # fdtrc is the F survival function scipy.stats.f.sf calls, without scipy.stats's import (0.3 s a job).
    return {"f": float(f), "p": float(fdtrc(datasets - 1, repartitions - 1, f))}


@dataclass(frozen=True)
class PartOneEvidence:
    """Part 1's tables as the claims read them; ``names`` in draw order (holdout first, LOO last)."""

    names: list[str]
    summary: pd.DataFrame
    paired: pd.DataFrame
    sizes: pd.DataFrame
    findings: pd.DataFrame
    repeated: pd.DataFrame
    partitions: dict[str, list[np.ndarray]]
    labels: np.ndarray


def _pair(paired: pd.DataFrame, name: str, versus: str) -> pd.Series:
    """The row comparing ``name`` with ``versus``, signs turned if it was tabled the other way."""
    hit = paired[(paired["estimator"] == name) & (paired["versus"] == versus)]
    if len(hit):
        return hit.iloc[0]
    row = paired[(paired["estimator"] == versus) & (paired["versus"] == name)].iloc[0].copy()
    for column in (
        "mean_difference",
        "mean_difference_over_se",
        "squared_error_difference",
        "squared_error_difference_over_se",
    ):
        row[column] = -row[column]
    row["sd_ratio"] = 1 / row["sd_ratio"]
    return row


def _class_share_deviation(labels: np.ndarray, partitions: dict[str, list[np.ndarray]]) -> float:
    """The largest gap, over the stratified folds, between a class's share in a fold and overall."""
    classes, overall = np.unique(labels, return_counts=True)
    overall = overall / len(labels)
    gaps = [
        np.abs(np.array([(labels[fold] == c).mean() for c in classes]) - overall).max()
        for folds in partitions.values()
        for fold in folds
        if len(fold) >= len(classes)
    ]
    return float(max(gaps))


def part_one_claims(evidence: PartOneEvidence) -> list[tuple]:
    """The words of "Cross-Validation" about Part 1, each read as a criterion on the tables.

    Each row: (claim, holds, value, reading). Comparisons between estimators are paired over the
    datasets (``paired_differences``) and count when they exceed SIGNIFICANT_SE standard errors.
    """
    names, paired, sizes = evidence.names, evidence.paired, evidence.sizes
    holdout, kfolds, loo = names[0], names[1:-1], names[-1]
    first = kfolds[0]
    rows = []

    exact = (sizes["train_images_min"] == sizes["n_times_k_minus_1_over_k"]) & (
        sizes["train_images_max"] == sizes["n_times_k_minus_1_over_k"]
    )
    at = sizes.set_index("estimator")
    rows.append(
        (
            "trains_on_n_k_minus_1_over_k",
            bool(exact.all()),
            float(at.loc[first, "train_images_max"]),
            f"every estimator's models train on n(K-1)/K = n - n/K images; value: {first}'s",
        )
    )
    cv_rows = at.loc[kfolds + [loo]]
    rows.append(
        (
            "k_fold_trains_k_models",
            bool((cv_rows["models"] == cv_rows["folds"]).all()),
            float(at.loc[loo, "models"]),
            "each K-fold estimate trains K models (the cost multiplies by K); value: leave-one-out's",
        )
    )
    rows.append(
        (
            "loo_trains_n_models_on_n_minus_1",
            bool(
                at.loc[loo, "models"] == at.loc[loo, "images"]
                and at.loc[loo, "train_images_max"] == at.loc[loo, "images"] - 1
            ),
            float(at.loc[loo, "train_images_max"]),
            "leave-one-out trains n models on n - 1 images each; value: images per model",
        )
    )

    # "It has the smallest pessimistic bias": no other estimator's mean error above LOO's by 2 SE.
    above_loo = [_pair(paired, other, loo)["mean_difference_over_se"] for other in names[:-1]]
    rows.append(
        (
            "loo_smallest_pessimistic_bias",
            bool(max(above_loo) <= SIGNIFICANT_SE),
            float(max(above_loo)),
            f"no estimator's mean error (estimate - true) exceeds leave-one-out's by more than {SIGNIFICANT_SE:g} "
            "paired SE; value: the largest excess in SE",
        )
    )
    steps = [_pair(paired, b, a)["mean_difference_over_se"] for a, b in zip(kfolds + [loo], kfolds[1:] + [loo])]
    rows.append(
        (
            "larger_k_less_pessimistic",
            bool(min(steps) >= -SIGNIFICANT_SE),
            float(min(steps)),
            f"the mean error does not fall by more than {SIGNIFICANT_SE:g} paired SE from one K to the next "
            f"({', '.join(kfolds)}, leave-one-out); value: the largest fall in SE",
        )
    )
    holdout_excess = [_pair(paired, holdout, other)["squared_error_difference_over_se"] for other in names[1:]]
    rows.append(
        (
            "holdout_differs_in_spread",
            bool(min(holdout_excess) > SIGNIFICANT_SE),
            float(min(holdout_excess)),
            f"the holdout's mean squared error exceeds each CV estimator's by more than {SIGNIFICANT_SE:g} paired SE; "
            "value: the smallest excess in SE",
        )
    )
    cv_spread = [_pair(paired, other, first)["squared_error_difference_over_se"] for other in kfolds[1:] + [loo]]
    rows.append(
        (
            "cv_estimators_differ_in_spread",
            bool(max(abs(z) for z in cv_spread) > SIGNIFICANT_SE),
            float(max(cv_spread, key=abs)),
            f"a CV estimator's mean squared error differs from {first}'s by more than {SIGNIFICANT_SE:g} paired SE; "
            "value: the largest difference in SE",
        )
    )
    ratios = [_pair(paired, other, first)["sd_ratio"] for other in kfolds[1:] + [loo]]
    low, high = A_LITTLE
    rows.append(
        (
            "more_folds_help_little",
            bool(all(low <= r < high for r in ratios)),
            float(min(ratios)),
            f"s.d.(error) of each estimator with more folds over {first}'s lies in [{low:g}, {high:g}); "
            "value: the smallest ratio",
        )
    )
    findings = evidence.findings.iloc[0]
    redrawn = evidence.repeated.set_index("estimator").loc[first]
    test = dataset_component_test(
        findings["kfold_dataset_sd"],
        findings["kfold_partition_sd"],
        int(evidence.summary["n_datasets"].iloc[0]),
        int(redrawn["repetitions"]),
    )
    rows.append(
        (
            "repetition_leaves_dataset_noise",
            bool(test["p"] < REPETITION_LEVEL),
            test["p"],
            f"F = s.d.({first} error across datasets)^2 / s.d.({first} across repartitions of one dataset)^2 "
            f"exceeds 1 at one-sided level {REPETITION_LEVEL:g}; value: the p-value",
        )
    )
    deviation = _class_share_deviation(evidence.labels, {k: v for k, v in evidence.partitions.items() if k != loo})
    fold_size = min(len(f) for k, folds in evidence.partitions.items() if k != loo for f in folds)
    rows.append(
        (
            "stratified_folds_keep_class_proportions",
            bool(deviation <= 1 / fold_size),
            deviation,
            "in every stratified fold each class's share is within one image of its share of the dataset; "
            "value: the largest gap",
        )
    )
    return rows
