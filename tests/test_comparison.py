"""Verdicts that mean what they say: each status, readings that decide in order, words filled from the run."""

import pandas as pd
import pytest

from cvsuite.published.comparison import STATUSES, compare, verdict_counts
from cvsuite.published.judges import ALLOWANCE_SE, POWER_FRACTION
from cvsuite.published.records import Reading, Record

VAGUE = {"a few percent": {"at_most": "5", "why": "w"}}


def reading(statistic="s/t.csv[K=2].value", judge="rounded", params=None, measure="", **more) -> Reading:
    return Reading(statistic=statistic, judge=judge, params=params or {}, measure=measure, **more)


def record(readings=None, **fields) -> Record:
    base = dict(
        id="demo.x",
        document="Doc",
        quoted_in="Doc",
        section="S",
        quote="the sentence",
        published="0.1528",
        origin="registry/x.yaml, line 1",
    )
    return Record(**{**base, **fields, "readings": tuple(readings if readings is not None else [reading()])})


TABLES = {
    "s/t.csv": pd.DataFrame(
        {
            "K": [2, 5],
            "value": [0.152753, 0.2],
            "value_se": [0.01, 0.01],
            "percent": [25.6, 3.0],
            "flag": ["True", "False"],
            "empty": [float("nan"), 1.0],
        }
    )
}


def run(records, **kwargs):
    return compare(records, TABLES, VAGUE, **kwargs)


def test_matching_digits_read_reproduced_and_others_differ():
    result = run([record(), record(id="demo.y", published="0.1527")])
    assert list(result["status"]) == ["reproduced", "differs"]
    assert result.loc[0, "reproduced"] == repr(0.152753)
    assert result.loc[1, "reproduced_as_printed"] == "0.1528"
    assert result.loc[0, "judge"] == "rounded" and result.loc[0, "statistic"] == "s/t.csv[K=2].value"


def test_a_number_that_was_an_input_reads_reproduced_by_construction():
    inputs = [record(by_construction="solved to reproduce it"), record(id="y", published="9", by_construction="x")]
    assert list(run(inputs)["status"]) == ["reproduced by construction", "differs"]


def test_not_reproducible_keeps_its_reason():
    result = run([record(readings=[], not_reproducible="no data")])
    assert (result.loc[0, "status"], result.loc[0, "note"]) == ("not reproducible", "no data")


def within(published, alternative):
    return record(published=published, readings=[reading(judge="within_se", params={"alternative": alternative})])


def test_a_statistical_figure_is_consistent_only_with_the_power_to_differ():
    # reproduced 0.152753 with SE 0.01: allowance 0.02. 0.17 is 1.7 SE away.
    result = run([within("0.17", "0.5"), within("0.17", "0.2"), within("0.30", "0.5")])
    assert list(result["status"]) == ["consistent", "inconclusive", "differs"]
    assert result.loc[0, "z"] == pytest.approx((0.152753 - 0.17) / 0.01)
    assert result.loc[0, "allowance"] == pytest.approx(ALLOWANCE_SE * 0.01)
    assert result.loc[0, "se"] == 0.01 and result.loc[0, "alternative"] == "0.5"
    assert "1.7 SE" in result.loc[0, "note"] and "too little power" in result.loc[1, "note"]
    assert ALLOWANCE_SE * 0.01 <= POWER_FRACTION * 0.33


def claim(statistic="s/t.csv[K=2].percent", judge="size", params=None, **fields):
    measure = "the bias, in percent of the truth,"
    return record(
        published="True", readings=[reading(statistic, judge, params or {"word": "a few percent"}, measure)], **fields
    )


def test_a_claim_reads_as_its_judges_rule_and_holds_or_differs():
    result = run([claim(), claim(id="demo.y", statistic="s/t.csv[K=5].percent")])
    assert list(result["status"]) == ["differs", "reproduced"]
    assert list(result["reproduced_as_printed"]) == ["False", "True"]
    assert result.loc[0, "reading"] == "the bias, in percent of the truth, is at most 5 ('a few percent')."
    assert result.loc[0, "judge"] == "size('a few percent')"


