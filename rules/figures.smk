# Figures: each study's figures are drawn by a rule of their own, <study>_figures, from the tables
# and arrays its study job saved (cvsuite.workflow.figure_job), so that restyling a figure reruns
# that rule and the comparison, never the study.


def figure_inputs(name):
    """What a study's figures are drawn from: its code, its tables, its arrays if it saves any, and
    the registry's printed values if its figures draw published numbers."""
    files = {"code": figure_code(name), "tables": study_tables([name])}
    if study(name).figure_arrays:
        files["figure_arrays"] = study(name).arrays_path()
    if study(name).figures_read_published:
        files["published"] = published_values(f"{name}_figures", figure_files(name))
    return files


for _name in (n for n in CATALOG.studies if study(n).figures):

    rule:
        name:
            f"{_name}_figures"
        input:
            **figure_inputs(_name),
        output:
            **figure_outputs(_name),
        params:
            **figure_params(_name),
        priority: FIGURE_PRIORITY
        log:
            f"logs/{_name}_figures.log",
        benchmark:
            f"benchmarks/jobs/{_name}_figures.tsv"
        shell:
            job_command("experiments/draw_figures.py")
