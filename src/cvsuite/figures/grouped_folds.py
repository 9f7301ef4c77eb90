"""The figure of study grouped_folds ("Cross-Validation", When to Use It and Variants; "Estimating
Out-of-Sample Error", Procedure: When observations are grouped)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs

LABELS = {
    "random": "KFold,\nshuffled",
    "grouped": "GroupKFold",
    "stratified_grouped": "StratifiedGroupKFold",
}
COLOURS = {"random": style.EXPECTED, "grouped": style.TRAIN, "stratified_grouped": style.STD_ERROR}


def estimates_and_balance(summary: pd.DataFrame) -> Figure:
    """Left: each scheme's CV accuracy against the accuracy on new groups; right: each scheme's
    largest gap between a fold's class share and the whole set's."""
    fig, (left, right) = style.subplots(1, 2, figsize=(9.6, 4.6))
    rows = summary.set_index("scheme")
    x = np.arange(len(rows))
    truth = rows["new_groups_accuracy"].iloc[0]
    style.reference_line(left, 100 * truth, "accuracy on new groups (the truth)", kind="truth")
    for i, (scheme, row) in enumerate(rows.iterrows()):
        points = style.error_bars(
            left,
            np.array([i]),
            np.array([100 * row["cv_accuracy"]]),
            np.array([100 * row["cv_accuracy_se"]]),
            fmt="o",
            color=COLOURS[scheme],
            label="cross-validated accuracy" if i == 0 else None,
        )
        bars = right.bar(
            i,
            row["class_share_deviation"],
            yerr=style.ERROR_BAR_SE * row["class_share_deviation_se"],
            color=COLOURS[scheme],
            capsize=3,
            label="largest gap of a fold" if i == 0 else None,
        )
        if i > 0:  # each scheme's colour is named by its tick label; the first carries the legend entry
            style.explained(points, "by the scheme's tick label")
            style.explained(bars, "by the scheme's tick label")
    for ax in (left, right):
        ax.set_xticks(x, [LABELS[s] for s in rows.index])
        ax.set_xlim(-0.6, len(rows) - 0.4)
    random, grouped = rows.loc["random"], rows.loc["grouped"]
    left.set(
        ylabel="accuracy (%)",
        title=f"Random folds read {100 * random['cv_minus_new_groups']:+.0f} points;\n"
        f"grouped folds {100 * grouped['cv_minus_new_groups']:+.1f}",
    )
    right.set(
        ylabel="class-1 share of a test fold\nless the whole set's (largest)",
        title="StratifiedGroupKFold keeps each fold\n"
        f"within {rows.loc['stratified_grouped', 'class_share_deviation']:.2f} of the class share "
        f"(GroupKFold {grouped['class_share_deviation']:.2f})",
    )
    style.figure_legend(fig, ncols=3)
    fig.suptitle(
        f"Near-duplicate images in {int(rows['groups'].iloc[0])} groups, 1-nearest neighbour, "
        f"{int(rows['datasets'].iloc[0])} data sets"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figure, from its saved tables (its figure rule, ``cvsuite.workflow.figure_job``)."""
    return {"estimates_and_balance": estimates_and_balance(inputs.tables["summary"])}
