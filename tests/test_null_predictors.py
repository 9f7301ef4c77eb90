import numpy as np
import pytest

from cvsuite.data.null_predictors import NullDesign, balanced_labels


def test_balanced_labels_refuse_an_odd_sample_size():
    with pytest.raises(ValueError, match="even number"):
        balanced_labels(7)


def test_balanced_labels_are_two_equal_classes():
    assert balanced_labels(6).tolist() == [0.0, 0.0, 0.0, 1.0, 1.0, 1.0]


def test_dataset_d_is_the_first_draws_of_default_rng_seed_d():
    rng = np.random.default_rng([7, 1])
    x, order, next_draw = rng.standard_normal((20, 60)), rng.permutation(20), rng.standard_normal(3)
    data = NullDesign(20, 60, 7).dataset(1)
    assert data.index == 1
    assert np.array_equal(data.x, x)
    assert np.array_equal(data.order, order)
    # the fresh test samples of the studies continue the same stream
    assert np.array_equal(data.rng.standard_normal(3), next_draw)


def test_a_dataset_is_the_same_draw_whatever_the_number_of_datasets():
    design = NullDesign(20, 60, 7)
    few, many = list(design.datasets(2)), list(design.datasets(5))
    for d in range(2):
        assert np.array_equal(few[d].x, many[d].x) and np.array_equal(few[d].order, many[d].order)
    assert not np.array_equal(many[0].x, many[1].x)