@pytest.mark.parametrize(
    "statistic, why",
    [
        ("s/t.csv[K=3].value", "rows K=3 match 0 rows of 's/t.csv'"),
        ("s/t.csv[K=2].empty", "the study produced no value"),
    ],
)
def test_a_number_this_config_does_not_compute_says_so_and_the_comparison_completes(statistic, why):
    result = run([record(readings=[reading(statistic)]), record(id="demo.y")])
    assert list(result["status"]) == ["not computed at this config", "reproduced"]
    assert why in result.loc[0, "note"]


def test_a_difference_names_the_settings_that_moved_it_or_says_none_did():
    moved = run([record(published="0.9")], changes={"s": "k_bias.shuffles = 200 (documents: 40)"})
    assert "this run changed k_bias.shuffles = 200 (documents: 40)" in moved.loc[0, "note"]
    still = run([record(published="0.9")])
    assert "no setting of this study differs from the documents'" in still.loc[0, "note"]


def test_verdict_counts_cover_every_status_in_order():
    counts = verdict_counts(run([record(), record(id="demo.y", published="9.9")]))
    assert list(counts) == list(STATUSES)
    assert counts["reproduced"] == 1 and counts["differs"] == 1 and sum(counts.values()) == 2


def test_a_claim_that_holds_on_one_reading_and_fails_on_another_depends_on_the_reading():
    strict = reading("s/t.csv[K=2].percent", "size", {"word": "a few percent"}, "The K = 2 bias in percent")
    loose = reading(
        "s/t.csv[K=2].value", "size", {"at_most": "0.2"}, "the bias in the risk's units",
        settles="the bias is read in the risk's own units", support="of a few percent",
    )  # fmt: skip
    result = run([record(published="True", readings=[strict, loose])]).iloc[0]
    assert (result["status"], result["reproduced_as_printed"]) == ("depends on the reading", "depends")
    assert result["reading"] == "The K = 2 bias in percent is at most 5 ('a few percent')."
    assert result["other_readings"] == "read as the bias in the risk's units is at most 0.2, it holds (0.1528)"
    assert result["remark"] == "" and result["erratum"] == ""
    both_hold = run([record(published="True", readings=[loose, loose])]).iloc[0]
    assert both_hold["status"] == "reproduced" and "it holds" in both_hold["other_readings"]


def test_every_reading_must_hold_to_reproduce_and_an_undecided_one_the_verdict_turns_on_is_inconclusive():
    fails = reading("s/t.csv[K=2].percent", "size", {"word": "a few percent"}, "the bias")
    holds = reading("s/t.csv[K=5].percent", "size", {"word": "a few percent"}, "the bias", settles="s", support="q")
    undecided = reading("s/t.csv[K=2].value", "sign", {"below": "0.15"}, "the estimate", settles="s", support="q")
    result = run([record(published="True", readings=[fails, undecided])]).iloc[0]
    assert result["status"] == "inconclusive" and "too little power" in result["note"]
    assert result["reading"].startswith("the estimate") and "it does not hold (25.6)" in result["other_readings"]
    hanging = run([record(published="True", readings=[holds, undecided])]).iloc[0]
    assert hanging["status"] == "inconclusive"
    split = run([record(published="True", readings=[holds, undecided, fails])]).iloc[0]
    assert split["status"] == "depends on the reading"
    both_fail = run([record(published="True", readings=[fails, fails])]).iloc[0]
    assert both_fail["status"] == "differs" and both_fail["reading"].startswith("the bias")
    # An erratum shows every reading it failed under: the first is the row's reading, the others follow.
    assert both_fail["other_readings"] == "read as the bias is at most 5 ('a few percent'), it does not hold (25.6)"


