"""cvsuite.workflow.shards: simulations split into shards give byte-identical tables, whatever the split and cores."""

import pytest

from conftest import copy_workflow, snakemake
from cvsuite.workflow.shards import shard_plan, shard_ranges

SMALL = "images: {fresh_per_class: 100}"


def test_shard_ranges_cover_every_seed_once():
    assert shard_ranges(5, 7, 3) == [(5, 8), (8, 11), (11, 12)]
    assert shard_ranges(0, 4, 10) == [(0, 4)]


def run_shape_studies(workdir, per_shard: int, cores: int) -> dict:
    override = f"shape_images={{datasets: 6, first_seed: 0, datasets_per_shard: {per_shard}, {SMALL}}}"
    run = snakemake(workdir, "knn_estimators", "nested_optimism", "--cores", str(cores), "--config", override)
    assert run.returncode == 0, run.stderr[-3000:]
    tables = {}
    for study in ("knn_estimators", "nested_optimism"):
        for path in sorted((workdir / "results" / study).glob("*.csv")):
            tables[f"{study}/{path.name}"] = path.read_bytes()
    return tables


@pytest.mark.workflow
def test_shard_size_and_core_count_do_not_change_a_byte(tmp_path):
    one_job = run_shape_studies(copy_workflow(tmp_path / "a"), per_shard=6, cores=1)
    many_jobs = run_shape_studies(copy_workflow(tmp_path / "b"), per_shard=2, cores=2)
    assert len(list((tmp_path / "b" / "results" / "shape_image_datasets").iterdir())) == 3
    assert one_job.keys() == many_jobs.keys() and len(one_job) >= 10
    different = [name for name in one_job if one_job[name] != many_jobs[name]]
    assert not different, f"tables differ between shardings: {different}"


def test_shard_plan_puts_nested_datasets_in_shards_of_their_own():
    spec = {"datasets": {"shrunken_centroids": 25, "svm": 10}, "nested": {"shrunken_centroids": 0, "svm": 5}}
    assert shard_plan({"s": spec}, 10, 2) == [("s", 0, 2), ("s", 2, 4), ("s", 4, 5), ("s", 5, 15), ("s", 15, 25)]
    with pytest.raises(ValueError, match="nested.svm = 11"):
        shard_plan({"s": {**spec, "nested": {"shrunken_centroids": 0, "svm": 11}}}, 10, 2)
