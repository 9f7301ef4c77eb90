"""cvsuite.methods.knn: blurred-pixel k-nearest neighbours, checked against scipy and scikit-learn."""

import numpy as np
import pytest
from scipy.ndimage import gaussian_filter
from sklearn.neighbors import KNeighborsClassifier
from threadpoolctl import threadpool_limits

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.methods.knn import (
    HeldOutTask,
    blur_matrix,
    blurred_features,
    has_row_ties,
    held_out_predictions,
    held_out_predictions_literal,
    majority_votes,
    ranked_by_blurred_distance,
    squared_distances,
)


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """scikit-learn's neighbour search spins OpenMP threads; on a busy machine one thread is many times faster."""
    with threadpool_limits(1):
        yield


def test_stack_blur_equals_one_blur_per_image():
    images, _ = draw_shape_images(3, np.random.default_rng(0), ShapeImageDesign())
    for sigma in (0.5, 1, 3):
        per_image = np.array([gaussian_filter(x, sigma) for x in images]).reshape(len(images), -1)
        assert np.array_equal(blurred_features(images, sigma), per_image)
    assert np.array_equal(blurred_features(images, 0), images.reshape(len(images), -1))


@pytest.mark.parametrize("sigma", [0, 0.5, 1, 3])
def test_the_blur_is_its_matrix_on_both_axes(sigma):
    images, _ = draw_shape_images(2, np.random.default_rng(1), ShapeImageDesign())
    blur = blur_matrix(16, sigma)
    by_matrix = (blur @ images @ blur.T).reshape(len(images), -1)
    assert np.allclose(by_matrix, blurred_features(images, sigma), rtol=0, atol=1e-12)


@pytest.mark.parametrize("sigma", [0, 1, 2])
def test_ranking_without_blurring_the_test_images_is_the_documents_where_certain(sigma):
    rng = np.random.default_rng(sigma)
    train, _ = draw_shape_images(10, rng, ShapeImageDesign())
    test, _ = draw_shape_images(50, rng, ShapeImageDesign())
    features = blurred_features(train, sigma)
    literal = np.argsort(squared_distances(blurred_features(test, sigma), features), axis=1)
    ranking, certain = ranked_by_blurred_distance(test, features, sigma, 15)
    assert certain  # continuous noise: near-ties are rare
    assert np.array_equal(ranking[:, :15], literal[:, :15])


def test_a_tie_among_the_training_images_is_not_certain():
    rng = np.random.default_rng(0)
    train, _ = draw_shape_images(5, rng, ShapeImageDesign())
    train[7] = train[3]  # two training images alike: every test image is equally far from both
    test, _ = draw_shape_images(5, rng, ShapeImageDesign())
    features = blurred_features(train, 1)
    ranking, _ = ranked_by_blurred_distance(test, features, 1, 20)
    place = np.argmax((ranking == 3) | (ranking == 7), axis=1)  # the first of the pair in each row
    assert not ranked_by_blurred_distance(test, features, 1, int(place.min()) + 1)[1]
    assert ranked_by_blurred_distance(test, features, 1, int(place.min()))[1]


def test_majority_vote_ties_go_to_the_lowest_label():
    labels = np.array([[2, 1, 1, 2, 0]])
    assert majority_votes(labels, [1, 2, 4, 5], 3).tolist() == [[2, 1, 1, 1]]


def random_problem(seed, n=40, blurs=3):
    rng = np.random.default_rng(seed)
    features = rng.normal(size=(blurs, n, 10))
    distances = np.stack([squared_distances(f, f) for f in features])
    return features, distances, rng.integers(0, 4, n)


@pytest.mark.parametrize("seed", range(3))
def test_held_out_predictions_are_scikit_learns_knn_trained_without_the_fold(seed):
    features, distances, labels = random_problem(seed)
    universe = np.sort(np.random.default_rng(seed).choice(40, 32, replace=False))
    folds = [universe[i::4] for i in range(4)]
    task = HeldOutTask(labels, universe, folds, (1, 3, 5, 7), 4)
    tested, predictions = held_out_predictions_literal(distances, task)
    assert np.array_equal(tested, np.concatenate(folds))
    for b, blur in enumerate(features):
        for j, k in enumerate(task.ks):
            expected = []
            for fold in folds:
                train = np.setdiff1d(universe, fold)
                expected += (
                    KNeighborsClassifier(k, algorithm="brute")
                    .fit(blur[train], labels[train])
                    .predict(blur[fold])
                    .tolist()
                )
            assert predictions[b, :, j].tolist() == expected


@pytest.mark.parametrize("seed", range(5))
def test_ranking_once_gives_the_per_fold_sort_predictions(seed):
    _, distances, labels = random_problem(seed)
    universe = np.sort(np.random.default_rng(seed).choice(40, 32, replace=False))
    task = HeldOutTask(labels, universe, [universe[i::4] for i in range(4)], (1, 3, 5, 7), 4)
    assert not has_row_ties(distances)
    fast = held_out_predictions(np.argsort(distances, axis=-1), task)
    literal = held_out_predictions_literal(distances, task)
    assert np.array_equal(fast[0], literal[0])
    assert np.array_equal(fast[1], literal[1])


def test_ties_in_a_row_are_detected():
    _, distances, _ = random_problem(0)
    assert not has_row_ties(distances)
    distances[1, 3, 7] = distances[1, 3, 9]
    assert has_row_ties(distances)


def test_too_few_training_images_for_k_is_refused():
    _, distances, labels = random_problem(1, n=8)
    with pytest.raises(ValueError, match="fewer than k = 7"):
        held_out_predictions(np.argsort(distances, axis=-1), HeldOutTask(labels, np.arange(8), [np.arange(4)], (7,), 4))


@pytest.mark.parametrize("k", [1, 3, 5])
def test_fold_model_accuracies_are_those_of_models_refitted_without_each_fold(k):
    """Each fold's model predicts the test rows from the training images outside the fold: the same
    accuracies as refitting a kNN on that subset, for a holdout, K folds and leave-one-out."""
    from cvsuite.methods.folds import leave_one_out_folds, stratified_round_robin_folds
    from cvsuite.methods.knn import fold_model_accuracies, predict_all_k

    rng = np.random.default_rng(3)
    train, test = rng.normal(size=(24, 5)), rng.normal(size=(60, 5))
    labels, test_labels = np.repeat(np.arange(3), 8), rng.integers(0, 3, 60)
    ranking = np.argsort(squared_distances(test, train), axis=1)
    for folds in (
        stratified_round_robin_folds(labels, 4, rng)[:1],
        stratified_round_robin_folds(labels, 4, rng),
        leave_one_out_folds(24),
    ):
        got = fold_model_accuracies(ranking, labels, test_labels, folds, k, 3)
        for fold, accuracy in zip(folds, got):
            keep = np.setdiff1d(np.arange(24), fold)
            refit = predict_all_k(squared_distances(test, train[keep]), labels[keep], (k,), 3)[:, 0]
            assert accuracy == pytest.approx((refit == test_labels).mean())
