"""Study nested_optimism: Part 2 of the shape-image study ("Cross-Validation", section Example).

Gathers the shards' selection rows; writes the document's Part 2 block (the whole grid), how
optimism and nested error grow with the number of candidates (and the paired gain in optimism from
the smallest set to the largest), and how robust the CV ranking of the candidates is beside the
winner's value, and the procedure's data flow on the first dataset (which changes move which
choices). Statistics only: the registry's records judge them. Its figures (the per-dataset
estimates against the truth, optimism against the number of candidates) are drawn from these tables
by its figure rule (cvsuite.figures.nested_optimism.draw).
"""

from cvsuite.studies.nested_data_flow import selection_data_flow
from cvsuite.studies.nested_optimism import candidate_growth, optimism_growth, ranking_robustness, selection_summary
from cvsuite.studies.shape_image_datasets import ShapeStudySettings
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    selection = read_tables(job.input.selection)
    grid = job.config["shape_images"]["grid"]
    full = len(grid["sigmas"]) * len(grid["ks"])  # the document's selection: the whole grid
    blocks = job.config
    settings = ShapeStudySettings.from_config(
        blocks["shape_images"], blocks["knn_estimators"], blocks["nested_optimism"]
    )
    return StudyResult(
        tables={
            "per_dataset": selection,
            "summary": selection_summary(selection, full),
            "candidates": candidate_growth(selection),
            "optimism_growth": optimism_growth(selection),
            "ranking": ranking_robustness(read_tables(job.input.candidate_scores)),
            "data_flow": selection_data_flow(job.config["shape_images"]["first_seed"], settings),
        },
    )


if __name__ == "__main__":
    run_job(main)
