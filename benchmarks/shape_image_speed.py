"""Benchmark: the shape-image study (knn_estimators + nested_optimism) against two baselines.

Run from the repository root:  .venv/bin/python benchmarks/shape_image_speed.py [--sklearn-datasets N]

In one run, on this machine:
1. the document's listing (../shared/reference/knn_shape_images.py, when present), timed as a
   subprocess, its printed digits kept;
2. our rules: `snakemake --cores 2 knn_estimators nested_optimism` in a scratch copy of the
   workflow, from nothing (shards, gathers, figures, the scikit-learn cross-check), timed end to end;
   the digits the listing prints are read back from our tables and must be identical;
3. the same study written the usual scikit-learn way (a blur transformer and KNeighborsClassifier in
   a Pipeline, GridSearchCV for the selection, cross_val_score on the same folds), timed on a few
   datasets and scaled to all of them.
Prints the ratios, and writes benchmarks/speed.json and docs/speed.md from it (speed_page.py).
Performance targets live here, never in a timed test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml
from speed_page import speed_page  # beside this file: run as a script, its folder is on the path
from workflow_times import machine

from cvsuite.workflow.workflow_files import copy_workflow

ROOT = Path(__file__).resolve().parents[1]
LISTING = ROOT.parent / "shared" / "reference" / "knn_shape_images.py"
SPEED = ROOT / "benchmarks" / "speed.json"
SPEED_PAGE = ROOT / "docs" / "speed.md"  # written from SPEED (speed_page.py)
# The target: the study's arithmetic this many times faster than the document's listing, in the same run.
TARGET_OVER_LISTING = 20.0


def run_listing() -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(LISTING)], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()
    )
    return time.perf_counter() - start, done.stdout


def run_rules(cores: int) -> tuple[float, Path]:
    workdir = copy_workflow(ROOT, Path(tempfile.mkdtemp(prefix="cvsuite-bench-")))
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", str(cores), "knn_estimators", "nested_optimism", "-q"],
        cwd=workdir,
        check=True,
        capture_output=True,
        text=True,
    )
    return time.perf_counter() - start, workdir


SIMULATE = """
import sys, yaml
from threadpoolctl import threadpool_limits
from cvsuite.studies.shape_image_datasets import ShapeStudySettings, simulate_datasets
c = yaml.safe_load(open(sys.argv[1]))
s = ShapeStudySettings.from_config(c["shape_images"], c["knn_estimators"], c["nested_optimism"])
with threadpool_limits(1):
    simulate_datasets(range(int(sys.argv[2]), int(sys.argv[3])), s)
"""


def run_simulation(cores: int, config: dict) -> float:
    """The study's arithmetic alone: the shards' simulation in `cores` fresh processes, imports included.

    What the rules compute, without Snakemake's scheduling, the gathers' figures and the
    scikit-learn cross-check.
    """
    from cvsuite.workflow.shards import shard_ranges

    si = config["shape_images"]
    per_shard = -(-si["datasets"] // cores)
    start = time.perf_counter()
    workers = [
        subprocess.Popen([sys.executable, "-c", SIMULATE, str(ROOT / "config.yaml"), str(a), str(b)])
        for a, b in shard_ranges(si["first_seed"], si["datasets"], per_shard)
    ]
    for worker in workers:
        assert worker.wait() == 0
    return time.perf_counter() - start


def listing_numbers(text: str) -> list[str]:
    """The result figures of the listing's output, in order (not its labels or settings)."""
    wanted = []
    for line in text.splitlines():
        if line.startswith(("per-class", "5-fold accuracy")):
            wanted += re.findall(r"True|False|\d\.\d{4}", line)
        elif line.startswith("true accuracy (4,000"):
            wanted += re.findall(r"\d\.\d{3}", line)
        elif re.match(r"^(holdout 20%|5-fold|10-fold|leave-one-out)\s", line):
            wanted += re.findall(r"[-+]?\d\.\d{3}", line)
        elif line.startswith("seed "):
            wanted += re.findall(r"\d\.\d{3}", line)
        elif " mean " in line and ("CV" in line or "accuracy" in line):
            wanted += re.findall(r"\d\.\d{3}", line)
        elif line.startswith(("optimism", "error,")):
            wanted += re.findall(r"[-+]\d\.\d{3}|positive in \d+", line)
    return wanted


