"""Configs that cannot fit in a job's memory are refused before any job, with the estimate."""

import pytest
import yaml

from conftest import ROOT, snakemake
from cvsuite.workflow.memory_needs import memory_needs, oversized_jobs

DOCUMENTS = yaml.safe_load((ROOT / "config.yaml").read_text())
HUGE = "shape_images={images: {size: 4096, fresh_per_class: 1000000}}"


def test_the_shape_image_need_is_the_fresh_images_at_eight_bytes_a_pixel():
    need = {n.rule: n for n in memory_needs(DOCUMENTS)}["shape_image_datasets"]
    assert need.bytes == 4 * 1000 * 16 * 16 * 8  # the document's "4,000 fresh images", 16x16, float64


def test_the_documents_config_fits_a_small_machine():
    assert oversized_jobs(memory_needs(DOCUMENTS), lambda rule: (2 * 2**30, "a 2 GiB machine")) == []


def test_a_need_above_the_budget_is_named_with_its_estimate_and_the_budget():
    config = yaml.safe_load((ROOT / "config.yaml").read_text())
    config["shape_images"]["images"].update(size=4096, fresh_per_class=1_000_000)
    [line] = oversized_jobs(memory_needs(config), lambda rule: (24 * 2**30, "this machine"))
    assert line.startswith("shape_image_datasets: each job needs at least 488.3 TiB for the 4,000,000 fresh images")
    assert line.endswith("this machine gives it 24.0 GiB")


@pytest.mark.parametrize("profile", [[], ["--workflow-profile", "profiles/slurm"]], ids=["this machine", "SLURM"])
def test_a_dry_run_refuses_a_config_that_cannot_fit(workflow_copy, profile):
    run = snakemake(workflow_copy, "all", "-n", *profile, "--config", HUGE)
    assert run.returncode != 0
    assert "The config asks for more memory than a job gets, so no job was run" in run.stderr
    assert "shape_image_datasets: each job needs at least 488.3 TiB" in run.stderr
    assert ("the profile's mem_mb for shape_image_datasets" in run.stderr) == bool(profile)
    assert not (workflow_copy / "results").exists() or not any((workflow_copy / "results").rglob("*.csv"))
