"""Study ordered_folds: unshuffled folds on data stored class by class.

"Cross-Validation", Pitfalls: "With images stored class by class, unshuffled folds can hold out
whole classes." Writes each data set's CV accuracy, the fold models' true accuracy and the
classes held out, per scheme and K; their Monte Carlo summaries; the fold-by-class composition of
the first data set; and the four schemes side by side at the document's K. Its figure (the
compositions and the estimates against K) is drawn from these tables by its figure rule
(cvsuite.figures.ordered_folds.draw).
"""

from cvsuite.data.gaussian_classes import GaussianClasses
from cvsuite.studies import ordered_folds as study
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    p = job.config["ordered_folds"]
    design = GaussianClasses(p["classes"], p["per_class"], p["test_per_class"], p["features"], p["separation"])
    runs = study.simulate_ordered_folds(design, p["fold_counts"], n_datasets=p["datasets"], first_seed=p["first_seed"])
    summary = study.ordered_folds_summary(runs)
    # Every data set has the same labels, so the first one's shuffles show the composition.
    composition = study.composition_table(p["classes"], p["per_class"], p["folds"], p["first_seed"])
    at_k = study.schemes_at_k(summary, design, p["folds"])
    return StudyResult(tables={"runs": runs, "summary": summary, "fold_composition": composition, "schemes_at_k": at_k})


if __name__ == "__main__":
    run_job(main)
