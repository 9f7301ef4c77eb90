"""Verdicts that mean what they say: each status, and the power a `consistent` needs."""

import pandas as pd
import pytest

from cvsuite.published.comparison import ALLOWANCE_SE, POWER_FRACTION, STATUSES, compare, verdict_counts
from cvsuite.published.registry import Claim

BASE = dict(
    id="demo.x",
    document="Doc",
    section="S",
    where="w",
    published="0.1528",
    comparison="rounded",
    reading="",
    evidence="",
    table="s/t.csv",
    row="K=2",
    column="value",
    alternative="",
    by_construction="",
    erratum="",
    remark="",
    figure="",
    note="",
)


def claim(**fields) -> Claim:
    return Claim(**{**BASE, **fields})


TABLES = {
    "s/t.csv": pd.DataFrame(
        {
            "K": [2, 5],
            "value": [0.152753, 0.2],
            "value_se": [0.01, 0.01],
            "flag": ["True", "False"],
            "empty": [float("nan"), 1.0],
        }
    )
}


def test_matching_digits_read_reproduced_and_others_differ():
    result = compare([claim(), claim(id="demo.y", published="0.1527")], TABLES)
    assert list(result["status"]) == ["reproduced", "differs"]
    assert result.loc[0, "reproduced"] == repr(0.152753)
    assert result.loc[1, "reproduced_as_printed"] == "0.1528"


def test_a_number_that_was_an_input_reads_reproduced_by_construction():
    inputs = [claim(by_construction="solved to reproduce it"), claim(id="y", published="9", by_construction="x")]
    result = compare(inputs, TABLES)
    assert list(result["status"]) == ["reproduced by construction", "differs"]


def test_not_reproducible_keeps_its_reason():
    result = compare([claim(comparison="not_reproducible", table="", column="", row="", note="no data")], TABLES)
    assert result.loc[0, "status"] == "not reproducible"
    assert result.loc[0, "note"] == "no data"


def statistical(published, alternative, **fields):
    return claim(comparison="within_se", published=published, alternative=alternative, note="re-simulated", **fields)


def test_a_statistical_figure_is_consistent_only_with_the_power_to_differ():
    # reproduced 0.152753 with SE 0.01: allowance 0.02. 0.17 is 1.7 SE away.
    far_alternative = statistical("0.17", "0.5")  # distance 0.33: allowance 0.02 <= 0.0825
    near_alternative = statistical("0.17", "0.2")  # distance 0.03: allowance 0.02 > 0.0075
    beyond = statistical("0.30", "0.5")
    result = compare([far_alternative, near_alternative, beyond], TABLES)
    assert list(result["status"]) == ["consistent", "inconclusive", "differs"]
    assert result.loc[0, "z"] == pytest.approx((0.152753 - 0.17) / 0.01)
    assert result.loc[0, "allowance"] == pytest.approx(ALLOWANCE_SE * 0.01)
    assert result.loc[0, "se"] == 0.01 and result.loc[0, "alternative"] == "0.5"
    assert "1.7 SE" in result.loc[0, "note"] and "too little power" in result.loc[1, "note"]
    assert ALLOWANCE_SE * 0.01 <= POWER_FRACTION * 0.33


def test_exact_text_comparison():
    result = compare([claim(published="True", comparison="exact", column="flag")], TABLES)
    assert result.loc[0, "status"] == "reproduced"


@pytest.mark.parametrize(
    "fields, why",
    [({"row": "K=3"}, "row K=3 matches 0 rows of 's/t.csv'"), ({"column": "empty"}, "the study produced no value")],
)
def test_a_number_this_config_does_not_compute_says_so_and_the_comparison_completes(fields, why):
    result = compare([claim(**fields), claim(id="demo.y")], TABLES)
    assert list(result["status"]) == ["not computed at this config", "reproduced"]
    assert why in result.loc[0, "note"]


