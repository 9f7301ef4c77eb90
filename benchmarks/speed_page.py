"""docs/speed.md, written from benchmarks/speed.json: what `shape_image_speed.py` measured, and how.

The page is generated, never typed: `shape_image_speed.py` writes it after each measurement, and
tests/test_packaging.py holds the committed page to what this renders from the committed record.
"""

from __future__ import annotations


def speed_page(speed: dict) -> str:
    """The Markdown of docs/speed.md for one speed.json."""
    machine = speed["machine"]
    packages = ", ".join(f"{name} {version}" for name, version in machine["packages"].items())
    listing, ours, arithmetic, sklearn = (
        speed.get("listing_seconds"),
        speed["rules_seconds"],
        speed["arithmetic_seconds"],
        speed["sklearn"],
    )
    rows = [
        "| | time | ratio |",
        "| --- | --- | --- |",
        f"| the listing | {listing} s | |" if listing else "| the listing | not found beside the repository | |",
        f"| our two rules through Snakemake, from nothing (shards, gathers, figures, the scikit-learn check) "
        f"| {ours} s | {_faster(listing, ours, 'the listing')} |",
        f"| the same rules' arithmetic alone ({speed['datasets']} datasets in {speed['cores']} processes, "
        f"imports included) | {arithmetic} s | {_faster(listing, arithmetic, 'the listing')} |",
        f"| the scikit-learn way (timed on {sklearn['timed_datasets']} datasets, scaled to {speed['datasets']}) "
        f"| about {sklearn['scaled_seconds']:,} s | ours {sklearn['scaled_seconds'] / ours:.0f}x faster |",
    ]
    target = speed["target_over_listing"]
    if listing:
        met = listing / arithmetic >= target
        verdict = (
            f"The target, {target:g}x faster than the listing (`TARGET_OVER_LISTING` in the benchmark), is "
            f"{'met' if met else 'not met'}: {listing / arithmetic:.1f}x for the arithmetic, "
            f"{listing / ours:.1f}x end to end. The digits the listing prints and ours are "
            f"{'identical' if speed['printed_digits_identical'] else 'NOT identical'}."
        )
    else:
        verdict = "Without the listing beside the repository, no ratio to it was measured."
    return "\n".join(
        [
            "# Speed",
            "",
            "<!-- Written by benchmarks/shape_image_speed.py from benchmarks/speed.json; do not edit. -->",
            "",
            "`benchmarks/shape_image_speed.py` times, in one run on the same machine, the document's listing",
            '(`../shared/reference/knn_shape_images.py`: the code "Cross-Validation" prints, cut from it into a',
            "file beside this repository; the benchmark skips it when the file is absent), our `knn_estimators`",
            "and `nested_optimism` from nothing, and the same study written the usual scikit-learn way (a blur",
            "transformer and `KNeighborsClassifier` in a Pipeline, `GridSearchCV`, `cross_val_score` on the same",
            "folds), and checks that the digits the listing prints are identical to ours.",
            "",
            f"Measured on {speed['measured']}, on {machine['processor']}, {machine['cores']} cores, "
            f"{machine['memory_gib']} GiB (load {machine['load_average_at_start']} when it started; Python "
            f"{machine['python']}, {packages}):",
            "",
            *rows,
            "",
            verdict,
            "",
            "## Why ours is faster, and where the floor is",
            "",
            "Our rules draw the same random numbers in the same order (one 64-bit word for the two shifts, one",
            "for the contrast; proved equal to the literal calls), blur the labelled images once per blur, rank",
            "the fresh images at each blur without blurring them (one product of the unblurred fresh images with",
            "the back-blurred labelled images orders each row as the blurred distances do; a row whose first",
            "places hold two keys within 1e-10 of its scale is ranked the document's way), and check only the",
            "places a study reads. Most of the remaining end-to-end time is fixed cost, not arithmetic:",
            "Snakemake's start, one Python start and imports per job (numpy, pandas, matplotlib, and",
            "scikit-learn for the cross-check), and drawing figures.",
            "",
            "The arithmetic's floor is set by what the document fixes: the images' normals must be drawn one",
            "image at a time in the listing's order (one call for all would change the stream), and the nearest",
            "neighbours' order needs a sort of every fresh image's row at every blur. To see where a shard's",
            "time goes on your machine, profile one: `python -m cProfile -s cumtime` on the benchmark's",
            "`SIMULATE` snippet.",
            "",
        ]
    )


def _faster(baseline: float | None, ours: float, name: str) -> str:
    return f"{baseline / ours:.1f}x faster than {name}" if baseline else ""
