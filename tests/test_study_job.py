"""run_job's contract: a study writes exactly the tables, columns and arrays it declares; and its
figure job draws exactly the figures it declares, from those files."""

import json

import numpy as np
import pandas as pd
import pytest

from cvsuite.figures import style
from cvsuite.workflow.figure_job import FigureMismatch, SavedTables, write_figures
from cvsuite.workflow.study_job import OutputMismatch, StudyResult, write_result

COLUMNS = {"summary": ["a", "b"]}


def outputs(tmp_path, arrays=False):
    files = {"summary": str(tmp_path / "summary.csv"), "provenance": str(tmp_path / "provenance.json")}
    if arrays:
        files["figure_arrays"] = str(tmp_path / "figure_arrays.npz")
    return files


def figure_outputs(tmp_path, figures):
    files = {f"{figure}_{fmt}": str(tmp_path / f"{figure}.{fmt}") for figure in figures for fmt in ("png", "svg")}
    files.update({f"{figure}_caption": str(tmp_path / f"{figure}.rst") for figure in figures})
    return {**files, "figure_checks": str(tmp_path / "checks.csv"), "provenance": str(tmp_path / "drawn.json")}


def test_a_declared_result_is_written_with_its_arrays_and_provenance(tmp_path):
    image = np.arange(6.0).reshape(2, 3)
    write_result(
        "demo",
        StudyResult({"summary": pd.DataFrame({"a": [1], "b": [0.5]})}, {"image": image}, {"note": "n"}),
        outputs(tmp_path, arrays=True),
        {"demo": {"k": 3}},
        COLUMNS,
        ["image"],
    )
    assert (tmp_path / "summary.csv").read_text() == "a,b\n1,0.5\n"
    with np.load(tmp_path / "figure_arrays.npz") as saved:
        assert saved.files == ["image"] and np.array_equal(saved["image"], image)
    record = json.loads((tmp_path / "provenance.json").read_text())
    assert record["study"] == "demo" and record["config"] == {"demo": {"k": 3}, "note": "n"}
    assert set(record["outputs"]) == {str(tmp_path / "summary.csv"), str(tmp_path / "figure_arrays.npz")}


def test_arrays_are_written_with_the_same_bytes_every_time(tmp_path):
    saved = []
    for run in ("first", "second"):
        (tmp_path / run).mkdir()
        result = StudyResult({"summary": pd.DataFrame({"a": [1], "b": [2]})}, {"curve": np.linspace(0, 1, 50)})
        write_result("demo", result, outputs(tmp_path / run, arrays=True), {}, COLUMNS, ["curve"])
        saved.append((tmp_path / run / "figure_arrays.npz").read_bytes())
    assert saved[0] == saved[1]


@pytest.mark.parametrize(
    "result, named",
    [
        (StudyResult({"summary": pd.DataFrame({"a": [1]})}), "has columns ['a'], declared ['a', 'b']"),
        (StudyResult({"summary": pd.DataFrame({"b": [1], "a": [1]})}), "has columns ['b', 'a']"),
        (StudyResult({}), "wrote tables [], declared ['summary']"),
        (StudyResult({"summary": pd.DataFrame({"a": [1], "b": [1]}), "extra": pd.DataFrame()}), "declared ['summary']"),
        (StudyResult({"summary": pd.DataFrame({"a": [1], "b": [1]})}, {"image": np.zeros(2)}), "saved arrays"),
    ],
)
def test_a_result_other_than_declared_is_refused_and_nothing_written(tmp_path, result, named):
    with pytest.raises(OutputMismatch, match=named.replace("[", r"\[").replace("]", r"\]")):
        write_result("demo", result, outputs(tmp_path), {}, COLUMNS)
    assert not list(tmp_path.iterdir())


def test_declared_figures_are_checked_saved_and_recorded(tmp_path):
    fig, ax = style.subplots()
    ax.plot([0, 1], [1, 0], label="a line")
    write_figures("demo", {"plot": fig}, figure_outputs(tmp_path, ["plot"]), {"demo": {"k": 3}}, {"plot": "A line."})
    assert (tmp_path / "plot.png").read_bytes().startswith(b"\x89PNG") and (tmp_path / "plot.svg").exists()
    assert (tmp_path / "plot.rst").read_text() == "A line.\n"
    checks = pd.read_csv(tmp_path / "checks.csv")
    assert set(checks["figure"]) == {"demo/plot"}
    record = json.loads((tmp_path / "drawn.json").read_text())
    assert record["study"] == "demo_figures" and str(tmp_path / "plot.png") in record["outputs"]


def test_a_missing_or_extra_figure_is_refused_and_nothing_written(tmp_path):
    fig, _ = style.subplots()
    with pytest.raises(FigureMismatch, match=r"drew \['other'\], declared \['plot'\]"):
        write_figures("demo", {"other": fig}, figure_outputs(tmp_path, ["plot"]), {}, {"plot": "A line."})
    assert not list(tmp_path.iterdir())


def test_saved_tables_are_read_when_first_asked_for(tmp_path):
    (tmp_path / "a.csv").write_text("x\n1.5\n")
    tables = SavedTables({"a": str(tmp_path / "a.csv"), "never": str(tmp_path / "missing.csv")})
    assert list(tables) == ["a", "never"] and tables["a"]["x"].tolist() == [1.5]
