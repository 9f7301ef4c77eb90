"""The documents' conclusions beyond their seeds: each one's statistic with its Monte Carlo error.

A conclusion is a sentence of a document turned into one statistic and its standard error over
independent datasets: once on the document's own datasets, once on many fresh ones. Whether it
holds is the registry's to say: each conclusion is a record there, at its quote, whose named judge
reads this table (``results/robustness/conclusions.csv``) or the study's tables K by K and estimator
by estimator.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import mean_and_se, standard_error
from cvsuite.studies.robustness_estimators import (
    k_order_statistics,
    nested_bias_statistic,
    truth_correlation_statistics,
    z_score,
)
from cvsuite.studies.robustness_regression import k_bias_statistics, ridge_statistics

EX = "Cross-Validation"
RC = "Regularization and Cross-Validation"
# Each conclusion in the words of the document that states it (cut or glossed where the sentence runs on;
# its record in the registry quotes it verbatim).
WORDS = {
    "no_estimator_bias": {
        "document": EX,
        "words": "none of the four estimators shows a bias that 40 datasets can distinguish from zero",
    },
    "holdout_twice_as_variable": {
        "document": EX,
        "words": "its error varies about twice as much as that of 5-fold cross-validation",
    },
    "winner_overstates": {
        "document": EX,
        "words": "The winner's cross-validation score overstates the chosen model's accuracy on almost every dataset",
    },
    "nested_as_often_high_as_low": {
        "document": EX,
        "words": "The nested estimate ... shows no such bias: it is as often too high as too low",
    },
    "larger_k_less_bias": {"document": EX, "words": "Larger K means less pessimistic bias and more computation"},
    "loo_less_biased_than_kfold": {
        "document": EX,
        "words": "Leave-one-out trains on n-1 images and has little of this bias; It has the smallest pessimistic bias",
    },
    "larger_k_less_bias_in_total": {
        "document": EX,
        "words": "Larger K means less pessimistic bias (read as the whole error of the estimate)",
    },
    "loo_pessimism_is_class_imbalance": {
        "document": EX,
        "words": "[leave-one-out] can fail outright ... since deleting an instance always makes its class the minority "
        "(here: what leave-one-out's pessimism in the example comes from)",
    },
    "nested_no_upward_bias": {"document": EX, "words": "The nested estimate ... shows no such bias"},
    "cv_weakly_correlated_with_truth": {
        "document": EX,
        "words": "both 10-fold and leave-one-out estimates were ... correlated only weakly ... with Err_T "
        "(ESL §7.12; here the document's example)",
    },
    "cv_negatively_correlated_with_truth": {
        "document": EX,
        "words": "... and mostly negatively, with Err_T (ESL §7.12; here the document's example)",
    },
    "gap_grows_with_candidates": {
        "document": "Estimating Out-of-Sample Error",
        "words": "the gap grows with the number of candidates tried",
    },
    "cv_biased_upward": {"document": RC, "words": "The bias is always upward, so it makes every model look worse"},
    "cv_estimates_smaller_training_sets": {
        "document": RC,
        "words": "Small-K cross-validation estimates the risk of a model trained on (K-1)/K N points",
    },
    "bias_falls_with_k": {"document": RC, "words": "The bias falls monotonically"},
    "loo_zero_spread": {"document": RC, "words": "the spread across shuffles (red) collapses to exactly zero at K = N"},
    "std_error_understates_spread": {
        "document": RC,
        "words": "the spread across 40 different shuffles was 0.075755 — "
        "nearly three times larger [than the standard error]",
    },
    "penalty_trades_train_for_expected": {
        "document": RC,
        "words": "a 49 percent rise in training risk bought a 75 percent fall in expected risk",
    },
}


# The value each conclusion's statistic is measured from (0 for a bias, 0.5 for a share, the
# document's "twice"), so that the table gives its departure in standard errors at each scale
# (``document_z``, ``new_z``); NaN where none applies (a share the document's words bound, a ratio).
REFERENCE = {
    "no_estimator_bias": 0.0,
    "holdout_twice_as_variable": 2.0,
    "winner_overstates": 0.5,
    "nested_as_often_high_as_low": 0.5,
    "larger_k_less_bias": 0.0,
    "larger_k_less_bias_in_total": 0.0,
    "loo_pessimism_is_class_imbalance": 0.0,
    "nested_no_upward_bias": 0.0,
    "cv_weakly_correlated_with_truth": 0.0,
    "cv_negatively_correlated_with_truth": 0.0,
    "gap_grows_with_candidates": 0.0,
    "cv_biased_upward": 0.0,
    "cv_estimates_smaller_training_sets": 0.0,
    "std_error_understates_spread": 0.5,
}


@dataclass(frozen=True)
class Evidence:
    """One scale's rows: shape-image estimates, their sources of error and selection rows (from the step
    shape_image_datasets), K-bias rows, their sources of error and ridge exchange rows of the
    regression samples (one column ``dataset`` each)."""

    estimates: pd.DataFrame
    fold_models: pd.DataFrame
    selection: pd.DataFrame
    k_bias: pd.DataFrame
    error_sources: pd.DataFrame
    exchange: pd.DataFrame


@dataclass(frozen=True)
class ShapeSettings:
    """How the shape-image statistics are measured: the estimators the sentences name, the bootstrap
    of a ratio of s.d.s, and the document's dataset count (the scale of "40 datasets")."""

    holdout: str
    kfold: str
    bootstrap: int
    bootstrap_seed: int
    document_datasets: int


