# The cross-validation experiment suite: a table of contents.
# The config and its checks, one rule per study, the comparison, and `all`. Each study's tables
# and figures are declared once, in studies.yaml; the helpers are in rules/common.smk; the science
# is in src/cvsuite and the entry points in experiments/. Nothing here computes.


include: "rules/common.smk"
include: "rules/figures.smk"


# The Snakemake report opens on the verdict, which the comparison writes.
report: "results/overview.rst"


onsuccess:
    announce_verdict()


localrules:
    all,
    compare,


rule all:
    input:
        "results/comparison.csv",
        "results/REPORT.md",


# "Regularization and Cross-Validation": the ridge path, the K-bias table, page 802's sweep.
rule ridge_path:
    input:
        code=code_of("experiments/ridge_path.py"),
    output:
        **study_outputs("ridge_path"),
    params:
        **study_params("ridge_path"),
    log:
        "logs/ridge_path.log",
    script:
        "experiments/ridge_path.py"


rule k_bias:
    input:
        code=code_of("experiments/k_bias.py"),
    output:
        **study_outputs("k_bias"),
    params:
        **study_params("k_bias"),
    log:
        "logs/k_bias.log",
    script:
        "experiments/k_bias.py"


rule degree_sweep:
    input:
        code=code_of("experiments/degree_sweep.py"),
        published=PUBLISHED_VALUES,
    output:
        **study_outputs("degree_sweep"),
    params:
        **study_params("degree_sweep"),
    log:
        "logs/degree_sweep.log",
    script:
        "experiments/degree_sweep.py"


# "Estimating Out-of-Sample Error": its bias-variance decomposition, on the same curved regression.
rule bias_variance:
    input:
        code=code_of("experiments/bias_variance.py"),
    output:
        **study_outputs("bias_variance"),
    params:
        **study_params("bias_variance"),
    log:
        "logs/bias_variance.log",
    script:
        "experiments/bias_variance.py"


# "Cross-Validation", Example: datasets are independent, so they are simulated in shards of seeds
# that run side by side (the plans are in rules/common.smk); knn_estimators (Part 1) and
# nested_optimism (Part 2) gather them.


rule shape_image_datasets:
    input:
        code=code_of("experiments/shape_image_datasets.py"),
    output:
        **study_outputs("shape_image_datasets", "{start}-{stop}"),
    wildcard_constraints:
        start=r"\d+",
        stop=r"\d+",
    params:
        **study_params("shape_image_datasets", SHAPE_SIMULATION),
    priority: SIMULATION_PRIORITY
    threads: 1
    log:
        "logs/shape_image_datasets/{start}-{stop}.log",
    script:
        "experiments/shape_image_datasets.py"


rule knn_estimators:
    input:
        code=code_of("experiments/knn_estimators.py"),
        published=PUBLISHED_VALUES,
        estimates=shard_tables("shape_image_datasets", "estimates", SHAPE_SHARDS),
        repartitions=shard_tables("shape_image_datasets", "repartitions", SHAPE_SHARDS),
        fold_models=shard_tables("shape_image_datasets", "fold_models", SHAPE_SHARDS),
    output:
        **study_outputs("knn_estimators"),
    params:
        **study_params("knn_estimators"),
    log:
        "logs/knn_estimators.log",
    script:
        "experiments/knn_estimators.py"


rule nested_optimism:
    input:
        code=code_of("experiments/nested_optimism.py"),
        selection=shard_tables("shape_image_datasets", "selection", SHAPE_SHARDS),
        candidate_scores=shard_tables("shape_image_datasets", "candidate_scores", SHAPE_SHARDS),
    output:
        **study_outputs("nested_optimism"),
    params:
        **study_params("nested_optimism"),
    log:
        "logs/nested_optimism.log",
    script:
        "experiments/nested_optimism.py"


# The variance of a CV estimate on many fresh shape-image datasets, sharded the same way.


rule cv_variance_datasets:
    input:
        code=code_of("experiments/cv_variance_datasets.py"),
    output:
        **study_outputs("cv_variance_datasets", "{start}-{stop}"),
    wildcard_constraints:
        start=r"\d+",
        stop=r"\d+",
    params:
        **study_params("cv_variance_datasets", CV_VARIANCE_SIMULATION),
    threads: 1
    log:
        "logs/cv_variance_datasets/{start}-{stop}.log",
    script:
        "experiments/cv_variance_datasets.py"


