"""The figure of study preprocessing_leak ("Estimating Out-of-Sample Error", Scaling inside the fold
loop against scaling before it; 'A related failure with the same shape')."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.studies.preprocessing_leak import PIPELINES

LABELS = {
    "honest": "both steps inside the loop",
    "scaling_before": "centre and scale before the loop",
    "selection_before": "select predictors before the loop",
}
COLOURS = {"honest": "black", "scaling_before": style.TRAIN, "selection_before": style.EXPECTED}
LOG_TICKS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5)


def leak_by_step(summary: pd.DataFrame, leaks: pd.Series) -> Figure:
    """Each pipeline's CV estimate beside the true error at the main n; the leaks against n.

    ``leaks`` is the row of the leaks at the main sample size (its n, predictors and noise variance).
    """
    sample_size, noise_variance = leaks["sample_size"], leaks["noise_variance"]
    fig, (est_ax, leak_ax) = style.subplots(1, 2, figsize=(10.5, 5.8))

    at_n = summary[summary["sample_size"] == sample_size].set_index("pipeline")
    for i, name in enumerate(PIPELINES):
        r, colour = at_n.loc[name], COLOURS[name]
        style.error_bars(est_ax, i - 0.1, r["cv_mse"], r["cv_mse_se"], fmt="o", color=colour, label="CV estimate")
        # The truth is averaged over test sets far larger than a fold: its ± 2 s.e. (at most about
        # 0.02) hide inside the square, so it is drawn without bars and its legend icon shows none
        # (``errorbar`` without ``yerr``: the legend keeps it beside the CV estimate).
        truth = "true error of the models it scored (± 2 s.e. within the square)"
        est_ax.errorbar(i + 0.1, r["fold_models_true_mse"], fmt="s", color=colour, mfc="white", label=truth)
    floor = f"noise variance {noise_variance:g}: no model does better"
    style.reference_line(est_ax, noise_variance, floor)
    est_ax.set_xticks(
        range(len(PIPELINES)),
        [LABELS[n].replace(" before", "\nbefore").replace(" inside", "\ninside") for n in PIPELINES],
    )
    est_ax.set_ylim(bottom=0)
    est_ax.set(
        xlabel="pipeline (colour)",
        ylabel="mean squared error (response units²)",
        title=f"n = {sample_size}, {leaks['predictors']} predictors: selection before\nthe loop "
        f"reports {leaks['selection_cv_mse']:.2f}, truth {at_n.loc['selection_before', 'fold_models_true_mse']:.2f}",
    )

    for name in ("scaling_before", "selection_before"):
        rows = summary[summary["pipeline"] == name]
        style.error_bars(
            leak_ax, rows["sample_size"], rows["leak"], rows["leak_se"], color=COLOURS[name], label=LABELS[name]
        )
    honest = summary[summary["pipeline"] == "honest"]
    # A quantity, not a reference mark: the suite's standard-error colour, so that it is not taken
    # for the left panel's grey dotted noise floor.
    reported = "the standard error honest CV reports (the document's step 5)"
    leak_ax.plot(
        honest["sample_size"], honest["cv_std_error"], "^--", color=style.STD_ERROR, mfc="white", label=reported
    )
    leak_values = summary.loc[summary["pipeline"] != "honest", "leak"]
    if (leak_values > 0).all():
        style.log_axis(leak_ax, "y", LOG_TICKS)
    leak_ax.set(
        xlabel="observations n (log scale)",
        ylabel="leak: honest CV minus leaky CV\n(response units², log scale)",
        title=f"At n = {sample_size}: scaling's leak is {leaks['scaling_leak_in_reported_se']:.2f}, "
        f"selection's {leaks['selection_leak_in_reported_se']:.1f}\nof the CV's own standard error",
    )
    style.log_axis(leak_ax, "x", honest["sample_size"])
    style.integer_axis(leak_ax, "x")
    style.figure_legend(fig)

    fig.suptitle(
        "Fitting a step on all the data before cross-validating: what centring and scaling, and selecting\n"
        "predictors, take off the CV error, beside the standard error it reports "
        f"({int(leaks['datasets'])} data sets per n)"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    return {"leak_by_step": leak_by_step(inputs.tables["summary"], inputs.tables["leaks"].iloc[0])}
