"""The regression studies of "Regularization and Cross-Validation" repeated on fresh data.

The document draws one training sample (seed 3) and one test sample (seed 99). Its conclusions are
about the method, not the sample: these functions redo the ridge path's exchange and the K-bias
table on a sample drawn from any other pair of seeds, so that many such samples can be scored.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.data.sine import polynomial_design, sine_sample
from cvsuite.methods.ridge import ridge_path
from cvsuite.studies.k_bias import k_bias_table
from cvsuite.studies.ridge_path import best_lambda_summary


def fresh_sine_rows(
    train_seed: int, test_seed: int, *, data: dict, ridge: dict, k_bias: dict, shuffles: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One fresh sample's ridge exchange (one row) and K-bias table (one row per K).

    ``data`` is the config block sine_data with its seeds replaced by ``train_seed`` and
    ``test_seed``; ``ridge`` and ``k_bias`` are the blocks of the two studies; the K-bias table
    uses ``shuffles`` partitions per K, seeds k_bias.first_seed onward.
    """
    x, y = sine_sample(data["train_size"], train_seed, data["noise"], data["half_width"])
    x_test, y_test = sine_sample(data["test_size"], test_seed, data["noise"], data["half_width"])
    train_design = polynomial_design(x, ridge["degree"], data["half_width"])
    test_design = polynomial_design(x_test, ridge["degree"], data["half_width"])
    grid = ridge_path(
        train_design,
        y,
        test_design,
        y_test,
        np.geomspace(ridge["grid_start"], ridge["grid_stop"], ridge["grid_points"]),
    )
    unregularised = ridge_path(train_design, y, test_design, y_test, np.array([0.0])).iloc[0]
    exchange = best_lambda_summary(unregularised, grid)
    exchange.insert(0, "dataset", train_seed)
    bias = k_bias_table(
        x,
        y,
        x_test,
        y_test,
        degree=k_bias["degree"],
        half_width=data["half_width"],
        fold_counts=k_bias["folds"],
        shuffles=shuffles,
        first_seed=k_bias["first_seed"],
    )
    bias.insert(0, "dataset", train_seed)
    return exchange, bias
