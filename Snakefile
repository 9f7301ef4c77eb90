# The cross-validation experiment suite: a table of contents.
# One rule per study and simulation step, grouped as the documents are, then the figure rules, the
# comparison and `all`. Each study's tables and figures are declared once, in studies.yaml; the
# helpers (the checked config, code inputs, outputs, shard plans) are in rules/common.smk; the
# science is in src/cvsuite and the entry points in experiments/. Nothing here computes.

from snakemake.utils import min_version

# Snakemake 9: the `name:` directive of the figure rules, the report's workflow description.
min_version("9.0")


include: "rules/common.smk"
include: "rules/regression_examples.smk"  # "Regularization and Cross-Validation"
include: "rules/shape_images.smk"  # "Cross-Validation", Example
include: "rules/cited_results.smk"  # the results the documents cite
include: "rules/claims_in_words.smk"  # "Estimating Out-of-Sample Error"'s claims without numbers
include: "rules/twelve_points.smk"  # "Estimating Out-of-Sample Error"'s worked example
include: "rules/robustness.smk"  # the conclusions on fresh seeds
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
