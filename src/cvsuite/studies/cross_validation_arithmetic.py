"""Arithmetic and API facts that "Cross-Validation" states, computed from their inputs.

The numbers the document cites (ESL's hypothetical datasets of 200 and 50 images, UCF101's test
blocks, Recht et al.'s CIFAR-10 accuracies) are read from the registry by the entry point and
passed in, so that each lives in one place; what the document says about them is computed here.
So are scikit-learn's splitters and defaults as the installed version has them, the arithmetic of
one random split (Variants: random subsampling), the cost of nested cross-validation, and pooled
against per-fold ROC AUC (How to Apply It, step 4). ``arithmetic_tables`` writes them as the
statistics the registry's records judge: sizes, counts, gaps and ratios, never a verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import fold_size_range, stratified_round_robin_folds
from cvsuite.methods.knn import blurred_features

GOODFELLOW_EXAMPLES = 100_000  # "hundreds of thousands of examples": the smallest count the words allow, rounded down
SPLITTERS = (
    "KFold",
    "StratifiedKFold",
    "GroupKFold",
    "StratifiedGroupKFold",
    "LeaveOneOut",
    "LeaveOneGroupOut",
    "RepeatedKFold",
    "RepeatedStratifiedKFold",
    "TimeSeriesSplit",
)  # In scikit-learn: the classes the document names, in its order


def training_size(n: int, n_folds: int) -> dict:
    """K-fold on n items: the smallest and largest training set (``fold_size_range``)."""
    sizes = fold_size_range(n, n_folds)
    return {"min": sizes["train_size_min"], "max": sizes["train_size_max"]}


def binomial_standard_error_points(n: int, accuracy: float = 0.5) -> float:
    """The standard error of an accuracy measured on n independent test items, in points.

    sqrt(a(1 - a)/n) x 100; a = 0.5 is the largest it can be.
    """
    return float(100 * np.sqrt(accuracy * (1 - accuracy) / n))


def parse_group_blocks(text: str) -> list[set[int]]:
    """ "1–7, 8–14, 15–21" (en dash or hyphen) as the sets {1..7}, {8..14}, {15..21}."""
    blocks = []
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*[–-]\s*(\d+)\s*", part)
        if not match:
            raise ValueError(f"'{part.strip()}' is not a block of groups 'first–last'")
        first, last = int(match.group(1)), int(match.group(2))
        blocks.append(set(range(first, last + 1)))
    return blocks


def group_blocks_check(blocks: list[set[int]], groups: int) -> dict:
    """How test blocks of groups 1..``groups`` stand against a partition, as a grouped K-fold's folds.

    Returns how many groups are ever tested, how many stand in more than one block (0: the blocks
    are disjoint), the groups never tested (a partition has none) and how many of those come after
    every tested group (always in training at the end of the range).
    """
    tested = set().union(*blocks)
    never = sorted(set(range(1, groups + 1)) - tested)
    return {
        "tested": len(tested),
        "in_two_blocks": sum(len(b) for b in blocks) - len(tested),
        "never_tested": never,
        "never_tested_after_last_block": sum(g > max(tested) for g in never),
    }


def recht_closeness(original: float, new: float, cv_low: float, cv_high: float) -> dict:
    """Recht et al.'s five reshuffled CV splits against the original and new CIFAR-10 test sets.

    "a VGG-style model's accuracy fell from 93.0% on the original test set to 84.9% on the new
    one, yet five reshuffled cross-validation splits of the original data gave 93.5–94.0%, close
    to the original test set": the largest gap between a CV accuracy and the original, the drop to
    the new one, and the gap over the drop (how far towards the new test set the CV accuracies lie).
    """
    gap = max(abs(cv_low - original), abs(cv_high - original))
    drop = original - new
    return {"gap": gap, "drop": drop, "gap_over_drop": gap / drop}


def nested_fits(outer_folds: int, inner_folds: int, candidates: int) -> dict:
    """Models fitted by the Example's nested cross-validation, against the document's product.

    In each outer training set the selection fits one model per inner fold and candidate, then the
    chosen setting is refitted on the outer training set and scored on the outer fold.
    """
    fits = outer_folds * (inner_folds * candidates + 1)
    product = outer_folds * inner_folds * candidates
    return {"fits": fits, "product": product, "fits_over_product": fits / product}


def split_representation_counterexamples(n: int, class_count: int) -> dict:
    """ "a class over-represented in the training set is under-represented in the test set".

    Over every training size and every count of the class in the training set that one split of
    n items (``class_count`` of the class) allows: the cases, and the counterexamples, where its
    share in training is above its overall share but its share in the test set is not below it, or
    the other way round. Exact, in integers.
    """
    cases = counterexamples = 0
    for train in range(1, n):
        test = n - train
        for in_train in range(max(0, class_count - test), min(class_count, train) + 1):
            over = in_train * n > class_count * train
            under = (class_count - in_train) * n < class_count * test
            cases += 1
            counterexamples += over != under
    return {"cases": cases, "counterexamples": counterexamples}


def sklearn_defaults(labels: np.ndarray) -> dict:
    """What the installed scikit-learn does about the splitters and defaults the document names.

    The nine classes present in ``sklearn.model_selection``; ``cross_val_score``'s default ``cv``
    (None) resolved by ``check_cv`` for a classifier on multiclass and on binary labels (its folds,
    and for how many of the two label kinds it is a StratifiedKFold, shuffles, or cuts other folds at
    a second call); how many of ``KFold`` and ``StratifiedKFold`` shuffle by default; and
    ``TimeSeriesSplit(4, gap=2)`` on 20 samples (training sizes, and the samples dropped between each
    training block and its test block); and, for "Repeated random subsampling ... rather than a
    partition", how many of the labels' items ``ShuffleSplit`` with as many draws as the default folds
    and the same test share (``random_state=0``) tests other than exactly once, as a partition would.
    """
    from sklearn import model_selection
    from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, TimeSeriesSplit, check_cv

    binary = labels[: 2 * (len(labels) // 2)] % 2
    kinds = (labels, binary)
    resolved = [check_cv(None, y, classifier=True) for y in kinds]

    def folds(cv, y) -> list[list[int]]:
        return [t.tolist() for _, t in cv.split(np.zeros((len(y), 1)), y)]

    series = [(train, test) for train, test in TimeSeriesSplit(4, gap=2).split(np.zeros((20, 1)))]
    n, n_folds = len(labels), resolved[0].get_n_splits()
    draws = ShuffleSplit(n_splits=n_folds, test_size=1 / n_folds, random_state=0).split(np.zeros((n, 1)))
    tested = np.bincount(np.concatenate([test for _, test in draws]), minlength=n)
    return {
        "splitters_named": len(SPLITTERS),
        "splitters_present": sum(hasattr(model_selection, name) for name in SPLITTERS),
        "default_folds": resolved[0].get_n_splits(),
        "label_kinds": len(kinds),
        "label_kinds_stratified": sum(isinstance(cv, StratifiedKFold) for cv in resolved),
        "label_kinds_shuffled": sum(bool(cv.shuffle) for cv in resolved),
        "label_kinds_folds_changed_between_calls": sum(folds(cv, y) != folds(cv, y) for cv, y in zip(resolved, kinds)),
        "splitter_classes_shuffling_by_default": int(KFold().shuffle) + int(StratifiedKFold().shuffle),
        "subsampling_draws": n_folds,
        "subsampling_items": n,
        "subsampling_items_not_tested_once": int((tested != 1).sum()),
        "subsampling_items_never_tested": int((tested == 0).sum()),
        "series_train_sizes": [len(train) for train, _ in series],
        "series_test_starts": [int(test.min()) for _, test in series],
        "series_dropped": [int(test.min() - train.max() - 1) for train, test in series],
        "series_gap": 2,
    }


def pooled_and_fold_auc(design: ShapeImageDesign, per_class: int, *, sigma: float, k: int, n_folds: int, seed: int):
    """ROC AUC of k-NN vote shares, pooled over the held-out images and averaged fold by fold.

    The images and the stratified partition of the Example's scikit-learn check (``default_rng
    (seed)``: the images, then ``stratified_round_robin_folds``), restricted to the first two
    shapes; the score of an image is the share of its k nearest training neighbours of shape 1.
    """
    from sklearn.metrics import roc_auc_score
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(seed)
    images, labels = draw_shape_images(per_class, rng, design)
    folds = stratified_round_robin_folds(labels, n_folds, rng)
    features = blurred_features(images, sigma)
    two = labels < 2
    scores = np.full(len(labels), np.nan)
    fold_aucs = []
    for fold in folds:
        test = np.intersect1d(fold, np.flatnonzero(two))
        train = np.setdiff1d(np.flatnonzero(two), fold)
        model = KNeighborsClassifier(k).fit(features[train], labels[train])
        scores[test] = model.predict_proba(features[test])[:, 1]
        fold_aucs.append(roc_auc_score(labels[test], scores[test]))
    pooled = roc_auc_score(labels[two], scores[two])
    return float(pooled), float(np.mean(fold_aucs))


@dataclass(frozen=True)
class CitedNumbers:
    """The printed numbers the arithmetic starts from, as the registry holds them."""

    esl_images: tuple[int, int]  # "with 200 images ... but with 50 images" (ESL §7.10.1)
    esl_folds: int  # "five-fold"
    ucf101_blocks: str  # "(1–7, 8–14, 15–21)"
    ucf101_groups: int  # UCF101's 25 groups
    recht: tuple[float, float, float, float]  # original, new, CV low, CV high (percent)


def arithmetic_tables(
    cited: CitedNumbers, labels: np.ndarray, auc: tuple[float, float], nested: dict
) -> dict[str, pd.DataFrame]:
    """The arithmetic facts, API facts and identities of "Cross-Validation" as statistics.

    ``esl_training_sizes``: five-fold training sets on ESL's two dataset sizes; ``cited_arithmetic``:
    the binomial s.e. on Goodfellow et al.'s test set, UCF101's blocks against its groups, Recht et
    al.'s CV accuracies against the two test sets; ``example_arithmetic``: the Example's nested cost
    against the product, one split's over- and under-representation, and pooled against per-fold
    ROC AUC (``auc``: pooled, mean of folds); ``sklearn_defaults`` and ``timeseries_split``: what the
    installed scikit-learn does.
    """
    esl = []
    for n in cited.esl_images:
        size = training_size(n, cited.esl_folds)
        esl.append(
            {"images": n, "folds": cited.esl_folds, "train_images_min": size["min"], "train_images_max": size["max"]}
        )
    blocks = parse_group_blocks(cited.ucf101_blocks)
    groups = group_blocks_check(blocks, cited.ucf101_groups)
    recht = recht_closeness(*cited.recht)
    cited_row = {
        "test_examples": GOODFELLOW_EXAMPLES,
        "test_accuracy_se_points": binomial_standard_error_points(GOODFELLOW_EXAMPLES),
        "ucf101_groups": cited.ucf101_groups,
        "ucf101_blocks": len(blocks),
        "ucf101_groups_tested": groups["tested"],
        "ucf101_groups_in_two_blocks": groups["in_two_blocks"],
        "ucf101_groups_never_tested": len(groups["never_tested"]),
        "ucf101_groups_never_tested_after_last_block": groups["never_tested_after_last_block"],
        "ucf101_first_group_never_tested": groups["never_tested"][0] if groups["never_tested"] else np.nan,
        "recht_original_test": cited.recht[0],
        "recht_new_test": cited.recht[1],
        "recht_largest_gap": recht["gap"],
        "recht_drop": recht["drop"],
        "recht_gap_over_drop": recht["gap_over_drop"],
    }
    split = split_representation_counterexamples(len(labels), int((labels == labels[0]).sum()))
    pooled, per_fold = auc
    example_row = {
        "nested_fits": nested["fits"],
        "nested_product": nested["product"],
        "nested_fits_over_product": nested["fits_over_product"],
        "split_images": len(labels),
        "split_class_images": int((labels == labels[0]).sum()),
        "split_cases": split["cases"],
        "split_counterexamples": split["counterexamples"],
        "pooled_auc": pooled,
        "mean_fold_auc": per_fold,
        "pooled_minus_mean_fold_auc": pooled - per_fold,
    }
    api = sklearn_defaults(labels)
    series = pd.DataFrame(
        {
            "split": range(1, len(api["series_train_sizes"]) + 1),
            "train_size": api["series_train_sizes"],
            "test_start": api["series_test_starts"],
            "gap": api["series_gap"],
            "dropped": api["series_dropped"],
        }
    )
    defaults = {k: v for k, v in api.items() if not k.startswith("series_")}
    return {
        "esl_training_sizes": pd.DataFrame(esl),
        "cited_arithmetic": pd.DataFrame([cited_row]),
        "example_arithmetic": pd.DataFrame([example_row]),
        "sklearn_defaults": pd.DataFrame([defaults]),
        "timeseries_split": series,
    }
