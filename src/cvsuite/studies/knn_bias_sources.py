"""Where Part 1's pessimism comes from: training on fewer images, or scoring the held-out ones.

"Cross-Validation", What it estimates: "The K models are trained on n(K-1)/K images, not n, so
cross-validation estimates the error of a procedure trained on slightly less data ... Leave-one-out
trains on n-1 images and has little of this bias"; The choice of K: "Larger K means less
pessimistic bias"; Variants: leave-one-out "has the smallest pessimistic bias ... but ... it can
fail outright" (Kohavi's majority predictor on Iris, where deleting an image makes its class the
minority). The bias these sentences name is the training-size bias: the true accuracy of the models
an estimator trains minus the full model's (``training_size_effect`` of the step's ``fold_models``
table). The rest of an estimate's error is the ``validation_effect``: how its held-out scores miss
those models' true accuracy. A class-balanced leave-one-out, which keeps every class's count equal
in every training set, shows which part of leave-one-out's pessimism is Kohavi's effect.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from cvsuite.methods.monte_carlo import mean_and_se, ratio_and_se
from cvsuite.studies.shape_image_datasets import BALANCED_LOO


def bias_sources(fold_models: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """Per estimator (``order``, then the class-balanced leave-one-out): its mean error, and the mean
    training-size and validation effects that add up to it, each with its standard error over the
    datasets.

    Then each bias on the scale of the error it is a bias of ("what cross-validation estimates well
    is the expected error"; "estimates the error of a procedure trained on slightly less data"):
    ``pessimism_share_of_error``, the full model's true accuracy minus the estimate, over the full
    model's expected error 1 - accuracy; ``fold_models_pessimism_share``, the same against the models
    the estimator trains (``fold_models_true_accuracy``).
    Ratios of means over the datasets, with delta-method standard errors.

    The same two shares measured from the bias's sources (``..._by_sources``): the training-size
    effect as measured, and the scoring effect by its expectation where that is known exactly. A
    held-out set that holds every class equally, scored by models that never saw it (the stratified
    holdout and K-fold, the balanced leave-one-out, on the study's classes of equal size), scores
    them at their true accuracy in expectation: its scoring effect is zero. Leave-one-out's is not
    (the held-out image's class is one short in training): it is measured paired against the
    balanced leave-one-out, on the same images, whose own scoring effect has mean zero, a control
    variate that takes the held-out images' binomial noise out of both. Needs the balanced
    leave-one-out's fold models (empty shares without them)."""
    scoring = _scoring_effects_by_sources(fold_models, order)
    rows = []
    for name in [*order, BALANCED_LOO]:
        block = fold_models[fold_models["estimator"] == name]
        error, error_se = mean_and_se(block["estimate"] - block["true_accuracy"])
        training, training_se = mean_and_se(block["training_size_effect"])
        validation, validation_se = mean_and_se(block["validation_effect"])
        fold_accuracy = block["fold_models_true_accuracy"]
        share, share_se = ratio_and_se(block["true_accuracy"] - block["estimate"], 1 - block["true_accuracy"])
        fold_share, fold_share_se = ratio_and_se(fold_accuracy - block["estimate"], 1 - fold_accuracy)
        rows.append(
            {
                "estimator": name,
                "training_images": float(block["training_images"].iloc[0]),
                "datasets": len(block),
                "mean_error": error,
                "mean_error_se": error_se,
                "training_size_effect": training,
                "training_size_effect_se": training_se,
                "validation_effect": validation,
                "validation_effect_se": validation_se,
                "pessimism_share_of_error": share,
                "pessimism_share_of_error_se": share_se,
                "fold_models_pessimism_share": fold_share,
                "fold_models_pessimism_share_se": fold_share_se,
                **_shares_by_sources(block, scoring.get(name)),
            }
        )
    return pd.DataFrame(rows)


def _scoring_effects_by_sources(fold_models: pd.DataFrame, order: list[str]) -> dict[str, pd.Series]:
    """Per estimator, each dataset's scoring effect as ``bias_sources`` measures it from its sources:
    zero for a balanced held-out set, and leave-one-out's paired against the balanced leave-one-out."""
    table = fold_models.pivot(index="dataset", columns="estimator", values="validation_effect")
    effects = {name: pd.Series(0.0, index=table.index) for name in [*order, BALANCED_LOO]}
    loo = order[-1]
    if BALANCED_LOO in table and loo in table:
        effects[loo] = table[loo] - table[BALANCED_LOO]  # cbLOO's own scoring effect: mean zero
    return effects


def _shares_by_sources(block: pd.DataFrame, scoring: pd.Series | None) -> dict:
    """The two pessimism shares of ``bias_sources`` with the scoring effect ``scoring`` (per dataset)."""
    names = ("pessimism_share_by_sources", "fold_models_pessimism_share_by_sources")
    if scoring is None or block["fold_models_true_accuracy"].isna().any():
        return {key: value for name in names for key, value in ((name, np.nan), (f"{name}_se", np.nan))}
    block = block.set_index("dataset")
    scoring = scoring.reindex(block.index)
    share, share_se = ratio_and_se(-(block["training_size_effect"] + scoring), 1 - block["true_accuracy"])
    fold_share, fold_share_se = ratio_and_se(-scoring, 1 - block["fold_models_true_accuracy"])
    return {
        names[0]: share,
        f"{names[0]}_se": share_se,
        names[1]: fold_share,
        f"{names[1]}_se": fold_share_se,
    }


def source_pairs(order: list[str]) -> list[tuple[str, str]]:
    """The comparisons the records read: each K against the next smaller (K-fold estimators and
    leave-one-out, in draw order), leave-one-out against every other, the balanced one against it."""
    holdout, steps, loo = order[0], order[1:], order[-1]
    pairs = [(b, a) for a, b in zip(steps[:-1], steps[1:])]
    pairs += [(loo, other) for other in [holdout, *steps[:-2]] if (loo, other) not in pairs]
    return pairs + [(BALANCED_LOO, loo)]


def bias_source_differences(fold_models: pd.DataFrame, pairs: list[tuple[str, str]]) -> pd.DataFrame:
    """Two estimators on the same datasets: the paired differences of their errors and of their
    training-size effects, each with its standard error."""
    error = fold_models.assign(error=fold_models["estimate"] - fold_models["true_accuracy"])
    errors = error.pivot(index="dataset", columns="estimator", values="error")
    effects = fold_models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    rows = []
    for name, versus in pairs:
        difference, difference_se = mean_and_se(errors[name] - errors[versus])
        effect, effect_se = mean_and_se(effects[name] - effects[versus])
        rows.append(
            {
                "estimator": name,
                "versus": versus,
                "datasets": len(errors),
                "mean_error_difference": difference,
                "mean_error_difference_se": difference_se,
                "training_size_effect_difference": effect,
                "training_size_effect_difference_se": effect_se,
                "training_size_effect_difference_over_se": effect / effect_se if effect_se > 0 else np.nan,
            }
        )
    return pd.DataFrame(rows)


def training_size_share(fold_models: pd.DataFrame, estimator: str, versus: str) -> pd.DataFrame:
    """How much of ``versus``'s training-size bias ``estimator`` has: the ratio of their mean
    training-size effects, with its delta-method standard error over the datasets (``ratio_and_se``,
    paired by dataset). "Leave-one-out trains on n-1 images and has little of this bias" reads it
    for leave-one-out against the smallest K."""
    effects = fold_models.pivot(index="dataset", columns="estimator", values="training_size_effect")
    share, share_se = ratio_and_se(effects[estimator], effects[versus])
    return pd.DataFrame(
        [{"estimator": estimator, "versus": versus, "datasets": len(effects), "share": share, "share_se": share_se}]
    )
