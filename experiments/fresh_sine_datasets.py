"""Simulate one shard of fresh regression samples for the robustness study.

Each sample repeats the ridge path's exchange and the K-bias table of "Regularization and
Cross-Validation" on other seeds than the document's.
"""

import pandas as pd
from threadpoolctl import threadpool_limits

from cvsuite.fresh_sine_datasets import fresh_sine_rows
from cvsuite.outputs import logged_to, write_provenance, write_table


def main(blocks: dict, start: int, stop: int, threads: int, out) -> None:
    rob = blocks["robustness"]
    exchanges, biases = [], []
    with threadpool_limits(limits=threads):
        for seed in range(start, stop):
            exchange, bias = fresh_sine_rows(seed, seed + rob["sine_test_seed_offset"], blocks["sine_data"],
                                             blocks["ridge_path"], blocks["k_bias"], rob["sine_shuffles"])
            exchanges.append(exchange)
            biases.append(bias)
    write_table(pd.concat(exchanges, ignore_index=True), out.exchange)
    write_table(pd.concat(biases, ignore_index=True), out.k_bias)
    write_provenance(out.provenance, "fresh_sine_datasets", {**blocks, "seeds": [start, stop - 1]})


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.blocks, int(snakemake.wildcards.start), int(snakemake.wildcards.stop),  # noqa: F821
             snakemake.threads, snakemake.output)  # noqa: F821
