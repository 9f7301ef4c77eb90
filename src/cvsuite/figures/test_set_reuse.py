"""The figure of study test_set_reuse ("Regularization and Cross-Validation", §8.2.3 and Pitfalls:
Tuning against the test set)."""

from __future__ import annotations

import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs


def optimism_by_rounds(summary: pd.DataFrame) -> Figure:
    """How far the kept model's test score and training score read above its true accuracy, against
    the rounds of the tuning loop."""
    fig, ax = style.subplots(figsize=(7.6, 4.8))
    rounds = summary["rounds"].to_numpy()
    style.reference_line(ax, 0.0, "its accuracy on fresh data (the truth, one half)", kind="truth")
    style.error_bars(
        ax,
        rounds,
        100 * summary["test_optimism"],
        100 * summary["test_optimism_se"],
        color=style.EXPECTED,
        label="test score, tuned against",
    )
    style.error_bars(
        ax,
        rounds,
        100 * summary["train_optimism"],
        100 * summary["train_optimism_se"],
        color=style.TRAIN,
        fmt="s--",
        label="training score",
    )
    style.log_axis(ax, "x", [int(r) for r in rounds])
    last = summary.iloc[-1]
    ax.set(
        xlabel="rounds of the loop (fit, read the test score, keep the best)",
        ylabel="score less true accuracy (points)",
        title=f"Labels of pure noise: after {int(last['rounds'])} rounds the test score reads "
        f"{100 * last['test_optimism']:+.1f} points,\nthe training score {100 * last['train_optimism']:+.1f} "
        f"({int(last['datasets'])} data sets)",
    )
    style.legend(ax, loc="upper left")
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    return {"optimism_by_rounds": optimism_by_rounds(inputs.tables["summary"])}
