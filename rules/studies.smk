# Every study's rule, generated from its entry in studies.yaml (as the figure rules are): its inputs
# are its code, the printed values it starts from and the tables it reads (study_inputs), its outputs
# the tables it declares, and its job runs experiments/<study>.py.


def study_rule(_name):
    # Defined in a function, not in the loop's body: Snakemake evaluates a rule's `shell:` again when
    # its job runs, and in a loop every job would then run the last study's entry point.
    rule:
        name:
            _name
        input:
            **study_inputs(_name),
        output:
            **study_outputs(_name),
        params:
            **study_params(_name),
        log:
            f"logs/{_name}.log",
        benchmark:
            f"benchmarks/jobs/{_name}.tsv"
        shell:
            job_command(f"experiments/{_name}.py")


for _study in CATALOG.studies:
    study_rule(_study)
