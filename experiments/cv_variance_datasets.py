"""Step cv_variance_datasets: one shard of the cv_variance study, per dataset and K the held-out error sums."""

import pandas as pd

from cvsuite.data.shape_images import ShapeImageDesign
from cvsuite.studies.cv_variance import dataset_error_rows
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params, images = job.config["cv_variance"], job.config["shape_images"]["images"]
    design = ShapeImageDesign.from_config(images)
    start, stop = int(job.wildcards.start), int(job.wildcards.stop)
    moments = pd.DataFrame(
        [
            row
            for seed in range(start, stop)
            for row in dataset_error_rows(
                seed, design, images["per_class"], sigma=params["sigma"], k=params["k"], fold_counts=params["folds"]
            )
        ]
    )
    return StudyResult(tables={"moments": moments}, provenance={"seeds": [start, stop - 1]})


if __name__ == "__main__":
    run_job(main)
