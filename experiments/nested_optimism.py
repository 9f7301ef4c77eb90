"""Study nested_optimism: Part 2 of the shape-image study ("Cross-Validation", section Example).

Gathers the shards' selection rows; writes the document's Part 2 block (the whole grid) and how
optimism and nested error grow with the number of candidates, and the document's claim that the
winner's score is biased upward, and how robust the CV ranking of the candidates is beside the
winner's value. Its figures (the per-dataset estimates against the truth, optimism against the
number of candidates) are drawn from these tables by its figure rule
(cvsuite.figures.nested_optimism.draw).
"""

from cvsuite.studies.nested_optimism import (
    candidate_growth,
    growth_findings,
    ranking_robustness,
    selection_claims,
    selection_summary,
)
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    selection = read_tables(job.input.selection)
    grid = job.config["shape_images"]["grid"]
    full = len(grid["sigmas"]) * len(grid["ks"])  # the document's selection: the whole grid
    growth = candidate_growth(selection)
    summary = selection_summary(selection, full)
    ranking = ranking_robustness(read_tables(job.input.candidate_scores))
    return StudyResult(
        tables={
            "per_dataset": selection,
            "summary": summary,
            "candidates": growth,
            "growth_findings": growth_findings(selection),
            "ranking": ranking,
            "claims": selection_claims(summary, ranking),
        },
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
