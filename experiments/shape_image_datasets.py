"""Step shape_image_datasets: one shard of the shape-image datasets ("Cross-Validation", section Example).

Each dataset's Part 1 estimates (and their two sources of error), its repartitions (on the chosen
dataset) and its Part 2 selection rows; the studies knn_estimators, nested_optimism and robustness
gather the shards.
"""

from cvsuite.studies.shape_image_datasets import ShapeStudySettings, simulate_datasets
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    blocks = job.config
    settings = ShapeStudySettings.from_config(
        blocks["shape_images"], blocks["knn_estimators"], blocks["nested_optimism"]
    )
    start, stop = int(job.wildcards.start), int(job.wildcards.stop)
    result = simulate_datasets(range(start, stop), settings, progress=job.progress)
    print(
        f"datasets {start}..{stop - 1}: {len(result.estimates)} estimate rows, {len(result.selection)} selection rows"
    )
    return StudyResult(
        tables={
            "estimates": result.estimates,
            "repartitions": result.repartitions,
            "selection": result.selection,
            "fold_models": result.fold_models,
            "candidate_scores": result.candidate_scores,
        },
        provenance={"seeds": [start, stop - 1]},
    )


if __name__ == "__main__":
    run_job(main)
