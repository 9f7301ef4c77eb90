"""Step fresh_sine_datasets: one shard of fresh regression samples for the robustness study.

Each sample repeats the ridge path's exchange and the K-bias table of "Regularization and
Cross-Validation" on other seeds than the document's, with the bias split into its two sources.
"""

import pandas as pd

from cvsuite.studies.fresh_sine_datasets import fresh_sine_rows
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    blocks, rob = job.config, job.config["robustness"]
    start, stop = int(job.wildcards.start), int(job.wildcards.stop)
    exchanges, biases, sources = [], [], []
    for seed in range(start, stop):
        exchange, bias, source = fresh_sine_rows(
            seed,
            seed + rob["sine_test_seed_offset"],
            data=blocks["sine_data"],
            ridge=blocks["ridge_path"],
            k_bias=blocks["k_bias"],
            shuffles=rob["sine_shuffles"],
        )
        exchanges.append(exchange)
        biases.append(bias)
        sources.append(source)
        job.progress(seed - start + 1, stop - start, "fresh samples")
    return StudyResult(
        tables={
            "ridge_exchange": pd.concat(exchanges, ignore_index=True),
            "k_bias": pd.concat(biases, ignore_index=True),
            "error_sources": pd.concat(sources, ignore_index=True),
        },
        provenance={"seeds": [start, stop - 1]},
    )


if __name__ == "__main__":
    run_job(main)
