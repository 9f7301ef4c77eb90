"""Step fresh_sine_datasets: the regression studies of "Regularization and Cross-Validation" on a fresh sample."""

from cvsuite.studies.fresh_sine_datasets import fresh_sine_rows

DATA = {"train_size": 25, "noise": 0.35, "half_width": 3.0, "test_size": 300}
RIDGE = {"degree": 12, "grid_start": 1e-9, "grid_stop": 100.0, "grid_points": 40}
K_BIAS = {"degree": 5, "folds": [2, 5, 25], "first_seed": 0}


def test_fresh_sample_gives_an_exchange_row_and_a_row_per_k():
    exchange, bias, sources = fresh_sine_rows(7, 70, data=DATA, ridge=RIDGE, k_bias=K_BIAS, shuffles=3)
    assert len(exchange) == 1 and list(bias["K"]) == [2, 5, 25]
    assert exchange["dataset"].tolist() == [7] and set(bias["dataset"]) == {7}
    # leave-one-out (K = N = 25) is one partition whatever the shuffle: no spread at all
    assert bias.loc[bias["K"] == 25, "spread_over_shuffles"].iloc[0] == 0.0


def test_the_two_sources_of_a_fresh_samples_bias_add_up_to_it():
    _, bias, sources = fresh_sine_rows(7, 70, data=DATA, ridge=RIDGE, k_bias=K_BIAS, shuffles=3)
    merged = bias.merge(sources, on=["dataset", "K"], suffixes=("", "_sources"))
    total = merged["training_effect"] + merged["validation_effect"]
    assert list(sources["K"]) == [2, 5, 25]
    assert (abs(total - merged["bias"]) < 1e-9 * merged["truth"]).all()
    # leave-one-out's fold models are the n fits without one point: their excess risk is small but real
    assert (merged["fold_models_risk"] > 0).all()
