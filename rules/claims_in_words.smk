# "Estimating Out-of-Sample Error": the claims it makes without numbers, each put to a test.


rule temporal_holdout:
    input:
        code=code_of("experiments/temporal_holdout.py"),
    output:
        **study_outputs("temporal_holdout"),
    params:
        **study_params("temporal_holdout"),
    log:
        "logs/temporal_holdout.log",
    benchmark:
        "benchmarks/jobs/temporal_holdout.tsv"
    shell:
        job_command("experiments/temporal_holdout.py")


rule preprocessing_leak:
    input:
        code=code_of("experiments/preprocessing_leak.py"),
    output:
        **study_outputs("preprocessing_leak"),
    params:
        **study_params("preprocessing_leak"),
    log:
        "logs/preprocessing_leak.log",
    benchmark:
        "benchmarks/jobs/preprocessing_leak.tsv"
    shell:
        job_command("experiments/preprocessing_leak.py")


rule ordered_folds:
    input:
        code=code_of("experiments/ordered_folds.py"),
    output:
        **study_outputs("ordered_folds"),
    params:
        **study_params("ordered_folds"),
    log:
        "logs/ordered_folds.log",
    benchmark:
        "benchmarks/jobs/ordered_folds.tsv"
    shell:
        job_command("experiments/ordered_folds.py")


rule grouped_folds:
    input:
        code=code_of("experiments/grouped_folds.py"),
    output:
        **study_outputs("grouped_folds"),
    params:
        **study_params("grouped_folds"),
    log:
        "logs/grouped_folds.log",
    benchmark:
        "benchmarks/jobs/grouped_folds.tsv"
    shell:
        job_command("experiments/grouped_folds.py")


rule test_set_reuse:
    input:
        code=code_of("experiments/test_set_reuse.py"),
    output:
        **study_outputs("test_set_reuse"),
    params:
        **study_params("test_set_reuse"),
    log:
        "logs/test_set_reuse.log",
    benchmark:
        "benchmarks/jobs/test_set_reuse.tsv"
    shell:
        job_command("experiments/test_set_reuse.py")
