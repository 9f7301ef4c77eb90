"""Study test_set_reuse: a tuning loop that sees the test set only through its score.

"Regularization and Cross-Validation", §8.2.3 (The rule the book states as a warning) and
Pitfalls (Tuning against the test set); "Estimating Out-of-Sample Error", Applications
(Competition leaderboards). Writes, per data set and number of tuning rounds, the kept model's test,
training and fresh accuracy on labels that are pure noise, and their summary: how optimistic the test
score and the training score read, and how the test score's optimism grows with the rounds; and
where the least of many equally noisy estimates sits. Its figure is drawn from these tables by its
figure rule (cvsuite.figures.test_set_reuse.draw).
"""

from cvsuite.studies import test_set_reuse as study
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    p = job.config["test_set_reuse"]
    runs = study.simulate_test_set_reuse(
        study.ReuseDesign.from_block(p), p["checkpoints"], datasets=p["datasets"], first_seed=p["first_seed"]
    )
    return StudyResult(
        tables={
            "runs": runs,
            "summary": study.reuse_summary(runs),
            "minimum_of_draws": study.minimum_of_draws(p["minimum_draws"]),
        }
    )


if __name__ == "__main__":
    run_job(main)
