"""Study knn_estimators: Part 1 of the shape-image study ("Cross-Validation", section Example).

Gathers the shards' estimates; writes the true-accuracy range, the estimator table (mean and s.d.
of estimate - true), the repartition spread of the chosen dataset, the spreads the prose compares,
and the scikit-learn cross-check; then the Example's design, its estimators' training sizes, the
estimators compared pair by pair, their correlation with the truth, each estimate's error split into
training size and validation (with a class-balanced leave-one-out), and the arithmetic and API facts
the document states (from the numbers it cites, read from the registry); and the first image of
each class in the study's first dataset. Statistics only: the registry's records judge them. Its
figures (the shapes, the error distributions, the repartition spread) are drawn from these by its
figure rule (cvsuite.figures.knn_estimators.draw).
"""

import numpy as np

from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
from cvsuite.published.published_values import published_value, read_published_values
from cvsuite.studies.cross_validation_arithmetic import (
    CitedNumbers,
    arithmetic_tables,
    nested_fits,
    pooled_and_fold_auc,
)
from cvsuite.studies.knn_bias_sources import (
    bias_source_differences,
    bias_sources,
    source_pairs,
    training_size_share,
)
from cvsuite.studies.knn_estimators import (
    crosscheck_table,
    estimator_summary,
    repartition_summary,
    spread_comparison,
    true_accuracy_range,
)
from cvsuite.studies.knn_estimators_comparisons import (
    comparison_pairs,
    estimate_truth_correlation,
    example_partitions,
    paired_differences,
    setup_table,
    training_sizes_table,
)
from cvsuite.studies.knn_test_sets import holdout_spread, new_source, small_test_power
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, kfold_name
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job

# The printed numbers the document's arithmetic starts from: registry rows.
ESL_IMAGES = ("cv.cited.esl7101.dataset-200", "cv.cited.esl7101.dataset-50")
ESL_FOLDS = "cv.cited.esl7101.folds"
UCF101_BLOCKS, UCF101_GROUPS = "cv.cited.ucf101.test-blocks", "cv.cited.ucf101.groups"
RECHT = ("cv.cited.recht.original-test", "cv.cited.recht.new-test", "cv.cited.recht.cv-low", "cv.cited.recht.cv-high")


def cited_numbers(published_path) -> CitedNumbers:
    """The cited numbers, each from its registry row."""
    claims = read_published_values(published_path)
    text = {c.id: c.published for c in claims}
    return CitedNumbers(
        esl_images=tuple(int(published_value(claims, i)) for i in ESL_IMAGES),
        esl_folds=int(published_value(claims, ESL_FOLDS)),
        ucf101_blocks=text[UCF101_BLOCKS],
        ucf101_groups=int(published_value(claims, UCF101_GROUPS)),
        recht=tuple(published_value(claims, i) for i in RECHT),
    )


def main(job: Job) -> StudyResult:
    blocks, p1 = job.config, job.config["knn_estimators"]
    settings = ShapeStudySettings.from_config(blocks["shape_images"], p1, blocks["nested_optimism"])
    names, redrawn = settings.estimator_names(), kfold_name(p1["repartition_folds"])
    estimates, repartitions = read_tables(job.input.estimates), read_tables(job.input.repartitions)
    fold_models = read_tables(job.input.fold_models)
    sources = bias_sources(fold_models, names)
    source_differences = bias_source_differences(fold_models, source_pairs(names))
    summary = estimator_summary(estimates, names)
    repeated = repartition_summary(repartitions, [names[0], redrawn])

    images = blocks["shape_images"]["images"]
    # The scikit-learn check's images, folds and classifier, which the pooled-AUC statistics reuse.
    check = dict(sigma=p1["sigma"], k=p1["k"], n_folds=p1["crosscheck_folds"], seed=p1["crosscheck_seed"])
    crosscheck = crosscheck_table(settings.design, images["per_class"], **check)
    partitions = example_partitions(settings, p1["crosscheck_seed"])
    sizes = training_sizes_table(settings, partitions)
    spreads = spread_comparison(summary, repeated, estimates, repartitions, names[0], redrawn)
    labels = np.repeat(np.arange(len(settings.design.masks())), settings.images_per_class)
    auc = pooled_and_fold_auc(settings.design, images["per_class"], **check)
    nested = nested_fits(settings.outer_folds, settings.selection_folds, len(settings.sigmas) * len(settings.ks))
    arithmetic = arithmetic_tables(cited_numbers(job.input.published), labels, auc, nested)

    tests, shift = blocks["small_test_sets"], blocks["new_source"]
    # The shapes figure shows the first dataset of the study as it was drawn: its figure job gets
    # the images it shows rather than redrawing a dataset.
    first = blocks["shape_images"]["first_seed"]
    sample, sample_labels = draw_shape_images(images["per_class"], np.random.default_rng(first), settings.design)
    examples = np.stack([sample[np.flatnonzero(sample_labels == c)[0]] for c in range(len(settings.design.masks()))])

    return StudyResult(
        tables={
            "per_dataset": estimates,
            "true_accuracy": true_accuracy_range(estimates),
            "summary": summary,
            "repartitions": repartitions,
            "repartition_summary": repeated,
            "spreads": spreads,
            "sklearn_crosscheck": crosscheck,
            "setup": setup_table(settings, estimates["dataset"].nunique()),
            "training_sizes": sizes,
            "paired": paired_differences(estimates, comparison_pairs(names)),
            "correlation": estimate_truth_correlation(estimates, names),
            "bias_sources": sources,
            "bias_source_differences": source_differences,
            "training_size_share": training_size_share(fold_models, names[-1], names[1]),
            "holdout_spread": holdout_spread(settings, tests["images_per_class"], tests["repartitions"], tests["seed"]),
            "small_test_power": small_test_power(
                settings, blocks["shape_images"]["first_seed"], tests["test_sizes"], tests["draws"], tests["draw_seed"]
            ),
            "new_source": new_source(
                settings,
                ShapeImageDesign(
                    size=settings.design.size,
                    max_shift=settings.design.max_shift,
                    contrast=(shift["contrast_low"], shift["contrast_high"]),
                    noise_sd=shift["noise_sd"],
                ),
                shift["datasets"],
                shift["fresh_per_class"],
                shift["seed"],
            ),
            **arithmetic,
        },
        arrays={"example_images": examples},
    )


if __name__ == "__main__":
    run_job(main)
