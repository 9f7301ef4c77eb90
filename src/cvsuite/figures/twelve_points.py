"""The figures of study twelve_points: "Estimating Out-of-Sample Error", worked example, on the recovered table."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from cvsuite.figures import style
from cvsuite.figures.figure_inputs import FigureInputs
from cvsuite.methods.fold_statistics import MODELS, Design, least_squares_coefficients, predict
from cvsuite.published.published_values import published_value

# Registry rows drawn as published references in the figures.
PUBLISHED_FOLD = {4: "oos.twelve.polynomial-fold-4", 3: "oos.twelve.polynomial-fold-3"}
PUBLISHED_CV_DIFFERENCE = "oos.twelve.cv-difference-cost"


def _curve(x_fit, y_fit, degree, x_design, grid):
    return predict(least_squares_coefficients(x_fit, y_fit, degree, x_design), grid, x_design)


def _model_name(degree: int) -> str:
    return "straight line" if degree == 1 else f"degree-{degree} polynomial"


def data_and_fits(fits: pd.DataFrame, summary: pd.DataFrame, design: Design, slope: float) -> Figure:
    """Step 1: the data with both fits on all twelve, as y and as y - slope x."""
    fig, (raw_ax, dev_ax) = style.subplots(1, 2, figsize=(10.5, 5))
    grid = np.linspace(design.x.min(), design.x.max(), 400)
    x, y = fits["x"].to_numpy(), fits["y"].to_numpy()
    curves = {model: _curve(x, y, degree, design.x, grid) for model, degree in zip(MODELS, design.degrees)}
    colours = {"line": style.TRAIN, "polynomial": style.EXPECTED}
    for ax, shift in ((raw_ax, 0.0), (dev_ax, 1.0)):
        ax.plot(x, y - shift * slope * x, "o", color="black", label="observations (recovered, not given)")
        for (model, degree), row in zip(zip(MODELS, design.degrees), summary.itertuples()):
            ax.plot(
                grid,
                curves[model] - shift * slope * grid,
                color=colours[model],
                label=f"{_model_name(degree)}: training error {row.training_error:.4f}",
            )
        ax.set_xticks(design.x)
        style.integer_axis(ax, "x")
        ax.set_xlabel("x")
    raw_ax.set(ylabel="y", title="The data and both least-squares fits")
    dev_ax.set(ylabel=f"y − {slope:g}x", title=f"The same, less {slope:g}x")
    style.reference_line(dev_ax, 0, f"y = {slope:g}x exactly", linestyle="-", linewidth=0.8)
    style.figure_legend(fig)
    gap = summary.loc[0, "training_error"] - summary.loc[1, "training_error"]
    fig.suptitle(
        "On all twelve points the fits are indistinguishable:\n"
        f"the polynomial's training error is lower by only {gap:.4f}"
    )
    return fig


def fold4_extrapolation(fits: pd.DataFrame, design: Design, edge_fold: int, slope: float) -> Figure:
    """The degree-5 fit trained without the edge fold, extrapolating to the largest x (as y - slope x)."""
    fig, ax = style.subplots(figsize=(9, 5.4))
    x, y = fits["x"].to_numpy(), fits["y"].to_numpy()
    held = fits["fold"].to_numpy() == edge_fold
    grid = np.linspace(design.x.min(), design.x.max(), 400)
    for degree, colour in zip(design.degrees, (style.TRAIN, style.EXPECTED)):
        curve = _curve(x[~held], y[~held], degree, design.x, grid)
        name = _model_name(degree)
        ax.plot(grid, curve - slope * grid, color=colour, label=f"{name} fitted without fold {edge_fold}")
    ax.plot(
        x[~held],
        y[~held] - slope * x[~held],
        "o",
        color="black",
        label=f"training observations (folds ≠ {edge_fold})",
    )
    ax.plot(x[held], y[held] - slope * x[held], "o", mfc="white", color="black", label=f"fold {edge_fold}, held out")
    last = int(np.argmax(x))
    pred = fits.loc[last, "polynomial_held_out_prediction"]
    miss_poly = pred - y[last]
    miss_line = fits.loc[last, "line_held_out_prediction"] - y[last]
    # Each model's miss at the largest x, an arrow from the observation to its prediction; the
    # line's a little to the left, so that the polynomial's long arrow does not hide it.
    for model, colour, at, miss in (
        ("line", style.TRAIN, x[last] - 0.12, miss_line),
        (f"degree-{design.degrees[1]} polynomial", style.EXPECTED, x[last], miss_poly),
    ):
        observed = y[last] - slope * x[last]
        ax.annotate(
            "",
            xy=(at, observed + miss),
            xytext=(at, observed),
            arrowprops={"arrowstyle": "->", "color": colour, "linewidth": 1.4, "shrinkA": 0, "shrinkB": 0},
        )
        # The arrow's legend entry (an annotation has none): an empty line in its colour with an arrowhead.
        ax.plot([], [], color=colour, marker="^", markersize=6, label=f"{model}'s miss at x = {x[last]:g}: {miss:+.2f}")
    style.reference_line(ax, 0, f"y = {slope:g}x exactly", linestyle="-", linewidth=0.8)
    ax.set_xticks(design.x)
    style.integer_axis(ax, "x")
    ax.set(xlabel="x", ylabel=f"y − {slope:g}x")
    style.figure_legend(fig)
    fig.suptitle(
        f"Without fold {edge_fold}, the degree-{design.degrees[1]} fit misses y at x = {x[last]:g} by {miss_poly:+.2f} "
        f"(the line by {miss_line:+.2f})"
    )
    return fig


def fold_errors(
    folds: pd.DataFrame, summary: pd.DataFrame, contrasts: pd.Series, published: dict[int, float]
) -> Figure:
    """Step 3: each fold's held-out error for both models side by side, the CVs, the published folds."""
    fig, ax = style.subplots(figsize=(8, 5.4))
    width = 0.38
    colours = {"line": style.TRAIN, "polynomial": style.EXPECTED}
    for offset, (model, sub) in zip((-width / 2, width / 2), folds.groupby("model", sort=False)):
        row = summary[summary["model"] == model].iloc[0]
        ax.bar(
            sub["fold"] + offset,
            sub["held_out_error"],
            width,
            color=colours[model],
            label=f"{model}: CV {row.cv_error:.4f}, fold s.d. {row.fold_sd:.4f}",
        )
        ax.hlines(row.cv_error, 0.5, len(sub) + 0.5, color=colours[model], linestyle=":", label=f"{model}: CV")
    # A document's number is teal dashed (style.LINES["published"]): a dashed segment across the
    # polynomial's bar, as the Varma-Simon figure marks its published estimates.
    printed = " and ".join(str(fold) for fold in sorted(published))
    several = "s" if len(published) > 1 else ""
    for fold, value in published.items():
        ax.plot(
            [fold + width / 2 - 0.6 * width, fold + width / 2 + 0.6 * width],
            [value, value],
            **{**style.LINES["published"], "linewidth": 2.2},
            label=f"published polynomial fold error\n(the document prints fold{several} {printed} only)",
        )
    ax.set_xticks(
        sorted(folds["fold"].unique()),
        [
            f"fold {f}\n({o})"
            for f, o in folds.drop_duplicates("fold")[["fold", "observations"]].itertuples(index=False)
        ],
    )
    ax.set(ylabel="held-out mean squared error", xlabel="fold (observations held out)")
    style.figure_legend(fig)
    fig.suptitle(
        f"The polynomial's error on fold {int(contrasts['fold_ratio_numerator_fold'])} is "
        f"{contrasts['polynomial_fold_ratio']:.2f} times its error on fold "
        f"{int(contrasts['fold_ratio_denominator_fold'])};\n"
        f"its CV is {contrasts['polynomial_cv_over_line_cv']:.2f} times the line's"
    )
    return fig