def _bootstrap_standard_error(statistic, frames: list[pd.DataFrame], key: str, draws: int, seed: int) -> float:
    """Bootstrap standard error of a statistic of per-dataset rows, resampling whole datasets."""
    rng = np.random.default_rng(seed)
    datasets = np.array(sorted(frames[0][key].unique()))
    if len(datasets) < 2:
        return float("nan")
    # Each frame's rows of dataset d, once per time d is drawn, in the frame's own order.
    positions = [np.searchsorted(datasets, f[key].to_numpy()) for f in frames]
    values = []
    for _ in range(draws):
        counts = np.bincount(np.searchsorted(datasets, rng.choice(datasets, len(datasets))), minlength=len(datasets))
        resampled = [f.iloc[np.repeat(np.arange(len(f)), counts[p])] for f, p in zip(frames, positions)]
        values.append(statistic(*resampled))
    return float(np.std(values, ddof=1))


def _sd_ratio(estimates: pd.DataFrame, numerator: str, denominator: str) -> float:
    sd = estimates.groupby("estimator")["error"].std(ddof=1)
    return float(sd[numerator] / sd[denominator])


def shape_image_statistics(
    estimates: pd.DataFrame, selection: pd.DataFrame, settings: ShapeSettings, fold_models: pd.DataFrame
) -> list[dict]:
    """The statistics of "Cross-Validation"'s Example conclusions on one set of shape-image datasets.

    "A bias that 40 datasets can distinguish from zero" is measured on the estimator furthest from
    0 in standard errors of a 40-dataset mean (s.d. / sqrt(40)), whatever the number of datasets that
    measure it; "the gap grows with the number of candidates tried" on the step of candidate-set size
    where the winner's optimism grows by the fewest standard errors (paired over datasets).
    """
    holdout, kfold, document_datasets = settings.holdout, settings.kfold, settings.document_datasets
    rows = []
    stats = {}
    for name, errors in estimates.groupby("estimator", sort=False)["error"]:
        stats[name] = (errors.mean(), standard_error(errors), errors.std(ddof=1) / np.sqrt(document_datasets))
    worst = max(stats, key=lambda n: abs(stats[n][0]) / stats[n][2])
    mean, se, _ = stats[worst]
    rows.append(
        {
            "conclusion": "no_estimator_bias",
            "statistic": f"mean estimate - true accuracy of the estimator furthest from 0 in "
            f"{document_datasets}-dataset s.e.s ({worst})",
            "estimate": mean,
            "se": se,
        }
    )
    ratio = _sd_ratio(estimates, holdout, kfold)
    ratio_se = _bootstrap_standard_error(
        lambda e: _sd_ratio(e, holdout, kfold), [estimates], "dataset", settings.bootstrap, settings.bootstrap_seed
    )
    rows.append(
        {
            "conclusion": "holdout_twice_as_variable",
            "statistic": f"s.d.(holdout error) / s.d.({kfold} error)",
            "estimate": ratio,
            "se": ratio_se,
        }
    )
    full = selection[selection["n_candidates"] == selection["n_candidates"].max()]
    over = (full["non_nested_score"] > full["true_accuracy"]).to_numpy(float)
    rows.append(
        {
            "conclusion": "winner_overstates",
            "statistic": "share of datasets where the winner's CV score exceeds its true accuracy",
            "estimate": over.mean(),
            "se": standard_error(over),
        }
    )
    high = (full["nested_estimate"] > full["true_accuracy"]).to_numpy(float)
    rows.append(
        {
            "conclusion": "nested_as_often_high_as_low",
            "statistic": "share of datasets where the nested estimate exceeds the true accuracy",
            "estimate": high.mean(),
            "se": standard_error(high),
        }
    )
    rows += k_order_statistics(estimates, holdout, fold_models)
    rows.append(nested_bias_statistic(selection))
    later = _later_estimators(estimates, kfold)
    if later:
        rows += truth_correlation_statistics(estimates, later)
    rows.append(_gap_growth(selection))
    return rows


