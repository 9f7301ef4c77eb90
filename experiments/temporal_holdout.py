"""Study temporal_holdout: random folds against a temporal holdout on daily sales.

"Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily sales. Writes
each simulated series' three error figures, their Monte Carlo summaries per AR coefficient and per
exclusion radius, one example series with both procedures' predictions, and the one-row verdict;
draws the example, the errors against phi and the errors against the exclusion radius.
"""

from cvsuite.data.daily_sales import SalesProcess
from cvsuite.figures import temporal_holdout as figures
from cvsuite.studies.temporal_holdout import (
    HoldoutDesign,
    errors_by_ar_coefficient,
    errors_by_exclusion_radius,
    example_series,
    simulate_errors,
    temporal_holdout_verdict,
)
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["temporal_holdout"]
    process = SalesProcess(
        level=params["level"],
        trend_per_day=params["trend_per_day"],
        weekday_effects=params["weekday_effects"],
        innovation_sd=params["innovation_sd"],
    )
    design = HoldoutDesign(
        n_days=params["days"],
        horizon_days=params["horizon_days"],
        n_folds=params["folds"],
        neighbours=params["neighbours"],
        cut_fractions=tuple(params["cut_fractions"]),
    )
    errors = simulate_errors(
        process,
        design,
        ar_coefficients=params["ar_coefficients"],
        main_ar_coefficient=params["ar_coefficient"],
        exclusion_radii=params["exclusion_radii"],
        n_series=params["series"],
        first_seed=params["first_seed"],
    )
    by_phi = errors_by_ar_coefficient(errors, params["innovation_sd"], params["horizon_days"])
    by_radius = errors_by_exclusion_radius(errors)
    verdict = temporal_holdout_verdict(
        by_phi,
        by_radius,
        main_ar_coefficient=params["ar_coefficient"],
        decision_standard_errors=params["decision_standard_errors"],
        most_of_gap_percent=params["most_of_gap_percent"],
        n_folds=params["folds"],
        horizon_days=params["horizon_days"],
    )
    example = example_series(process, design, ar_coefficient=params["ar_coefficient"], seed=params["first_seed"])
    figure = figures.random_folds_against_temporal_holdout(
        example,
        by_phi,
        by_radius,
        verdict.iloc[0],
        n_cuts=len(params["cut_fractions"]),
        decision_standard_errors=params["decision_standard_errors"],
    )
    return StudyResult(
        tables={
            "series_errors": errors,
            "by_ar_coefficient": by_phi,
            "by_exclusion_radius": by_radius,
            "example_series": example,
            "verdict": verdict,
        },
        figures={"random_folds_against_temporal_holdout": figure},
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
