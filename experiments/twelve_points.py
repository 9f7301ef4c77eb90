"""Study twelve_points: the line against the degree-5 polynomial on twelve observations.

"Estimating Out-of-Sample Error", the worked example after "Checks", run on the table that
recover_twelve_points recovered from the document's printed statistics (the document's own table
did not survive), under the conventions that recovery settled. Writes the fits on all twelve
points, the fold table of both models, their summaries (training error, CV, fold s.d., standard
error), the ratios and differences, the document's verbal claims checked on the table, and how often
the document's conclusions hold on fresh data y = 2x + noise; draws the data with both fits, the
degree-5 fit trained without fold 4, the per-fold errors, and the CV difference over fresh data.
"""

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from cvsuite.figures import style
from cvsuite.studies import twelve_points as tp
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.printed_numbers import parse_printed
from cvsuite.published.registry import read_registry

# Registry rows drawn as published references in the figures.
PUBLISHED_FOLD = {4: "oos.twelve.polynomial-fold-4", 3: "oos.twelve.polynomial-fold-3"}
PUBLISHED_CV_DIFFERENCE = "oos.twelve.cv-difference-cost"


def main(data: dict, params: dict, inputs, out) -> None:
    # One BLAS thread: with more, the last bits of the small matrix products vary from run to run,
    # and the search's local solves carry such differences into the 1e-10 digits of what they find.
    # One thread makes reruns byte-identical (and is no slower at these sizes).
    with threadpool_limits(limits=1):
        study(data, params, inputs, out)


def study(data: dict, params: dict, inputs, out) -> None:
    design = tp.Design.of(data["observations"], data["line_degree"], data["polynomial_degree"], data["folds"])
    slope = data["slope"]
    recovered = pd.read_csv(inputs.table)
    if not np.array_equal(recovered["x"].to_numpy(dtype=float), design.x):
        raise RuntimeError(f"{inputs.table}: x is not 1..{design.n}; the recovered table does not match twelve_observations")
    y = recovered["y"].to_numpy(dtype=float)
    convention = settled_convention(pd.read_csv(inputs.conventions))
    edge, other = params["edge_fold"], params["compared_fold"]

    fits = tp.fits_table(y, design)
    folds = tp.fold_table(y, design, convention)
    summary = tp.model_summary(y, design, convention)
    contrasts = tp.contrasts(y, design, convention, edge, other)
    claims = tp.document_claims(y, design, convention, edge, other, params["nearly"])
    for table in (fits, folds, summary, contrasts, claims):
        table["data"] = "recovered table (not given in the document)"

    noise_sd = tp.residual_sd(y, design.x)
    fresh = tp.fresh_data_statistics(design, convention, slope, noise_sd, params["draws"], params["seed"])
    robustness = tp.conclusion_frequencies(fresh, edge, reference_difference=contrasts.loc[0, "cv_difference"])
    robustness["noise_sd"] = noise_sd
    line, poly = tp.MODELS.index("line"), tp.MODELS.index("polynomial")
    difference = fresh["cv"][:, poly] - fresh["cv"][:, line]
    histogram = tp.histogram_table(difference, params["histogram_bins"], params["histogram_upper_quantile"])

    write_table(fits, out.fits)
    write_table(folds, out.folds)
    write_table(summary, out.summary)
    write_table(contrasts, out.contrasts)
    write_table(claims, out.claims)
    write_table(robustness, out.robustness)
    write_table(histogram, out.histogram)
    write_provenance(out.provenance, "twelve_points", {
        "twelve_observations": data, "twelve_points": params, "convention": convention.label,
        "data": f"{inputs.table}: recovered from the printed statistics by recover_twelve_points, not given in the document"})

    claims_registry = read_registry(inputs.registry)
    published = {key: published_value(claims_registry, row) for key, row in PUBLISHED_FOLD.items()}
    draw_fits(fits, summary, design, slope, [out.fits_figure, out.fits_figure_svg])
    draw_extrapolation(fits, design, edge, slope, [out.extrapolation_figure, out.extrapolation_figure_svg])
    draw_folds(folds, summary, contrasts.iloc[0], published, [out.folds_figure, out.folds_figure_svg])
    draw_difference(histogram, robustness, contrasts.iloc[0], published_value(claims_registry, PUBLISHED_CV_DIFFERENCE),
                    noise_sd, slope, [out.difference_figure, out.difference_figure_svg])


