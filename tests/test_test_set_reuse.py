"""Study test_set_reuse: a tuning loop that sees the test set only through its score."""

import numpy as np
import pytest

from cvsuite.studies.test_set_reuse import (
    ReuseDesign,
    centroid_accuracies,
    reuse_summary,
    simulate_test_set_reuse,
    tuning_run,
)

DESIGN = ReuseDesign(train_size=60, test_size=60, fresh_size=200, features=12, subset=3, rounds=200)


def test_centroid_accuracies_score_each_rounds_features_as_one_fit_would():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((40, 4)), rng.integers(0, 2, 40)
    masks = np.array([[1.0, 0, 0, 0], [1.0, 1, 1, 1]])
    got = centroid_accuracies(x, y, x, y, masks)
    for mask, accuracy in zip(masks.astype(bool), got):
        m0, m1 = x[y == 0][:, mask].mean(0), x[y == 1][:, mask].mean(0)
        d0 = ((x[:, mask] - m0) ** 2).sum(1)
        d1 = ((x[:, mask] - m1) ** 2).sum(1)
        assert accuracy == pytest.approx(np.mean((d1 < d0) == (y == 1)))


def test_the_kept_model_is_the_first_best_test_score_so_far():
    run = tuning_run(DESIGN, np.random.default_rng(4), [1, 50, 200])
    assert run["test"][0] <= run["test"][1] <= run["test"][2]


def test_the_kept_models_training_and_fresh_scores_are_those_of_every_round_read_at_it():
    rng = np.random.default_rng(4)
    run = tuning_run(DESIGN, rng, [1, 50, 200])
    rng = np.random.default_rng(4)  # the same draws, in tuning_run's order
    sets = {
        n: (rng.standard_normal((s, DESIGN.features)), rng.integers(0, 2, s))
        for n, s in (("train", 60), ("test", 60), ("fresh", 200))
    }
    chosen = np.argsort(rng.random((DESIGN.rounds, DESIGN.features)), axis=1)[:, : DESIGN.subset]
    masks = np.zeros((DESIGN.rounds, DESIGN.features))
    np.put_along_axis(masks, chosen, 1.0, axis=1)
    every = {n: centroid_accuracies(*sets["train"], *sets[n], masks) for n in sets}
    kept = [int(np.flatnonzero(every["test"][:r] == every["test"][:r].max())[0]) for r in (1, 50, 200)]
    for name in sets:
        assert run[name].tolist() == every[name][kept].tolist()


def test_tuning_against_noise_makes_the_test_score_optimistic_and_fresh_data_stay_at_chance():
    runs = simulate_test_set_reuse(DESIGN, [1, 200], datasets=30, first_seed=2)
    summary = reuse_summary(runs).set_index("rounds")
    assert (
        summary.loc[200, "test_optimism"]
        > summary.loc[1, "test_optimism"] + 3 * summary.loc[200, "test_optimism_growth_se"]
    )
    assert abs(summary.loc[200, "fresh_accuracy"] - 0.5) < 4 * summary.loc[200, "fresh_accuracy_se"] + 0.01
    assert summary.loc[1, "test_optimism_growth"] == 0
    block = runs[runs["rounds"] == 200]
    assert summary.loc[200, "test_minus_train_optimism"] == pytest.approx(
        (block["test_accuracy"] - block["train_accuracy"]).mean()
    )


def test_the_expected_minimum_of_draws_is_the_order_statistic_a_simulation_finds():
    from cvsuite.studies.test_set_reuse import expected_minimum, minimum_of_draws

    assert expected_minimum(1) == pytest.approx(0.0, abs=1e-9)
    assert expected_minimum(2) == pytest.approx(-1 / np.sqrt(np.pi), rel=1e-8)  # E min of two normals
    simulated = np.random.default_rng(0).standard_normal((20000, 40)).min(axis=1).mean()
    assert expected_minimum(40) == pytest.approx(simulated, abs=0.01)
    row = minimum_of_draws(40).iloc[0]
    assert row["below_over_mean_absolute_deviation"] == pytest.approx(-expected_minimum(40) / np.sqrt(2 / np.pi))
