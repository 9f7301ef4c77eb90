"""The Example's data flow, shown by computation ("Cross-Validation", Example, Part 2).

"The fresh images ... never used for any choice"; "with the whole selection repeated by 5-fold
cross-validation inside each outer training set"; "nested cross-validation ... keeps them apart".
On one dataset of the shape-image study, every choice the procedure makes (the winner of the
non-nested selection over the grid, and the winner inside each outer training set) is made again
after one part of the data is changed, and the choices that move are counted:

- the fresh images' labels shuffled, and the fresh images drawn again: no choice may move;
- the images of one outer test fold replaced by fresh images of the same shapes: that fold's inner
  choice may not move (the other outer folds train on it, so theirs may);
- as the control that shows the count can move, the same for the images of one outer training fold
  of another outer fold, which that outer fold's inner selection does read.

Folds: ``stratified_round_robin_folds`` with ``default_rng(seed)`` after the dataset's own draws, as
the study's Part 2 cuts them (the selection folds, then the outer folds and each one's inner folds).
Statistics only: the registry's records decide what they say.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.folds import stratified_round_robin_folds
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, _Dataset


def _choices(data: _Dataset, selection_folds, outer) -> list[int]:
    """The index of the non-nested winner over the whole grid, then of each outer fold's inner winner."""
    everything = np.arange(len(data.labels))
    runs = [(everything, selection_folds)] + [(train, inner) for train, inner in outer]
    return [int(np.argmax(h.ravel())) for h in data.hits(runs)]


def selection_data_flow(seed: int, s: ShapeStudySettings, replaced_outer_fold: int = 0) -> pd.DataFrame:
    """One row per change: the choices compared, the choices that moved, and which choices may."""
    data = _Dataset(seed, s)
    y, rng = data.labels, np.random.default_rng(seed + 10**6)
    everything = np.arange(len(y))
    selection_folds = stratified_round_robin_folds(y, s.selection_folds, rng)
    tests = stratified_round_robin_folds(y, s.outer_folds, rng)
    outer = []
    for test in tests:
        train = np.setdiff1d(everything, test)
        outer.append((train, [train[f] for f in stratified_round_robin_folds(y[train], s.selection_folds, rng)]))
    base = _choices(data, selection_folds, outer)

    def moved(other: _Dataset, which) -> int:
        again = _choices(other, selection_folds, outer)
        return int(sum(base[i] != again[i] for i in which))

    all_choices = range(len(base))
    shuffled = _Dataset.of_images(s, data.images, y, data.fresh, rng.permutation(data.fresh_labels))
    redraw_rng = np.random.default_rng(seed + 2 * 10**6)
    from cvsuite.data.shape_images import draw_shape_images

    fresh, fresh_labels = draw_shape_images(s.fresh_per_class, redraw_rng, s.design)
    redrawn = _Dataset.of_images(s, data.images, y, fresh, fresh_labels)

    def replaced(fold: np.ndarray) -> _Dataset:
        images = data.images.copy()
        for label in np.unique(y[fold]):
            spots = fold[y[fold] == label]
            images[spots] = data.fresh[np.flatnonzero(data.fresh_labels == label)[: len(spots)]]
        return _Dataset.of_images(s, images, y, data.fresh, data.fresh_labels)

    j = replaced_outer_fold
    other = (j + 1) % len(tests)  # an outer fold whose training set holds fold j's images
    rows = [
        ("fresh", "fresh labels shuffled", all_choices, moved(shuffled, all_choices), "none"),
        ("fresh", "fresh images drawn again", all_choices, moved(redrawn, all_choices), "none"),
        ("outer_test", "one outer test fold replaced", [1 + j], moved(replaced(tests[j]), [1 + j]), "none"),
        (
            "outer_training",
            "the same images, in another outer fold's training set (control)",
            [1 + other],
            moved(replaced(tests[j]), [1 + other]),
            "some",
        ),
    ]
    return pd.DataFrame(
        [
            {"part": part, "change": change, "choices": len(which), "choices_moved": count, "may_move": may}
            for part, change, which, count, may in rows
        ]
    )
