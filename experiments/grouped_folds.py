"""Study grouped_folds: grouped images under random, grouped and stratified grouped folds.

"Cross-Validation", When to Use It and Variants; "Estimating Out-of-Sample Error", Procedure (When
observations are grouped) and Applications (Recommendation). Writes each data set's CV accuracy
under shuffled KFold, GroupKFold and StratifiedGroupKFold beside the accuracy on new groups, how
the splits place the groups and the classes, their Monte Carlo summary, and a random split over
users' interactions against one that holds out each user's latest. Its figure (the estimates
against the truth, and the folds' class balance) is drawn from these tables by its figure rule
(cvsuite.figures.grouped_folds.draw).
"""

from cvsuite.studies import grouped_folds as study
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    p = job.config["grouped_folds"]
    runs = study.simulate_grouped_folds(
        study.GroupedDesign.from_block(p), p["folds"], datasets=p["datasets"], first_seed=p["first_seed"]
    )
    interactions = study.interactions_split(
        p["users"], p["interactions_per_user"], p["held_out_share"], p["first_seed"]
    )
    return StudyResult(
        tables={"runs": runs, "summary": study.grouped_folds_summary(runs), "interactions": interactions}
    )


if __name__ == "__main__":
    run_job(main)
