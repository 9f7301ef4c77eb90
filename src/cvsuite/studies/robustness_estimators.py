"""The statistics of what "Cross-Validation" concludes about its estimators, at any number of datasets.

At the document's 40 datasets some of its sentences have no power (a 2-SE allowance wider than the
effect in question); on the robustness study's fresh datasets they do. Each function here returns
statistic rows in the form of ``robustness.shape_image_statistics`` (conclusion, statistic, estimate,
se), computed the same way at both scales, with paired comparisons
(``knn_estimators_comparisons.paired_differences``) wherever two estimators meet on the same
datasets. The records of the registry judge them; nothing here says whether a conclusion holds.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se
from cvsuite.studies.knn_bias_sources import bias_sources
from cvsuite.studies.knn_estimators_comparisons import estimate_truth_correlation, paired_differences
from cvsuite.studies.shape_image_datasets import BALANCED_LOO


def _order(estimates: pd.DataFrame) -> list[str]:
    """The estimators in the order the datasets list them (draw order: holdout, K-fold..., LOO)."""
    return list(dict.fromkeys(estimates["estimator"]))


def k_order_statistics(estimates: pd.DataFrame, holdout: str, fold_models: pd.DataFrame) -> list[dict]:
    """ "Larger K means less pessimistic bias"; "Leave-one-out ... has little of this bias", measured
    on the CV estimators in order of K (holdout left out); none when fewer than two are run.

    The bias these sentences name is the training-size bias ("The K models are trained on n(K-1)/K
    images, not n"): the true accuracy of the models an estimator trains minus the full model's
    (``fold_models``' ``training_size_effect``). Its smallest step of K in standard errors
    (``larger_k_less_bias``), and leave-one-out's over the smallest K's as a ratio of means
    (``loo_less_biased_than_kfold``). The whole error of the estimate, at the step of K where it
    falls most in standard errors (``larger_k_less_bias_in_total``), is measured beside it;
    leave-one-out's extra pessimism in the example comes from its held-out image's class being a
    minority among its training images (Kohavi's effect), which a class-balanced leave-one-out
    removes (``loo_pessimism_is_class_imbalance``: the balanced estimate minus leave-one-out's).
    """
    cv = [name for name in _order(estimates) if name != holdout]
    if len(cv) < 2:
        return []
    effects = fold_models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    steps = [(b, a, *mean_and_se(effects[b] - effects[a])) for a, b in zip(cv[:-1], cv[1:])]
    name, versus, step, step_se = min(steps, key=lambda t: t[2] / t[3])
    little, little_se = ratio_and_se(effects[cv[-1]], effects[cv[0]])
    totals = paired_differences(estimates, list(zip(cv[1:], cv[:-1])))
    worst = totals.loc[totals["mean_difference_over_se"].idxmin()]
    rows = [
        {
            "conclusion": "larger_k_less_bias",
            "statistic": f"training-size effect {name} - {versus} (models' true accuracy - the full model's; paired, "
            "the smallest step of K)",
            "estimate": step,
            "se": step_se,
        },
        {
            "conclusion": "loo_less_biased_than_kfold",
            "statistic": f"training-size effect of {cv[-1]} over {cv[0]}'s (a ratio of means)",
            "estimate": little,
            "se": little_se,
        },
        {
            "conclusion": "larger_k_less_bias_in_total",
            "statistic": f"mean error {worst['estimator']} - {worst['versus']} (estimate - true accuracy; paired, the "
            "step of K with the largest fall)",
            "estimate": float(worst["mean_difference"]),
            "se": float(worst["mean_difference_se"]),
        },
    ]
    if BALANCED_LOO in set(fold_models["estimator"]):
        errors = fold_models.pivot(index="dataset", columns="estimator", values="estimate")
        gain, gain_se = mean_and_se(errors[BALANCED_LOO] - errors[cv[-1]])
        rows.append(
            {
                "conclusion": "loo_pessimism_is_class_imbalance",
                "statistic": f"estimate {BALANCED_LOO} - {cv[-1]} (paired)",
                "estimate": gain,
                "se": gain_se,
            }
        )
    return rows


def nested_bias_statistic(selection: pd.DataFrame) -> dict:
    """ "The nested estimate ... shows no such bias": the nested estimate's mean error (nested estimate
    - true accuracy) over the winner's mean optimism (its CV score - true accuracy) with the largest
    candidate set, dataset by dataset, a ratio of means with its standard error. "Such bias" is the
    winner's; an unbiased nested estimate reads 0, and one as biased as the winner 1."""
    full = selection[selection["n_candidates"] == selection["n_candidates"].max()]
    ratio, se = ratio_and_se(full["nested_estimate"] - full["true_accuracy"], full["optimism"])
    return {
        "conclusion": "nested_no_upward_bias",
        "statistic": "mean nested error over the winner's mean optimism (a ratio of means)",
        "estimate": ratio,
        "se": se,
    }


def truth_correlation_statistics(estimates: pd.DataFrame, estimators: tuple[str, ...]) -> list[dict]:
    """ESL §7.12's "correlated only weakly, and mostly negatively, with Err_T", in the example.

    The analogue: the correlation over datasets of each of ``estimators`` (ESL's 10-fold and
    leave-one-out) with the true accuracy of the model it estimates (``estimate_truth_correlation``),
    the largest in absolute value ("weakly": if it is weak, every one is) and the largest ("negatively").
    """
    table = estimate_truth_correlation(estimates, list(estimators)).set_index("estimator")
    r = table["correlation"]

    def row(conclusion: str, largest: str, chosen: str) -> dict:
        return {
            "conclusion": conclusion,
            "statistic": f"correlation of the estimate with the true accuracy over datasets, the largest {largest} "
            f"of {', '.join(estimators)} ({chosen})",
            "estimate": float(r[chosen]),
            "se": float(table.loc[chosen, "correlation_se"]),
        }

    return [
        row("cv_weakly_correlated_with_truth", "|r|", r.abs().idxmax()),
        row("cv_negatively_correlated_with_truth", "r", r.idxmax()),
    ]


def z_score(estimate: float, reference: float, se: float) -> float:
    """(estimate - reference) / se; NaN where either is missing or the s.e. is not positive."""
    if not (np.isfinite(estimate) and np.isfinite(reference) and np.isfinite(se)) or se <= 0:
        return float("nan")
    return float((estimate - reference) / se)


def shape_estimators(
    estimates: pd.DataFrame, fold_models: pd.DataFrame, kfold: str, document_datasets: int
) -> pd.DataFrame:
    """Part 1's estimators on the fresh shape-image datasets, one row each: the error's mean (the bias)
    and its two sources (``knn_bias_sources.bias_sources``), the correlation of the estimate with the
    true accuracy, and, against ``kfold``, the ratio of the errors' s.d.s and the paired difference
    of their squared errors in standard errors: what the document's Part 1 sentences say, at scale.

    Then what the records of "none of the four estimators shows a bias that 40 datasets can
    distinguish from zero" and "the smallest pessimistic bias" read: ``document_scale_z``, the bias
    in absolute value over the standard error of a mean over ``document_datasets`` datasets (s.d. /
    sqrt(document_datasets): the |z| a study of the document's size expects), with its standard
    error; and leave-one-out's training-size effect and mean error minus each other estimator's,
    paired over the datasets, with theirs (empty on leave-one-out's own row and the balanced one's).
    """
    order = list(dict.fromkeys(estimates["estimator"]))
    sources = bias_sources(fold_models, order)
    correlation = estimate_truth_correlation(estimates, order).set_index("estimator")
    against = paired_differences(estimates, [(name, kfold) for name in order if name != kfold]).set_index("estimator")
    sources["sd_error"] = sources["estimator"].map(estimates.groupby("estimator")["error"].std(ddof=1))
    sources["correlation"] = sources["estimator"].map(correlation["correlation"])
    sources["correlation_se"] = sources["estimator"].map(correlation["correlation_se"])
    sources["sd_ratio_to_kfold"] = sources["estimator"].map(against["sd_ratio"])
    sources["squared_error_difference_over_se"] = sources["estimator"].map(against["squared_error_difference_over_se"])
    document_se = sources["sd_error"] / np.sqrt(document_datasets)
    sources["document_scale_z"] = sources["mean_error"].abs() / document_se
    sources["document_scale_z_se"] = sources["mean_error_se"] / document_se
    loo = order[-1]
    effects = fold_models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    errors = estimates.pivot(index="dataset", columns="estimator", values="error")
    for column, table in (("loo_training_size_effect_difference", effects), ("loo_mean_error_difference", errors)):
        moments = {name: mean_and_se(table[loo] - table[name]) for name in order if name != loo}
        sources[column] = sources["estimator"].map({name: m for name, (m, _) in moments.items()})
        sources[f"{column}_se"] = sources["estimator"].map({name: s for name, (_, s) in moments.items()})
    return sources
