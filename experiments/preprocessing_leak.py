"""Study preprocessing_leak: scaling inside the fold loop against scaling, or selecting, before it.

"Estimating Out-of-Sample Error", Scaling inside the fold loop against scaling before it, and the
warning's "A related failure with the same shape". Writes each data set's CV estimate, true error
and optimism per pipeline, their Monte Carlo summaries per sample size, and each step's leak at the
main sample size, and whether a held-out observation moves the fold's fit under each step done
before the split (held_out_influence), and a predictor recorded after the outcome (target_leak). Its
figure (the estimates against the truth, the leak against the sample size)
is drawn from the summary and the leaks by its figure rule (cvsuite.figures.preprocessing_leak.draw).
"""

import numpy as np

from cvsuite.data.gaussian_regression import RegressionDesign, regression_sample
from cvsuite.methods.folds import chunked_folds
from cvsuite.studies import preprocessing_leak as study
from cvsuite.studies import preprocessing_leak_flow as flow
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    p = job.config["preprocessing_leak"]
    design = RegressionDesign(p["predictors"], p["signal_predictors"], p["signal_coefficient"], p["noise_sd"])
    runs = study.simulate_leaks(
        p["sample_sizes"],
        design,
        p["selected"],
        p["ridge_penalty"],
        n_folds=p["folds"],
        n_datasets=p["datasets"],
        first_seed=p["first_seed"],
    )
    summary = study.leak_summary(runs, p["noise_sd"])
    leaks = study.leaks_at_sample_size(runs, summary, design, p["sample_size"], p["selected"]).assign(
        **study.noise_floor(runs, p["noise_sd"])
    )
    # One data set at the main sample size (the first's seed), for the data flow of each step.
    rng = np.random.default_rng(p["first_seed"])
    X, y, _ = regression_sample(p["sample_size"], design, rng)
    influence = flow.held_out_influence(
        X,
        y,
        chunked_folds(rng.permutation(p["sample_size"]), p["folds"]),
        n_selected=p["selected"],
        ridge_penalty=p["ridge_penalty"],
        missing_share=p["missing_share"],
        seed=p["first_seed"],
    )
    target_leak = flow.target_leak(
        design,
        p["sample_size"],
        p["selected"],
        p["ridge_penalty"],
        n_folds=p["folds"],
        leak_noise_sd=p["leak_noise_sd"],
        n_datasets=p["datasets"],
        first_seed=p["first_seed"],
    )
    tables = {"runs": runs, "summary": summary, "leaks": leaks, "held_out_influence": influence}
    return StudyResult(tables={**tables, "target_leak": target_leak})


if __name__ == "__main__":
    run_job(main)
