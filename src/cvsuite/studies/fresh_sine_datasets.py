"""The regression studies of "Regularization and Cross-Validation" repeated on fresh data.

The document draws one training sample (seed 3) and one test sample (seed 99). Its conclusions are
about the method, not the sample: these functions redo the ridge path's exchange and the K-bias
table on a sample drawn from any other pair of seeds, so that many such samples can be scored.
"""

from __future__ import annotations

import pandas as pd

from cvsuite.data.sine import train_and_test
from cvsuite.studies.k_bias import KBiasSettings, error_sources_of_runs, full_data_risk, k_bias_table, shuffle_runs
from cvsuite.studies.ridge_path import RidgeGrid, grid_and_exchange


def fresh_sine_rows(
    train_seed: int, test_seed: int, *, data: dict, ridge: dict, k_bias: dict, shuffles: int
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """One fresh sample's ridge exchange (one row), K-bias table and the bias's two sources (one row
    per K: the fold models' true risk against the truth, and the estimate against it).

    ``data`` is the config block sine_data, whose seeds are replaced by ``train_seed`` and
    ``test_seed``; ``ridge`` and ``k_bias`` are the blocks of the two studies; the K-bias table
    uses ``shuffles`` partitions per K, seeds k_bias.first_seed onward.
    """
    samples = train_and_test(**{**data, "train_seed": train_seed, "test_seed": test_seed})
    _, exchange = grid_and_exchange(samples, RidgeGrid.from_block(ridge))
    exchange.insert(0, "dataset", train_seed)
    settings = KBiasSettings.from_block(k_bias, shuffles=shuffles)
    runs = shuffle_runs(samples, settings, fold_models=True)
    bias = k_bias_table(samples, settings, runs)
    bias.insert(0, "dataset", train_seed)
    sources = error_sources_of_runs(runs, full_data_risk(samples, settings.degree))
    sources.insert(0, "dataset", train_seed)
    return exchange, bias, sources
