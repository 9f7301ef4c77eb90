"""Study degree_sweep: page 802's least-squares sweep, quoted by "Regularization and Cross-Validation".

Writes training and expected risk, their ratio and ||theta|| for each degree, and the summary the
document quotes (862 at degree 15; 11.83 at the best degree; 81,050 at degree 15).
"""

import numpy as np

from cvsuite import figure_style as style
from cvsuite.degree_sweep import degree_sweep, degree_sweep_summary
from cvsuite.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.sine_data import sine_sample


def main(data: dict, params: dict, out) -> None:
    x, y = sine_sample(data["train_size"], data["train_seed"], data["noise"], data["half_width"])
    x_test, y_test = sine_sample(data["test_size"], data["test_seed"], data["noise"], data["half_width"])
    degrees = np.arange(params["min_degree"], params["max_degree"] + 1)
    sweep = degree_sweep(x, y, x_test, y_test, degrees, data["half_width"])
    summary = degree_sweep_summary(sweep)
    write_table(sweep, out.sweep)
    write_table(summary, out.summary)
    write_provenance(out.provenance, "degree_sweep", {"sine_data": data, "degree_sweep": params})
    draw_sweep(sweep, summary.iloc[0], len(y), [out.figure, out.figure_svg])


def draw_sweep(sweep, summary, n_train, paths) -> None:
    """Both risks and ||theta|| against degree, on log scales."""
    import matplotlib.pyplot as plt

    style.apply_style()
    fig, (risk_ax, norm_ax) = plt.subplots(1, 2, figsize=(10, 4))
    risk_ax.plot(sweep["degree"], sweep["train_risk"], "o-", color=style.TRAIN, label="training risk")
    risk_ax.plot(sweep["degree"], sweep["expected_risk"], "o-", color=style.EXPECTED, label="expected risk (4,000 test points)")
    risk_ax.axvline(summary["best_degree"], color=style.REFERENCE, linewidth=0.8, label=f"best degree {int(summary['best_degree'])}")
    risk_ax.set(yscale="log", xlabel="polynomial degree", ylabel="mean squared error (log scale)",
                title="Training risk falls; expected risk turns and climbs")
    risk_ax.legend()
    norm_ax.plot(sweep["degree"], sweep["theta_norm"], "o-", color="black")
    norm_ax.set(yscale="log", xlabel="polynomial degree", ylabel="||θ|| (log scale)",
                title=f"||θ|| from {summary['best_theta_norm']:.2f} (best degree) to {summary['max_degree_theta_norm']:,.0f}")
    fig.suptitle(f"Least squares on {n_train} points: at degree {int(summary['max_degree'])} the expected risk is "
                 f"{summary['max_degree_expected_over_train']:.0f} times the training risk")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.data, snakemake.params.study, snakemake.output)  # noqa: F821
