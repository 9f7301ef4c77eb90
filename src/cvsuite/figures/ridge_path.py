"""The figures of study ridge_path ("Regularization and Cross-Validation", §8.2.3)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.studies.ridge_path import worked_example_theta


def risk_and_norm_path(grid: pd.DataFrame, best: pd.Series, degree: int, n_train: int) -> Figure:
    """The document's first figure: both risks, and ||theta||, against lambda on a log axis.

    The title's changes are measured from the unregularised fit (lambda = 0), which a log axis
    cannot show: its expected risk and its norm are drawn as dotted lines instead."""
    fig, (risk_ax, norm_ax) = style.subplots(1, 2, figsize=(10, 4.6))
    lam = grid["lambda"]
    risk_ax.plot(lam, grid["train_risk"], color=style.TRAIN, label="training risk")
    risk_ax.plot(lam, grid["expected_risk"], color=style.EXPECTED, label="expected risk (4,000 test points)")
    unregularised = best["unregularised_expected_risk"]
    style.reference_line(risk_ax, unregularised, f"unregularised (λ = 0) expected risk {unregularised:.6f}")
    norm_ax.plot(lam, grid["theta_norm"], color="black", label="||θ||")
    free_norm = best["unregularised_theta_norm"]
    style.reference_line(norm_ax, free_norm, f"unregularised (λ = 0) ||θ|| = {free_norm:.1f}")
    for ax, ylabel in ((risk_ax, "mean squared error"), (norm_ax, "||θ||")):
        label = f"best λ = {best['best_lambda']:.3e} (||θ|| = {best['best_theta_norm']:.4f})"
        style.reference_line(ax, best["best_lambda"], label, vertical=True, linestyle="-")
        ax.set(xscale="log", yscale="log", xlabel="regularisation parameter λ (log scale)")
        ax.set_ylabel(f"{ylabel} (log scale)")
    # Two decades only: label the values in between, or the reader has two ticks to read from.
    risk_ticks = [0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0]
    style.log_axis(risk_ax, "y", risk_ticks)
    risk_ax.set_title("Risks along the ridge path")
    norm_ax.set_title("Parameter norm along the ridge path")
    style.figure_legend(fig)
    fig.suptitle(
        f"Degree {degree} on {n_train} points: at λ = {best['best_lambda']:.1e}, against the unregularised fit "
        f"(dotted lines),\nthe expected risk falls {best['expected_risk_fall_percent']:.0f}% while the training "
        f"risk rises {best['train_risk_rise_percent']:.0f}% and ||θ|| shrinks "
        f"{best['theta_norm_shrink_factor']:.0f}-fold"
    )
    return fig


def worked_example(worked: pd.DataFrame, x: np.ndarray, y: np.ndarray) -> Figure:
    """The closed-form theta(lambda) against the numerical ridge solves of the worked example."""
    fig, ax = style.subplots(figsize=(5.5, 3.8))
    lam = np.linspace(0, 5, 200)
    closed = [worked_example_theta(v, x, y) for v in lam]
    ax.plot(lam, closed, color="black", label="closed form θ(λ) = (x·y/N) / (x·x/N + λ)")
    solved = worked[worked["theta_numerical"].notna()]
    at = ", ".join(f"{v:g}" for v in solved["lambda"])
    label = f"numerical ridge solve on the same\ntwo points at λ = {at}"
    ax.plot(solved["lambda"], solved["theta_numerical"], "o", color=style.EXPECTED, label=label)
    ax.set(
        xlabel="regularisation parameter λ",
        ylabel="coefficient θ",
        title=f"Worked example: θ(1) / θ(0) = {worked_example_theta(1.0, x, y) / worked_example_theta(0.0, x, y):.2f}",
    )
    ax.legend()
    return fig


def cv_by_lambda_and_k(by_folds: pd.DataFrame, degree: int, n_train: int) -> Figure:
    """See it move's two knobs: K-fold CV of the ridge fit against lambda, one line per K, over the
    true expected risk of the fit to all the points (lambda > 0 only: a log axis has no zero)."""
    fig, ax = style.subplots(figsize=(7.5, 4.8))
    shown = by_folds[by_folds["lambda"] > 0]
    ks = sorted(shown["K"].unique())
    colours = colormaps["viridis"](np.linspace(0.0, 0.85, len(ks)))  # dark for few folds, light for many
    for k, colour in zip(ks, colours):
        rows = shown[shown["K"] == k]
        name = "leave-one-out" if k == n_train else f"K = {k}"
        ax.plot(rows["lambda"], rows["cv_estimate"], "o-", color=colour, label=f"CV estimate, {name}")
        chosen = rows[rows["chosen_by_cv"]]
        star = ax.plot(chosen["lambda"], chosen["cv_estimate"], "*", color=colour, markersize=14, label="_nolegend_")
        style.explained(star, "by the black star's legend entry, in its line's colour")
    truth = shown.drop_duplicates("lambda")
    ax.plot(truth["lambda"], truth["truth"], **style.LINES["truth"], label="true expected risk of the full-data fit")
    ax.plot([], [], "*", color="black", markersize=12, linestyle="none", label="the λ each K's estimates choose")
    ax.set(xscale="log", yscale="log", xlabel="regularisation parameter λ (log scale)")
    ax.set_ylabel("mean squared error (log scale)")
    low = [v for v in (0.1, 0.2, 0.5) if v > 0.5 * shown[["truth", "cv_estimate"]].min().min()]
    style.log_axis(ax, "y", low + [10.0**e for e in range(0, 1 + int(np.log10(shown["cv_estimate"].max())))])
    shuffles = int(shown["shuffles"].iloc[0])
    ax.set_title(
        f"Degree {degree} on {n_train} points: K-fold CV (mean over {shuffles} shuffles) above the truth at every λ,\n"
        "by far more at small λ and small K"
    )
    style.figure_legend(fig)
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables and the worked example's two points in its config
    (its figure rule, ``cvsuite.workflow.figure_job``)."""
    data, params = inputs.config["sine_data"], inputs.config["ridge_path"]
    we = params["worked_example"]
    return {
        "risk_and_norm_path": risk_and_norm_path(
            inputs.tables["lambda_grid"], inputs.tables["summary"].iloc[0], params["degree"], data["train_size"]
        ),
        "worked_example": worked_example(
            inputs.tables["worked_example"], np.array(we["x"], float), np.array(we["y"], float)
        ),
        "cv_by_lambda_and_k": cv_by_lambda_and_k(
            inputs.tables["lambda_by_folds"], params["degree"], data["train_size"]
        ),
    }
