import csv
from pathlib import Path

import pytest

from cvsuite.published.registry import COLUMNS, RegistryError, read_registry

ROOT = Path(__file__).resolve().parents[1]
GOOD = {
    "id": "demo.k2-estimate",
    "document": "Regularization and Cross-Validation",
    "section": "From scratch",
    "where": "K table row 2",
    "published": "5.136417",
    "comparison": "rounded",
    "tolerance": "",
    "table": "k_bias/k_bias.csv",
    "row": "K=2",
    "column": "cv_estimate",
    "figure": "",
    "note": "",
}


def write_rows(path: Path, rows, columns=COLUMNS) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_project_registry_is_well_formed():
    claims = read_registry(ROOT / "registry" / "published_numbers.csv")
    assert len({c.id for c in claims}) == len(claims)


def test_a_good_row_is_read(tmp_path):
    claims = read_registry(write_rows(tmp_path / "r.csv", [GOOD]), known_tables={"k_bias/k_bias.csv"})
    assert claims[0].study == "k_bias"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"published": "5.13.6"}, "does not parse"),
        ({"where": ""}, "'where' is empty"),
        ({"comparison": "roughly"}, "is not one of"),
        ({"table": "k_bias/nowhere.csv"}, "no study produces the table 'k_bias/nowhere.csv'"),
        ({"column": ""}, "must say which result"),
        ({"comparison": "within", "tolerance": "abc"}, "needs a numeric tolerance"),
        ({"comparison": "within", "tolerance": "0.01"}, "needs a note"),
        ({"comparison": "not_reproducible", "table": "", "column": "", "row": ""}, "needs a note saying why"),
        ({"row": "K2"}, "row selector"),
        ({"id": "Has Spaces"}, "id may hold only"),
    ],
)
def test_a_malformed_row_is_refused_with_its_id(tmp_path, change, message):
    row = {**GOOD, **change}
    path = write_rows(tmp_path / "r.csv", [row])
    with pytest.raises(RegistryError, match=message) as err:
        read_registry(path, known_tables={"k_bias/k_bias.csv"})
    assert f"row '{row['id']}'" in str(err.value) or "at line" in str(err.value)


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
        handle.write("demo.extra,a,b,c,1,rounded,,k_bias/k_bias.csv,K=2,cv_estimate,,note,surplus\n")
    with pytest.raises(RegistryError, match="row 'demo.extra' \\(line 3\\) has the wrong number of fields"):
        read_registry(path)


def test_a_missing_registry_is_named(tmp_path):
    with pytest.raises(RegistryError, match="is missing"):
        read_registry(tmp_path / "absent.csv")
