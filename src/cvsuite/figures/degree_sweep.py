"""The figure of study degree_sweep (page 802's sweep, quoted by "Regularization and Cross-Validation")."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.published.published_values import published_value

PRINTED_NORM = "rcv.823.norm-degree-15"  # registry row: the document's ||theta|| at degree 15


def _printed_norm_label(solvers: pd.DataFrame, printed: float, best_norm: float, degree: int) -> str:
    """What the printed norm is: the listing's norm truncated (the same sentence rounds the best
    degree's norm, ``best_norm``), the solvers that agree with the listing's to 0.01, the others."""
    listing = solvers["theta_norm"].iloc[0]
    agree = (solvers["theta_norm"] - listing).abs() < 0.005
    others = ", ".join(
        f"{row.solver.split(' (')[0].split(' X^T')[0]} {row.theta_norm:,.2f}" for row in solvers[~agree].itertuples()
    )
    return (
        f"the document's ||θ|| at degree {degree}: {printed:,.0f}, which is {listing:,.1f}\n"
        f"truncated (rounded, as it rounds {best_norm:.2f}: {listing:,.0f}); {int(agree.sum())} of "
        f"{len(solvers)}\nsolvers give {listing:,.2f}" + (f", the {others}" if others else "")
    )


def risk_and_norm_by_degree(
    sweep: pd.DataFrame, summary: pd.Series, solvers: pd.DataFrame, printed_norm: float, *, n_train: int
) -> Figure:
    """Both risks and ||theta|| against degree, on log scales; at the top degree, the document's
    printed norm (``printed_norm``, from the registry) beside what each solver gives (``solvers``)."""
    fig, (risk_ax, norm_ax) = style.subplots(1, 2, figsize=(10, 4.8))
    degree = sweep["degree"]
    risk_ax.plot(degree, sweep["train_risk"], "o-", color=style.TRAIN, label="training risk")
    risk_ax.plot(degree, sweep["expected_risk"], "o-", color=style.EXPECTED, label="expected risk (4,000 test points)")
    best = int(summary["best_degree"])
    style.reference_line(risk_ax, best, f"best degree {best}", vertical=True, linestyle="-")
    risk_ax.set(
        yscale="log",
        ylabel="mean squared error (log scale)",
        title="Training risk falls; expected risk turns and climbs",
    )
    norm_ax.plot(degree, sweep["theta_norm"], "o-", color="black", label="||θ|| (numpy's lstsq, as the listing)")
    top = int(summary["max_degree"])
    norm_ax.plot(
        top,
        printed_norm,
        "D",
        mfc="none",
        color=style.PUBLISHED,
        markersize=11,
        label=_printed_norm_label(solvers, printed_norm, summary["best_theta_norm"], top),
    )
    norm_ax.set(
        yscale="log",
        ylabel="||θ|| (log scale)",
        title=f"||θ|| from {summary['best_theta_norm']:.2f} (best degree) to {summary['max_degree_theta_norm']:,.1f}",
    )
    for ax in (risk_ax, norm_ax):
        style.integer_axis(ax, "x")
        ax.set_xlabel("polynomial degree")
    style.figure_legend(fig)
    fig.suptitle(
        f"Least squares on {n_train} points: at degree {top} the expected risk is "
        f"{summary['max_degree_expected_over_train']:.0f} times the training risk"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables and the registry's printed norm (its figure rule,
    ``cvsuite.workflow.figure_job``)."""
    sweep, summary, solvers = (inputs.tables[name] for name in ("degree_sweep", "summary", "solvers"))
    printed = published_value(inputs.published, PRINTED_NORM)
    n_train = inputs.config["sine_data"]["train_size"]
    return {
        "risk_and_norm_by_degree": risk_and_norm_by_degree(sweep, summary.iloc[0], solvers, printed, n_train=n_train)
    }
