"""Why a single small test set says little ("Cross-Validation", Purpose).

"With a few hundred images the held-out set is small enough that its score depends heavily on which
images happened to land in it", and, after Goodfellow, Bengio and Courville: "a small test set leaves
statistical uncertainty around the estimated error, which makes it hard to claim that one algorithm
beats another". On the Example's design and fixed classifier (blur 1, k = 5):

- ``holdout_spread``: on one dataset of a few hundred images, the s.d. of the 80/20 holdout's score
  over re-drawn splits, beside the s.d. of 5-fold CV over re-drawn partitions;
- ``small_test_power``: on the first dataset, the fixed classifier against the setting of the grid
  with the best true accuracy (both trained on the 80 images), scored on random test sets of each
  size drawn from the fresh images: how often a paired (McNemar) test at the 5% level says which is
  better, with its binomial standard error.

Statistics only: the registry's records decide what they say.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import stratified_round_robin_folds
from cvsuite.methods.knn import majority_votes
from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, _Dataset

Z_5_PERCENT = 1.959963984540054  # two-sided 5% point of the standard normal


def fixed_blur_only(s: ShapeStudySettings) -> ShapeStudySettings:
    """The settings with the grid's blurs narrowed to the fixed classifier's: a dataset built from them
    blurs, measures and ranks its images at that blur alone, which is all the fixed classifier reads."""
    return replace(s, sigmas=(s.fixed_sigma,))


def holdout_spread(s: ShapeStudySettings, images_per_class: int, repartitions: int, seed: int) -> pd.DataFrame:
    """One dataset of ``images_per_class`` images per shape (``default_rng(seed)``: the images, then
    per repetition a holdout split and a 5-fold partition, stratified, as the Example draws them):
    the fixed classifier's holdout and 5-fold scores over the repetitions, their s.d.s and ratio."""
    rng = np.random.default_rng(seed)
    images, labels = draw_shape_images(images_per_class, rng, s.design)
    data = _Dataset.of_images(fixed_blur_only(s), images, labels, images[:0], labels[:0])
    redrawn = []
    for _ in range(repartitions):
        redrawn.append(stratified_round_robin_folds(labels, s.holdout_folds, rng)[:1])
        redrawn.append(stratified_round_robin_folds(labels, s.repartition_folds, rng))
    scores = np.array(data.fixed_accuracies(redrawn))
    holdout, kfold = scores[0::2], scores[1::2]
    return pd.DataFrame(
        [
            {
                "images": len(labels),
                "held_out_images": int(len(redrawn[0][0])),
                "repartitions": repartitions,
                "holdout_sd": float(holdout.std(ddof=1)),
                "holdout_range_points": float(100 * (holdout.max() - holdout.min())),
                "kfold_sd": float(kfold.std(ddof=1)),
                "holdout_over_kfold_sd": float(holdout.std(ddof=1) / kfold.std(ddof=1)),
            }
        ]
    )


def small_test_power(s: ShapeStudySettings, dataset_seed: int, sizes, draws: int, seed: int) -> pd.DataFrame:
    """Per test-set size: over every pair of the grid's settings (each trained on the first dataset's
    80 images), how often McNemar's paired z on a random test set of that size (``draws`` sets,
    ``default_rng(seed)``, without replacement from the fresh images) exceeds the 5% point, averaged
    over the pairs, with the standard error of that mean over the draws; beside the pairs' mean
    absolute difference of true accuracy (on all the fresh images) and the binomial standard error of
    one accuracy at that size. Sizes above the number of fresh images are left out."""
    data = _Dataset(dataset_seed, s)
    columns = []
    for sigma in s.sigmas:
        nearest = data.fresh_ranking(sigma)[:, : max(s.ks)]
        votes = majority_votes(data.labels[nearest], s.ks, data.n_classes)
        columns.append(votes == data.fresh_labels[:, None])
    correct = np.concatenate(columns, axis=1).T.astype(float)  # settings x fresh images
    pairs = np.triu_indices(len(correct), k=1)
    accuracy = correct.mean(axis=1)
    rng = np.random.default_rng(seed)
    rows = []
    # A size above the fresh images (a what-if with fewer of them) has no test set to draw: left out.
    for size in [size for size in sizes if size <= correct.shape[1]]:
        detected = np.empty(draws)
        for d in range(draws):
            picked = correct[:, rng.choice(correct.shape[1], size=size, replace=False)]
            # Right by one setting of a pair only, counted once for both orders: whole numbers, exact.
            only = picked @ (1 - picked).T
            only_first, only_second = only[pairs], only.T[pairs]
            discordant = only_first + only_second
            z = np.abs(only_first - only_second) / np.sqrt(np.maximum(discordant, 1))
            detected[d] = float((z > Z_5_PERCENT).mean())
        power = float(detected.mean())
        mid = float(np.median(accuracy))
        rows.append(
            {
                "test_images": int(size),
                "draws": draws,
                "settings": len(correct),
                "pairs": len(pairs[0]),
                "mean_abs_accuracy_difference": float(np.abs(accuracy[pairs[0]] - accuracy[pairs[1]]).mean()),
                "accuracy_se_at_size": float(np.sqrt(mid * (1 - mid) / size)),
                "power": power,
                "power_se": float(detected.std(ddof=1) / np.sqrt(draws)),
            }
        )
    return pd.DataFrame(rows)


def new_source(
    s: ShapeStudySettings, shifted: ShapeImageDesign, datasets: int, fresh_per_class: int, seed: int
) -> pd.DataFrame:
    """ "Expecting cross-validation to predict performance on new data sources. It estimates error on
    the distribution the dataset was drawn from." Per dataset (``default_rng(seed + d)``: the
    Example's 80 images, fresh images from the same design, fresh images from the ``shifted`` design,
    then a stratified 5-fold partition): the fixed classifier's 5-fold CV accuracy, its accuracy on
    the fresh images of the same source and on those of the new one. One summary row: the means with
    standard errors, and CV's gap to the same source over its gap to the new one (a ratio of mean
    gaps, paired by dataset, in absolute value, with its delta-method standard error)."""
    rows = []
    fixed = fixed_blur_only(s)
    for d in range(datasets):
        rng = np.random.default_rng(seed + d)
        images, labels = draw_shape_images(s.images_per_class, rng, s.design)
        same, same_labels = draw_shape_images(fresh_per_class, rng, s.design)
        new, new_labels = draw_shape_images(fresh_per_class, rng, shifted)
        data = _Dataset.of_images(fixed, images, labels, same, same_labels)
        cv = data.fixed_accuracies([stratified_round_robin_folds(labels, s.repartition_folds, rng)])[0]
        other = _Dataset.of_images(fixed, images, labels, new, new_labels)
        rows.append((cv, data.true_accuracy(s.fixed_sigma, s.fixed_k), other.true_accuracy(s.fixed_sigma, s.fixed_k)))
    cv, same_source, new_source_accuracy = (np.array(column) for column in zip(*rows))
    share, share_se = ratio_and_se(cv - same_source, cv - new_source_accuracy)
    summary = {"datasets": datasets, "fresh_images": 4 * fresh_per_class}
    for name, values in (("cv", cv), ("same_source", same_source), ("new_source", new_source_accuracy)):
        summary[f"{name}_accuracy"], summary[f"{name}_accuracy_se"] = mean_and_se(values)
    summary["cv_minus_new_source"], summary["cv_minus_new_source_se"] = mean_and_se(cv - new_source_accuracy)
    summary["same_source_gap_share"], summary["same_source_gap_share_se"] = abs(share), share_se
    return pd.DataFrame([summary])
