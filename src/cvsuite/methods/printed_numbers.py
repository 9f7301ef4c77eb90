"""Numbers as documents print them, and reproduced values written the same way.

A published figure is kept as text ("49%", "81,050", "+0.000063", "2.576e-05") because its
precision is part of the claim. To compare, the reproduced value is written at the printed
precision (rounded, as the documents' listings print with f-strings) and the two texts must read the same.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = re.compile(
    r"^(?P<sign>[+\-\u2212]?)"
    r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)"
    r"(?:\.(?P<frac>\d+))?"
    r"(?:[eE](?P<exp>[+\-\u2212]?\d+))?"
    r"(?P<suffix>%| percent|x|\u00d7)?$"
)


@dataclass(frozen=True)
class PrintedNumber:
    """A number as printed: its digits, how many decimals, and the decorations around it."""

    text: str
    value: float
    decimals: int
    exponent: int | None
    explicit_sign: bool
    suffix: str

    def canonical(self) -> str:
        """The printed digits with separators and the suffix removed, exponent normalised."""
        return _canonical(self.text)


def parse_printed(text: str) -> PrintedNumber:
    """Parse a printed figure; raise ValueError saying what does not parse."""
    stripped = text.strip()
    match = _NUMBER.match(stripped)
    if not match:
        raise ValueError(f"'{text}' does not parse as a printed number")
    sign = match["sign"].replace("\u2212", "-")
    frac = match["frac"] or ""
    mantissa = f"{sign}{match['int'].replace(',', '')}" + (f".{frac}" if frac else "")
    exponent = int(match["exp"].replace("\u2212", "-")) if match["exp"] else None
    value = float(mantissa) * (10.0**exponent if exponent is not None else 1.0)
    return PrintedNumber(
        text=stripped,
        value=value,
        decimals=len(frac),
        exponent=exponent,
        explicit_sign=bool(sign),
        suffix=match["suffix"] or "",
    )


def _canonical(text: str) -> str:
    match = _NUMBER.match(text.strip())
    assert match is not None
    sign = match["sign"].replace("\u2212", "-")
    body = match["int"].replace(",", "") + (f".{match['frac']}" if match["frac"] else "")
    exp = f"e{int(match['exp'].replace(chr(0x2212), '-'))}" if match["exp"] else ""
    return f"{sign}{body}{exp}"


def write_as_printed(value: float, printed: PrintedNumber) -> str:
    """Write ``value`` with the precision and sign convention of ``printed``, rounding as Python's
    format does (the listings print with f-strings)."""
    d = printed.decimals
    if printed.exponent is not None:
        mantissa, exp_text = f"{value:.{d}e}".split("e")
        text = f"{mantissa}e{int(exp_text)}"
    else:
        text = f"{value:.{d}f}"
    if printed.explicit_sign and not text.startswith("-"):
        text = "+" + text
    return text


def reads_the_same(value: float, printed: PrintedNumber) -> bool:
    """True when ``value`` written at the printed precision reads as the printed figure."""
    return write_as_printed(value, printed) == printed.canonical()


def significant_figures(printed: PrintedNumber) -> int:
    """The significant figures the printed digits show: leading zeros never count, and an integer's
    trailing zeros do not either (81,050 shows four, 0.0500 three, 2.576e-05 four)."""
    match = _NUMBER.match(printed.text)
    digits = (match["int"].replace(",", "") + (match["frac"] or "")).lstrip("0")
    if not match["frac"]:
        digits = digits.rstrip("0")
    return max(1, len(digits))


def write_significant(value: float, printed: PrintedNumber) -> str:
    """``value`` rounded to the significant figures ``printed`` shows, then written as it is printed
    (81,050.60 at the four of 81,050 reads 81050)."""
    rounded = float(f"{value:.{significant_figures(printed) - 1}e}")
    return write_as_printed(rounded, printed)
