# The cross-validation experiment suite: a table of contents.
# Config and its schema, one rule per study, the comparison, and `all`. The science is in src/cvsuite,
# the entry points in experiments/; nothing here computes.

import sys
from pathlib import Path

from cvsuite.config_validation import ConfigError, checked_config, load_schema
from cvsuite.registry import RegistryError, read_registry

configfile: "config.yaml"

# Refuse a bad config before any job runs: one message naming each bad key, nothing written.
try:
    config.update(checked_config(config, load_schema(Path(workflow.basedir, "schemas/config.schema.yaml"))))
except ConfigError as err:
    sys.exit(str(err))

REGISTRY = "registry/published_numbers.csv"


def figure(study, name):
    """A figure's PNG, shown in `snakemake --report` with its one-line caption."""
    return report(f"figures/{study}/{name}.png", caption=f"report/{study}/{name}.rst", category=study)


rule all:
    input:
        "results/comparison.csv",
        "results/REPORT.md",


rule ridge_path:
    output:
        lambda_table="results/ridge_path/lambda_table.csv",
        lambda_grid="results/ridge_path/lambda_grid.csv",
        summary="results/ridge_path/summary.csv",
        worked_example="results/ridge_path/worked_example.csv",
        worked_example_exchange="results/ridge_path/worked_example_exchange.csv",
        provenance="results/ridge_path/provenance.json",
        path_figure=figure("ridge_path", "risk_and_norm_path"),
        path_figure_svg="figures/ridge_path/risk_and_norm_path.svg",
        worked_figure=figure("ridge_path", "worked_example"),
        worked_figure_svg="figures/ridge_path/worked_example.svg",
    params:
        data=config["sine_data"],
        study=config["ridge_path"],
    log:
        "logs/ridge_path.log",
    script:
        "experiments/ridge_path.py"


rule k_bias:
    output:
        table="results/k_bias/k_bias.csv",
        std_error_range="results/k_bias/std_error_range.csv",
        partition_grid="results/k_bias/partition_grid.csv",
        provenance="results/k_bias/provenance.json",
        bias_figure=figure("k_bias", "cv_estimate_against_k"),
        bias_figure_svg="figures/k_bias/cv_estimate_against_k.svg",
        grid_figure=figure("k_bias", "partition_grid"),
        grid_figure_svg="figures/k_bias/partition_grid.svg",
    params:
        data=config["sine_data"],
        study=config["k_bias"],
    log:
        "logs/k_bias.log",
    script:
        "experiments/k_bias.py"


rule degree_sweep:
    output:
        sweep="results/degree_sweep/degree_sweep.csv",
        summary="results/degree_sweep/summary.csv",
        provenance="results/degree_sweep/provenance.json",
        figure=figure("degree_sweep", "risk_and_norm_by_degree"),
        figure_svg="figures/degree_sweep/risk_and_norm_by_degree.svg",
    params:
        data=config["sine_data"],
        study=config["degree_sweep"],
    log:
        "logs/degree_sweep.log",
    script:
        "experiments/degree_sweep.py"


STUDY_RULES = [rules.ridge_path, rules.k_bias, rules.degree_sweep]
TABLES = [f for r in STUDY_RULES for f in r.output if f.endswith(".csv")]
FIGURES = [f for r in STUDY_RULES for f in r.output if f.endswith(".png")]

# Refuse a malformed registry row before any job runs, naming the row.
try:
    read_registry(REGISTRY, known_tables={t.removeprefix("results/") for t in TABLES})
except RegistryError as err:
    sys.exit(str(err))


rule compare:
    input:
        registry=REGISTRY,
        studies="report/studies.yaml",
        tables=TABLES,
        figures=FIGURES,
    output:
        comparison="results/comparison.csv",
        report="results/REPORT.md",
    log:
        "logs/compare.log",
    script:
        "experiments/compare.py"
