"""Study preprocessing_leak: scaling inside the fold loop against scaling, or selecting, before it.

"Estimating Out-of-Sample Error", Scaling inside the fold loop against scaling before it, and the
warning's "A related failure with the same shape". Writes each data set's CV estimate, true error
and optimism per pipeline, their Monte Carlo summaries per sample size, and the one-row verdict;
draws the estimates against the truth and the leak against the sample size.
"""

from cvsuite.data.gaussian_regression import RegressionDesign
from cvsuite.figures import preprocessing_leak as figures
from cvsuite.studies.preprocessing_leak import leak_summary, preprocessing_leak_verdict, simulate_leaks
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["preprocessing_leak"]
    design = RegressionDesign(
        n_predictors=params["predictors"],
        signal_predictors=params["signal_predictors"],
        signal_coefficient=params["signal_coefficient"],
        noise_sd=params["noise_sd"],
    )
    runs = simulate_leaks(
        params["sample_sizes"],
        design,
        n_selected=params["selected"],
        n_folds=params["folds"],
        ridge_penalty=params["ridge_penalty"],
        n_datasets=params["datasets"],
        first_seed=params["first_seed"],
    )
    summary = leak_summary(runs, params["noise_sd"])
    verdict = preprocessing_leak_verdict(
        summary,
        sample_size=params["sample_size"],
        n_predictors=params["predictors"],
        n_selected=params["selected"],
        pure_noise=design.pure_noise,
        decision_standard_errors=params["decision_standard_errors"],
    )
    figure = figures.leak_by_step(summary, verdict.iloc[0], decision_standard_errors=params["decision_standard_errors"])
    return StudyResult(tables={"runs": runs, "summary": summary, "verdict": verdict}, figures={"leak_by_step": figure})


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
