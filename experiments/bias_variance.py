"""Study bias_variance: the decomposition's sentences of "Estimating Out-of-Sample Error", measured.

Fits least-squares polynomials of growing degree to many samples of each size drawn from the
curved regression of "Regularization and Cross-Validation"; writes squared bias, variance, their sum
with the noise and the expected training error per size and degree, the best degree per size, and
the sentences as claims. Its figure (the decomposition against degree) is drawn from the first two
tables by its figure rule (cvsuite.figures.bias_variance.draw).
"""

from cvsuite.studies.bias_variance import BiasVarianceSettings, bias_variance_claims, decomposition, optima
from cvsuite.studies.document_claims import claims_table
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    settings = BiasVarianceSettings.from_config(job.config["bias_variance"], job.config["sine_data"])
    table = decomposition(settings)
    best = optima(table)
    return StudyResult(
        tables={"decomposition": table, "optima": best, "claims": claims_table(bias_variance_claims(table, best))}
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
