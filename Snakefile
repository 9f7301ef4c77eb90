# The cross-validation experiment suite: a table of contents.
# Config and its schema, one rule per study, the comparison, and `all`. The science is in src/cvsuite,
# the entry points in experiments/; nothing here computes.

import sys
from pathlib import Path

from cvsuite.config_validation import ConfigError, checked_config, load_schema
from cvsuite.registry import RegistryError, read_registry
from cvsuite.sharding import shard_ranges

configfile: "config.yaml"

# Refuse a bad config before any job runs: one message naming each bad key, nothing written.
try:
    config.update(checked_config(config, load_schema(Path(workflow.basedir, "schemas/config.schema.yaml"))))
except ConfigError as err:
    sys.exit(str(err))

REGISTRY = "registry/published_numbers.csv"
# Every study depends on the library: a change to it reruns the studies, so no table outlives the
# code that made it.
LIBRARY = sorted(str(p.relative_to(workflow.basedir)) for p in Path(workflow.basedir, "src", "cvsuite").glob("*.py"))


def figure(study, name):
    """A figure's PNG, shown in `snakemake --report` with its one-line caption."""
    return report(f"figures/{study}/{name}.png", caption=f"report/{study}/{name}.rst", category=study)


localrules:
    all,
    compare,


rule all:
    input:
        "results/comparison.csv",
        "results/REPORT.md",


rule ridge_path:
    input:
        library=LIBRARY,
    output:
        lambda_table="results/ridge_path/lambda_table.csv",
        lambda_grid="results/ridge_path/lambda_grid.csv",
        summary="results/ridge_path/summary.csv",
        worked_example="results/ridge_path/worked_example.csv",
        worked_example_exchange="results/ridge_path/worked_example_exchange.csv",
        provenance="results/ridge_path/provenance.json",
        path_figure=figure("ridge_path", "risk_and_norm_path"),
        path_figure_svg="figures/ridge_path/risk_and_norm_path.svg",
        worked_figure=figure("ridge_path", "worked_example"),
        worked_figure_svg="figures/ridge_path/worked_example.svg",
    params:
        data=config["sine_data"],
        study=config["ridge_path"],
    log:
        "logs/ridge_path.log",
    script:
        "experiments/ridge_path.py"


rule k_bias:
    input:
        library=LIBRARY,
    output:
        table="results/k_bias/k_bias.csv",
        std_error_range="results/k_bias/std_error_range.csv",
        partition_grid="results/k_bias/partition_grid.csv",
        provenance="results/k_bias/provenance.json",
        bias_figure=figure("k_bias", "cv_estimate_against_k"),
        bias_figure_svg="figures/k_bias/cv_estimate_against_k.svg",
        grid_figure=figure("k_bias", "partition_grid"),
        grid_figure_svg="figures/k_bias/partition_grid.svg",
    params:
        data=config["sine_data"],
        study=config["k_bias"],
    log:
        "logs/k_bias.log",
    script:
        "experiments/k_bias.py"


rule degree_sweep:
    input:
        library=LIBRARY,
    output:
        sweep="results/degree_sweep/degree_sweep.csv",
        summary="results/degree_sweep/summary.csv",
        provenance="results/degree_sweep/provenance.json",
        figure=figure("degree_sweep", "risk_and_norm_by_degree"),
        figure_svg="figures/degree_sweep/risk_and_norm_by_degree.svg",
    params:
        data=config["sine_data"],
        study=config["degree_sweep"],
    log:
        "logs/degree_sweep.log",
    script:
        "experiments/degree_sweep.py"


# The shape-image study of "Cross-Validation": datasets are independent, so they are simulated in
# shards that run side by side; knn_estimators (Part 1) and nested_optimism (Part 2) gather them.
SHAPE = config["shape_images"]
SHAPE_SHARDS = shard_ranges(SHAPE["first_seed"], SHAPE["datasets"], SHAPE["datasets_per_shard"])
SHAPE_SIMULATION = {
    "shape_images": {"images": SHAPE["images"], "grid": SHAPE["grid"]},
    "knn_estimators": config["knn_estimators"],
    "nested_optimism": config["nested_optimism"],
}