def our_numbers(results: Path) -> list[str]:
    """The same figures read from our tables, written as the listing writes them."""
    t = pd.read_csv(results / "knn_estimators" / "true_accuracy.csv").iloc[0]
    out = [f"{t.true_accuracy_min:.3f}", f"{t.true_accuracy_max:.3f}"]
    for row in pd.read_csv(results / "knn_estimators" / "summary.csv").itertuples():
        out += [f"{row.mean_error:+.3f}", f"{row.sd_error:.3f}"]
    for row in pd.read_csv(results / "knn_estimators" / "repartition_summary.csv").itertuples():
        out += [f"{row.estimate_min:.3f}", f"{row.estimate_max:.3f}", f"{row.estimate_sd:.3f}"]
    s = pd.read_csv(results / "nested_optimism" / "summary.csv").iloc[0]
    out += [f"{s.non_nested_mean:.3f}", f"{s.nested_mean:.3f}", f"{s.true_mean:.3f}"]
    out += [
        f"{s.optimism_mean:+.3f}",
        f"positive in {int(s.optimism_positive)}",
        f"{s.nested_error_mean:+.3f}",
        f"positive in {int(s.nested_error_positive)}",
    ]
    c = pd.read_csv(results / "knn_estimators" / "sklearn_crosscheck.csv").iloc[0]
    out += [
        str(bool(c.per_class_counts_match_stratified_kfold)),
        str(bool(c.unshuffled_kfold_is_consecutive_blocks)),
        f"{c.ours_accuracy:.4f}",
        f"{c.sklearn_accuracy:.4f}",
    ]
    return out


