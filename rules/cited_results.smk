# The results the documents cite, re-simulated: The Elements of Statistical Learning's wrong and
# right way and its label-free split, Kohavi's Iris majority, scikit-learn's nested Iris example,
# and Varma and Simon (2006), whose scenarios' datasets run in shards (the nested loops, the costly
# part, in shards of their own) that the study gathers. A study whose science starts from a printed
# number (a calibration) takes the registry's printed values as an input; the printed numbers its
# figures draw are its figure rule's input.


rule esl_wrong_and_right_way:
    input:
        code=code_of("experiments/esl_wrong_and_right_way.py"),
        published=published_of("experiments/esl_wrong_and_right_way.py"),
    output:
        **study_outputs("esl_wrong_and_right_way"),
    params:
        **study_params("esl_wrong_and_right_way"),
    log:
        "logs/esl_wrong_and_right_way.log",
    benchmark:
        "benchmarks/jobs/esl_wrong_and_right_way.tsv"
    shell:
        job_command("experiments/esl_wrong_and_right_way.py")


rule esl_label_free_split:
    input:
        code=code_of("experiments/esl_label_free_split.py"),
        published=published_of("experiments/esl_label_free_split.py"),
    output:
        **study_outputs("esl_label_free_split"),
    params:
        **study_params("esl_label_free_split"),
    log:
        "logs/esl_label_free_split.log",
    benchmark:
        "benchmarks/jobs/esl_label_free_split.tsv"
    shell:
        job_command("experiments/esl_label_free_split.py")


rule kohavi_iris_majority:
    input:
        code=code_of("experiments/kohavi_iris_majority.py"),
    output:
        **study_outputs("kohavi_iris_majority"),
    params:
        **study_params("kohavi_iris_majority"),
    log:
        "logs/kohavi_iris_majority.log",
    benchmark:
        "benchmarks/jobs/kohavi_iris_majority.tsv"
    shell:
        job_command("experiments/kohavi_iris_majority.py")


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
    benchmark:
        "benchmarks/jobs/sklearn_nested_iris.tsv"
    shell:
        job_command("experiments/sklearn_nested_iris.py")


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


rule varma_simon_selection_bias:
    input:
        code=code_of("experiments/varma_simon_selection_bias.py"),
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
    benchmark:
        "benchmarks/jobs/varma_simon_selection_bias.tsv"
    shell:
        job_command("experiments/varma_simon_selection_bias.py")
