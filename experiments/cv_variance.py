"""Study cv_variance: how variable a cross-validation estimate is, and what its standard error misses.

"Cross-Validation", The choice of K and the variance of the estimate (Kohavi's binomial
idealisation; Bengio and Grandvalet's sigma^2, omega, gamma); "Regularization and
Cross-Validation", The standard error. Gathers the shards; writes the decomposition per K and the
variances of each pair of K differenced dataset by dataset: statistics only, which the registry's
records judge. Its figure (Var[CV] with its parts, and the naive standard error against the true
spread) is drawn from these tables by its figure rule (cvsuite.figures.cv_variance.draw).
"""

from cvsuite.studies.cv_variance import variance_decomposition, variance_differences
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    moments = read_tables(job.input.moments)
    return StudyResult(
        tables={"decomposition": variance_decomposition(moments), "differences": variance_differences(moments)},
    )


if __name__ == "__main__":
    run_job(main)
