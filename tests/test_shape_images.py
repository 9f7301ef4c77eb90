import numpy as np
import pytest
from scipy.ndimage import gaussian_filter

from cvsuite.data import shape_images
from cvsuite.data.shape_images import draw_shape_images, shape_masks
from cvsuite.methods.folds import stratified_round_robin_folds
from cvsuite.methods.knn import (
    blurred_features,
    has_row_ties,
    held_out_predictions,
    held_out_predictions_literal,
    majority_votes,
    squared_distances,
)

MASKS = shape_masks(16)


def effective_state(rng):
    """The generator state that decides future draws (a spent 32-bit buffer does not)."""
    state = rng.bit_generator.state
    return state["state"], state["has_uint32"], state["uinteger"] if state["has_uint32"] else None


@pytest.mark.parametrize("seed, per_class", [(0, 20), (1, 20), (7, 60), (123, 5)])
def test_fast_draw_gives_the_literal_images_and_generator_state(seed, per_class):
    fast_rng, literal_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    fast = draw_shape_images(per_class, fast_rng, MASKS, 2, (0.5, 1.0), 0.6)
    literal = shape_images._draw_literal(per_class, literal_rng, MASKS, 2, (0.5, 1.0), 0.6)
    assert np.array_equal(fast[0], literal[0])
    assert np.array_equal(fast[1], literal[1])
    assert effective_state(fast_rng) == effective_state(literal_rng)
    assert fast_rng.random() == literal_rng.random()


def test_a_rejected_bounded_draw_falls_back_to_the_literal_calls(monkeypatch):
    def rare(n_per_class, rng, *args):
        rng.normal(size=1000)  # consume part of the stream, as a real fast pass would have
        raise shape_images._RareDraw

    monkeypatch.setattr(shape_images, "_draw_fast", rare)
    fallback = draw_shape_images(10, np.random.default_rng(3), MASKS, 2, (0.5, 1.0), 0.6)
    literal = shape_images._draw_literal(10, np.random.default_rng(3), MASKS, 2, (0.5, 1.0), 0.6)
    assert np.array_equal(fallback[0], literal[0])


def test_shapes_are_distinct_and_centred():
    assert MASKS.shape == (4, 16, 16)
    assert len({m.tobytes() for m in MASKS}) == 4
    for mask in MASKS[:3]:  # the triangle points up, so only the first three are symmetric
        assert np.array_equal(mask, mask[::-1, ::-1])


def test_stack_blur_equals_one_blur_per_image():
    images, _ = draw_shape_images(3, np.random.default_rng(0), MASKS, 2, (0.5, 1.0), 0.6)
    for sigma in (0.5, 1, 3):
        per_image = np.array([gaussian_filter(x, sigma) for x in images]).reshape(len(images), -1)
        assert np.array_equal(blurred_features(images, sigma), per_image)
    assert np.array_equal(blurred_features(images, 0), images.reshape(len(images), -1))


def test_majority_vote_ties_go_to_the_lowest_label():
    labels = np.array([[2, 1, 1, 2, 0]])
    assert majority_votes(labels, [1, 2, 4, 5], 3).tolist() == [[2, 1, 1, 1]]


def test_stratified_folds_balance_classes_and_partition():
    labels = np.repeat(np.arange(4), 16)
    folds = stratified_round_robin_folds(labels, 5, np.random.default_rng(0))
    assert sorted(np.concatenate(folds).tolist()) == list(range(64))
    for fold in folds:
        counts = np.bincount(labels[fold], minlength=4)
        assert counts.max() - counts.min() <= 1


def test_stratified_folds_draw_one_permutation_and_one_offset_per_class():
    labels = np.repeat(np.arange(3), 5)
    rng, twin = np.random.default_rng(4), np.random.default_rng(4)
    stratified_round_robin_folds(labels, 2, rng)
    for _ in range(3):
        twin.permutation(5)
        twin.integers(2)
    assert rng.random() == twin.random()


def random_problem(seed, n=40, blurs=3):
    rng = np.random.default_rng(seed)
    features = rng.normal(size=(blurs, n, 10))
    distances = np.stack([squared_distances(f, f) for f in features])
    return distances, rng.integers(0, 4, n)


@pytest.mark.parametrize("seed", range(5))
def test_ranking_once_gives_the_per_fold_sort_predictions(seed):
    distances, labels = random_problem(seed)
    universe = np.sort(np.random.default_rng(seed).choice(40, 32, replace=False))
    folds = [universe[i::4] for i in range(4)]
    assert not has_row_ties(distances)
    fast = held_out_predictions(np.argsort(distances, axis=-1), labels, universe, folds, [1, 3, 5, 7], 4)
    literal = held_out_predictions_literal(distances, labels, universe, folds, [1, 3, 5, 7], 4)
    assert np.array_equal(fast[0], literal[0])
    assert np.array_equal(fast[1], literal[1])


def test_ties_in_a_row_are_detected():
    distances, _ = random_problem(0)
    assert not has_row_ties(distances)
    distances[1, 3, 7] = distances[1, 3, 9]
    assert has_row_ties(distances)


def test_too_few_training_images_for_k_is_refused():
    distances, labels = random_problem(1, n=8)
    with pytest.raises(ValueError, match="fewer than k = 7"):
        held_out_predictions(np.argsort(distances, axis=-1), labels, np.arange(8), [np.arange(4)], [7], 4)
