"""The figure of study preprocessing_leak ("Estimating Out-of-Sample Error", Scaling inside the fold
loop against scaling before it; 'A related failure with the same shape')."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.error_bars import error_bars
from cvsuite.studies.preprocessing_leak import PIPELINES

LABELS = {
    "honest": "both steps inside the loop",
    "scaling_before": "centre and scale before the loop",
    "selection_before": "select predictors before the loop",
}
COLOURS = {"honest": "black", "scaling_before": style.TRAIN, "selection_before": style.EXPECTED}


def leak_by_step(summary: pd.DataFrame, verdict: pd.Series, *, decision_standard_errors: float) -> Figure:
    """Each pipeline's CV estimate beside the true error at the verdict's n; the leaks against n.

    ``verdict`` is the verdict table's row (its sample size, predictors and noise variance); error
    bars are ``decision_standard_errors`` Monte Carlo SEs.
    """
    z = decision_standard_errors
    sample_size, noise_variance = verdict["sample_size"], verdict["noise_variance"]
    fig, (est_ax, leak_ax) = style.subplots(1, 2, figsize=(12, 4.8), layout="constrained")

    at_n = summary[summary["sample_size"] == sample_size].set_index("pipeline")
    for i, name in enumerate(PIPELINES):
        r, colour, first = at_n.loc[name], COLOURS[name], i == 0
        error_bars(est_ax, i - 0.1, r, "cv_mse", z=z, fmt="o", color=colour, label="CV estimate" if first else None)
        truth = "true error of the models it scored" if first else None
        error_bars(
            est_ax, i + 0.1, r, "fold_models_true_mse", z=z, fmt="s", color=colour, markerfacecolor="white", label=truth
        )
    floor = f"noise variance {noise_variance:g}: no model does better"
    est_ax.axhline(noise_variance, color=style.REFERENCE, linestyle="--", linewidth=1, label=floor)
    est_ax.set_xticks(range(len(PIPELINES)), [LABELS[n].replace(" the loop", "\nthe loop") for n in PIPELINES])
    est_ax.set_ylim(bottom=0)
    est_ax.set(
        ylabel="mean squared error (response units²)",
        title=f"n = {sample_size}, {verdict['predictors']} predictors: selection before the loop\n"
        f"reports {verdict['selection_cv_mse']:.2f}, truth {at_n.loc['selection_before', 'fold_models_true_mse']:.2f}",
    )
    est_ax.legend(fontsize=8, loc="lower left")

    for name in ("scaling_before", "selection_before"):
        rows = summary[summary["pipeline"] == name]
        error_bars(leak_ax, rows["sample_size"], rows, "leak", z=z, color=COLOURS[name], label=LABELS[name])
    honest = summary[summary["pipeline"] == "honest"]
    leak_ax.plot(
        honest["sample_size"],
        honest["cv_std_error"],
        "--",
        color=style.REFERENCE,
        label="the standard error honest CV reports (step 5)",
    )
    leaks = summary.loc[summary["pipeline"] != "honest", "leak"]
    leak_ax.set(
        xscale="log",
        yscale="log" if (leaks > 0).all() else "linear",
        xlabel="observations n (log scale)",
        ylabel="leak: honest CV minus leaky CV (response units², log scale)",
        title=f"At n = {sample_size}: scaling's leak is {verdict['scaling_leak_in_reported_se']:.2f}, "
        f"selection's {verdict['selection_leak_in_reported_se']:.1f}\nof the CV's own standard error",
    )
    leak_ax.set_xticks(honest["sample_size"], [str(n) for n in honest["sample_size"]])
    leak_ax.minorticks_off()
    leak_ax.legend(fontsize=8)

    scaling = "small" if verdict["leak_small_for_scaling"] else "not small"
    selection = "large" if verdict["leak_large_for_selection"] else "not large"
    fig.suptitle(
        f"Fitting a step on all the data before cross-validating: the leak is {scaling} for centring and scaling, "
        f"{selection} for selecting predictors ({int(verdict['datasets'])} data sets per n; bars ±{z:g} MC SE)"
    )
    return fig
