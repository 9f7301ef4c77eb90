"""The memory a simulation job cannot do without, from the config alone, and the check against a budget.

A config that cannot fit (say, 4096-pixel shape images with a million fresh images per class) would
plan every job and fail deep inside a simulation, after the other jobs had run. The Snakefile asks
``oversized_jobs`` at parse time, so a dry run refuses too, with the estimate in the message. Each
estimate counts only the largest array the job must hold at once, so it is a lower bound: a config it
refuses cannot run, and a config it passes may still need more (Python itself, the other arrays).
"""

from __future__ import annotations

from dataclasses import dataclass

FLOAT_BYTES = 8  # every simulation holds its data as float64
SHAPES = 4  # the shape images' classes (cvsuite.data.shape_images.shape_masks)


@dataclass(frozen=True)
class MemoryNeed:
    rule: str  # the Snakemake rule whose every job needs it
    bytes: int
    what: str  # the array, in words, with the config keys it grows with


def memory_needs(config: dict) -> list[MemoryNeed]:
    """The largest array one job of each simulation rule holds at once (see the module's docstring)."""
    images = config["shape_images"]["images"]
    pixels = images["size"] ** 2
    fresh = SHAPES * images["fresh_per_class"]
    labelled = SHAPES * images["per_class"]
    varma = config["varma_simon_selection_bias"]
    samples = 2 * varma["per_class"]
    return [
        MemoryNeed(
            "shape_image_datasets",
            fresh * pixels * FLOAT_BYTES,
            f"the {fresh:,} fresh images of a dataset (4 x shape_images.images.fresh_per_class) of "
            f"{pixels:,} pixels (shape_images.images.size squared), float64",
        ),
        MemoryNeed(
            "cv_variance_datasets",
            labelled * pixels * FLOAT_BYTES,
            f"the {labelled:,} labelled images of a dataset (4 x shape_images.images.per_class) of "
            f"{pixels:,} pixels, float64",
        ),
        MemoryNeed(
            "varma_simon_datasets",
            samples * varma["n_features"] * FLOAT_BYTES,
            f"a dataset's {samples:,} samples (2 x varma_simon_selection_bias.per_class) of "
            f"{varma['n_features']:,} features (varma_simon_selection_bias.n_features), float64",
        ),
    ]


def oversized_jobs(needs: list[MemoryNeed], budget_bytes) -> list[str]:
    """One line per need above ``budget_bytes(rule)`` (a job's memory: the machine's, or the cluster's
    ``mem_mb`` for the rule), naming the rule, the estimate and what it holds."""
    lines = []
    for need in needs:
        budget, where = budget_bytes(need.rule)
        if need.bytes > budget:
            lines.append(
                f"{need.rule}: each job needs at least {_size(need.bytes)} for {need.what}; "
                f"{where} gives it {_size(budget)}"
            )
    return lines


def _size(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if n < 1024 or unit == "PiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")
