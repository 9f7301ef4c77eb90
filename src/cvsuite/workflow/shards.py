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


def shard_plan(
    scenarios: dict[str, dict], datasets_per_shard: int, nested_per_shard: int
) -> list[tuple[str, int, int]]:
    """Varma and Simon's shards: (scenario, start, stop) of every shard, the datasets with a nested
    loop (the first ones, the costly part) in shards of ``nested_per_shard``, the rest in shards of
    ``datasets_per_shard`` (``scenarios`` as config.yaml's varma_simon_selection_bias.scenarios)."""
    plan = []
    for name, scenario in scenarios.items():
        for classifier, count in scenario["nested"].items():
            if count > scenario["datasets"][classifier]:
                raise ValueError(
                    f"varma_simon_selection_bias.scenarios.{name}.nested.{classifier} = {count}: "
                    f"more than its datasets ({scenario['datasets'][classifier]})"
                )
        nested = max(scenario["nested"].values())
        total = max(scenario["datasets"].values())
        for first, last, size in ((0, nested, nested_per_shard), (nested, total, datasets_per_shard)):
            plan += [(name, start, min(start + size, last)) for start in range(first, last, size)]
    return plan
