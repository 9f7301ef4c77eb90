# The comparison: every registered number beside the one this run computed, with REPORT.md, the
# static site and the Snakemake report's first page.


rule compare:
    input:
        code=code_of("experiments/compare.py"),
        registry=REGISTRY,
        census="registry/census.csv",
        notes=sorted(str(p) for p in Path("docs/notes").glob("*.md")),
        studies="studies.yaml",
        schema="schemas/config.schema.yaml",
        tables=study_tables(CATALOG.studies),
        figures=study_figures(CATALOG.studies),
        figure_checks=[study(n).table_path("figure_checks") for n in CATALOG.studies if study(n).figures],
        provenance=[study(n).outputs()["provenance"] for n in CATALOG.studies],
        figure_provenance=[study(n).figure_outputs()["provenance"] for n in CATALOG.studies if study(n).figures],
    output:
        comparison="results/comparison.csv",
        readings="results/readings.csv",
        coverage="results/coverage.csv",
        figure_checks="results/figure_checks.csv",
        report="results/REPORT.md",
        # Not embedded in the report: Snakemake 9 embeds a folder only in a zip report, and the report
        # stays one HTML file; its first page (the overview) points here.
        site=directory("results/site"),
        overview="results/overview.rst",
        provenance="results/provenance.json",
    params:
        **job_params("compare", {"config": config}),
    log:
        "logs/compare.log",
    benchmark:
        "benchmarks/jobs/compare.tsv"
    shell:
        job_command("experiments/compare.py")
