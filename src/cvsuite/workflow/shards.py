"""Split independent simulated datasets into shards that Snakemake can run side by side."""

from __future__ import annotations


def shard_ranges(first_seed: int, n_datasets: int, per_shard: int) -> list[tuple[int, int]]:
    """Consecutive seed ranges [start, stop) covering first_seed .. first_seed + n_datasets - 1.

    Each dataset's results depend on its seed alone, so the shards can run in any order, on any
    number of cores or cluster nodes, and their rows concatenated in seed order are the same
    whatever ``per_shard`` is.
    """
    if n_datasets < 1 or per_shard < 1:
        raise ValueError("the number of datasets and the datasets per shard must be positive")
    stop = first_seed + n_datasets
    return [(start, min(start + per_shard, stop)) for start in range(first_seed, stop, per_shard)]
