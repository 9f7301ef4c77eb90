# The cross-validation experiment suite: a table of contents.
# Each study is declared once, in studies.yaml (its config blocks, what it reads, its tables and
# figures); its rule and its figure rule are generated from that entry. The helpers (the checked
# config, code inputs, outputs, shard plans) are in rules/common.smk; the science is in src/cvsuite
# and the entry points in experiments/. Nothing here computes.

from snakemake.utils import min_version

# Snakemake 9: the `name:` directive of the figure rules, the report's workflow description.
min_version("9.0")


include: "rules/common.smk"
include: "rules/simulation_steps.smk"  # the datasets simulated in shards that studies gather
include: "rules/studies.smk"  # every study's rule, generated from studies.yaml
include: "rules/figures.smk"  # every study's figures, drawn from its saved tables
include: "rules/comparison.smk"  # published beside reproduced


# The Snakemake report opens on the verdict, which the comparison writes.
report: "results/overview.rst"


onsuccess:
    announce_verdict()


localrules:
    all,
    compare,


rule all:
    default_target: True
    input:
        "results/comparison.csv",
        "results/REPORT.md",
