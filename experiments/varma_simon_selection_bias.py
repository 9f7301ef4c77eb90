"""Study varma_simon_selection_bias: the winner's cross-validation error against nested CV.

Re-simulates Varma and Simon (2006), as "Cross-Validation" quotes it in Evidence and Impact (and
Pitfalls: 'Reporting the winner's cross-validation score'): gathers the shards of the step
varma_simon_datasets (per dataset the minimum cross-validation error of shrunken centroids
(10-fold) and of an SVM (leave-one-out), the nested estimate and the tuned classifier's true
error, on null data and on data with a class difference) and writes them, their means with the
standard errors the comparison uses, the design, and one figure of the distributions.
"""

from cvsuite.figures import varma_simon_selection_bias as figures
from cvsuite.published.published_values import read_published_values
from cvsuite.published.registry import published_value
from cvsuite.studies.varma_simon_datasets import SimulationSettings
from cvsuite.studies.varma_simon_selection_bias import gather_shards, selection_bias_design, selection_bias_summary
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job

# The paper's figures drawn as references, by registry row: a published number lives in the registry only.
PAPER_ROWS = {
    ("no_difference", "shrunken_centroids"): {
        "min_cv": "vs2006.table1.sc-min-cv",
        "nested_cv": "vs2006.nested.sc-null",
        "true_error": "vs2006.design.null-true-error",
    },
    ("no_difference", "svm"): {"min_cv": "vs2006.table1.svm-min-cv", "true_error": "vs2006.design.null-true-error"},
    ("class_difference", "svm"): {
        "nested_cv": "vs2006.nested.svm-signal",
        "true_error": "vs2006.nested.svm-signal-true",
    },
}


def main(job: Job) -> StudyResult:
    params = job.config["varma_simon_selection_bias"]
    per_dataset = gather_shards(read_tables(job.input.per_dataset), list(params["scenarios"]))
    published = params["published_datasets"]
    summary = selection_bias_summary(per_dataset, params["low_error_percent"], published)
    claims = read_published_values(job.input.published)
    paper_percent = {scenario: {} for scenario, _ in PAPER_ROWS}
    for (scenario, classifier), rows in PAPER_ROWS.items():
        paper_percent[scenario][classifier] = {key: published_value(claims, claim_id) for key, claim_id in rows.items()}
    return StudyResult(
        tables={
            "per_dataset": per_dataset,
            "summary": summary,
            "setup": selection_bias_design(SimulationSettings.from_config(params), published),
        },
        figures={"min_cv_and_nested": figures.min_cv_and_nested(per_dataset, summary, paper_percent)},
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
