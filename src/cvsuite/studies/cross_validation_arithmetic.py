"""Arithmetic and API facts that "Cross-Validation" states, computed from their inputs.

The numbers the document cites (ESL's hypothetical datasets of 200 and 50 images, UCF101's test
blocks, Recht et al.'s CIFAR-10 accuracies) are read from the registry by the entry point and
passed in, so that each lives in one place; what the document says about them is computed here.
So are scikit-learn's splitters and defaults as the installed version has them, the arithmetic of
one random split (Variants: random subsampling), the cost of nested cross-validation, and pooled
against per-fold ROC AUC (How to Apply It, step 4). ``arithmetic_claims`` gathers them as claims.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

import numpy as np

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.folds import fold_size_range, stratified_round_robin_folds
from cvsuite.methods.knn import blurred_features

GOODFELLOW_EXAMPLES = 100_000  # "hundreds of thousands of examples": the smallest count the words allow, rounded down
SERIOUS_POINTS = 0.5  # a binomial s.e. under half a point of accuracy reads as "not a serious issue"
CLOSE_POINTS = 1.0  # "close to the original test set": every CV accuracy within one point of it ...
CLOSE_SHARE = 0.25  # ... and the gap under a quarter of the drop to the new test set
ROUGHLY = 0.1  # "costs roughly the product": within 10 % of it
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
    """Do test blocks of groups 1..``groups`` form a partition, as a grouped K-fold's folds would?

    Returns whether the blocks are disjoint, how many groups are ever tested, the groups never
    tested, and whether those form one run at the end of the range (always in training).
    """
    tested = set().union(*blocks)
    never = sorted(set(range(1, groups + 1)) - tested)
    disjoint = sum(len(b) for b in blocks) == len(tested)
    tail = bool(never) and never == list(range(never[0], groups + 1))
    return {
        "disjoint": disjoint,
        "tested": len(tested),
        "never_tested": never,
        "never_tested_at_end": tail,
        "partition": disjoint and not never and tested <= set(range(1, groups + 1)),
    }


def recht_closeness(original: float, new: float, cv_low: float, cv_high: float) -> dict:
    """Recht et al.'s five reshuffled CV splits against the original and new CIFAR-10 test sets.

    "a VGG-style model's accuracy fell from 93.0% on the original test set to 84.9% on the new
    one, yet five reshuffled cross-validation splits of the original data gave 93.5–94.0%, close
    to the original test set": the largest gap between a CV accuracy and the original, and the drop.
    """
    gap = max(abs(cv_low - original), abs(cv_high - original))
    drop = original - new
    return {"gap": gap, "drop": drop, "close": gap <= CLOSE_POINTS and gap < CLOSE_SHARE * drop}


def nested_fits(outer_folds: int, inner_folds: int, candidates: int) -> dict:
    """Models fitted by the Example's nested cross-validation, against the document's product.

    In each outer training set the selection fits one model per inner fold and candidate, then the
    chosen setting is refitted on the outer training set and scored on the outer fold.
    """
    fits = outer_folds * (inner_folds * candidates + 1)
    product = outer_folds * inner_folds * candidates
    return {"fits": fits, "product": product, "roughly": abs(fits / product - 1) <= ROUGHLY}


def split_representation_identity(n: int, class_count: int) -> bool:
    """ "a class over-represented in the training set is under-represented in the test set".

    For every training size and every count of the class in the training set that one split of
    n items (``class_count`` of the class) allows: its share in training is above its overall
    share exactly when its share in the test set is below it. Exact, in integers.
    """
    for train in range(1, n):
        test = n - train
        for in_train in range(max(0, class_count - test), min(class_count, train) + 1):
            over = in_train * n > class_count * train
            under = (class_count - in_train) * n < class_count * test
            if over != under:
                return False
    return True


def sklearn_defaults(labels: np.ndarray) -> dict:
    """What the installed scikit-learn does about the splitters and defaults the document names.

    The nine classes present in ``sklearn.model_selection``; ``cross_val_score``'s default ``cv``
    (None) resolved by ``check_cv`` for a classifier on multiclass and on binary labels (its type,
    folds and shuffling, and whether two calls give the same folds); the ``shuffle`` defaults of
    ``KFold`` and ``StratifiedKFold``; and ``TimeSeriesSplit(4, gap=2)`` on 20 samples (training
    sizes, and the samples dropped between each training block and its test block).
    """
    from sklearn import model_selection
    from sklearn.model_selection import KFold, StratifiedKFold, TimeSeriesSplit, check_cv, cross_val_score

    binary = labels[: 2 * (len(labels) // 2)] % 2
    resolved = [check_cv(None, y, classifier=True) for y in (labels, binary)]
    features = np.zeros((len(labels), 1))
    first, second = ([t.tolist() for _, t in resolved[0].split(features, labels)] for _ in range(2))
    series = [(train, test) for train, test in TimeSeriesSplit(4, gap=2).split(np.zeros((20, 1)))]
    return {
        "splitters_present": sum(hasattr(model_selection, name) for name in SPLITTERS),
        "default_cv_is_none": inspect.signature(cross_val_score).parameters["cv"].default is None,
        "default_folds": resolved[0].get_n_splits(),
        "default_stratified": all(isinstance(cv, StratifiedKFold) for cv in resolved),
        "default_shuffles": any(cv.shuffle for cv in resolved),
        "default_same_folds_each_call": first == second,
        "kfold_shuffle_default": KFold().shuffle or StratifiedKFold().shuffle,
        "series_train_sizes": [len(train) for train, _ in series],
        "series_dropped": [int(test.min() - train.max() - 1) for train, test in series],
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


def arithmetic_claims(cited: CitedNumbers, labels: np.ndarray, auc: tuple[float, float], nested: dict) -> list[tuple]:
    """The arithmetic facts, API facts and identities of "Cross-Validation" as claims.

    Each (claim, holds, value, reading); ``auc`` is (pooled, mean of folds) from
    ``pooled_and_fold_auc``, ``nested`` the counts of ``nested_fits``.
    """
    rows = []
    for n in cited.esl_images:
        size = training_size(n, cited.esl_folds)
        rows.append(
            (
                f"esl_{cited.esl_folds}_fold_training_of_{n}",
                size["min"] == size["max"] == n * (cited.esl_folds - 1) / cited.esl_folds,
                float(size["max"]),
                f"{cited.esl_folds}-fold CV on {n} images trains every model on n(K-1)/K images; value: that size",
            )
        )
    se = binomial_standard_error_points(GOODFELLOW_EXAMPLES)
    rows.append(
        (
            "large_test_set_not_a_serious_issue",
            se < SERIOUS_POINTS,
            se,
            f"the binomial s.e. of an accuracy on {GOODFELLOW_EXAMPLES:,} test examples (at 50%, its largest) is "
            f"under {SERIOUS_POINTS:g} point; value: that s.e. in points",
        )
    )
    groups = group_blocks_check(parse_group_blocks(cited.ucf101_blocks), cited.ucf101_groups)
    rows.append(
        (
            "ucf101_three_folds_not_a_partition",
            groups["disjoint"] and groups["never_tested_at_end"] and not groups["partition"],
            float(groups["tested"]),
            f"the test blocks are disjoint, the groups in none of them are the last ones of the "
            f"{cited.ucf101_groups} (always in training), so the blocks are not a partition; value: groups ever tested",
        )
    )
    recht = recht_closeness(*cited.recht)
    rows.append(
        (
            "recht_cv_close_to_original",
            recht["close"],
            recht["gap"],
            f"every CV accuracy within {CLOSE_POINTS:g} point of the original test set's and the gap under "
            f"{CLOSE_SHARE:g} of the drop to the new one; value: the largest gap in points",
        )
    )
    rows.append(
        (
            "nested_cost_roughly_product",
            nested["roughly"],
            float(nested["fits"]),
            f"models fitted by the Example's nested CV within {ROUGHLY:.0%} of outer folds x inner folds x "
            "candidates; value: the models fitted",
        )
    )
    rows.append(
        (
            "split_over_is_under",
            split_representation_identity(len(labels), int((labels == labels[0]).sum())),
            float(len(labels)),
            "for every split of the Example's images and every count of one class in training, its share in "
            "training is above its overall share exactly when its share in the test set is below; value: images",
        )
    )
    pooled, per_fold = auc
    rows.append(
        (
            "auc_pooled_differs_from_per_fold",
            abs(pooled - per_fold) > 1e-9,
            pooled - per_fold,
            "ROC AUC of k-NN vote shares (shapes 0 and 1 of the scikit-learn check's images and folds) pooled over "
            "held-out images differs from its mean over folds; value: pooled - mean of folds",
        )
    )
    api = sklearn_defaults(labels)
    sizes = api["series_train_sizes"]
    rows += [
        (
            "sklearn_has_the_nine_splitters",
            api["splitters_present"] == len(SPLITTERS),
            float(api["splitters_present"]),
            "every splitter class the document names exists in sklearn.model_selection; value: how many",
        ),
        (
            "cross_val_score_default_folds",
            api["default_cv_is_none"],
            float(api["default_folds"]),
            "cross_val_score's cv defaults to None, which check_cv resolves to this many folds; value: the folds",
        ),
        (
            "default_cv_stratified_for_classifiers",
            api["default_stratified"],
            float(api["default_stratified"]),
            "check_cv(None, y, classifier=True) is a StratifiedKFold for multiclass and for binary labels",
        ),
        (
            "default_splitters_do_not_shuffle",
            not api["default_shuffles"] and api["default_same_folds_each_call"],
            float(api["default_same_folds_each_call"]),
            "the default splitter does not shuffle and two calls give the same folds",
        ),
        (
            "kfold_shuffle_defaults_false",
            not api["kfold_shuffle_default"],
            float(api["kfold_shuffle_default"]),
            "KFold() and StratifiedKFold() default to shuffle=False",
        ),
        (
            "timeseriessplit_grows_with_gap",
            all(b > a for a, b in zip(sizes, sizes[1:])) and all(d == 2 for d in api["series_dropped"]),
            float(sizes[-1]),
            "TimeSeriesSplit(4, gap=2) on 20 samples: each training set larger than the one before, and 2 samples "
            "dropped between each training block and its test block; value: the last training size",
        ),
    ]
    return rows
