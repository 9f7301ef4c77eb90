"""A job's command line: what a rule's params function writes, its entry point reads back the same."""

import json

import pytest

from cvsuite.workflow.job_spec import Named, job_argument, job_from_command_line


def test_a_job_reads_back_its_files_wildcards_threads_and_parameters_as_written():
    files = Named({"code": "results/code/demo.txt", "shards": ["a.csv", "b.csv"]})
    params = {"blocks": {"demo": {"k": 3, "ratio": 0.1}}, "columns": {"summary": ["a"]}, "arrays": []}
    text = job_argument("demo", Named({"start": "0"}), files, Named({"summary": "s.csv"}), 1, params)
    job = job_from_command_line([text, "logs/demo.log"])
    assert (job.rule, job.threads, job.log) == ("demo", 1, ["logs/demo.log"])
    assert job.input.code == "results/code/demo.txt" and job.input["shards"] == ["a.csv", "b.csv"]
    assert list(job.input) == ["results/code/demo.txt", "a.csv", "b.csv"] and job.input[2] == "b.csv"
    assert dict(job.output.items()) == {"summary": "s.csv"} and list(job.wildcards.values()) == ["0"]
    assert job.params.blocks == params["blocks"] and json.loads(text)["params"] == params


def test_the_config_blocks_keep_their_order():
    blocks = {"scenarios": {"no_difference": 1, "class_difference": 2}}
    text = job_argument("demo", Named(), Named(), Named(), 1, {"blocks": blocks})
    scenarios = job_from_command_line([text, "log"]).params.blocks["scenarios"]
    assert list(scenarios) == ["no_difference", "class_difference"]


def test_a_name_the_job_lacks_is_an_attribute_error_naming_it():
    with pytest.raises(AttributeError, match="published"):
        getattr(Named({"code": "c.txt"}), "published")  # noqa: B009 - the attribute access is the test


def test_an_entry_point_run_without_its_job_says_how_it_is_run():
    with pytest.raises(SystemExit, match="JOB LOG"):
        job_from_command_line([])
