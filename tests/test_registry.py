"""The registry is read whole and checked before any job: every field, the quoting, the declared tables."""

import csv
from pathlib import Path

import pytest

from cvsuite.published.registry import COLUMNS, RegistryError, published_value, quoting_problem, read_registry
from cvsuite.workflow.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
DECLARED = {"k_bias/k_bias.csv": ["K", "cv_estimate", "cv_estimate_se", "std_error"], "t/y.csv": ["d", "y_*"]}
GOOD = {
    "id": "demo.k2-estimate",
    "document": "Regularization and Cross-Validation",
    "section": "From scratch",
    "where": "K table row 2",
    "published": "5.136417",
    "comparison": "rounded",
    "table": "k_bias/k_bias.csv",
    "row": "K=2",
    "column": "cv_estimate",
    "alternative": "",
    "by_construction": "",
    "erratum": "",
    "figure": "",
    "note": "",
}


def write_rows(path: Path, rows, columns=COLUMNS) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_project_registry_points_only_at_declared_tables_and_columns():
    declared = load_catalog(ROOT / "studies.yaml").table_columns()
    claims = read_registry(ROOT / "registry" / "published_numbers.csv", declared)
    assert len({c.id for c in claims}) == len(claims)


def test_a_good_row_is_read(tmp_path):
    claims = read_registry(write_rows(tmp_path / "r.csv", [GOOD]), DECLARED)
    assert claims[0].study == "k_bias" and claims[0].row == "K=2"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"published": "5.13.6"}, "does not parse"),
        ({"where": ""}, "'where' is empty"),
        ({"comparison": "roughly"}, "is not one of"),
        ({"table": "k_bias/nowhere.csv"}, "no study produces the table 'k_bias/nowhere.csv'"),
        ({"column": "cv_estimat"}, "table 'k_bias/k_bias.csv' has no column 'cv_estimat'"),
        ({"row": "k=2"}, "table 'k_bias/k_bias.csv' has no column 'k'"),
        ({"column": ""}, "must say which result"),
        ({"comparison": "within_se", "note": "re-simulated"}, "needs the value the claim argues against"),
        ({"comparison": "within_se", "alternative": "50%"}, "needs a note"),
        (
            {"comparison": "within_se", "column": "std_error", "alternative": "1", "note": "n"},
            "no column 'std_error_se'",
        ),
        ({"alternative": "50%"}, "does not test against one"),
        ({"comparison": "not_reproducible", "table": "", "column": "", "row": ""}, "needs a note saying why"),
        ({"row": "K2"}, "row selector"),
        (
            {"comparison": "not_reproducible", "table": "", "column": "", "row": "", "note": "n", "erratum": "wrong"},
            "an erratum needs a comparison that can say 'differs'",
        ),
        ({"id": "Has Spaces"}, "id may hold only"),
    ],
)
def test_a_malformed_row_is_refused_with_its_id(tmp_path, change, message):
    row = {**GOOD, **change}
    path = write_rows(tmp_path / "r.csv", [row])
    with pytest.raises(RegistryError, match=message) as err:
        read_registry(path, DECLARED)
    assert f"row '{row['id']}'" in str(err.value) or "at line" in str(err.value)


def test_a_prefix_pattern_declares_its_columns(tmp_path):
    row = {**GOOD, "table": "t/y.csv", "row": "d=1", "column": "y_3"}
    assert read_registry(write_rows(tmp_path / "r.csv", [row]), DECLARED)[0].column == "y_3"


@pytest.mark.parametrize(
    "line, problem",
    [
        ('a,"b, c",d', None),
        ('a,"say ""hi""",d', None),
        ('a,b"c,d', "a stray quote at column 4 inside an unquoted field"),
        ('a,"b"c,d', "a closing quote at column 5 is followed by 'c', not a comma"),
        ('a,"b,c', "a quoted field is not closed on its line"),
    ],
)
def test_quoting_is_checked_line_by_line(line, problem):
    assert quoting_problem(line) == problem


def test_a_stray_quote_in_a_where_cell_is_refused_with_its_line(tmp_path):
    path = write_rows(tmp_path / "r.csv", [GOOD])
    with path.open("a", encoding="utf-8") as handle:
        handle.write('demo.quote,Doc,S,the "best" score,1.0,rounded,k_bias/k_bias.csv,K=2,cv_estimate,,,,,\n')
    with pytest.raises(RegistryError, match=r"row 'demo.quote' \(line 3\): malformed quoting: a stray quote"):
        read_registry(path, DECLARED)


def test_a_duplicate_id_is_refused(tmp_path):
    path = write_rows(tmp_path / "r.csv", [GOOD, GOOD])
    with pytest.raises(RegistryError, match="row 'demo.k2-estimate' \\(line 3\\) repeats the id of line 2"):
        read_registry(path)


def test_a_missing_column_is_refused(tmp_path):
    columns = [c for c in COLUMNS if c != "note"]
    path = write_rows(tmp_path / "r.csv", [{k: v for k, v in GOOD.items() if k != "note"}], columns)
    with pytest.raises(RegistryError, match="header lacks column\\(s\\) note"):
        read_registry(path)


def test_a_row_with_too_many_fields_is_refused(tmp_path):
    path = write_rows(tmp_path / "r.csv", [GOOD])
    with path.open("a", encoding="utf-8") as handle:
        handle.write("demo.extra,a,b,c,1,rounded,k_bias/k_bias.csv,K=2,cv_estimate,,,,,note,surplus\n")
    with pytest.raises(RegistryError, match="row 'demo.extra' \\(line 3\\) has the wrong number of fields"):
        read_registry(path)


def test_a_missing_registry_is_named(tmp_path):
    with pytest.raises(RegistryError, match="is missing"):
        read_registry(tmp_path / "absent.csv")


def test_published_value_reads_a_registry_row_and_names_a_missing_one(tmp_path):
    claims = read_registry(write_rows(tmp_path / "r.csv", [{**GOOD, "published": "12.5%"}]), DECLARED)
    assert published_value(claims, "demo.k2-estimate") == 12.5
    with pytest.raises(KeyError, match="no row 'x.z'"):
        published_value(claims, "x.z")