def shape_shards(table):
    return [f"results/shape_image_datasets/{start}-{stop}/{table}.csv" for start, stop in SHAPE_SHARDS]


rule shape_image_datasets:
    input:
        library=LIBRARY,
    output:
        estimates="results/shape_image_datasets/{start}-{stop}/estimates.csv",
        repartitions="results/shape_image_datasets/{start}-{stop}/repartitions.csv",
        selection="results/shape_image_datasets/{start}-{stop}/selection.csv",
        provenance="results/shape_image_datasets/{start}-{stop}/provenance.json",
    wildcard_constraints:
        start=r"\d+",
        stop=r"\d+",
    params:
        blocks=SHAPE_SIMULATION,
    threads: 1
    log:
        "logs/shape_image_datasets/{start}-{stop}.log",
    script:
        "experiments/shape_image_datasets.py"


rule knn_estimators:
    input:
        library=LIBRARY,
        estimates=shape_shards("estimates"),
        repartitions=shape_shards("repartitions"),
    output:
        per_dataset="results/knn_estimators/per_dataset.csv",
        true_accuracy="results/knn_estimators/true_accuracy.csv",
        summary="results/knn_estimators/summary.csv",
        repartitions="results/knn_estimators/repartitions.csv",
        repartition_summary="results/knn_estimators/repartition_summary.csv",
        findings="results/knn_estimators/findings.csv",
        crosscheck="results/knn_estimators/sklearn_crosscheck.csv",
        provenance="results/knn_estimators/provenance.json",
        shapes_figure=figure("knn_estimators", "shapes"),
        shapes_figure_svg="figures/knn_estimators/shapes.svg",
        errors_figure=figure("knn_estimators", "estimator_errors"),
        errors_figure_svg="figures/knn_estimators/estimator_errors.svg",
        repartition_figure=figure("knn_estimators", "repartition_spread"),
        repartition_figure_svg="figures/knn_estimators/repartition_spread.svg",
    params:
        blocks={k: config[k] for k in ("shape_images", "knn_estimators", "nested_optimism")},
    log:
        "logs/knn_estimators.log",
    script:
        "experiments/knn_estimators.py"


rule nested_optimism:
    input:
        library=LIBRARY,
        selection=shape_shards("selection"),
    output:
        per_dataset="results/nested_optimism/per_dataset.csv",
        summary="results/nested_optimism/summary.csv",
        candidates="results/nested_optimism/candidates.csv",
        growth_findings="results/nested_optimism/growth_findings.csv",
        provenance="results/nested_optimism/provenance.json",
        estimates_figure=figure("nested_optimism", "estimates_against_truth"),
        estimates_figure_svg="figures/nested_optimism/estimates_against_truth.svg",
        growth_figure=figure("nested_optimism", "optimism_by_candidates"),
        growth_figure_svg="figures/nested_optimism/optimism_by_candidates.svg",
    params:
        blocks={k: config[k] for k in ("shape_images", "knn_estimators", "nested_optimism")},
    log:
        "logs/nested_optimism.log",
    script:
        "experiments/nested_optimism.py"


# The variance of a CV estimate on many fresh shape-image datasets, sharded the same way.
CV_VARIANCE = config["cv_variance"]
CV_VARIANCE_SHARDS = shard_ranges(CV_VARIANCE["first_seed"], CV_VARIANCE["datasets"], CV_VARIANCE["datasets_per_shard"])
CV_VARIANCE_SIMULATION = {k: v for k, v in CV_VARIANCE.items() if k not in ("datasets", "first_seed", "datasets_per_shard")}