def sklearn_study(seeds, config: dict) -> list[float]:
    """The study the usual scikit-learn way, on the same images and folds; seconds per dataset."""
    from scipy.ndimage import gaussian_filter
    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.metrics import make_scorer
    from sklearn.model_selection import GridSearchCV, cross_val_score
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import Pipeline

    from cvsuite.data.shape_images import ShapeImageDesign, draw_shape_images
    from cvsuite.methods.folds import leave_one_out_folds, stratified_round_robin_folds

    class Blur(BaseEstimator, TransformerMixin):
        def __init__(self, sigma=1.0, size=16):
            self.sigma, self.size = sigma, size

        def fit(self, X, y=None):
            return self

        def transform(self, X):
            images = X.reshape(len(X), self.size, self.size)
            return np.array([gaussian_filter(x, self.sigma) if self.sigma else x for x in images]).reshape(len(X), -1)

    si, p1, p2 = config["shape_images"], config["knn_estimators"], config["nested_optimism"]
    img = si["images"]
    grid = {"blur__sigma": si["grid"]["sigmas"], "knn__n_neighbors": si["grid"]["ks"]}
    hits = make_scorer(lambda y, p: int(np.sum(y == p)))  # pooled, as the document combines scores

    def pipeline(sigma=p1["sigma"], k=p1["k"]):
        return Pipeline([("blur", Blur(sigma, img["size"])), ("knn", KNeighborsClassifier(k))])

    def splits(folds, n):
        return [(np.setdiff1d(np.arange(n), f), f) for f in folds]

    design = ShapeImageDesign.from_config(img)
    seconds = []
    for seed in seeds:
        start = time.perf_counter()
        rng = np.random.default_rng(seed)
        (X, y), (Xf, yf) = (
            draw_shape_images(img["per_class"], rng, design),
            draw_shape_images(img["fresh_per_class"], rng, design),
        )
        X, Xf = X.reshape(len(X), -1), Xf.reshape(len(Xf), -1)
        pipeline().fit(X, y).score(Xf, yf)
        for folds in (
            [stratified_round_robin_folds(y, p1["holdout_folds"], rng)[:1]]
            + [stratified_round_robin_folds(y, k, rng) for k in p1["kfold_folds"]]
            + [leave_one_out_folds(len(y))]
        ):
            cross_val_score(pipeline(), X, y, cv=splits(folds, len(y)))
        if seed == p1["repartition_seed"]:
            for _ in range(p1["repartitions"]):
                cross_val_score(
                    pipeline(), X, y, cv=splits(stratified_round_robin_folds(y, p1["holdout_folds"], rng)[:1], len(y))
                )
                cross_val_score(
                    pipeline(), X, y, cv=splits(stratified_round_robin_folds(y, p1["repartition_folds"], rng), len(y))
                )
        search = GridSearchCV(
            pipeline(),
            grid,
            scoring=hits,
            cv=splits(stratified_round_robin_folds(y, p2["selection_folds"], rng), len(y)),
        )
        search.fit(X, y).score(Xf, yf)
        for test in stratified_round_robin_folds(y, p2["outer_folds"], rng):
            train = np.setdiff1d(np.arange(len(y)), test)
            inner = splits(stratified_round_robin_folds(y[train], p2["selection_folds"], rng), len(train))
            GridSearchCV(pipeline(), grid, scoring=hits, cv=inner).fit(X[train], y[train]).score(X[test], y[test])
        seconds.append(time.perf_counter() - start)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--sklearn-datasets", type=int, default=2, help="datasets to time the scikit-learn baseline on")
    args = parser.parse_args()
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    n = config["shape_images"]["datasets"]
    record = {"measured": datetime.date.today().isoformat(), "machine": machine(), "cores": args.cores, "datasets": n}

    ours, workdir = run_rules(args.cores)
    simulation = run_simulation(args.cores, config)
    record.update(rules_seconds=round(ours, 1), arithmetic_seconds=round(simulation, 1))
    print(f"our rules (snakemake --cores {args.cores} knn_estimators nested_optimism, from nothing): {ours:.1f} s")
    print(
        f"  of which the study's arithmetic ({n} datasets in {args.cores} processes, imports included): "
        f"{simulation:.1f} s"
    )
    record.update(listing_seconds=None, printed_digits_identical=None, target_over_listing=TARGET_OVER_LISTING)
    if LISTING.exists():
        listing, printed = run_listing()
        same = listing_numbers(printed) == our_numbers(workdir / "results")
        record.update(listing_seconds=round(listing, 1), printed_digits_identical=same)
        print(f"the document's listing:                                        {listing:.1f} s")
        print(
            f"speed-up over the listing: {listing / ours:.1f}x end to end, "
            f"{listing / simulation:.1f}x for the arithmetic (target {TARGET_OVER_LISTING:g}x); "
            f"printed digits identical: {same}"
        )
        if not same:
            print("listing:", listing_numbers(printed), "\nours:   ", our_numbers(workdir / "results"))
    else:
        print(f"{LISTING} not found: no listing to compare with")
    first = config["shape_images"]["first_seed"]
    k = min(args.sklearn_datasets, n)
    seconds = sklearn_study(range(first, first + k), config)
    # The first dataset carries the repartitions; the others stand for the remaining n - 1.
    scaled = seconds[0] + (n - 1) * float(np.mean(seconds[1:] or seconds))
    record["sklearn"] = {
        "timed_datasets": k,
        "seconds": [round(t, 1) for t in seconds],
        "scaled_seconds": round(scaled),
    }
    print(
        f"scikit-learn baseline: timed on datasets {first}..{first + k - 1} "
        f"({', '.join(f'{t:.1f}' for t in seconds)} s; the first carries the repartitions), "
        f"scaled to {n}: about {scaled:.0f} s; speed-up over it: {scaled / ours:.0f}x"
    )
    shutil.rmtree(workdir, ignore_errors=True)
    SPEED.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    SPEED_PAGE.write_text(speed_page(record), encoding="utf-8")
    print(f"wrote {SPEED.relative_to(ROOT)} and {SPEED_PAGE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
