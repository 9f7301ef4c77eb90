"""The judges of printed numbers: read at the printed precision, or within a re-simulation's noise."""

from __future__ import annotations

from cvsuite.methods.printed_numbers import parse_printed, write_as_printed, write_significant
from cvsuite.published.judgement import (
    ALLOWANCE_SE,
    POWER_FRACTION,
    Evidence,
    Judge,
    JudgeError,
    Judgement,
    judge,
)

NUMBER_JUDGES: dict[str, Judge] = {}


def _rounded_words(params, vague) -> str:
    figures = params.get("figures")
    if figures not in (None, "significant"):
        raise JudgeError(f"figures must be 'significant', not '{figures}'")
    if figures:
        return "rounded to the significant figures the printed digits show, it reads as printed"
    return "written at the printed precision, it reads as printed"


@judge(
    NUMBER_JUDGES,
    "rounded",
    "number",
    takes=("figures",),
    words=_rounded_words,
    plain="""A printed number. Ours, written with as many decimals as the document prints (or, for a number
    printed at a few significant figures, as many figures), must read exactly as printed.""",
)
def rounded(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """The reproduced value, written at the printed precision (rounded as the listings' f-strings do),
    reads as printed; with ``figures: significant``, rounded to the significant figures the printed
    digits show instead (an integer's trailing zeros do not count: 81,050 shows four), for a number
    printed beside others at that many figures (page 802's 81,050 beside 11.83). Null: none; a
    deterministic computation either reads as printed or does not."""
    number = float(evidence.one())
    figure = parse_printed(printed)
    write = write_significant if params.get("figures") == "significant" else write_as_printed
    text = write(number, figure)
    shown = _grouped_like(text, figure.text) + figure.suffix
    status = "reproduced" if text == figure.canonical() else "differs"
    return Judgement(status, number, shown, _rounded_words(params, vague))


@judge(
    NUMBER_JUDGES,
    "exact",
    "number",
    words=lambda p, v: "its text reads as printed",
    plain="A printed text (a label, a version, a printed True) must read exactly as printed.",
)
def exact(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """The reproduced text equals the printed text (a label, a version, the listing's printed True).
    Deterministic."""
    text = str(evidence.one())
    return Judgement("reproduced" if text == printed else "differs", text, text, "its text reads as printed")


def _within_se_words(params, vague) -> str:
    alternative = params.get("alternative")
    if alternative is None:
        raise JudgeError("parameter 'alternative' is needed: the value the claim argues against")
    parse_printed(alternative)
    return (
        f"the published figure lies within {ALLOWANCE_SE:g} standard errors of our estimate, by a test whose "
        f"allowance is at most {POWER_FRACTION:g} of the distance to {alternative}"
    )


@judge(
    NUMBER_JUDGES,
    "within_se",
    "number",
    takes=("alternative",),
    needs=("alternative",),
    reads=lambda column, params: (f"{column}_se",),
    words=_within_se_words,
    plain="""A number the documents cite from a simulation, which we re-run. The printed figure must lie within
    2 standard errors of our estimate, and it is called consistent only when that allowance is at most a
    quarter of the distance to the value the claim argues against, so that the test could have told them
    apart; otherwise it is inconclusive. Outside the allowance it differs.""",
)
def within_se(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """A re-simulated figure: the published value lies within ALLOWANCE_SE standard errors of our
    estimate (the SE adds our Monte Carlo error and, where the source averaged few datasets, its own
    sampling error: ``<column>_se``). Null: the published figure is the expectation we estimate.
    Power: ``consistent`` only when the allowance is at most POWER_FRACTION of the distance to the
    ``alternative``, the value the claim argues against; otherwise ``inconclusive``."""
    number = float(evidence.one())
    se = float(evidence.one(f"{evidence.column}_se"))
    figure = parse_printed(printed)
    shown = write_as_printed(number, figure) + figure.suffix
    rule = _within_se_words(params, vague)
    if not se > 0:
        found = "no positive standard error (too few simulated datasets at this config)"
        return Judgement("not computed at this config", number, shown, rule, found)
    z = (number - figure.value) / se
    allowance = ALLOWANCE_SE * se
    distance = abs(figure.value - parse_printed(params["alternative"]).value)
    powered = allowance <= POWER_FRACTION * distance
    status = "differs" if abs(z) > ALLOWANCE_SE else ("consistent" if powered else "inconclusive")
    found = (
        f"published is {abs(z):.1f} SE from reproduced (SE {se:.3g}; allowance {ALLOWANCE_SE:g} SE = {allowance:.3g})"
    )
    if not powered and status != "differs":
        found += (
            f"; too little power: the allowance is more than {POWER_FRACTION:g} of the distance "
            f"{distance:.3g} to the alternative {params['alternative']}"
        )
    return Judgement(status, number, shown, rule, found, se, allowance, z, within=abs(z) <= ALLOWANCE_SE)


def _grouped_like(written: str, printed: str) -> str:
    """Thousands separators where the document printed them (81050 -> 81,050)."""
    if "," not in printed or "e" in written:
        return written
    sign = written[0] if written[0] in "+-" else ""
    whole, dot, frac = written[len(sign) :].partition(".")
    return f"{sign}{int(whole):,}{dot}{frac}"
