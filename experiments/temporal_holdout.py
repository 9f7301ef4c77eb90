"""Study temporal_holdout: random folds against a temporal holdout on daily sales.

"Estimating Out-of-Sample Error", Random folds against a temporal holdout, on daily sales. Writes
each simulated series' three error figures, their Monte Carlo summaries per AR coefficient and per
exclusion radius and with each held-out day's future withheld, one example series with both
procedures' predictions, and the one-row contrast at the main AR coefficient. Its figure (the
example, the errors against phi and the errors against the exclusion radius) is drawn from these
tables by its figure rule (cvsuite.figures.temporal_holdout.draw).
"""

from cvsuite.data.daily_sales import SalesProcess
from cvsuite.studies import temporal_holdout as study
from cvsuite.studies.temporal_holdout_contrast import temporal_holdout_contrast
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    p = job.config["temporal_holdout"]
    process = SalesProcess(p["level"], p["trend_per_day"], p["weekday_effects"], p["innovation_sd"])
    design = study.HoldoutDesign(p["days"], p["horizon_days"], p["folds"], p["neighbours"], p["cut_fractions"])
    # The main coefficient is simulated even when the sweep leaves it out: the contrast is read there.
    phis = [*p["ar_coefficients"], p["ar_coefficient"]]
    # Random folds are also run denied each held-out day's future, as far as the widest radius reaches.
    errors = study.simulate_errors(
        process,
        design,
        phis,
        p["exclusion_radii"],
        n_series=p["series"],
        first_seed=p["first_seed"],
        future_withheld_days=max(p["exclusion_radii"]),
    )
    by_phi = study.errors_by_ar_coefficient(errors, p["innovation_sd"], p["horizon_days"])
    by_radius = study.errors_by_exclusion_radius(errors)
    future_withheld = study.errors_with_future_withheld(errors)
    days = range(p["days"])
    splits = study.temporal_splits(
        days, study.cut_days_from_fractions(p["days"], p["cut_fractions"], p["horizon_days"]), p["horizon_days"]
    )
    contrast = temporal_holdout_contrast(
        by_phi,
        by_radius,
        design,
        p["ar_coefficient"],
        future_withheld=future_withheld,
        scored_days_before_a_fitted_day=study.scored_days_before_a_fitted_day(days, splits),
        bias_shares=study.bias_shares(errors, p["ar_coefficient"]),
    )
    example = study.example_series(process, design, p["ar_coefficient"], p["first_seed"])
    return StudyResult(
        tables={
            "series_errors": errors,
            "by_ar_coefficient": by_phi,
            "by_exclusion_radius": by_radius,
            "future_withheld": future_withheld,
            "example_series": example,
            "contrast": contrast,
        }
    )


if __name__ == "__main__":
    run_job(main)
