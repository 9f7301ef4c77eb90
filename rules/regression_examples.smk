# "Regularization and Cross-Validation": the degree-12 ridge path, the K-bias table, page 802's
# degree sweep; and "Estimating Out-of-Sample Error"'s bias-variance decomposition on the same
# curved regression.


rule ridge_path:
    input:
        code=code_of("experiments/ridge_path.py"),
    output:
        **study_outputs("ridge_path"),
    params:
        **study_params("ridge_path"),
    log:
        "logs/ridge_path.log",
    benchmark:
        "benchmarks/jobs/ridge_path.tsv"
    shell:
        job_command("experiments/ridge_path.py")


rule k_bias:
    input:
        code=code_of("experiments/k_bias.py"),
    output:
        **study_outputs("k_bias"),
    params:
        **study_params("k_bias"),
    log:
        "logs/k_bias.log",
    benchmark:
        "benchmarks/jobs/k_bias.tsv"
    shell:
        job_command("experiments/k_bias.py")


rule degree_sweep:
    input:
        code=code_of("experiments/degree_sweep.py"),
    output:
        **study_outputs("degree_sweep"),
    params:
        **study_params("degree_sweep"),
    log:
        "logs/degree_sweep.log",
    benchmark:
        "benchmarks/jobs/degree_sweep.tsv"
    shell:
        job_command("experiments/degree_sweep.py")


rule bias_variance:
    input:
        code=code_of("experiments/bias_variance.py"),
    output:
        **study_outputs("bias_variance"),
    params:
        **study_params("bias_variance"),
    log:
        "logs/bias_variance.log",
    benchmark:
        "benchmarks/jobs/bias_variance.tsv"
    shell:
        job_command("experiments/bias_variance.py")
