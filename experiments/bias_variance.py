"""Study bias_variance: the decomposition's sentences of "Estimating Out-of-Sample Error", measured.

Fits least-squares polynomials of growing degree to many samples of each size drawn from the curved
regression of "Regularization and Cross-Validation"; writes squared bias, variance, their sum with
the noise and the expected training error per size and degree, the best degree per size, and what
the sentences compare, sample by sample on the same fits: the most flexible fit against the most
rigid, each degree's variance at the next size and at the next degree, the ends of the degree range
against the best interior degree, the neighbouring sizes' optima against each other, the training
error's steps and each degree's squared bias across sizes; and each fit's expected error measured
directly under squared and 0-1 loss against the three terms (decomposition_by_loss), with the ends
of the degree range against the best interior degree under 0-1 loss
(zero_one_ends_against_interior). Its figure (the decomposition against degree) is drawn from the
first two tables by its figure rule (cvsuite.figures.bias_variance.draw)."""

from cvsuite.studies.bias_variance import (
    BiasVarianceSettings,
    bias_across_n,
    decomposition,
    ends_against_interior,
    fit_samples,
    flexibility_steps,
    more_data,
    optima,
    optimum_shift,
    optimum_shift_held_out,
    rigid_and_flexible,
    training_error_steps,
)
from cvsuite.studies.decomposition_by_loss import decomposition_by_loss, zero_one_ends_against_interior
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    draws, fresh_seed = job.config["bias_variance"]["fresh_draws"], job.config["bias_variance"]["fresh_seed"]
    settings = BiasVarianceSettings.from_config(job.config["bias_variance"], job.config["sine_data"])
    fits = fit_samples(settings)
    table = decomposition(settings, fits)
    best = optima(table)
    return StudyResult(
        tables={
            "decomposition": table,
            "optima": best,
            "rigid_and_flexible": rigid_and_flexible(fits),
            "more_data": more_data(fits),
            "flexibility_steps": flexibility_steps(fits),
            "ends_against_interior": ends_against_interior(fits),
            "optimum_shift": optimum_shift(fits, best),
            "optimum_shift_held_out": optimum_shift_held_out(fits),
            "training_error_steps": training_error_steps(fits),
            "bias_across_n": bias_across_n(table),
            "decomposition_by_loss": decomposition_by_loss(fits, draws, fresh_seed),
            "zero_one_ends_against_interior": zero_one_ends_against_interior(fits, draws, fresh_seed),
        }
    )


if __name__ == "__main__":
    run_job(main)