def settled_convention(screen: pd.DataFrame) -> tp.Convention:
    """The convention recover_twelve_points settled: the first consistent row of its screen."""
    consistent = screen[screen["verdict"] == "consistent"]
    if consistent.empty:
        raise RuntimeError("recover_twelve_points found no consistent convention; there is no table to study")
    row = consistent.iloc[0]
    return tp.Convention(row["fold_error"], row["cv"], int(row["fold_sd_ddof"]), row["training_error"])


def published_value(claims, claim_id: str) -> float:
    """A registry row's published figure as a number, for drawing it as a reference."""
    for claim in claims:
        if claim.id == claim_id:
            return parse_printed(claim.published).value
    raise KeyError(f"the registry has no row '{claim_id}' (a figure draws it as the published reference)")


def _curve(x_fit, y_fit, degree, x_design, grid):
    return tp.predict(tp.least_squares_coefficients(x_fit, y_fit, degree, x_design), grid, x_design)


def draw_fits(fits, summary, design, slope, paths) -> None:
    """Step 1: the data with both fits on all twelve, as y and as y - slope x."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (raw_ax, dev_ax) = plt.subplots(1, 2, figsize=(11, 4.2))
    grid = np.linspace(design.x.min(), design.x.max(), 400)
    x, y = fits["x"].to_numpy(), fits["y"].to_numpy()
    curves = {model: _curve(x, y, degree, design.x, grid) for model, degree in zip(tp.MODELS, design.degrees)}
    colours = {"line": style.TRAIN, "polynomial": style.EXPECTED}
    for ax, shift in ((raw_ax, 0.0), (dev_ax, 1.0)):
        ax.plot(x, y - shift * slope * x, "o", color="black", label="observations (recovered, not given)")
        for (model, degree), row in zip(zip(tp.MODELS, design.degrees), summary.itertuples()):
            ax.plot(grid, curves[model] - shift * slope * grid, color=colours[model],
                    label=f"{'straight line' if degree == 1 else f'degree-{degree} polynomial'}: training error {row.training_error:.4f}")
        ax.set_xticks(design.x)
        ax.set_xlabel("x")
    raw_ax.set(ylabel="y", title="The data and both least-squares fits")
    dev_ax.set(ylabel=f"y − {slope:g}x", title=f"The same, less {slope:g}x")
    dev_ax.axhline(0, color=style.REFERENCE, linewidth=0.8)
    raw_ax.legend(loc="upper left")
    gap = summary.loc[0, "training_error"] - summary.loc[1, "training_error"]
    fig.suptitle(f"On all twelve points the fits are indistinguishable: the polynomial's training error is lower by only {gap:.4f}")
    save_figure(fig, paths)


def draw_extrapolation(fits, design, edge_fold, slope, paths) -> None:
    """The degree-5 fit trained without the edge fold, extrapolating to the largest x (as y - slope x)."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(9, 4.4))
    x, y = fits["x"].to_numpy(), fits["y"].to_numpy()
    held = fits["fold"].to_numpy() == edge_fold
    grid = np.linspace(design.x.min(), design.x.max(), 400)
    for model, degree, colour in zip(tp.MODELS, design.degrees, (style.TRAIN, style.EXPECTED)):
        curve = _curve(x[~held], y[~held], degree, design.x, grid)
        name = "straight line" if degree == 1 else f"degree-{degree} polynomial"
        ax.plot(grid, curve - slope * grid, color=colour, label=f"{name} fitted without fold {edge_fold}")
    ax.plot(x[~held], y[~held] - slope * x[~held], "o", color="black", label="training observations (folds ≠ %d)" % edge_fold)
    ax.plot(x[held], y[held] - slope * x[held], "o", mfc="white", color="black", label=f"fold {edge_fold}, held out")
    last = int(np.argmax(x))
    pred = fits.loc[last, "polynomial_held_out_prediction"]
    ax.annotate("", xy=(x[last], pred - slope * x[last]), xytext=(x[last], y[last] - slope * x[last]),
                arrowprops={"arrowstyle": "->", "color": style.EXPECTED})
    ax.axhline(0, color=style.REFERENCE, linewidth=0.8)
    ax.set_xticks(design.x)
    ax.set(xlabel="x", ylabel=f"y − {slope:g}x")
    ax.legend(loc="upper left", fontsize=8)
    miss_poly = pred - y[last]
    miss_line = fits.loc[last, "line_held_out_prediction"] - y[last]
    fig.suptitle(f"Without fold {edge_fold}, the degree-{design.degrees[1]} fit misses y at x = {x[last]:g} by {miss_poly:+.2f} "
                 f"(the line by {miss_line:+.2f})")
    save_figure(fig, paths)


