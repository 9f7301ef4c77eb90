"""Numbers in the registry's words are read from the run being judged, and only typed where quoted."""

import pandas as pd
import pytest

from cvsuite.published.templates import (
    MISSING,
    TemplateError,
    check_placeholders,
    parse_placeholder,
    quoted_numbers,
    render,
    typed_numbers,
)

TABLES = {
    "k_bias/k_bias.csv": pd.DataFrame({"K": [2, 5], "bias": [4.983664, 0.039147], "share": [0.95, 0.4]}),
    "k_bias/claims.csv": pd.DataFrame({"claim": ["a"], "reading": ["the bias is above 0"], "holds": [True]}),
}
CONFIG = {"k_bias": {"shuffles": 40, "folds": [2, 5]}}


def test_a_placeholder_reads_its_cell_with_its_format():
    text = "bias ${k_bias/k_bias.csv[K=2].bias:+.2f}, ${k_bias/k_bias.csv[K=5].share:.0%} of ${config:k_bias.shuffles}"
    assert render(text, TABLES, CONFIG) == "bias +4.98, 40% of 40"


def test_a_text_cell_and_a_list_setting_render_as_text():
    assert render("${k_bias/claims.csv[claim=a].reading}", TABLES) == "the bias is above 0"
    assert render("K = ${config:k_bias.folds}", TABLES, CONFIG) == "K = 2, 5"


def test_what_the_run_does_not_compute_reads_not_available():
    assert render("${k_bias/k_bias.csv[K=3].bias:.2f}", TABLES) == MISSING
    assert render("${k_bias/other.csv.x}", TABLES) == MISSING


def test_a_rounded_zero_has_no_sign():
    tables = {"t/x.csv": pd.DataFrame({"v": [-0.0004]})}
    assert render("${t/x.csv.v:.2f}", tables) == "0.00"


def test_a_changed_table_changes_every_number_it_gave():
    """What a seed change does to a note: every placeholder follows its table, nothing typed stays."""
    text = "${k_bias/k_bias.csv[K=2].bias:.3f} and ${k_bias/k_bias.csv[K=5].bias:.4f}"
    moved = {**TABLES, "k_bias/k_bias.csv": TABLES["k_bias/k_bias.csv"].assign(bias=[1.5, 0.02])}
    assert render(text, TABLES) == "4.984 and 0.0391"
    assert render(text, moved) == "1.500 and 0.0200"


@pytest.mark.parametrize("inner", ["k_bias/k_bias.csv[K=2]bias", "config:K", "x.csv.y"])
def test_a_malformed_placeholder_is_refused(inner):
    with pytest.raises(TemplateError):
        parse_placeholder(inner)


def test_placeholders_are_checked_against_the_declared_tables():
    declared = {"k_bias/k_bias.csv": ["K", "bias"]}
    assert check_placeholders("${k_bias/k_bias.csv[K=2].bias:.2f}", declared) is None
    assert "no column 'bias_se'" in check_placeholders("${k_bias/k_bias.csv[K=2].bias_se}", declared)
    assert "no column 'k'" in check_placeholders("${k_bias/k_bias.csv[k=2].bias}", declared)
    assert "format" in check_placeholders("${k_bias/k_bias.csv.bias:.2q}", declared) or check_placeholders(
        "${k_bias/k_bias.csv.bias:.2q}", declared
    )


def test_typed_numbers_are_the_computed_ones_only():
    quotes = quoted_numbers(["'the mean over 40 shuffles is $5.14$'", "81,050", "1.0e-08"])
    text = (
        "the mean over 40 shuffles is 5.14, its s.e. 3.21 (§8.2.4, Table 1, K = 25, 2 SE, degree 12); ${t/x.csv.v}; "
        "'quoted 0.77'; 81050 and 1e-8; Caltech-101"
    )
    assert typed_numbers(text, quotes) == ["3.21"]
