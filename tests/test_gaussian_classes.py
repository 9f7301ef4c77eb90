import numpy as np

from cvsuite.data.gaussian_classes import GaussianClasses, class_ordered_sample


def test_sample_is_stored_class_by_class():
    design = GaussianClasses(n_classes=3, per_class=5, test_per_class=7, n_features=2, separation=1.0)
    X, labels, X_test, labels_test = class_ordered_sample(design, np.random.default_rng(0))
    assert labels.tolist() == [0] * 5 + [1] * 5 + [2] * 5
    assert labels_test.tolist() == [0] * 7 + [1] * 7 + [2] * 7
    assert X.shape == (15, 2) and X_test.shape == (21, 2)


def test_sample_draws_the_means_then_the_training_rows_then_the_test_rows():
    design = GaussianClasses(n_classes=3, per_class=4, test_per_class=2, n_features=5, separation=0.7)
    X, labels, X_test, labels_test = class_ordered_sample(design, np.random.default_rng(9))
    rng = np.random.default_rng(9)
    means = 0.7 * rng.standard_normal(15).reshape(3, 5)
    train_noise = rng.standard_normal(60).reshape(12, 5)
    test_noise = rng.standard_normal(30).reshape(6, 5)
    assert np.array_equal(X, np.repeat(means, 4, axis=0) + train_noise)
    assert np.array_equal(X_test, np.repeat(means, 2, axis=0) + test_noise)
