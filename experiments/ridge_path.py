"""Study ridge_path: the degree-12 ridge path of "Regularization and Cross-Validation", §8.2.3.

Writes the ten-lambda table, the 400-point log grid, the best lambda's exchange rate, and the
worked example's closed form beside a numerical ridge solve; draws the document's two panels.
"""

import numpy as np

from cvsuite import figure_style as style
from cvsuite.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.ridge import (
    best_lambda_summary,
    ridge_path,
    worked_example_exchange,
    worked_example_table,
    worked_example_theta,
)
from cvsuite.sine_data import polynomial_design, sine_sample


def main(data: dict, params: dict, out) -> None:
    x, y = sine_sample(data["train_size"], data["train_seed"], data["noise"], data["half_width"])
    x_test, y_test = sine_sample(data["test_size"], data["test_seed"], data["noise"], data["half_width"])
    train_design = polynomial_design(x, params["degree"], data["half_width"])
    test_design = polynomial_design(x_test, params["degree"], data["half_width"])

    table = ridge_path(train_design, y, test_design, y_test, np.array(params["lambdas"], dtype=float))
    table.insert(1, "degree", params["degree"])
    table.insert(2, "n_parameters", params["degree"] + 1)
    grid_lambdas = np.geomspace(params["grid_start"], params["grid_stop"], params["grid_points"])
    grid = ridge_path(train_design, y, test_design, y_test, grid_lambdas)
    unregularised = ridge_path(train_design, y, test_design, y_test, np.array([0.0])).iloc[0]
    summary = best_lambda_summary(unregularised, grid)

    we = params["worked_example"]
    worked = worked_example_table(np.array(we["x"], float), np.array(we["y"], float), [float(v) for v in we["lambdas"]])
    finite = worked["theta_numerical"].notna()
    gap = np.abs(worked.loc[finite, "theta"] - worked.loc[finite, "theta_numerical"]).max()
    if not gap < 1e-12:
        raise RuntimeError(f"worked example: the closed form and the numerical ridge solve differ by {gap}")
    # Step 4 reads the exchange rate between the table's first two rows (lambda = 0 and 1).
    exchange = worked_example_exchange(worked, float(we["lambdas"][0]), float(we["lambdas"][1]))

    write_table(table, out.lambda_table)
    write_table(grid, out.lambda_grid)
    write_table(summary, out.summary)
    write_table(worked, out.worked_example)
    write_table(exchange, out.worked_example_exchange)
    write_provenance(out.provenance, "ridge_path", {"sine_data": data, "ridge_path": params})
    draw_path(grid, summary.iloc[0], params["degree"], data["train_size"], [out.path_figure, out.path_figure_svg])
    draw_worked_example(worked, np.array(we["x"], float), np.array(we["y"], float), [out.worked_figure, out.worked_figure_svg])


def draw_path(grid, best, degree, n_train, paths) -> None:
    """The document's first figure: both risks, and ||theta||, against lambda on a log axis."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (risk_ax, norm_ax) = plt.subplots(1, 2, figsize=(10, 4))
    risk_ax.plot(grid["lambda"], grid["train_risk"], color=style.TRAIN, label="training risk")
    risk_ax.plot(grid["lambda"], grid["expected_risk"], color=style.EXPECTED, label="expected risk (4,000 test points)")
    risk_ax.axhline(best["unregularised_expected_risk"], color=style.REFERENCE, linestyle=":",
                    label=f"unregularised expected risk {best['unregularised_expected_risk']:.6f}")
    risk_ax.axvline(best["best_lambda"], color=style.REFERENCE, linewidth=0.8)
    risk_ax.set(xscale="log", yscale="log", xlabel="regularisation parameter λ (log scale)",
                ylabel="mean squared error (log scale)", title="Risks along the ridge path")
    risk_ax.legend(loc="lower right")
    norm_ax.plot(grid["lambda"], grid["theta_norm"], color="black")
    norm_ax.axvline(best["best_lambda"], color=style.REFERENCE, linewidth=0.8,
                    label=f"best λ = {best['best_lambda']:.3e}, ||θ|| = {best['best_theta_norm']:.4f}")
    norm_ax.set(xscale="log", yscale="log", xlabel="regularisation parameter λ (log scale)",
                ylabel="||θ|| (log scale)", title="Parameter norm along the ridge path")
    norm_ax.legend(loc="upper right")
    fig.suptitle(
        f"Degree {degree} on {n_train} points: at λ = {best['best_lambda']:.1e} the expected risk falls "
        f"{best['expected_risk_fall_percent']:.0f}% while the training risk rises {best['train_risk_rise_percent']:.0f}%"
    )
    save_figure(fig, paths)


def draw_worked_example(worked, x, y, paths) -> None:
    """The closed-form theta(lambda) against the numerical ridge solves of the worked example."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    lam = np.linspace(0, 5, 200)
    closed = [worked_example_theta(v, x, y) for v in lam]
    ax.plot(lam, closed, color="black", label="closed form θ(λ) = (x·y/N) / (x·x/N + λ)")
    solved = worked[worked["theta_numerical"].notna()]
    ax.plot(solved["lambda"], solved["theta_numerical"], "o", color=style.EXPECTED, label="numerical ridge solve")
    ax.set(xlabel="regularisation parameter λ", ylabel="coefficient θ",
           title=f"Worked example: θ(1) / θ(0) = {worked_example_theta(1.0, x, y) / worked_example_theta(0.0, x, y):.2f}")
    ax.legend()
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.data, snakemake.params.study, snakemake.output)  # noqa: F821