rule cv_variance:
    input:
        code=code_of("experiments/cv_variance.py"),
        moments=shard_tables("cv_variance_datasets", "moments", CV_VARIANCE_SHARDS),
    output:
        **study_outputs("cv_variance"),
    params:
        **study_params("cv_variance"),
    log:
        "logs/cv_variance.log",
    script:
        "experiments/cv_variance.py"


# The results the documents cite, re-simulated. Where a figure draws a published number as a
# reference line, the registry's printed values are an input: the number lives there only.
rule esl_wrong_and_right_way:
    input:
        code=code_of("experiments/esl_wrong_and_right_way.py"),
        published=PUBLISHED_VALUES,
    output:
        **study_outputs("esl_wrong_and_right_way"),
    params:
        **study_params("esl_wrong_and_right_way"),
    log:
        "logs/esl_wrong_and_right_way.log",
    script:
        "experiments/esl_wrong_and_right_way.py"


rule esl_label_free_split:
    input:
        code=code_of("experiments/esl_label_free_split.py"),
        published=PUBLISHED_VALUES,
    output:
        **study_outputs("esl_label_free_split"),
    params:
        **study_params("esl_label_free_split"),
    log:
        "logs/esl_label_free_split.log",
    script:
        "experiments/esl_label_free_split.py"


rule kohavi_iris_majority:
    input:
        code=code_of("experiments/kohavi_iris_majority.py"),
        published=PUBLISHED_VALUES,
    output:
        **study_outputs("kohavi_iris_majority"),
    params:
        **study_params("kohavi_iris_majority"),
    log:
        "logs/kohavi_iris_majority.log",
    script:
        "experiments/kohavi_iris_majority.py"


rule sklearn_nested_iris:
    input:
        code=code_of("experiments/sklearn_nested_iris.py"),
        shape_images=study("nested_optimism").table_path("per_dataset"),
    output:
        **study_outputs("sklearn_nested_iris"),
    params:
        **study_params("sklearn_nested_iris"),
    log:
        "logs/sklearn_nested_iris.log",
    script:
        "experiments/sklearn_nested_iris.py"


# Varma and Simon (2006): each scenario's datasets in shards that run side by side (the plan is
# shard_plan in src/cvsuite/studies/varma_simon_selection_bias.py), the costly nested loops in
# shards of their own; the study gathers them.


rule varma_simon_datasets:
    input:
        code=code_of("experiments/varma_simon_datasets.py"),
    output:
        **study_outputs("varma_simon_datasets", "{scenario}/{start}-{stop}"),
    wildcard_constraints:
        scenario=r"[a-z_]+",
        start=r"\d+",
        stop=r"\d+",
    params:
        **study_params("varma_simon_datasets", VARMA_SIMON_SIMULATION),
    priority: SIMULATION_PRIORITY
    threads: 1
    log:
        "logs/varma_simon_datasets/{scenario}/{start}-{stop}.log",
    script:
        "experiments/varma_simon_datasets.py"


rule varma_simon_selection_bias:
    input:
        code=code_of("experiments/varma_simon_selection_bias.py"),
        published=PUBLISHED_VALUES,
        per_dataset=[
            study("varma_simon_datasets").table_path("per_dataset", f"{scenario}/{start}-{stop}")
            for scenario, start, stop in VARMA_SIMON_SHARDS
        ],
    output:
        **study_outputs("varma_simon_selection_bias"),
    params:
        **study_params("varma_simon_selection_bias"),
    log:
        "logs/varma_simon_selection_bias.log",
    script:
        "experiments/varma_simon_selection_bias.py"


# "Estimating Out-of-Sample Error": the claims it makes without numbers.
rule temporal_holdout:
    input:
        code=code_of("experiments/temporal_holdout.py"),
    output:
        **study_outputs("temporal_holdout"),
    params:
        **study_params("temporal_holdout"),
    log:
        "logs/temporal_holdout.log",
    script:
        "experiments/temporal_holdout.py"


rule preprocessing_leak:
    input:
        code=code_of("experiments/preprocessing_leak.py"),
    output:
        **study_outputs("preprocessing_leak"),
    params:
        **study_params("preprocessing_leak"),
    log:
        "logs/preprocessing_leak.log",
    script:
        "experiments/preprocessing_leak.py"


rule ordered_folds:
    input:
        code=code_of("experiments/ordered_folds.py"),
    output:
        **study_outputs("ordered_folds"),
    params:
        **study_params("ordered_folds"),
    log:
        "logs/ordered_folds.log",
    script:
        "experiments/ordered_folds.py"


