import numpy as np
import pandas as pd

from cvsuite.studies.cv_variance import dataset_error_moments, variance_decomposition, variance_findings

IMAGES = {"per_class": 10, "size": 16, "max_shift": 2, "contrast_low": 0.5, "contrast_high": 1.0, "noise_sd": 0.6}


def moments(seeds, folds=(2, 5, 40)):
    return pd.concat([dataset_error_moments(s, IMAGES, 1, 3, list(folds)) for s in seeds], ignore_index=True)


def test_pair_sums_split_all_pairs_between_same_and_other_folds():
    m = moments(range(3))
    errors = m["error_sum"]
    assert np.allclose(m["same_fold_products"] + m["other_fold_products"], errors**2 - errors)
    assert (m.loc[m["K"] == 40, "same_fold_products"] == 0).all()  # leave-one-out: one image per fold


def test_the_three_terms_add_up_to_the_measured_variance():
    table = variance_decomposition(moments(range(30)))
    assert (table["identity_gap"] < 1e-12).all()
    assert variance_findings(table).loc[0, "identity_holds"]


def test_binomial_variance_is_a_one_minus_a_over_n():
    table = variance_decomposition(moments(range(10)))
    a = table["mean_cv_accuracy"]
    assert np.allclose(table["binomial_variance"], a * (1 - a) / 40)


def test_naive_standard_error_is_the_fold_scores_sd_over_root_k():
    m = dataset_error_moments(5, IMAGES, 1, 3, [2])
    row = m.iloc[0]
    # With two folds, sd(ddof=1)/sqrt(2) is half the gap between the two fold accuracies.
    assert 0 <= row["naive_std_error"] <= 0.5
