"""Study k_bias: the bias of K-fold cross-validation, "Regularization and Cross-Validation" §8.2.4.

Writes the K table (truth, CV estimate, bias, standard error, spread over shuffles, training
sizes), the standard-error range, and the K = 5 partition of Figure 8.4; draws the document's
second figure and the partition grid with the document's table of K beside it.
"""

from cvsuite.data.sine import train_and_test
from cvsuite.figures import k_bias as figures
from cvsuite.studies.k_bias import KBiasSettings, k_bias_table, partition_grid, std_error_range
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["sine_data"], job.config["k_bias"]
    table = k_bias_table(train_and_test(**data), KBiasSettings.from_block(params))
    grid = partition_grid(data["train_size"], params["partition_grid_folds"], params["first_seed"])
    se_range = std_error_range(table, params["std_error_min_folds"])
    return StudyResult(
        tables={"k_bias": table, "std_error_range": se_range, "partition_grid": grid},
        figures={
            "cv_estimate_against_k": figures.cv_estimate_against_k(table, params["shuffles"]),
            "partition_grid": figures.partition_grid(grid, params["partition_grid_folds"], table),
        },
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
