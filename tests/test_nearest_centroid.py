import numpy as np
from sklearn.neighbors import NearestCentroid

from cvsuite.methods.nearest_centroid import FoldCentroids, nearest_centroid_predict


def _data(seed, n_classes=4, per_class=10, n_features=3):
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.arange(n_classes), per_class)
    X = 1.5 * rng.standard_normal((n_classes, n_features))[labels] + rng.standard_normal((labels.size, n_features))
    return X, labels, rng.standard_normal((25, n_features))


def test_nearest_centroid_agrees_with_scikit_learn():
    X, labels, X_eval = _data(0)
    expected = NearestCentroid().fit(X, labels).predict(X_eval)
    assert nearest_centroid_predict(X, labels, X_eval, 4).tolist() == expected.tolist()


def test_nearest_centroid_picks_the_nearest_class_mean():
    X = np.array([[0.0, 0.0], [0.0, 2.0], [10.0, 0.0], [10.0, 2.0]])
    labels = np.array([0, 0, 1, 1])
    assert nearest_centroid_predict(X, labels, np.array([[1.0, 1.0], [8.0, 1.0]]), 2).tolist() == [0, 1]


def test_nearest_centroid_never_predicts_a_class_it_did_not_see():
    X, labels, X_eval = _data(3)
    seen = labels != 2
    assert 2 not in nearest_centroid_predict(X[seen], labels[seen], np.vstack([X_eval, X[labels == 2]]), 4)


def test_fold_models_are_the_classifiers_fitted_on_every_other_fold():
    X, labels, X_eval = _data(5)
    fold_ids = np.random.default_rng(5).permutation(np.arange(40) % 3)
    models = FoldCentroids.fit(X, labels, fold_ids, 3, 4)
    held_out = models.predict_held_out(X, fold_ids)
    each = models.predict_each_model(X_eval)
    for k in range(3):
        train = fold_ids != k
        reference = NearestCentroid().fit(X[train], labels[train])
        assert held_out[~train].tolist() == reference.predict(X[~train]).tolist()
        assert each[:, k].tolist() == reference.predict(X_eval).tolist()


def test_a_fold_model_missing_a_class_counts_it_absent_and_never_predicts_it():
    X, labels, X_eval = _data(6)
    fold_ids = (labels == 1).astype(int)  # fold 1 holds out class 1 whole
    models = FoldCentroids.fit(X, labels, fold_ids, 2, 4)
    assert models.train_counts.tolist() == [[0, 10, 0, 0], [10, 0, 10, 10]]
    assert models.held_counts.tolist() == [[10, 0, 10, 10], [0, 10, 0, 0]]
    assert 1 not in models.predict_held_out(X, fold_ids)[labels == 1]
    assert 1 not in models.predict_each_model(np.vstack([X_eval, X]))[:, 1]
