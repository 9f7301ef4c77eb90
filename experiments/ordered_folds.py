"""Study ordered_folds: unshuffled folds on data stored class by class.

"Cross-Validation", Pitfalls: "With images stored class by class, unshuffled folds can hold out
whole classes." Writes each data set's CV accuracy, the fold models' true accuracy and the
classes held out, per scheme and K; their Monte Carlo summaries; the fold-by-class composition of
the first data set; and the one-row verdict. Draws the compositions and the estimates against K.
"""

from cvsuite.data.gaussian_classes import GaussianClasses
from cvsuite.figures import ordered_folds as figures
from cvsuite.studies.ordered_folds import (
    composition_table,
    ordered_folds_summary,
    ordered_folds_verdict,
    simulate_ordered_folds,
)
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["ordered_folds"]
    design = GaussianClasses(
        n_classes=params["classes"],
        per_class=params["per_class"],
        test_per_class=params["test_per_class"],
        n_features=params["features"],
        separation=params["separation"],
    )
    runs = simulate_ordered_folds(
        design, params["fold_counts"], n_datasets=params["datasets"], first_seed=params["first_seed"]
    )
    summary = ordered_folds_summary(runs)
    composition = composition_table(params["classes"], params["per_class"], params["folds"], params["first_seed"])
    verdict = ordered_folds_verdict(
        summary,
        n_folds=params["folds"],
        n_classes=params["classes"],
        per_class=params["per_class"],
        decision_standard_errors=params["decision_standard_errors"],
    )
    figure = figures.fold_composition_and_collapse(
        composition, summary, verdict.iloc[0], decision_standard_errors=params["decision_standard_errors"]
    )
    return StudyResult(
        tables={"runs": runs, "summary": summary, "fold_composition": composition, "verdict": verdict},
        figures={"fold_composition_and_collapse": figure},
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
