"""The figure of study degree_sweep (page 802's sweep, quoted by "Regularization and Cross-Validation")."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style


def risk_and_norm_by_degree(sweep: pd.DataFrame, summary: pd.Series, n_train: int) -> Figure:
    """Both risks and ||theta|| against degree, on log scales."""
    fig, (risk_ax, norm_ax) = style.subplots(1, 2, figsize=(10, 4))
    risk_ax.plot(sweep["degree"], sweep["train_risk"], "o-", color=style.TRAIN, label="training risk")
    risk_ax.plot(
        sweep["degree"], sweep["expected_risk"], "o-", color=style.EXPECTED, label="expected risk (4,000 test points)"
    )
    risk_ax.axvline(
        summary["best_degree"], color=style.REFERENCE, linewidth=0.8, label=f"best degree {int(summary['best_degree'])}"
    )
    risk_ax.set(
        yscale="log",
        xlabel="polynomial degree",
        ylabel="mean squared error (log scale)",
        title="Training risk falls; expected risk turns and climbs",
    )
    risk_ax.legend()
    norm_ax.plot(sweep["degree"], sweep["theta_norm"], "o-", color="black")
    norm_ax.set(
        yscale="log",
        xlabel="polynomial degree",
        ylabel="||θ|| (log scale)",
        title=f"||θ|| from {summary['best_theta_norm']:.2f} (best degree) to {summary['max_degree_theta_norm']:,.0f}",
    )
    fig.suptitle(
        f"Least squares on {n_train} points: at degree {int(summary['max_degree'])} the expected risk is "
        f"{summary['max_degree_expected_over_train']:.0f} times the training risk"
    )
    return fig