def _gap_growth(selection: pd.DataFrame) -> dict:
    """The winner's optimism gained from each candidate-set size to the next, paired over datasets;
    the step that gains the fewest standard errors (every step, if that one is above 0)."""
    by_size = selection.pivot(index="dataset", columns="n_candidates", values="optimism")
    sizes = list(by_size.columns)
    steps = [(a, b, *mean_and_se(by_size[b] - by_size[a])) for a, b in zip(sizes[:-1], sizes[1:])]
    smallest, larger, gain, gain_se = min(
        steps, key=lambda t: z_score(t[2], 0.0, t[3]) if t[3] > 0 else np.sign(t[2]) * np.inf
    )
    return {
        "conclusion": "gap_grows_with_candidates",
        "statistic": f"optimism with {larger} settings - with {smallest} (paired; the step of "
        f"{', '.join(map(str, sizes))} settings that gains the fewest s.e.s)",
        "estimate": gain,
        "se": gain_se,
    }


def _later_estimators(estimates: pd.DataFrame, kfold: str) -> tuple[str, ...]:
    """The estimators after ``kfold`` in draw order: ESL §7.12's 10-fold and leave-one-out."""
    order = list(dict.fromkeys(estimates["estimator"]))
    return tuple(order[order.index(kfold) + 1 :]) if kfold in order else ()


def conclusion_statistics(evidence: Evidence, settings: ShapeSettings) -> list[dict]:
    """Every conclusion's statistic on one scale's rows, shape images first, each with the datasets
    it reads: the shape-image datasets for the shape-image sentences, the regression samples for
    the others."""
    shape = shape_image_statistics(evidence.estimates, evidence.selection, settings, evidence.fold_models)
    regression = k_bias_statistics(evidence.k_bias, evidence.error_sources)
    regression += ridge_statistics(evidence.exchange)
    n_shape, n_regression = evidence.estimates["dataset"].nunique(), evidence.k_bias["dataset"].nunique()
    return [{**row, "datasets": n_shape} for row in shape] + [{**row, "datasets": n_regression} for row in regression]


def side_by_side(document: list[dict], fresh: list[dict], words: dict[str, dict] = WORDS) -> pd.DataFrame:
    """One row per conclusion: the document's words, its statistic at both scales with its standard
    error and the datasets it reads, the value it is measured from (``REFERENCE``) and its departure
    from it in standard errors at each scale."""
    fresh_by_id = {r["conclusion"]: r for r in fresh}
    rows = []
    for doc in document:
        new = fresh_by_id[doc["conclusion"]]
        w = words[doc["conclusion"]]
        reference = REFERENCE.get(doc["conclusion"], np.nan)
        rows.append(
            {
                "conclusion": doc["conclusion"],
                "document": w["document"],
                "words": w["words"],
                "statistic": new["statistic"],
                "document_datasets": doc["datasets"],
                "document_estimate": doc["estimate"],
                "document_estimate_se": doc["se"],
                "new_datasets": new["datasets"],
                "new_estimate": new["estimate"],
                "new_estimate_se": new["se"],
                "reference": reference,
                "document_z": z_score(doc["estimate"], reference, doc["se"]),
                "new_z": z_score(new["estimate"], reference, new["se"]),
            }
        )
    return pd.DataFrame(rows)