def cv_difference(
    histogram: pd.DataFrame,
    robustness: pd.DataFrame,
    contrasts: pd.Series,
    published: float,
    *,
    noise_sd: float,
    slope: float,
) -> Figure:
    """The CV difference (polynomial - line) over fresh data sets, the document's value marked."""
    fig, ax = style.subplots(figsize=(9, 5.2))
    main_bins = histogram[~histogram["overflow"]]
    overflow = histogram[histogram["overflow"]].iloc[0]
    ax.stairs(
        main_bins["count"],
        np.append(main_bins["bin_left"].to_numpy(), main_bins["bin_right"].iloc[-1]),
        fill=True,
        color="0.75",
        label="fresh data sets",
    )
    style.reference_line(ax, 0, "0: equal CVs", vertical=True, linestyle="-", linewidth=0.8)
    style.reference_line(ax, published, f"the document's difference {published:g}", kind="published", vertical=True)
    freq = robustness.set_index("conclusion")
    draws = int(freq.loc["polynomial_cv_above_line_cv", "draws"])
    ax.text(
        0.98,
        0.95,
        f"{int(overflow['count'])} draws above {overflow['bin_left']:.2f} "
        f"(up to {overflow['bin_right']:.1f}) not drawn",
        transform=ax.transAxes,
        ha="right",
        va="top",
    )
    ax.set(xlabel="CV difference, polynomial − line (mean squared error)", ylabel=f"data sets (of {draws:,})")
    style.integer_axis(ax, "y")
    style.figure_legend(fig)
    above = freq.loc["polynomial_cv_above_line_cv"]
    share = freq.loc["cv_difference_at_least_reference"]
    fig.suptitle(
        f"Fresh data y = {slope:g}x + noise (s.d. {noise_sd:.3f}): the polynomial's CV is the higher in "
        f"{above['frequency_percent']:.1f}% of data sets,\nand {share['frequency_percent']:.0f}% show a larger "
        f"difference than the example's {contrasts['cv_difference']:.4f}"
    )
    return fig


def draw(inputs: FigureInputs) -> dict[str, Figure]:
    """The study's figures, from its saved tables, its design (config) and the registry's printed
    values they mark (its figure rule, ``cvsuite.workflow.figure_job``)."""
    data, params, tables = inputs.config["twelve_observations"], inputs.config["twelve_points"], inputs.tables
    design = Design.of(data["observations"], data["line_degree"], data["polynomial_degree"], data["folds"])
    slope, edge = data["slope"], params["edge_fold"]
    fits, summary, robustness = tables["fits"], tables["summary"], tables["robustness"]
    contrasts = tables["contrasts"].iloc[0]
    published_folds = {fold: published_value(inputs.published, row) for fold, row in PUBLISHED_FOLD.items()}
    return {
        "data_and_fits": data_and_fits(fits, summary, design, slope),
        "fold4_extrapolation": fold4_extrapolation(fits, design, edge, slope),
        "fold_errors": fold_errors(tables["folds"], summary, contrasts, published_folds),
        "cv_difference": cv_difference(
            tables["cv_difference_histogram"],
            robustness,
            contrasts,
            published_value(inputs.published, PUBLISHED_CV_DIFFERENCE),
            noise_sd=robustness["noise_sd"].iloc[0],
            slope=slope,
        ),
    }