rule cv_variance_datasets:
    input:
        library=LIBRARY,
    output:
        moments="results/cv_variance_datasets/{start}-{stop}/moments.csv",
        provenance="results/cv_variance_datasets/{start}-{stop}/provenance.json",
    wildcard_constraints:
        start=r"\d+",
        stop=r"\d+",
    params:
        study=CV_VARIANCE_SIMULATION,
        images=SHAPE["images"],
    threads: 1
    log:
        "logs/cv_variance_datasets/{start}-{stop}.log",
    script:
        "experiments/cv_variance_datasets.py"


rule cv_variance:
    input:
        library=LIBRARY,
        moments=[f"results/cv_variance_datasets/{a}-{b}/moments.csv" for a, b in CV_VARIANCE_SHARDS],
    output:
        decomposition="results/cv_variance/decomposition.csv",
        findings="results/cv_variance/findings.csv",
        provenance="results/cv_variance/provenance.json",
        figure=figure("cv_variance", "variance_by_k"),
        figure_svg="figures/cv_variance/variance_by_k.svg",
    params:
        study=CV_VARIANCE,
        images=SHAPE["images"],
    log:
        "logs/cv_variance.log",
    script:
        "experiments/cv_variance.py"


# ESL §7.10.2, cited by "Cross-Validation" (Pitfalls) and "Estimating Out-of-Sample Error". The
# registry is an input because the figures draw the published values from it (published_reference).
rule esl_wrong_and_right_way:
    input:
        library=LIBRARY,
        registry=REGISTRY,
    output:
        datasets="results/esl_wrong_and_right_way/datasets.csv",
        summary="results/esl_wrong_and_right_way/summary.csv",
        published_statistics="results/esl_wrong_and_right_way/published_statistics.csv",
        folds="results/esl_wrong_and_right_way/folds.csv",
        histogram="results/esl_wrong_and_right_way/heldout_correlation_histogram.csv",
        settings="results/esl_wrong_and_right_way/settings.csv",
        verdicts="results/esl_wrong_and_right_way/verdicts.csv",
        provenance="results/esl_wrong_and_right_way/provenance.json",
        errors_figure=figure("esl_wrong_and_right_way", "cv_error_wrong_and_right"),
        errors_figure_svg="figures/esl_wrong_and_right_way/cv_error_wrong_and_right.svg",
        correlation_figure=figure("esl_wrong_and_right_way", "heldout_correlations"),
        correlation_figure_svg="figures/esl_wrong_and_right_way/heldout_correlations.svg",
    params:
        study=config["esl_wrong_and_right_way"],
    log:
        "logs/esl_wrong_and_right_way.log",
    script:
        "experiments/esl_wrong_and_right_way.py"


# ESL §7.10.3 and Figure 7.11, cited by "Cross-Validation" (How It Works). The registry is an input
# because the figures draw the published values from it (published_reference).
rule esl_label_free_split:
    input:
        library=LIBRARY,
        registry=REGISTRY,
    output:
        datasets="results/esl_label_free_split/datasets.csv",
        heldout_folds="results/esl_label_free_split/heldout_folds.csv",
        summary="results/esl_label_free_split/summary.csv",
        published_statistics="results/esl_label_free_split/published_statistics.csv",
        heldout_error_distribution="results/esl_label_free_split/heldout_error_distribution.csv",
        folds="results/esl_label_free_split/folds.csv",
        settings="results/esl_label_free_split/settings.csv",
        one_dataset="results/esl_label_free_split/one_dataset.csv",
        verdicts="results/esl_label_free_split/verdicts.csv",
        provenance="results/esl_label_free_split/provenance.json",
        errors_figure=figure("esl_label_free_split", "cv_error_by_procedure"),
        errors_figure_svg="figures/esl_label_free_split/cv_error_by_procedure.svg",
        stumps_figure=figure("esl_label_free_split", "one_dataset_stumps"),
        stumps_figure_svg="figures/esl_label_free_split/one_dataset_stumps.svg",
    params:
        study=config["esl_label_free_split"],
    log:
        "logs/esl_label_free_split.log",
    script:
        "experiments/esl_label_free_split.py"


