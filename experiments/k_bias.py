"""Study k_bias: the bias of K-fold cross-validation, "Regularization and Cross-Validation" §8.2.4.

Writes the K table (truth, CV estimate, bias, standard error, spread over shuffles, training
sizes), the standard-error range, and the K = 5 partition of Figure 8.4; draws the document's
second figure and the partition grid.
"""

from cvsuite.data.sine import train_and_test
from cvsuite.figures import k_bias as figures
from cvsuite.studies.k_bias import k_bias_table, partition_grid, std_error_range
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["sine_data"], job.config["k_bias"]
    x, y, x_test, y_test = train_and_test(**data)
    table = k_bias_table(
        x,
        y,
        x_test,
        y_test,
        degree=params["degree"],
        half_width=data["half_width"],
        fold_counts=params["folds"],
        shuffles=params["shuffles"],
        first_seed=params["first_seed"],
    )
    grid = partition_grid(len(y), params["partition_grid_folds"], params["first_seed"])
    return StudyResult(
        tables={
            "k_bias": table,
            "std_error_range": std_error_range(table, params["std_error_min_folds"]),
            "partition_grid": grid,
        },
        figures={
            "cv_estimate_against_k": figures.cv_estimate_against_k(table, params["shuffles"]),
            "partition_grid": figures.partition_grid(grid, params["partition_grid_folds"]),
        },
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
