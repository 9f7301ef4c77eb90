"""The registry's printed values alone, the extract the studies read (published_values)."""

import pytest

from conftest import project_records
from cvsuite.methods.printed_targets import PrintedTargets
from cvsuite.published.published_values import extract_text, published_value, read_published_values


def test_the_extract_gives_every_printed_value_as_the_registry_does(tmp_path):
    claims = project_records()
    path = tmp_path / "published_values.csv"
    path.write_text(extract_text(claims), encoding="utf-8")
    values = read_published_values(path)
    assert [(v.id, v.published) for v in values] == [(c.id, c.published) for c in claims]
    assert published_value(values, "rcv.823.norm-degree-15") == published_value(claims, "rcv.823.norm-degree-15")
    rows = {"line_cv": "oos.twelve.line-cv"}
    assert PrintedTargets.from_registry(values, rows).texts == PrintedTargets.from_registry(claims, rows).texts


def test_only_the_printed_values_enter_the_extract():
    claims = project_records()
    assert extract_text(claims).splitlines()[0] == "id,published"
    assert all(c.note not in extract_text(claims[:1]) for c in claims[:1] if c.note)


def test_a_file_that_is_not_an_extract_is_refused(tmp_path):
    path = tmp_path / "x.csv"
    path.write_text("id,document\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not an extract"):
        read_published_values(path)
