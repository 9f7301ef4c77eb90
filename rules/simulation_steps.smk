# The simulation steps: datasets are independent, so each step simulates them in shards of seeds
# that run side by side (one job per shard; the plans are in rules/common.smk), and the studies that
# read them gather the shards (studies.yaml's `reads`).


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
    benchmark:
        "benchmarks/jobs/varma_simon_datasets/{scenario}/{start}-{stop}.tsv"
    shell:
        job_command("experiments/varma_simon_datasets.py")


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
