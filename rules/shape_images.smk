# "Cross-Validation", Example: the shape-image kNN study. Datasets are independent, so they are
# simulated in shards of seeds that run side by side (the plans are in rules/common.smk);
# knn_estimators (Part 1) and nested_optimism (Part 2) gather them. The variance of a CV estimate
# on many fresh shape-image datasets is sharded the same way.


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
    benchmark:
        "benchmarks/jobs/shape_image_datasets/{start}-{stop}.tsv"
    shell:
        job_command("experiments/shape_image_datasets.py")


rule knn_estimators:
    input:
        code=code_of("experiments/knn_estimators.py"),
        published=published_of("experiments/knn_estimators.py"),
        estimates=shard_tables("shape_image_datasets", "estimates", SHAPE_SHARDS),
        repartitions=shard_tables("shape_image_datasets", "repartitions", SHAPE_SHARDS),
        fold_models=shard_tables("shape_image_datasets", "fold_models", SHAPE_SHARDS),
    output:
        **study_outputs("knn_estimators"),
    params:
        **study_params("knn_estimators"),
    log:
        "logs/knn_estimators.log",
    benchmark:
        "benchmarks/jobs/knn_estimators.tsv"
    shell:
        job_command("experiments/knn_estimators.py")


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
    benchmark:
        "benchmarks/jobs/nested_optimism.tsv"
    shell:
        job_command("experiments/nested_optimism.py")


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
    benchmark:
        "benchmarks/jobs/cv_variance_datasets/{start}-{stop}.tsv"
    shell:
        job_command("experiments/cv_variance_datasets.py")


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
    benchmark:
        "benchmarks/jobs/cv_variance.tsv"
    shell:
        job_command("experiments/cv_variance.py")