def test_every_reading_and_every_reading_ruled_out_is_a_row_of_the_readings_table():
    from cvsuite.published.comparison import RULED_OUT, compare_with_readings
    from cvsuite.published.records import Rejected

    fails = reading("s/t.csv[K=2].percent", "size", {"word": "a few percent"}, "the bias")
    loose = reading("s/t.csv[K=2].value", "size", {"at_most": "0.2"}, "the value", settles="units", support="q")
    ruled = Rejected("the bias as a share of the variance", "by a factor of 33", "it measures it against the truth")
    comparison, readings = compare_with_readings(
        [record(published="True", readings=[fails, loose], rejected=(ruled,))], TABLES, VAGUE
    )
    assert list(readings["reading"]) == [1, 2, ""]
    assert list(readings["outcome"]) == ["does not hold", "holds", RULED_OUT]
    assert readings.iloc[1]["settles"] == "units" and readings.iloc[1]["found"] == "0.1528"
    assert readings.iloc[2]["support"] == "by a factor of 33"
    assert comparison.loc[0, "rejected"] == (
        "read as the bias as a share of the variance, ruled out by 'by a factor of 33': "
        "it measures it against the truth"
    )


def test_a_record_counts_as_a_table_cell_a_number_in_the_text_a_claim_in_words_or_a_cited_number():
    result = run(
        [
            record(table_cell=True),
            record(id="b"),
            claim(id="c"),
            record(id="d", document="ESL", cited_words="about 50%"),
            record(id="e", readings=[], published="True", not_reproducible="no data"),
        ]
    )
    assert list(result["kind"]) == [
        "table cell", "number in the text", "claim in words", "cited work's number", "claim in words",
    ]  # fmt: skip


def test_the_words_of_a_record_are_filled_from_the_run_and_its_own_judgement():
    row = claim(
        note="the estimate ${s/t.csv[K=2].value:.3f}; the judge found ${judge.statistic:.1f}",
        remark="strictly, ${config:k.shuffles} shuffles",
        erratum="it is ${judge.statistic:.0f}%",
    )
    result = run([row], config={"k": {"shuffles": 40}}).iloc[0]
    assert (result["note"], result["remark"], result["erratum"]) == (
        "the estimate 0.153; the judge found 25.6; no setting of this study differs from the documents'",
        "strictly, 40 shuffles",
        "it is 26%",
    )


def test_the_report_names_the_versions_once_when_every_study_agrees():
    from cvsuite.published.report import versions_line

    same = {"a": {"numpy": "2.4.6", "scipy": "1.17.1"}, "b": {"numpy": "2.4.6", "scipy": "1.17.1"}}
    assert versions_line(same) == "Computed with numpy 2.4.6, scipy 1.17.1."
    mixed = {**same, "b": {"numpy": "2.3.5", "scipy": "1.17.1"}}
    assert versions_line(mixed).startswith("Studies ran with different package versions: a: numpy 2.4.6")


def test_a_report_table_gives_each_column_the_digits_that_keep_its_values_apart():
    from cvsuite.published.markdown import markdown_table

    solvers = pd.DataFrame(
        {"solver": ["lstsq", "normal equations"], "theta_norm": [81050.60450638719, 81049.01678206706]}
    )
    rows = markdown_table(solvers)
    assert rows[2] == "| lstsq | 81051 |" and rows[3] == "| normal equations | 81049 |"  # 8.105e+04 twice at 4
    assert markdown_table(pd.DataFrame({"x": [0.5, float("nan")]}))[3] == "| — |"


def test_the_errata_drop_the_unmoved_clause_however_the_note_joined_it():
    """A note's parts join as sentences after a full stop, with a semicolon otherwise: the Errata, which
    list only differs rows, leave the clause that no setting moved out either way."""
    from cvsuite.published.comparison import _join
    from cvsuite.published.findings import UNMOVED_NOTE, without_unmoved

    assert _join("Exact.", UNMOVED_NOTE) == f"Exact. {UNMOVED_NOTE[0].upper()}{UNMOVED_NOTE[1:]}"
    assert _join("exact (x drawn)", UNMOVED_NOTE) == f"exact (x drawn); {UNMOVED_NOTE}"
    for note in ("Exact.", "exact (x drawn)", ""):
        assert without_unmoved(_join(note, UNMOVED_NOTE)) == note
    assert without_unmoved("this run changed k_bias.shuffles") == "this run changed k_bias.shuffles"
