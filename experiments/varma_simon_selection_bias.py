"""Study varma_simon_selection_bias: the winner's cross-validation error against nested CV.

Re-simulates Varma and Simon (2006), as "Cross-Validation" quotes it in Evidence and Impact (and
Pitfalls: 'Reporting the winner's cross-validation score'): gathers the shards of the step
varma_simon_datasets (per dataset the minimum cross-validation error of shrunken centroids
(10-fold) and of an SVM (leave-one-out), the nested estimate and the tuned classifier's true
error, on null data and on data with a class difference) and writes them, their means with the
standard errors the comparison uses, and the design. Its figure of the distributions, with the
paper's figures read from the registry, is drawn from these tables by its figure rule
(cvsuite.figures.varma_simon_selection_bias.draw).
"""

from cvsuite.studies.varma_simon_datasets import SimulationSettings
from cvsuite.studies.varma_simon_selection_bias import gather_shards, selection_bias_design, selection_bias_summary
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["varma_simon_selection_bias"]
    per_dataset = gather_shards(read_tables(job.input.per_dataset), list(params["scenarios"]))
    published = params["published_datasets"]
    summary = selection_bias_summary(per_dataset, params["low_error_percent"], published)
    return StudyResult(
        tables={
            "per_dataset": per_dataset,
            "summary": summary,
            "setup": selection_bias_design(SimulationSettings.from_config(params), published),
        },
    )


if __name__ == "__main__":
    run_job(main)
