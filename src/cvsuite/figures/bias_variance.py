"""The figure of study bias_variance ("Estimating Out-of-Sample Error", its bias-variance decomposition)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs


def decomposition_by_degree(table: pd.DataFrame, best: pd.DataFrame) -> Figure:
    """Squared bias, variance and their sum with the noise against degree, one panel per sample size
    (log scale: the variance of a high degree on few points spans orders of magnitude), the best
    degree marked in each; a squared bias its Monte Carlo noise cannot tell from zero drawn hollow."""
    sizes = sorted(table["n"].unique())
    fig, axes = style.subplots(1, len(sizes), figsize=(10.5, 4.4), sharey=True)
    optimum = best.set_index("n")["best_degree"]
    for ax, n in zip(axes, sizes):
        block = table[table["n"] == n]
        bias = block["bias_squared"].clip(lower=1e-5)
        ax.plot(block["degree"], bias, "o-", color=style.BIAS, label="squared bias (below 1e-5: drawn at 1e-5)")
        # A squared bias within two of its standard errors of zero is Monte Carlo noise (at 25 points
        # the nearly singular fits of the high degrees make its mean heavy-tailed): drawn hollow.
        noise = block["bias_squared"] < 2 * block["bias_squared_se"]
        ax.plot(
            block["degree"][noise],
            bias[noise],
            "o",
            color=style.BIAS,
            markerfacecolor="white",
            label="squared bias within 2 s.e. of 0 (noise)",
        )
        ax.plot(block["degree"], block["variance"], "s-", color=style.STD_ERROR, label="variance")
        ax.plot(
            block["degree"],
            block["expected_error"],
            "^-",
            color=style.EXPECTED,
            label="expected error (their sum + noise)",
        )
        ax.plot(block["degree"], block["training_error"], "v--", color=style.TRAIN, label="expected training error")
        style.reference_line(ax, float(block["noise_variance"].iloc[0]), "noise variance σ² (the floor)")
        best = int(optimum[n])
        style.reference_line(ax, best, "least expected error", vertical=True, linestyle="-")
        ax.set_title(f"n = {n}: least at degree {best}")
        ax.set_xlabel("polynomial degree (flexibility)")
        style.integer_axis(ax, "x")
        ax.set_yscale("log")
    axes[0].set_ylabel("mean squared error (log scale)")
    style.figure_legend(fig, ncols=3)
    degrees = ", ".join(str(int(optimum[n])) for n in sizes)
    fig.suptitle(f"The sum is least at an intermediate degree, which rises with n: {degrees}")
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    return {"decomposition_by_degree": decomposition_by_degree(inputs.tables["decomposition"], inputs.tables["optima"])}
