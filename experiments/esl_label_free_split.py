"""Study esl_label_free_split: ESL §7.10.3 "Does Cross-Validation Really Work?".

Cited by "Cross-Validation", How It Works ('for a classifier that picks the best of 500 predictors
unrelated to the labels, five-fold cross-validation averaged about the true 50% error over 50
simulated datasets'). Re-simulates the best single split (stump) among 500 noise predictors on 20
samples: the stump fitted to all samples, the full-data predictor with its split re-estimated in
each fold, and cross-validation done right. Writes the per-dataset and per-fold results, the
book-design summary, the statistics the book prints with the standard error of a comparison, the
open fold construction, Figure 7.11's top panels for one dataset, the design, and where the book's
one-fold error counts fall among ours (read from the registry). Its figures (Figure 7.11's bottom
right and top panels, with the published values read from the registry) are drawn from these
tables by its figure rule (cvsuite.figures.esl_label_free_split.draw).
"""

from cvsuite.data.null_predictors import NullDesign
from cvsuite.published.published_values import published_value, read_published_values
from cvsuite.studies.esl_label_free_split import (
    ONE_FOLD_DRAWS,
    heldout_draws,
    heldout_error_distribution,
    one_dataset_stumps,
    published_statistics,
    setting_summary,
    setup_table,
    simulate_label_free_split,
    summarise_procedures,
)
from cvsuite.studies.esl_wrong_and_right_way_summaries import book_reading_runs, fold_sizes
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["esl_label_free_split"]
    null = NullDesign.from_block(params)
    book_datasets, n_folds = params["datasets"], params["folds"]
    # The book's fold construction first, then the other one on the same datasets.
    constructions = [params["stratified"], not params["stratified"]]
    datasets = max(book_datasets, params["precision_datasets"])
    per_dataset, per_fold = simulate_label_free_split(
        null, constructions, datasets=datasets, n_folds=n_folds, test_points=params["test_points"]
    )
    default_runs, book_design = book_reading_runs(per_dataset, book_datasets)

    published = published_statistics(default_runs, per_fold, book_datasets)
    choices = setting_summary(per_dataset, constructions, book_datasets)
    one_dataset = one_dataset_stumps(
        null,
        params["figure_dataset"],
        n_folds=n_folds,
        stratified=params["stratified"],
        marked=params["marked_predictors"],
    )
    claims = read_published_values(job.input.published)
    tables = {
        "datasets": per_dataset,
        "heldout_folds": per_fold,
        "summary": summarise_procedures(book_design),
        "published_statistics": published,
        "heldout_error_distribution": heldout_error_distribution(per_fold),
        "folds": fold_sizes(null.samples, n_folds),
        "settings": choices,
        "one_dataset": one_dataset,
        "setup": setup_table(null, n_folds, book_datasets),
        "printed_draws": heldout_draws(per_fold, {s: published_value(claims, c) for s, c in ONE_FOLD_DRAWS.items()}),
    }
    return StudyResult(tables=tables)


if __name__ == "__main__":
    run_job(main)