def test_a_difference_names_the_settings_that_moved_it_or_says_none_did():
    moved = compare([claim(published="0.9")], TABLES, {"s": "k_bias.shuffles = 200 (documents: 40)"})
    assert "this run changed k_bias.shuffles = 200 (documents: 40)" in moved.loc[0, "note"]
    still = compare([claim(published="0.9")], TABLES)
    assert "no setting of this study differs from the documents'" in still.loc[0, "note"]


def test_verdict_counts_cover_every_status_in_order():
    result = compare([claim(), claim(id="demo.y", published="9.9")], TABLES)
    counts = verdict_counts(result)
    assert list(counts) == list(STATUSES)
    assert counts["reproduced"] == 1 and counts["differs"] == 1 and sum(counts.values()) == 2


def test_the_report_names_the_versions_once_when_every_study_agrees():
    from cvsuite.published.report import versions_line

    same = {"a": {"numpy": "2.4.6", "scipy": "1.17.1"}, "b": {"numpy": "2.4.6", "scipy": "1.17.1"}}
    assert versions_line(same) == "Computed with numpy 2.4.6, scipy 1.17.1."
    mixed = {**same, "b": {"numpy": "2.3.5", "scipy": "1.17.1"}}
    assert versions_line(mixed).startswith("Studies ran with different package versions: a: numpy 2.4.6")


def test_a_report_table_gives_each_column_the_digits_that_keep_its_values_apart():
    from cvsuite.published.report import markdown_table

    solvers = pd.DataFrame(
        {"solver": ["lstsq", "normal equations"], "theta_norm": [81050.60450638719, 81049.01678206706]}
    )
    rows = markdown_table(solvers)
    assert rows[2] == "| lstsq | 81051 |" and rows[3] == "| normal equations | 81049 |"  # 8.105e+04 twice at 4
    assert markdown_table(pd.DataFrame({"x": [0.5, float("nan")]}))[3] == "| — |"


def test_an_undecided_claim_reads_inconclusive_never_differs():
    tables = {"s/c.csv": pd.DataFrame({"claim": ["a", "b"], "holds": ["undecided", "False"]})}
    rows = [
        claim(comparison="exact", published="True", table="s/c.csv", row="claim=a", column="holds"),
        claim(id="demo.b", comparison="exact", published="True", table="s/c.csv", row="claim=b", column="holds"),
    ]
    result = compare(rows, tables)
    assert list(result["status"]) == ["inconclusive", "differs"]
    assert "too little power" in result.loc[0, "note"]


def test_the_words_of_a_row_are_filled_from_the_run_and_kept_apart():
    row = claim(
        note="the estimate ${s/t.csv[K=2].value:.3f}",
        reading="K = 2 reads ${s/t.csv[K=5].value:.1f}",
        remark="strictly, ${config:k.shuffles} shuffles",
        evidence="figure: s/t.csv[K=2]:value",
    )
    result = compare([row], TABLES, config={"k": {"shuffles": 40}}).iloc[0]
    assert (result["note"], result["reading"], result["remark"]) == (
        "the estimate 0.153",
        "K = 2 reads 0.2",
        "strictly, 40 shuffles",
    )
    assert result["evidence"] == "figure: s/t.csv[K=2]:value"


def test_significant_reads_a_number_at_the_figures_its_digits_show():
    tables = {"s/t.csv": pd.DataFrame({"K": [15], "value": [81050.60]})}
    read = dict(row="K=15", reading="r", evidence="figure: s/t.csv:value")
    rounded = compare([claim(published="81,050", **read)], tables)
    significant = compare([claim(published="81,050", comparison="significant", **read)], tables)
    assert rounded.loc[0, "status"] == "differs" and rounded.loc[0, "reproduced_as_printed"] == "81,051"
    assert significant.loc[0, "status"] == "reproduced" and significant.loc[0, "reproduced_as_printed"] == "81,050"
    five = compare([claim(published="81,060", comparison="significant", **read)], tables)
    assert five.loc[0, "status"] == "differs"
