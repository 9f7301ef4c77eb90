"""Study k_bias: the bias of K-fold cross-validation, "Regularization and Cross-Validation" §8.2.4.

Writes the K table (truth, CV estimate, bias, standard error, spread over shuffles, training
sizes), the standard-error range, the K = 5 partition of Figure 8.4, and what the document's words
about the table rest on: the shuffles behind each mean, many more shuffles of the same sample, the
book's two sources of error, the same sample at neighbouring degrees and how the smallest K ranks
them, the full-data fit scored on validation sets of growing size, and the folds run as separate
tasks on worker processes against the serial computation. Its figures (the
document's second figure, the partition grid with the document's table of K beside it) are drawn
from these tables by its figure rule (cvsuite.figures.k_bias.draw).
"""

from cvsuite.data.sine import train_and_test
from cvsuite.studies.k_bias import (
    KBiasSettings,
    full_data_risk,
    k_bias_table,
    partition_grid,
    shuffle_runs,
    shuffle_summary,
    std_error_range,
)
from cvsuite.studies.k_bias_parallel import parallel_folds
from cvsuite.studies.k_bias_same_sample import (
    degree_ranking,
    error_sources,
    other_degrees,
    precision_table,
    validation_noise,
)
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["sine_data"], job.config["k_bias"]
    samples, settings = train_and_test(**data), KBiasSettings.from_block(params)
    runs = shuffle_runs(samples, settings)
    table = k_bias_table(samples, settings, runs)
    grid = partition_grid(data["train_size"], params["partition_grid_folds"], params["first_seed"])
    others = other_degrees(samples, settings)
    return StudyResult(
        tables={
            "k_bias": table,
            "std_error_range": std_error_range(table, params["std_error_min_folds"]),
            "partition_grid": grid,
            "shuffle_summary": shuffle_summary(runs, full_data_risk(samples, settings.degree), len(samples.y)),
            "precision": precision_table(samples, settings, params["precision_shuffles"]),
            "error_sources": error_sources(samples, settings),
            "other_degrees": others,
            "degree_ranking": degree_ranking(others),
            "parallel_folds": parallel_folds(samples, settings, params["parallel_workers"]),
            "validation_noise": validation_noise(
                samples,
                settings.degree,
                params["validation_sizes"],
                params["validation_draws"],
                params["validation_seed"],
            ),
        },
    )


if __name__ == "__main__":
    run_job(main)