# The twelve observations: the lost table recovered from the printed statistics (the registry
# rows it aims at are its input), then the worked example run on it.
rule recover_twelve_points:
    input:
        code=code_of("experiments/recover_twelve_points.py"),
        published=PUBLISHED_VALUES,
    output:
        **study_outputs("recover_twelve_points"),
    params:
        **study_params("recover_twelve_points"),
    log:
        "logs/recover_twelve_points.log",
    script:
        "experiments/recover_twelve_points.py"


rule twelve_points:
    input:
        code=code_of("experiments/twelve_points.py"),
        table=study("recover_twelve_points").table_path("recovered_table"),
        conventions=study("recover_twelve_points").table_path("conventions"),
        solutions=study("recover_twelve_points").table_path("solutions"),
        published=PUBLISHED_VALUES,
    output:
        **study_outputs("twelve_points"),
    params:
        **study_params("twelve_points"),
    log:
        "logs/twelve_points.log",
    script:
        "experiments/twelve_points.py"


# Robustness: the conclusions re-scored on fresh seeds, disjoint from the documents', at a larger
# scale. The fresh shape-image datasets are more shards of shape_image_datasets.


rule fresh_sine_datasets:
    input:
        code=code_of("experiments/fresh_sine_datasets.py"),
    output:
        **study_outputs("fresh_sine_datasets", "{start}-{stop}"),
    wildcard_constraints:
        start=r"\d+",
        stop=r"\d+",
    params:
        **study_params("fresh_sine_datasets", FRESH_SINE),
    priority: SIMULATION_PRIORITY
    threads: 1
    log:
        "logs/fresh_sine_datasets/{start}-{stop}.log",
    script:
        "experiments/fresh_sine_datasets.py"


rule robustness:
    input:
        code=code_of("experiments/robustness.py"),
        document_estimates=shard_tables("shape_image_datasets", "estimates", SHAPE_SHARDS),
        document_fold_models=shard_tables("shape_image_datasets", "fold_models", SHAPE_SHARDS),
        document_selection=shard_tables("shape_image_datasets", "selection", SHAPE_SHARDS),
        fresh_estimates=shard_tables("shape_image_datasets", "estimates", ROBUST_SHAPE_SHARDS),
        fresh_fold_models=shard_tables("shape_image_datasets", "fold_models", ROBUST_SHAPE_SHARDS),
        fresh_selection=shard_tables("shape_image_datasets", "selection", ROBUST_SHAPE_SHARDS),
        document_k_bias=study("k_bias").table_path("k_bias"),
        document_error_sources=study("k_bias").table_path("error_sources"),
        document_exchange=study("ridge_path").table_path("summary"),
        fresh_exchange=shard_tables("fresh_sine_datasets", "ridge_exchange", ROBUST_SINE_SHARDS),
        fresh_k_bias=shard_tables("fresh_sine_datasets", "k_bias", ROBUST_SINE_SHARDS),
        fresh_error_sources=shard_tables("fresh_sine_datasets", "error_sources", ROBUST_SINE_SHARDS),
    output:
        **study_outputs("robustness"),
    params:
        **study_params("robustness"),
    log:
        "logs/robustness.log",
    script:
        "experiments/robustness.py"


rule compare:
    input:
        code=code_of("experiments/compare.py"),
        captions=figure_captions(),
        registry=REGISTRY,
        studies="studies.yaml",
        schema="schemas/config.schema.yaml",
        tables=study_tables(CATALOG.studies),
        figures=study_figures(CATALOG.studies),
        figure_checks=[study(n).table_path("figure_checks") for n in CATALOG.studies if study(n).figures],
        provenance=[study(n).outputs()["provenance"] for n in CATALOG.studies],
        figure_provenance=[study(n).figure_outputs()["provenance"] for n in CATALOG.studies if study(n).figures],
    output:
        comparison="results/comparison.csv",
        figure_checks="results/figure_checks.csv",
        report="results/REPORT.md",
        comparison_page=report("results/comparison.html", caption="report/comparison.rst", category="published numbers"),
        errata_page=report("results/errata.html", caption="report/errata.rst", category="published numbers"),
        remarks_page=report("results/remarks.html", caption="report/remarks.rst", category="published numbers"),
        # Not embedded in the report: Snakemake 9 embeds a folder only in a zip report, and the report
        # stays one HTML file; its first page (the overview) points here.
        site=directory("results/site"),
        overview="results/overview.rst",
        provenance="results/provenance.json",
    params:
        config=config,
    log:
        "logs/compare.log",
    script:
        "experiments/compare.py"
