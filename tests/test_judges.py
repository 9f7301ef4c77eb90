"""Each judge decides by its rule alone, says that rule in words, and can say every verdict it claims to."""

import pandas as pd
import pytest

from cvsuite.published.judges import JUDGES, Evidence, JudgeError, describe, parse_judge

VAGUE = {
    "a few percent": {"at_most": "5", "why": "w", "scale": "share", "word": "a few percent"},
    "almost every": {"at_least": "0.8", "why": "w", "scale": "cases", "word": "almost every"},
    "nearly three times": {"at_least": "2.5", "below": "3", "why": "w", "scale": "times", "word": "nearly three times"},
    "no such bias": {"below": "0.25", "why": "w", "scale": "share", "word": "little"},
    "variance/a few percent": {"at_most": "0.05", "why": "w", "scale": "variance", "word": "a few percent"},
}


def judged(name, params, rows, column="x", printed="True"):
    return JUDGES[name](Evidence(column, pd.DataFrame(rows)), params, printed, VAGUE)


def test_every_judge_says_its_null_and_its_rule():
    for judge in JUDGES.values():
        assert judge.doc and judge.kind in ("number", "claim"), judge.name


@pytest.mark.parametrize(
    "spec, parsed",
    [
        ("rounded", ("rounded", {})),
        ({"size": "a few percent"}, ("size", {"word": "a few percent"})),
        ({"sign": {"above": "0"}}, ("sign", {"above": "0"})),
    ],
)
def test_a_judge_is_a_name_with_its_parameters(spec, parsed):
    assert parse_judge(spec) == parsed
    assert describe(*parsed).startswith(parsed[0])


def test_rounded_reads_at_the_printed_precision():
    assert judged("rounded", {}, {"x": [0.152753]}, printed="0.1528").status == "reproduced"
    miss = judged("rounded", {}, {"x": [0.152753]}, printed="0.1527")
    assert (miss.status, miss.shown) == ("differs", "0.1528")
    assert judged("rounded", {}, {"x": [81050.6]}, printed="81,051").shown == "81,051"


def test_rounded_to_significant_figures_reads_at_the_figures_the_digits_show():
    significant = {"figures": "significant"}
    assert judged("rounded", significant, {"x": [81050.6]}, printed="81,050").status == "reproduced"
    assert judged("rounded", significant, {"x": [81050.6]}, printed="81,060").status == "differs"
    assert judged("rounded", {}, {"x": [81050.6]}, printed="81,050").status == "differs"


def test_within_se_is_consistent_only_with_the_power_to_differ():
    rows = {"x": [0.152753], "x_se": [0.01]}
    assert judged("within_se", {"alternative": "0.5"}, rows, printed="0.17").status == "consistent"
    weak = judged("within_se", {"alternative": "0.2"}, rows, printed="0.17")
    assert weak.status == "inconclusive" and weak.within and "too little power" in weak.found
    assert judged("within_se", {"alternative": "0.5"}, rows, printed="0.30").status == "differs"


def test_a_size_bound_comes_from_the_sentence_or_from_the_shared_list():
    assert judged("size", {"word": "a few percent"}, {"x": [4.0]}).status == "reproduced"
    far = judged("size", {"word": "a few percent"}, {"x": [25.6]})
    assert (far.status, far.shown, far.value) == ("differs", "False", 25.6)
    assert "at most 5 ('a few percent')" in far.rule
    assert judged("size", {"word": "nearly three times"}, {"x": [2.67]}).status == "reproduced"
    assert judged("size", {"word": "nearly three times"}, {"x": [3.0]}).status == "differs"
    assert judged("size", {"above": "0.5"}, {"x": [0.6, 0.7]}).status == "reproduced"
    assert judged("size", {"above": "0.5", "rows": "some"}, {"x": [0.1, 0.7]}).status == "reproduced"
    with pytest.raises(JudgeError):
        JUDGES["size"].words({"word": "a few percent", "at_most": "3"}, VAGUE)


def test_a_word_is_read_on_its_home_scale_or_on_the_scale_a_reading_names():
    home = judged("size", {"word": "a few percent"}, {"x": [0.039]})
    assert home.status == "reproduced" and "('a few percent')" in home.rule
    named = judged("size", {"word": "a few percent", "scale": "variance"}, {"x": [0.039]})
    assert named.status == "reproduced" and "('a few percent', on the scale 'variance')" in named.rule
    assert judged("size", {"word": "a few percent", "scale": "variance"}, {"x": [0.07]}).status == "differs"
    assert "not a word on the scale 'cases'" in JUDGES["size"].check({"word": "a few percent", "scale": "cases"}, VAGUE)


def test_a_sign_needs_its_noise_beyond_the_allowance_and_says_differs_only_on_the_other_side():
    assert judged("sign", {"above": "0"}, {"x": [0.5], "x_se": [0.1]}).status == "reproduced"
    assert judged("sign", {"above": "0"}, {"x": [0.1], "x_se": [0.1]}).status == "inconclusive"
    assert judged("sign", {"above": "0"}, {"x": [-0.5], "x_se": [0.1]}).status == "differs"
    assert judged("sign", {"below": "0"}, {"x": [-0.5], "x_se": [0.1]}).status == "reproduced"
    every = judged("sign", {"above": "0"}, {"x": [0.5, 0.05], "x_se": [0.1, 0.1]})
    assert every.status == "inconclusive" and every.value == 0.05
    assert judged("sign", {"above": "0", "rows": "some"}, {"x": [0.5, 0.05], "x_se": [0.1, 0.1]}).status == "reproduced"
    exact = judged("sign", {"above": "0"}, {"x": [6.3e-5], "x_se": [0.0]})  # an exact value: no noise at all
    assert exact.status == "reproduced"


