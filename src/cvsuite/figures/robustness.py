"""The figure of study robustness: each conclusion at the documents' scale and on fresh datasets."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style


def conclusions(table: pd.DataFrame) -> Figure:
    """Each conclusion's statistic at the document's scale and at the new scale, with 2 SE bars."""
    fig, axes = style.subplots(len(table), 1, figsize=(9, 1.05 * len(table) + 1))
    for ax, row in zip(axes, table.itertuples()):
        for y, (label, est, se, n, colour) in enumerate(
            [
                ("document", row.document_estimate, row.document_se, row.document_datasets, "0.5"),
                ("fresh", row.new_estimate, row.new_se, row.new_datasets, style.PUBLISHED),
            ]
        ):
            ax.errorbar(est, y, xerr=0 if not np.isfinite(se) else 2 * se, fmt="o", color=colour, capsize=3)
            ax.text(
                1.01,
                y,
                f"{label}: {n} dataset{'s' if n != 1 else ''}",
                transform=ax.get_yaxis_transform(),
                va="center",
                fontsize=7,
            )
        ax.set_yticks([])
        ax.set_ylim(-0.8, 1.8)
        verdict = "held" if row.held else "NOT held"
        ax.set_title(f"{row.conclusion}: {verdict} — {row.criterion}", fontsize=8, loc="left")
        ax.tick_params(axis="x", labelsize=7)
    axes[-1].set_xlabel(
        "statistic of the conclusion (units in its row of results/robustness/conclusions.csv); bars ± 2 Monte Carlo SE"
    )
    fig.suptitle(f"{int(table['held'].sum())} of {len(table)} conclusions hold on fresh datasets")
    fig.tight_layout()
    return fig
