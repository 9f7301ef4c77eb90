"""Study kohavi_iris_majority: Kohavi (1995) as cited by "Cross-Validation", Variants (leave-one-out).

The majority-class predictor on Iris under leave-one-out (0% in every fold), stratified K-fold
and shuffled (unstratified) K-fold over many partitions, under each tie-breaking rule. Writes
the estimates per protocol and rule, every partition's estimate, the folds of each protocol's
first partition, and the class counts with the leave-one-out folds in which deleting an instance
does not make its class the minority; and, on fresh samples of fair-coin labels, the spread over
samples of the majority predictor's CV accuracy under stratified K-fold and leave-one-out. Its
figure (the fold scores and the spread over partitions, with the published leave-one-out figure
read from the registry) is drawn from these tables by its figure rule
(cvsuite.figures.kohavi_iris_majority.draw).
"""

from cvsuite.studies.kohavi_iris_majority import class_count_summary, majority_study
from cvsuite.studies.kohavi_iris_majority_random_labels import random_labels_table
from cvsuite.workflow.packaged_data import iris_as_shipped
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["kohavi_iris_majority"]
    _, labels, names = iris_as_shipped()  # scikit-learn's copy, read without importing scikit-learn
    estimates, runs, folds = majority_study(
        labels,
        names,
        params["tie_breaks"],
        n_folds=params["folds"],
        partitions=params["partitions"],
        first_seed=params["first_seed"],
        tie_seed=params["tie_seed"],
    )
    coins = params["random_labels"]
    return StudyResult(
        tables={
            "estimates": estimates,
            "partitions": runs,
            "folds": folds,
            "dataset": class_count_summary(labels, names),
            "random_labels": random_labels_table(coins["seed"], coins["samples"], coins["n"], coins["folds"]),
        },
    )


if __name__ == "__main__":
    run_job(main)
