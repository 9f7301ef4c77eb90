import pandas as pd
import pytest

from cvsuite.published.comparison import compare, mark_recovered_data, verdict_counts
from cvsuite.published.registry import Claim, RegistryError


def claim(**fields) -> Claim:
    base = dict(
        id="demo.x",
        document="Doc",
        section="S",
        where="w",
        published="0.1528",
        comparison="rounded",
        tolerance=None,
        table="s/t.csv",
        row="K=2",
        column="value",
        figure="",
        note="",
    )
    return Claim(**{**base, **fields})


TABLES = {
    "s/t.csv": pd.DataFrame(
        {"K": [2, 5], "value": [0.152753, 0.2], "value_se": [0.01, 0.01], "flag": ["True", "False"]}
    )
}


def test_matching_digits_read_reproduced_and_others_differ():
    result = compare([claim(), claim(id="demo.y", published="0.1527")], TABLES)
    assert list(result["status"]) == ["reproduced", "differs"]
    assert result.loc[0, "reproduced"] == repr(0.152753)
    assert result.loc[1, "reproduced_as_printed"] == "0.1528"


def test_not_reproducible_keeps_its_reason():
    result = compare([claim(comparison="not_reproducible", table="", column="", row="", note="no data")], TABLES)
    assert result.loc[0, "status"] == "not reproducible"
    assert result.loc[0, "note"] == "no data"


def test_within_se_says_how_many_standard_errors():
    near = claim(published="0.17", comparison="within_se", tolerance=3.0, note="re-simulation")
    far = claim(id="demo.far", published="0.30", comparison="within_se", tolerance=3.0, note="re-simulation")
    result = compare([near, far], TABLES)
    assert list(result["status"]) == ["consistent", "differs"]
    assert "1.7 Monte Carlo SE" in result.loc[0, "note"]


def test_exact_text_comparison():
    result = compare([claim(published="True", comparison="exact", column="flag")], TABLES)
    assert result.loc[0, "status"] == "reproduced"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"column": "nope"}, "has no column 'nope'"),
        ({"row": "K=3"}, "matches 0 rows"),
        ({"table": "s/other.csv"}, "no study produced the table"),
    ],
)
def test_a_claim_pointing_nowhere_names_its_id(fields, message):
    with pytest.raises(RegistryError, match=message) as err:
        compare([claim(**fields)], TABLES)
    assert "'demo.x'" in str(err.value)


def test_verdict_counts_cover_every_status():
    result = compare([claim(), claim(id="demo.y", published="9.9")], TABLES)
    assert verdict_counts(result) == {
        "reproduced": 1,
        "reproduced from recovered data": 0,
        "consistent": 0,
        "differs": 1,
        "not reproducible": 0,
    }


def test_numbers_from_recovered_data_say_so():
    result = mark_recovered_data(compare([claim(), claim(id="demo.y", published="0.1527")], TABLES), {"s"})
    assert list(result["status"]) == ["reproduced from recovered data", "differs"]
