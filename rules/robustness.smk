# Robustness: the conclusions re-scored on fresh seeds, disjoint from the documents', at a larger
# scale. The fresh shape-image datasets are more shards of shape_image_datasets (rules/shape_images.smk).


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
    benchmark:
        "benchmarks/jobs/fresh_sine_datasets/{start}-{stop}.tsv"
    shell:
        job_command("experiments/fresh_sine_datasets.py")


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
    benchmark:
        "benchmarks/jobs/robustness.tsv"
    shell:
        job_command("experiments/robustness.py")
