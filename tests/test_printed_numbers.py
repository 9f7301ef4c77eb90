import pytest

from cvsuite.methods.printed_numbers import parse_printed, reads_the_same, write_as_printed


@pytest.mark.parametrize(
    "text, value, decimals, suffix",
    [
        ("49%", 49.0, 0, "%"),
        ("81,050", 81050.0, 0, ""),
        ("+0.000063", 0.000063, 6, ""),
        ("2.576e-05", 2.576e-05, 3, ""),
        ("467x", 467.0, 0, "x"),
        ("33×", 33.0, 0, "×"),
        ("75 percent", 75.0, 0, " percent"),
        ("−0.013", -0.013, 3, ""),
    ],
)
def test_parse_printed_keeps_precision_and_decoration(text, value, decimals, suffix):
    printed = parse_printed(text)
    assert printed.value == pytest.approx(value)
    assert printed.decimals == decimals
    assert printed.suffix == suffix


@pytest.mark.parametrize("text", ["4.2.1", "about 7", "", "1e", "12 or 13"])
def test_parse_printed_refuses_what_is_not_one_number(text):
    with pytest.raises(ValueError, match="does not parse"):
        parse_printed(text)


def test_rounding_reads_the_printed_digits():
    assert reads_the_same(49.089576, parse_printed("49%"))
    assert reads_the_same(0.0992273, parse_printed("0.0992"))
    assert not reads_the_same(0.0993, parse_printed("0.0992"))


def test_a_figure_is_read_at_its_printed_precision_by_rounding():
    # Page 802's norm is 81,050.6 by every stable solver: at the printed precision it reads 81,051.
    assert write_as_printed(81050.6045, parse_printed("81,050")) == "81051"
    assert not reads_the_same(81050.6045, parse_printed("81,050"))
    assert write_as_printed(33.6256, parse_printed("33")) == "34"
    assert write_as_printed(-0.0139, parse_printed("-0.013")) == "-0.014"


def test_explicit_sign_is_part_of_the_claim():
    assert reads_the_same(0.0000634, parse_printed("+0.000063"))
    assert not reads_the_same(-0.0000634, parse_printed("+0.000063"))
    assert reads_the_same(-0.0127, parse_printed("-0.013"))


def test_scientific_notation_compares_mantissa_and_exponent():
    assert reads_the_same(2.5764847e-05, parse_printed("2.576e-05"))
    assert reads_the_same(2.5764847e-05, parse_printed("2.6e-5"))
    assert not reads_the_same(2.5764847e-04, parse_printed("2.6e-5"))


@pytest.mark.parametrize(
    ("printed", "figures"),
    [("81,050", 4), ("81050", 4), ("862", 3), ("11.83", 4), ("0.0500", 3), ("2.576e-05", 4), ("40", 1), ("100", 1)],
)
def test_significant_figures_count_no_leading_and_no_integer_trailing_zeros(printed, figures):
    from cvsuite.methods.printed_numbers import significant_figures

    assert significant_figures(parse_printed(printed)) == figures


def test_a_number_read_at_its_significant_figures():
    """Page 802's norm, 81,050.60, at the four figures 81,050 shows reads 81050; at its last digit it would not."""
    from cvsuite.methods.printed_numbers import write_significant

    printed = parse_printed("81,050")
    assert write_significant(81050.60, printed) == "81050"
    assert write_as_printed(81050.60, printed) == "81051"
    assert write_significant(81055.0, printed) == "81060"
    assert write_significant(11.8349, parse_printed("11.83")) == "11.83"