# Kohavi (1995), as cited by "Cross-Validation", Variants (leave-one-out): the majority-class
# The registry is an input because the figure draws the published leave-one-out figure from it.


rule kohavi_iris_majority:
    input:
        library=LIBRARY,
        registry=REGISTRY,
    output:
        estimates="results/kohavi_iris_majority/estimates.csv",
        partitions="results/kohavi_iris_majority/partitions.csv",
        folds="results/kohavi_iris_majority/folds.csv",
        dataset="results/kohavi_iris_majority/dataset.csv",
        provenance="results/kohavi_iris_majority/provenance.json",
        figure=figure("kohavi_iris_majority", "fold_scores"),
        figure_svg="figures/kohavi_iris_majority/fold_scores.svg",
    params:
        study=config["kohavi_iris_majority"],
    log:
        "logs/kohavi_iris_majority.log",
    script:
        "experiments/kohavi_iris_majority.py"


# scikit-learn's gallery example "Nested versus non-nested cross-validation", on our own nested and
# non-nested cross-validation, beside the shape-image study's optimism. Place after the rule that
# The registry is an input because the figures draw the gallery's printed figures from it.


rule sklearn_nested_iris:
    input:
        library=LIBRARY,
        shape_images="results/nested_optimism/per_dataset.csv",
        registry=REGISTRY,
    output:
        trials="results/sklearn_nested_iris/trials.csv",
        summary="results/sklearn_nested_iris/summary.csv",
        optimism_by_replicate="results/sklearn_nested_iris/optimism_by_replicate.csv",
        optimism_side_by_side="results/sklearn_nested_iris/optimism_side_by_side.csv",
        provenance="results/sklearn_nested_iris/provenance.json",
        scores_figure=figure("sklearn_nested_iris", "scores_by_trial"),
        scores_figure_svg="figures/sklearn_nested_iris/scores_by_trial.svg",
        difference_figure=figure("sklearn_nested_iris", "difference_by_trial"),
        difference_figure_svg="figures/sklearn_nested_iris/difference_by_trial.svg",
        rules_figure=figure("sklearn_nested_iris", "combining_rules"),
        rules_figure_svg="figures/sklearn_nested_iris/combining_rules.svg",
        side_figure=figure("sklearn_nested_iris", "optimism_side_by_side"),
        side_figure_svg="figures/sklearn_nested_iris/optimism_side_by_side.svg",
    params:
        study=config["sklearn_nested_iris"],
    log:
        "logs/sklearn_nested_iris.log",
    script:
        "experiments/sklearn_nested_iris.py"


rule temporal_holdout:
    input:
        library=LIBRARY,
    output:
        series_errors="results/temporal_holdout/series_errors.csv",
        by_ar_coefficient="results/temporal_holdout/by_ar_coefficient.csv",
        by_exclusion_radius="results/temporal_holdout/by_exclusion_radius.csv",
        example_series="results/temporal_holdout/example_series.csv",
        verdict="results/temporal_holdout/verdict.csv",
        provenance="results/temporal_holdout/provenance.json",
        figure=figure("temporal_holdout", "random_folds_against_temporal_holdout"),
        figure_svg="figures/temporal_holdout/random_folds_against_temporal_holdout.svg",
    params:
        study=config["temporal_holdout"],
    log:
        "logs/temporal_holdout.log",
    script:
        "experiments/temporal_holdout.py"


rule preprocessing_leak:
    input:
        library=LIBRARY,
    output:
        runs="results/preprocessing_leak/runs.csv",
        summary="results/preprocessing_leak/summary.csv",
        verdict="results/preprocessing_leak/verdict.csv",
        provenance="results/preprocessing_leak/provenance.json",
        figure=figure("preprocessing_leak", "leak_by_step"),
        figure_svg="figures/preprocessing_leak/leak_by_step.svg",
    params:
        study=config["preprocessing_leak"],
    log:
        "logs/preprocessing_leak.log",
    script:
        "experiments/preprocessing_leak.py"


