"""Study knn_estimators: Part 1 of the shape-image study ("Cross-Validation", section Example).

Gathers the shards' estimates; writes the true-accuracy range, the estimator table (mean and s.d.
of estimate - true), the repartition spread of the chosen dataset, the prose's comparisons, and
the scikit-learn cross-check; draws the shapes, the error distributions and the repartition spread.
"""

import numpy as np

from cvsuite.data.shape_images import draw_shape_images
from cvsuite.figures import knn_estimators as figures
from cvsuite.studies.knn_estimators import (
    crosscheck_table,
    estimator_summary,
    repartition_summary,
    spread_findings,
    true_accuracy_range,
)
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, kfold_name
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    blocks, p1 = job.config, job.config["knn_estimators"]
    settings = ShapeStudySettings.from_config(blocks["shape_images"], p1, blocks["nested_optimism"])
    names, redrawn = settings.estimator_names(), kfold_name(p1["repartition_folds"])
    estimates, repartitions = read_tables(job.input.estimates), read_tables(job.input.repartitions)
    summary = estimator_summary(estimates, names)
    repeated = repartition_summary(repartitions, [names[0], redrawn])

    images = blocks["shape_images"]["images"]
    crosscheck = crosscheck_table(
        settings.design,
        images["per_class"],
        sigma=p1["sigma"],
        k=p1["k"],
        n_folds=p1["crosscheck_folds"],
        seed=p1["crosscheck_seed"],
    )
    # The shapes figure shows the first dataset of the study as it was drawn.
    first = blocks["shape_images"]["first_seed"]
    sample, sample_labels = draw_shape_images(images["per_class"], np.random.default_rng(first), settings.design)

    return StudyResult(
        tables={
            "per_dataset": estimates,
            "true_accuracy": true_accuracy_range(estimates),
            "summary": summary,
            "repartitions": repartitions,
            "repartition_summary": repeated,
            "findings": spread_findings(summary, repeated, names[0], redrawn),
            "sklearn_crosscheck": crosscheck,
        },
        figures={
            "shapes": figures.shapes(settings.design.masks(), sample, sample_labels, first),
            "estimator_errors": figures.estimator_errors(estimates, summary, names, p1["sigma"], p1["k"]),
            "repartition_spread": figures.repartition_spread(
                repartitions, estimates, p1["repartition_seed"], p1["repartitions"]
            ),
        },
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
