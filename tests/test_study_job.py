"""run_job's contract: a study writes exactly the tables, columns and figures it declares."""

import json

import pandas as pd
import pytest

from cvsuite.figures import style
from cvsuite.workflow.study_job import OutputMismatch, StudyResult, write_result

COLUMNS = {"summary": ["a", "b"]}


def outputs(tmp_path, figures=()):
    files = {"summary": str(tmp_path / "summary.csv"), "provenance": str(tmp_path / "provenance.json")}
    for figure in figures:
        files[f"{figure}_png"] = str(tmp_path / f"{figure}.png")
        files[f"{figure}_svg"] = str(tmp_path / f"{figure}.svg")
    if figures:
        files["figure_checks"] = str(tmp_path / "figure_checks.csv")
    return files


def test_a_declared_result_is_written_with_its_provenance(tmp_path):
    fig, _ = style.subplots()
    write_result(
        "demo",
        StudyResult({"summary": pd.DataFrame({"a": [1], "b": [0.5]})}, {"plot": fig}, {"note": "n"}),
        outputs(tmp_path, ["plot"]),
        {"demo": {"k": 3}},
        COLUMNS,
    )
    assert (tmp_path / "summary.csv").read_text() == "a,b\n1,0.5\n"
    assert (tmp_path / "plot.png").read_bytes().startswith(b"\x89PNG") and (tmp_path / "plot.svg").exists()
    record = json.loads((tmp_path / "provenance.json").read_text())
    assert record["study"] == "demo" and record["config"] == {"demo": {"k": 3}, "note": "n"}


@pytest.mark.parametrize(
    "result, named",
    [
        (StudyResult({"summary": pd.DataFrame({"a": [1]})}), "has columns ['a'], declared ['a', 'b']"),
        (StudyResult({"summary": pd.DataFrame({"b": [1], "a": [1]})}), "has columns ['b', 'a']"),
        (StudyResult({}), "wrote tables [], declared ['summary']"),
        (StudyResult({"summary": pd.DataFrame({"a": [1], "b": [1]}), "extra": pd.DataFrame()}), "declared ['summary']"),
    ],
)
def test_a_result_other_than_declared_is_refused_and_nothing_written(tmp_path, result, named):
    with pytest.raises(OutputMismatch, match=named.replace("[", r"\[").replace("]", r"\]")):
        write_result("demo", result, outputs(tmp_path), {}, COLUMNS)
    assert not list(tmp_path.iterdir())


def test_a_missing_figure_is_refused(tmp_path):
    with pytest.raises(OutputMismatch, match="drew"):
        write_result(
            "demo",
            StudyResult({"summary": pd.DataFrame({"a": [1], "b": [1]})}),
            outputs(tmp_path, ["plot"]),
            {},
            COLUMNS,
        )
