"""Study temporal_holdout: random folds against a temporal holdout on daily sales.

"Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily sales. Writes
each simulated series' three error figures, their Monte Carlo summaries per AR coefficient and per
exclusion radius, one example series with both procedures' predictions, and the one-row verdict;
draws the example, the errors against phi and the errors against the exclusion radius.
"""

from cvsuite.figures import style
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.studies.temporal_holdout import (
    errors_by_ar_coefficient,
    errors_by_exclusion_radius,
    example_series,
    simulate_errors,
    temporal_holdout_verdict,
)


def main(params: dict, out) -> None:
    series = dict(n_days=params["days"], horizon_days=params["horizon_days"], level=params["level"],
                  trend_per_day=params["trend_per_day"], weekday_effects=params["weekday_effects"],
                  innovation_sd=params["innovation_sd"])
    errors = simulate_errors(**series, ar_coefficients=params["ar_coefficients"], main_ar_coefficient=params["ar_coefficient"],
                             n_folds=params["folds"], neighbours=params["neighbours"], cut_fractions=params["cut_fractions"],
                             exclusion_radii=params["exclusion_radii"], n_series=params["series"], first_seed=params["first_seed"])
    by_phi = errors_by_ar_coefficient(errors, params["innovation_sd"], params["horizon_days"])
    by_radius = errors_by_exclusion_radius(errors)
    verdict = temporal_holdout_verdict(by_phi, by_radius, params["ar_coefficient"], params["decision_standard_errors"],
                                       params["most_of_gap_percent"], params["folds"], params["horizon_days"])
    example = example_series(**series, ar_coefficient=params["ar_coefficient"], n_folds=params["folds"],
                             neighbours=params["neighbours"], cut_fractions=params["cut_fractions"], seed=params["first_seed"])
    write_table(errors, out.series_errors)
    write_table(by_phi, out.by_ar_coefficient)
    write_table(by_radius, out.by_exclusion_radius)
    write_table(example, out.example_series)
    write_table(verdict, out.verdict)
    write_provenance(out.provenance, "temporal_holdout", params)
    draw(example, by_phi, by_radius, verdict.iloc[0], params, [out.figure, out.figure_svg])
    print(verdict.iloc[0]["verdict"])


def draw(example, by_phi, by_radius, verdict, params, paths) -> None:
    """An example stretch of sales, the three errors against phi, and random folds against the radius."""
    import matplotlib.pyplot as plt

    style.apply_style()
    z = params["decision_standard_errors"]
    fig, (ex_ax, phi_ax, rad_ax) = plt.subplots(1, 3, figsize=(16, 4.8), layout="constrained")

    cut = int(example["last_cut_day"].iloc[0])
    stretch = example[(example["day"] >= cut - 35) & (example["day"] < cut + params["horizon_days"])]
    ex_ax.plot(stretch["day"], stretch["sales"], "-", color="black", linewidth=1, label="sales")
    ex_ax.plot(stretch["day"], stretch["random_fold_prediction"], "o", color=style.TRAIN, markersize=3,
               label="random folds: prediction when held out")
    ex_ax.plot(stretch["day"], stretch["temporal_holdout_prediction"], "-", color=style.EXPECTED,
               label=f"temporal holdout: fitted before day {cut}")
    ex_ax.axvline(cut, color=style.REFERENCE, linestyle=":", linewidth=1)
    ex_ax.set(xlabel="day", ylabel="sales (units per day)",
              title=f"Series 1, φ = {params['ar_coefficient']}: random folds fill gaps;\nthe holdout forecasts from day {cut} on")
    ex_ax.legend(fontsize=8, loc="lower left")

    phi = by_phi["ar_coefficient"]
    for name, colour, label in (("random_folds", style.TRAIN, f"random {params['folds']}-fold CV"),
                                ("temporal_holdout", style.EXPECTED, f"temporal holdout ({len(params['cut_fractions'])} cuts)"),
                                ("next_period", "black", f"truly next {params['horizon_days']} days")):
        phi_ax.errorbar(phi, by_phi[f"{name}_mse"], yerr=z * by_phi[f"{name}_mse_se"], fmt="o-", capsize=3,
                        color=colour, label=label)
    phi_ax.plot(phi, by_phi["forecast_floor_mse"], "--", color=style.REFERENCE, label="least error any forecast can reach")
    at_zero = ("no gap at φ = 0" if verdict["no_gap_with_independent_noise"]
               else f"a gap of {verdict['gap_independent_noise_mse']:.1f} at φ = 0")
    phi_ax.set(xlabel="AR(1) coefficient φ of the noise", ylabel="mean squared error (units²)",
               title=f"{at_zero.capitalize()}; at φ = {params['ar_coefficient']}\nrandom folds are "
                     f"{verdict['random_below_temporal_percent']:.0f}% lower than the holdout")
    phi_ax.legend(fontsize=8)

    radii = by_radius[by_radius["ar_coefficient"] == params["ar_coefficient"]]
    rad_ax.errorbar(radii["exclusion_radius_days"], radii["random_folds_mse"], yerr=z * radii["random_folds_mse_se"],
                    fmt="o-", capsize=3, color=style.TRAIN, label="random folds, nearby days withheld")
    for value, se, colour, label in ((verdict["temporal_holdout_mse"], verdict["temporal_holdout_mse_se"], style.EXPECTED, "temporal holdout"),
                                     (verdict["next_period_mse"], verdict["next_period_mse_se"], "black", "truly next period")):
        rad_ax.axhline(value, color=colour, linestyle="--", linewidth=1, label=f"{label} ({value:.1f} ± {se:.1f})")
    rad_ax.set(xlabel="days withheld each side of a held-out day", ylabel="mean squared error (units²)",
               title=f"φ = {params['ar_coefficient']}: withholding {int(verdict['widest_exclusion_radius_days'])} days each side\n"
                     f"closes {verdict['gap_closed_widest_radius_percent']:.0f}% of the gap")
    rad_ax.set_xticks(radii["exclusion_radius_days"])
    rad_ax.legend(fontsize=8, loc="lower right")

    why = ("because they learn each held-out day from its neighbours" if verdict["random_folds_learn_from_neighbouring_days"]
           else "and the neighbouring days do not explain it")
    fig.suptitle(f"Random folds report {verdict['random_below_temporal_percent']:.0f}% less error than a temporal holdout "
                 f"{why} ({int(verdict['series'])} series; bars ±{z:g} MC SE)")
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.output)  # noqa: F821
