"""Simulate one shard of the shape-image datasets ("Cross-Validation", section Example).

Each dataset's Part 1 estimates, its repartitions (on the chosen dataset) and its Part 2 selection
rows; the studies knn_estimators and nested_optimism gather the shards.
"""

from threadpoolctl import threadpool_limits

from cvsuite.workflow.outputs import logged_to, write_provenance, write_table
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, simulate_datasets


def main(blocks: dict, start: int, stop: int, threads: int, out) -> None:
    settings = ShapeStudySettings.from_config(blocks["shape_images"], blocks["knn_estimators"], blocks["nested_optimism"])
    # Parallelism belongs to Snakemake jobs: BLAS threads inside each job only slow it down.
    with threadpool_limits(limits=threads):
        result = simulate_datasets(range(start, stop), settings)
    write_table(result.estimates, out.estimates)
    write_table(result.repartitions, out.repartitions)
    write_table(result.selection, out.selection)
    write_provenance(out.provenance, "shape_image_datasets", {**blocks, "seeds": [start, stop - 1]})
    print(f"datasets {start}..{stop - 1}: {len(result.estimates)} estimate rows, {len(result.selection)} selection rows")


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.blocks, int(snakemake.wildcards.start), int(snakemake.wildcards.stop),  # noqa: F821
             snakemake.threads, snakemake.output)  # noqa: F821