def draw_folds(folds, summary, contrasts, published, paths) -> None:
    """Step 3: each fold's held-out error for both models side by side, the CVs, the published folds."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(8, 4.4))
    width = 0.38
    colours = {"line": style.TRAIN, "polynomial": style.EXPECTED}
    for offset, (model, sub) in zip((-width / 2, width / 2), folds.groupby("model", sort=False)):
        row = summary[summary["model"] == model].iloc[0]
        ax.bar(sub["fold"] + offset, sub["held_out_error"], width, color=colours[model],
               label=f"{model}: CV {row.cv_error:.4f}, fold s.d. {row.fold_sd:.4f}")
        ax.hlines(row.cv_error, 0.5, len(sub) + 0.5, color=colours[model], linestyle=":", linewidth=1)
    for fold, value in published.items():
        ax.plot(fold + width / 2, value, "_", color=style.PUBLISHED, markersize=26, markeredgewidth=2.5,
                label="published polynomial fold error" if fold == max(published) else None)
    ax.set_xticks(sorted(folds["fold"].unique()),
                  [f"fold {f}\n({o})" for f, o in folds.drop_duplicates("fold")[["fold", "observations"]].itertuples(index=False)])
    ax.set(ylabel="held-out mean squared error", xlabel="fold (observations held out); dotted: CV, the mean over folds")
    ax.legend(loc="upper left", fontsize=8)
    fig.suptitle(f"The polynomial's error on fold {int(contrasts['fold_ratio_numerator_fold'])} is "
                 f"{contrasts['polynomial_fold_ratio']:.2f} times its error on fold {int(contrasts['fold_ratio_denominator_fold'])}; "
                 f"its CV is {contrasts['polynomial_cv_over_line_cv']:.2f} times the line's")
    save_figure(fig, paths)


def draw_difference(histogram, robustness, contrasts, published, noise_sd, slope, paths) -> None:
    """The CV difference (polynomial - line) over fresh data sets, the document's value marked."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(9, 4.2))
    main_bins = histogram[~histogram["overflow"]]
    overflow = histogram[histogram["overflow"]].iloc[0]
    ax.stairs(main_bins["count"], np.append(main_bins["bin_left"].to_numpy(), main_bins["bin_right"].iloc[-1]),
              fill=True, color="0.75", label="fresh data sets")
    ax.axvline(0, color=style.REFERENCE, linewidth=0.8)
    ax.axvline(published, color=style.PUBLISHED, linestyle="--", linewidth=1.5, label=f"the document's difference {published:g}")
    freq = robustness.set_index("conclusion")
    draws = int(freq.loc["polynomial_cv_above_line_cv", "draws"])
    ax.text(0.98, 0.95, f"{int(overflow['count'])} draws above {overflow['bin_left']:.2f} (up to {overflow['bin_right']:.1f}) not drawn",
            transform=ax.transAxes, ha="right", va="top", fontsize=8)
    ax.set(xlabel="CV difference, polynomial − line (mean squared error)", ylabel=f"data sets (of {draws:,})")
    ax.legend(loc="center right", fontsize=8)
    above = freq.loc["polynomial_cv_above_line_cv"]
    share = freq.loc["cv_difference_at_least_reference"]
    fig.suptitle(f"Fresh data y = {slope:g}x + noise (s.d. {noise_sd:.3f}): the polynomial's CV is the higher in "
                 f"{above['frequency_percent']:.1f}% of data sets,\nand {share['frequency_percent']:.0f}% show a larger "
                 f"difference than the example's {contrasts['cv_difference']:.4f}")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.data, snakemake.params.study, snakemake.input, snakemake.output)  # noqa: F821