def test_a_sign_takes_its_side_and_bound_from_a_word_and_says_what_it_would_have_seen():
    below = judged("sign", {"word": "no such bias"}, {"x": [0.05], "x_se": [0.05]})
    assert below.status == "reproduced" and "is below 0.25 ('no such bias')" in below.rule
    undecided = judged("sign", {"word": "no such bias"}, {"x": [0.2], "x_se": [0.05]})
    assert undecided.status == "inconclusive" and "a distance from 0.25 of 0.14 would have been seen" in undecided.found
    assert "not both" in JUDGES["sign"].check({"word": "no such bias", "below": "0"}, VAGUE)
    assert "two bounds" in JUDGES["sign"].check({"word": "nearly three times"}, VAGUE)


def test_a_sign_test_counts_draws_so_one_heavy_tail_cannot_swamp_it():
    assert judged("sign_test", {"of": "n"}, {"x": [38], "n": [40]}).status == "reproduced"
    assert judged("sign_test", {"of": "n"}, {"x": [22], "n": [40]}).status == "inconclusive"
    assert judged("sign_test", {"of": "n"}, {"x": [2], "n": [40]}).status == "differs"


def test_monotone_and_interior_minimum_read_a_curve_along_its_parameter():
    curve = {"k": [2, 3, 5], "x": [3.0, 2.0, 1.0]}
    assert judged("monotone", {"falls_along": "k"}, curve).status == "reproduced"
    assert judged("monotone", {"rises_along": "k"}, curve).status == "differs"
    grouped = {"n": [1, 1, 2, 2], "k": [1, 2, 1, 2], "x": [2.0, 1.0, 1.0, 1.0]}
    assert judged("monotone", {"falls_along": "k", "per": "n"}, grouped).status == "differs"
    assert judged("monotone", {"falls_along": "k", "per": "n", "weakly": "true"}, grouped).status == "reproduced"
    bowl = {"d": [0, 1, 2, 3], "x": [3.0, 1.0, 2.0, 4.0]}
    assert judged("interior_minimum", {"along": "d"}, bowl).status == "reproduced"
    assert judged("interior_minimum", {"along": "d"}, {"d": [0, 1], "x": [1.0, 2.0]}).status == "differs"


def test_an_equality_is_refuted_by_a_distance_beyond_the_allowance_and_never_confirmed():
    at = {"at": "0.5"}
    far = judged("sign", at, {"x": [0.39], "x_se": [0.024]})
    assert far.status == "differs" and "(-4.6 SE from 0.5)" in far.found
    assert judged("sign", at, {"x": [0.5], "x_se": [0.01]}).status == "inconclusive"


def test_an_effect_of_either_sign_is_never_refuted_by_a_non_detection():
    either = {"away_from": "0", "rows": "some"}
    assert judged("sign", either, {"x": [0.0, -0.5], "x_se": [0.1, 0.1]}).status == "reproduced"
    missed = judged("sign", either, {"x": [0.05, -0.05], "x_se": [0.1, 0.2]})
    assert missed.status == "inconclusive" and "0.28 would have been seen" in missed.found
    assert judged("sign", either, {"x": [0.0], "x_se": [0.0]}).status == "inconclusive"


def test_a_share_of_a_total_and_an_identity():
    share = judged("size", {"word": "almost every", "over": "n"}, {"x": [35], "n": [40]})
    assert (share.status, share.value, share.found) == ("reproduced", 0.875, "35 of 40 (87.5%)")
    assert judged("size", {"word": "almost every", "over": "n"}, {"x": [30], "n": [40]}).status == "differs"
    assert judged("identity", {"equals": "25"}, {"x": [25, 25]}).status == "reproduced"
    assert judged("identity", {"equals_column": "y"}, {"x": [1.0], "y": [1.0 + 1e-13]}).status == "differs"
    close = judged("identity", {"equals_column": "y", "tolerance": "1e-12"}, {"x": [1.0], "y": [1.0 + 1e-13]})
    assert close.status == "reproduced" and "an identity of the procedure" in close.rule


@pytest.mark.parametrize(
    "name, params, problem",
    [
        ("sign", {}, "give the claimed side"),
        ("monotone", {"along": "k"}, "takes no parameter along"),
        ("sign_test", {}, "needs of"),
        ("identity", {}, "needs equals"),
        ("size", {"word": "several"}, "not a word of the scales of vague words"),
        ("size", {"scale": "share", "at_most": "1"}, "only beside the word"),
        ("rounded", {"figures": "two"}, "figures must be 'significant'"),
    ],
)
def test_a_judges_parameters_are_checked(name, params, problem):
    assert problem in JUDGES[name].check(params, VAGUE)
