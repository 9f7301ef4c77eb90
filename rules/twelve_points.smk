# The twelve observations of "Estimating Out-of-Sample Error": the lost table recovered from the
# printed statistics (the printed values it aims at are its input), then the worked example run on it.


rule recover_twelve_points:
    input:
        code=code_of("experiments/recover_twelve_points.py"),
        published=published_of("experiments/recover_twelve_points.py"),
    output:
        **study_outputs("recover_twelve_points"),
    params:
        **study_params("recover_twelve_points"),
    log:
        "logs/recover_twelve_points.log",
    benchmark:
        "benchmarks/jobs/recover_twelve_points.tsv"
    shell:
        job_command("experiments/recover_twelve_points.py")


rule twelve_points:
    input:
        code=code_of("experiments/twelve_points.py"),
        table=study("recover_twelve_points").table_path("recovered_table"),
        conventions=study("recover_twelve_points").table_path("conventions"),
        solutions=study("recover_twelve_points").table_path("solutions"),
    output:
        **study_outputs("twelve_points"),
    params:
        **study_params("twelve_points"),
    log:
        "logs/twelve_points.log",
    benchmark:
        "benchmarks/jobs/twelve_points.tsv"
    shell:
        job_command("experiments/twelve_points.py")