rule ordered_folds:
    input:
        library=LIBRARY,
    output:
        runs="results/ordered_folds/runs.csv",
        summary="results/ordered_folds/summary.csv",
        fold_composition="results/ordered_folds/fold_composition.csv",
        verdict="results/ordered_folds/verdict.csv",
        provenance="results/ordered_folds/provenance.json",
        figure=figure("ordered_folds", "fold_composition_and_collapse"),
        figure_svg="figures/ordered_folds/fold_composition_and_collapse.svg",
    params:
        study=config["ordered_folds"],
    log:
        "logs/ordered_folds.log",
    script:
        "experiments/ordered_folds.py"


rule varma_simon_selection_bias:
    input:
        library=LIBRARY,
        registry=REGISTRY,
    output:
        per_dataset="results/varma_simon_selection_bias/per_dataset.csv",
        summary="results/varma_simon_selection_bias/summary.csv",
        setup="results/varma_simon_selection_bias/setup.csv",
        provenance="results/varma_simon_selection_bias/provenance.json",
        figure=figure("varma_simon_selection_bias", "min_cv_and_nested"),
        figure_svg="figures/varma_simon_selection_bias/min_cv_and_nested.svg",
    params:
        study=config["varma_simon_selection_bias"],
    log:
        "logs/varma_simon_selection_bias.log",
    script:
        "experiments/varma_simon_selection_bias.py"

# and append rules.varma_simon_selection_bias to STUDY_RULES


rule recover_twelve_points:
    input:
        library=LIBRARY,
        registry=REGISTRY,
    output:
        table="results/recover_twelve_points/recovered_table.csv",
        conventions="results/recover_twelve_points/conventions.csv",
        printed_check="results/recover_twelve_points/printed_check.csv",
        short_tables="results/recover_twelve_points/short_decimal_tables.csv",
        spread="results/recover_twelve_points/spread.csv",
        neighbours="results/recover_twelve_points/lattice_neighbours.csv",
        solutions="results/recover_twelve_points/solutions.csv",
        summary="results/recover_twelve_points/summary.csv",
        provenance="results/recover_twelve_points/provenance.json",
        table_figure=figure("recover_twelve_points", "recovered_table"),
        table_figure_svg="figures/recover_twelve_points/recovered_table.svg",
        screen_figure=figure("recover_twelve_points", "convention_screen"),
        screen_figure_svg="figures/recover_twelve_points/convention_screen.svg",
    params:
        data=config["twelve_observations"],
        study=config["recover_twelve_points"],
    log:
        "logs/recover_twelve_points.log",
    script:
        "experiments/recover_twelve_points.py"


rule twelve_points:
    input:
        library=LIBRARY,
        table="results/recover_twelve_points/recovered_table.csv",
        conventions="results/recover_twelve_points/conventions.csv",
        registry=REGISTRY,
    output:
        fits="results/twelve_points/fits.csv",
        folds="results/twelve_points/folds.csv",
        summary="results/twelve_points/summary.csv",
        contrasts="results/twelve_points/contrasts.csv",
        claims="results/twelve_points/claims.csv",
        robustness="results/twelve_points/robustness.csv",
        histogram="results/twelve_points/cv_difference_histogram.csv",
        provenance="results/twelve_points/provenance.json",
        fits_figure=figure("twelve_points", "data_and_fits"),
        fits_figure_svg="figures/twelve_points/data_and_fits.svg",
        extrapolation_figure=figure("twelve_points", "fold4_extrapolation"),
        extrapolation_figure_svg="figures/twelve_points/fold4_extrapolation.svg",
        folds_figure=figure("twelve_points", "fold_errors"),
        folds_figure_svg="figures/twelve_points/fold_errors.svg",
        difference_figure=figure("twelve_points", "cv_difference"),
        difference_figure_svg="figures/twelve_points/cv_difference.svg",
    params:
        data=config["twelve_observations"],
        study=config["twelve_points"],
    log:
        "logs/twelve_points.log",
    script:
        "experiments/twelve_points.py"


