"""Simulate one shard of the cv_variance study: per dataset and K, the held-out error sums."""

import pandas as pd
from threadpoolctl import threadpool_limits

from cvsuite.studies.cv_variance import dataset_error_moments
from cvsuite.workflow.outputs import logged_to, write_provenance, write_table


def main(params: dict, images: dict, start: int, stop: int, threads: int, out) -> None:
    with threadpool_limits(limits=threads):
        moments = pd.concat(
            [dataset_error_moments(seed, images, params["sigma"], params["k"], params["folds"]) for seed in range(start, stop)],
            ignore_index=True,
        )
    write_table(moments, out.moments)
    write_provenance(out.provenance, "cv_variance_datasets", {"cv_variance": params, "images": images, "seeds": [start, stop - 1]})


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.params.images, int(snakemake.wildcards.start),  # noqa: F821
             int(snakemake.wildcards.stop), snakemake.threads, snakemake.output)  # noqa: F821
