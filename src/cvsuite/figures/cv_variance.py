"""The figure of study cv_variance ("Cross-Validation", The choice of K and the variance of the estimate)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs

TERM_COLOURS = ("#9ecae1", "#fdae6b", "#a1d99b")
STEP = 0.2  # horizontal offset of each term's bar within its group


def _terms(table: pd.DataFrame) -> dict[str, pd.Series]:
    """Bengio and Grandvalet's three terms of Var[CV], per K, named with their symbols' meaning."""
    n = table["fold_size"] * table["K"]
    return {
        "σ²/n; σ²: variance of one image's 0/1 error": table["sigma2"] / n,
        "(m−1)ω/n; ω: covariance of two errors in one fold": ((table["fold_size"] - 1) / n * table["omega"]).fillna(0),
        "(n−m)γ/n; γ: covariance of two errors in two folds": (n - table["fold_size"]) / n * table["gamma"],
    }


def _waterfall(ax, x: np.ndarray, table: pd.DataFrame) -> None:
    """Each term as a bar from the running total to the running total plus the term: a positive
    term rises, a negative one (hatched) falls, and the last bar ends at their sum."""
    total = np.zeros(len(x))
    for i, ((name, values), colour) in enumerate(zip(_terms(table).items(), TERM_COLOURS)):
        values = values.to_numpy()
        at = x + (i - 1.5) * STEP
        rising = values >= 0
        ax.bar(at[rising], values[rising], STEP, bottom=total[rising], color=colour, label=name)
        if (~rising).any():
            ax.bar(
                at[~rising],
                values[~rising],
                STEP,
                bottom=total[~rising],
                color=colour,
                hatch="xx",
                edgecolor="0.3",
                label=f"{name.split(';')[0]}, negative (hatched): the total falls",
            )
        total += values


def variance_by_k(table: pd.DataFrame, sigma: float, k: int, differences: pd.DataFrame | None = None) -> Figure:
    """Var[CV] with Bengio and Grandvalet's three terms per K, and the naive standard error against
    the true spread. ``differences`` (``studies.cv_variance.variance_differences``) gives the title
    its finding: the largest paired difference of Var[CV] between two K, in standard errors.

    Symbols: n images, m = n/K per fold; σ² the variance of one image's 0/1 error, ω and γ the
    covariances of two errors in the same and in different folds. The fold scores' s.d. is called
    s, not σ, to keep σ for one error."""
    fig, (var_ax, se_ax) = style.subplots(1, 2, figsize=(10.5, 6.0))
    labels = [
        (f"leave-one-out\n(K = {folds})" if m == 1 else f"K = {folds}")
        for folds, m in zip(table["K"], table["fold_size"])
    ]
    n = int(table["fold_size"].iloc[0] * table["K"].iloc[0])
    x = np.arange(len(table))
    _waterfall(var_ax, x, table)
    style.error_bars(
        var_ax,
        x + 1.5 * STEP,
        table["cv_variance"],
        table["cv_variance_se"],
        fmt="o",
        color="black",
        label="Var[CV] measured over datasets",
    )
    var_ax.hlines(
        table["binomial_variance"],
        x - 2 * STEP,
        x + 2 * STEP,
        color=style.EXPECTED,
        label="Kohavi: a(1−a)/n; a: mean CV accuracy",
    )
    var_ax.set_xticks(x, labels)
    var_ax.set(
        xlabel=f"number of folds K (n = {n} images, m = n/K in a fold)",
        ylabel="variance of the CV accuracy over datasets",
        title="The three terms, added in turn, reach Var[CV]",
    )
    se_ax.bar(x - 0.18, table["cv_sd"], 0.36, color="0.3", label="true spread: s.d. of CV over datasets")
    se_ax.bar(
        x + 0.18,
        table["naive_std_error_rms"],
        0.36,
        color=style.STD_ERROR,
        label="naive standard error s/√K (rms over datasets);\ns: s.d. of the K fold scores",
    )
    se_ax.set_xticks(x, labels)
    ratio = table["naive_over_true_sd"]
    se_ax.set(
        xlabel="number of folds K",
        ylabel="spread of the CV accuracy (s.d., accuracy 0-1)",
        title=f"The naive standard error is {100 * (1 - ratio.max()):.0f}-{100 * (1 - ratio.min()):.0f}% too small",
    )
    style.figure_legend(fig)
    setting = f"{int(table['datasets'].iloc[0])} shape-image datasets, blur {sigma}, k = {k} neighbours"
    variance = table["cv_variance"]
    spread = f"{variance.min():.5f} to {variance.max():.5f} over K = {', '.join(map(str, table['K']))}"
    finding = f"Var[CV]: {spread}"
    if differences is not None and len(differences):
        largest = differences.loc[differences["difference_over_se"].abs().idxmax()]
        finding = (
            f"Var[CV] against K: {spread};\nthe largest paired difference, K = {int(largest['K'])} against "
            f"{int(largest['versus'])}, is {largest['variance_difference']:+.6f}, "
            f"{abs(largest['difference_over_se']):.1f} times its s.e. {largest['variance_difference_se']:.6f}"
        )
    finding += f"\n({setting})"
    fig.suptitle(finding)
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    params = inputs.config["cv_variance"]
    table, differences = inputs.tables["decomposition"], inputs.tables["differences"]
    return {"variance_by_k": variance_by_k(table, params["sigma"], params["k"], differences)}