# Robustness: the conclusions re-scored on fresh seeds, disjoint from the documents', at a larger
# scale. The fresh shape-image datasets are more shards of shape_image_datasets.
ROBUST = config["robustness"]
ROBUST_SHAPE_SHARDS = shard_ranges(ROBUST["shape_first_seed"], ROBUST["shape_datasets"], ROBUST["datasets_per_shard"])
ROBUST_SINE_SHARDS = shard_ranges(ROBUST["sine_first_seed"], ROBUST["sine_datasets"], ROBUST["datasets_per_shard"])
SINE_BLOCKS = {k: config[k] for k in ("sine_data", "ridge_path", "k_bias")}


rule fresh_sine_datasets:
    input:
        library=LIBRARY,
    output:
        exchange="results/fresh_sine_datasets/{start}-{stop}/ridge_exchange.csv",
        k_bias="results/fresh_sine_datasets/{start}-{stop}/k_bias.csv",
        provenance="results/fresh_sine_datasets/{start}-{stop}/provenance.json",
    wildcard_constraints:
        start=r"\d+",
        stop=r"\d+",
    params:
        blocks={**SINE_BLOCKS, "robustness": {k: ROBUST[k] for k in ("sine_test_seed_offset", "sine_shuffles")}},
    threads: 1
    log:
        "logs/fresh_sine_datasets/{start}-{stop}.log",
    script:
        "experiments/fresh_sine_datasets.py"


rule robustness:
    input:
        library=LIBRARY,
        document_estimates=shape_shards("estimates"),
        document_selection=shape_shards("selection"),
        fresh_estimates=[f"results/shape_image_datasets/{a}-{b}/estimates.csv" for a, b in ROBUST_SHAPE_SHARDS],
        fresh_selection=[f"results/shape_image_datasets/{a}-{b}/selection.csv" for a, b in ROBUST_SHAPE_SHARDS],
        document_k_bias="results/k_bias/k_bias.csv",
        document_exchange="results/ridge_path/summary.csv",
        fresh_exchange=[f"results/fresh_sine_datasets/{a}-{b}/ridge_exchange.csv" for a, b in ROBUST_SINE_SHARDS],
        fresh_k_bias=[f"results/fresh_sine_datasets/{a}-{b}/k_bias.csv" for a, b in ROBUST_SINE_SHARDS],
    output:
        conclusions="results/robustness/conclusions.csv",
        provenance="results/robustness/provenance.json",
        figure=figure("robustness", "conclusions"),
        figure_svg="figures/robustness/conclusions.svg",
    params:
        blocks={k: config[k] for k in ("robustness", "knn_estimators", "shape_images")},
    log:
        "logs/robustness.log",
    script:
        "experiments/robustness.py"


STUDY_RULES = [
    rules.ridge_path, rules.k_bias, rules.degree_sweep, rules.knn_estimators, rules.nested_optimism, rules.cv_variance,
    rules.esl_wrong_and_right_way, rules.esl_label_free_split, rules.kohavi_iris_majority, rules.sklearn_nested_iris,
    rules.temporal_holdout, rules.preprocessing_leak, rules.ordered_folds, rules.varma_simon_selection_bias,
    rules.recover_twelve_points, rules.twelve_points, rules.robustness,
]
TABLES = [f for r in STUDY_RULES for f in r.output if f.endswith(".csv")]
FIGURES = [f for r in STUDY_RULES for f in r.output if f.endswith(".png")]

# Refuse a malformed registry row before any job runs, naming the row.
try:
    read_registry(REGISTRY, known_tables={t.removeprefix("results/") for t in TABLES})
except RegistryError as err:
    sys.exit(str(err))


rule compare:
    input:
        library=LIBRARY,
        registry=REGISTRY,
        studies="report/studies.yaml",
        tables=TABLES,
        figures=FIGURES,
    output:
        comparison="results/comparison.csv",
        report="results/REPORT.md",
    log:
        "logs/compare.log",
    script:
        "experiments/compare.py"
