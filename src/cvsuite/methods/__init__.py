"""Generic methods on arrays: folds, estimators, nested selection, Monte Carlo summaries."""
