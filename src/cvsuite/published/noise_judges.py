"""The judges of claims about noisy estimates: the sign of a mean, an ordering of a paired difference,
a sign test, and the detection of an effect, each with its standard errors and its power."""

from __future__ import annotations

import math

from cvsuite.published.judgement import (
    DETECTION_SE,
    POWER_SE,
    SIGN_LEVEL,
    Evidence,
    Judge,
    JudgeError,
    Judgement,
    claim_judgement,
    every_row,
    judge,
    number,
    rows_words,
    short,
    short4,
)

NOISE_JUDGES: dict[str, Judge] = {}


# ----------------------------------------------------------------------------------------------
# Claims: signs and orderings with their noise


def _direction(params, vague) -> tuple[str, float, str]:
    """The claimed side, its reference value, and where the value comes from: the record's number, or
    a vague word's bound ("no such bias": below a quarter of the bias it answers)."""
    given = [k for k in ("above", "below") if k in params]
    if len(given) != 1:
        raise JudgeError("give the claimed side: above or below (a reference value, usually 0)")
    side, value = given[0], params[given[0]]
    try:
        return side, float(value), ""
    except (TypeError, ValueError):
        pass
    if value not in vague:
        raise JudgeError(f"'{value}' is neither a number nor in the list of vague words (registry/vague_words.yaml)")
    bound = [k for k in ("at_most", "below", "at_least", "above") if k in vague[value]]
    return side, float(vague[value][bound[0]]), f" ('{value}')"


def _sign_words(params, vague, paired: bool = False) -> str:
    side, reference, word = _direction(params, vague)
    z = number(params, "se", DETECTION_SE)
    every_row(params)
    kind = "paired standard errors" if paired else "standard errors"
    return f"is {side} {short(reference)}{word} by more than {short(z)} {kind}{rows_words(params, '')}"


def _signed(evidence: Evidence, params, vague, paired: bool) -> Judgement:
    side, reference, _ = _direction(params, vague)
    z = number(params, "se", DETECTION_SE)
    values, ses = evidence.numbers(), evidence.se()
    sign = 1.0 if side == "above" else -1.0
    scores = [_z(sign * (v - reference), s) for v, s in zip(values, ses)]
    holds_each = [s > z for s in scores]
    fails_each = [s < -z for s in scores]
    every = every_row(params)
    if all(holds_each) if every else any(holds_each):
        verdict = True
    elif any(fails_each) if every else all(fails_each):
        verdict = False
    else:
        verdict = None
    pick = min(range(len(scores)), key=scores.__getitem__) if every else max(range(len(scores)), key=scores.__getitem__)
    found = f"{short4(values[pick])} ± {short4(ses[pick])} ({sign * scores[pick]:+.1f} SE from {short(reference)})"
    if len(values) > 1:
        found += f"; {sum(holds_each)} of {len(values)} rows beyond {short(z)} SE"
    return claim_judgement(verdict, values[pick], _sign_words(params, vague, paired), found, ses[pick])


def _z(difference: float, se: float) -> float:
    if se > 0:
        return difference / se
    return math.copysign(math.inf, difference) if difference else 0.0


@judge(
    NOISE_JUDGES,
    "sign",
    "claim",
    takes=("above", "below", "se", "rows"),
    reads=lambda column, params: (f"{column}_se",),
    many_rows=True,
    words=lambda p, v: _sign_words(p, v),
)
def sign(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """The sign of a mean: the estimate lies above (or below) a reference by more than ``se`` (2) of
    its standard errors (``<column>_se``). Null: the mean equals the reference. It says ``differs``
    only when the estimate lies beyond ``se`` standard errors on the other side; between, it cannot
    decide (``inconclusive``): an effect of 2.8 SE is seen 80% of the time."""
    return _signed(evidence, params, vague, paired=False)


@judge(
    NOISE_JUDGES,
    "ordered",
    "claim",
    takes=("above", "below", "se", "rows"),
    reads=lambda column, params: (f"{column}_se",),
    many_rows=True,
    words=lambda p, v: _sign_words(p, v, paired=True),
)
def ordered(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """An ordering of two things measured on the same data: their paired difference (one minus the
    other, dataset by dataset) lies above (or below) 0 by more than ``se`` (2) paired standard errors.
    Null and power as ``sign``; pairing removes the noise the two share."""
    return _signed(evidence, params, vague, paired=True)


def _sign_test_words(params, vague) -> str:
    level = number(params, "level", SIGN_LEVEL)
    return (
        f"outnumber what a fair coin would put there (one-sided sign test over the {params.get('of', 'draws')}, "
        f"p below {short(level)})"
    )


@judge(
    NOISE_JUDGES,
    "sign_test",
    "claim",
    takes=("of", "level"),
    needs=("of",),
    reads=lambda column, params: (params["of"],),
    words=_sign_test_words,
)
def sign_test(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """That an effect is systematic rather than the noise of one draw: of ``of`` draws, the statistic
    counts those above the reference. Null: each is above or below with probability 1/2. Holds when
    P(at least this many) is below ``level`` (0.05); ``differs`` only when as many fall significantly
    below; else ``inconclusive``. A heavy-tailed draw counts once, as it would not in a mean."""
    level = number(params, "level", SIGN_LEVEL)
    above, draws = int(float(evidence.one())), int(float(evidence.one(params["of"])))
    upper = _binomial_tail(above, draws)
    lower = _binomial_tail(draws - above, draws)
    verdict = True if upper < level else (False if lower < level else None)
    return claim_judgement(
        verdict, upper, _sign_test_words(params, vague), f"{above} of {draws} above, p = {upper:.2g}"
    )


def _binomial_tail(k: int, n: int) -> float:
    """P(X >= k), X ~ Binomial(n, 1/2), exactly."""
    return math.fsum(math.comb(n, j) for j in range(k, n + 1)) / 2**n


def _detects_words(params, vague) -> str:
    z = number(params, "se", DETECTION_SE)
    power = number(params, "power_se", POWER_SE)
    return (
        f"differs from 0 by more than {short(z)} standard errors in some row "
        f"(a non-detection decides nothing: the test sees an effect of {short(power)} SE 80% of the time)"
    )


@judge(
    NOISE_JUDGES,
    "detects",
    "claim",
    takes=("se", "power_se"),
    reads=lambda column, params: (f"{column}_se",),
    many_rows=True,
    words=_detects_words,
)
def detects(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """That an effect exists ("depends on K", "can be high"): some selected row lies more than ``se``
    (2) standard errors from zero. Null: no effect. A non-detection never refutes an existence claim:
    it reads ``inconclusive``, with the smallest effect the test could have seen (``power_se`` (2.8)
    times the smallest standard error)."""
    z = number(params, "se", DETECTION_SE)
    power = number(params, "power_se", POWER_SE)
    values, ses = evidence.numbers(), evidence.se()
    scores = [abs(_z(v, s)) for v, s in zip(values, ses)]
    pick = max(range(len(scores)), key=scores.__getitem__)
    seen = scores[pick] > z
    smallest = power * min(ses)
    found = f"largest {short4(values[pick])} ± {short4(ses[pick])} ({scores[pick]:.1f} SE)"
    if not seen:
        found += f"; an effect of {short4(smallest)} would have been seen"
    return claim_judgement(True if seen else None, values[pick], _detects_words(params, vague), found, ses[pick])
