"""Study esl_wrong_and_right_way: ESL §7.10.2 "The Wrong and Right Way to Do Cross-validation".

Cited by "Cross-Validation" (Pitfalls, 'Selecting before cross-validating') and "Estimating
Out-of-Sample Error" ('Variable selection on the full dataset ...'). Re-simulates screening 100 of
5000 noise predictors before or inside 5-fold CV of a 1-nearest-neighbour classifier. Writes the
per-dataset results under every setting, the book-design summary, the statistics the book prints
with the standard error of a comparison, the held-out correlation histogram (Figure 7.10), the
open choices with the paired gap between the two ways, and where the book's one-fold correlations
fall among ours (read from the registry). Its figures (the CV errors and Figure 7.10, with the published
values read from the registry) are drawn from these tables by its figure rule
(cvsuite.figures.esl_wrong_and_right_way.draw).
"""

from cvsuite.data.null_predictors import NullDesign
from cvsuite.published.published_values import published_value, read_published_values
from cvsuite.studies.esl_wrong_and_right_way import Setting, open_choice_settings, simulate_wrong_and_right_way
from cvsuite.studies.esl_wrong_and_right_way_summaries import (
    PUBLISHED,
    book_reading_runs,
    correlation_draws,
    correlation_histogram,
    fold_sizes,
    published_statistics,
    setting_summary,
    summarise_procedures,
)
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["esl_wrong_and_right_way"]
    null = NullDesign.from_block(params)
    default = Setting(params["selection"], params["stratified"], params["folds"])
    settings = open_choice_settings(default, params["sensitivity_folds"])
    book_datasets, selected = params["datasets"], params["selected"]
    datasets = max(book_datasets, params["precision_datasets"])
    per_dataset, correlations = simulate_wrong_and_right_way(
        null, settings, datasets=datasets, selected=selected, test_points=params["test_points"]
    )
    default_runs, book_design = book_reading_runs(per_dataset, book_datasets)

    published = published_statistics(default_runs, correlations, book_datasets)
    histogram = correlation_histogram(correlations[:book_datasets], params["histogram_bins"])
    choices = setting_summary(per_dataset, settings, book_datasets)
    claims = read_published_values(job.input.published)
    return StudyResult(
        tables={
            "datasets": per_dataset,
            "summary": summarise_procedures(book_design),
            "published_statistics": published,
            "folds": fold_sizes(null.samples, params["folds"]),
            "heldout_correlation_histogram": histogram,
            "settings": choices,
            "printed_draws": correlation_draws(
                correlations,
                {
                    "wrong_way": published_value(claims, PUBLISHED["wrong_correlation"]),
                    "right_way": published_value(claims, PUBLISHED["right_correlation"]),
                },
            ),
        },
    )


if __name__ == "__main__":
    run_job(main)
