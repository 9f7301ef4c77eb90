"""The judges of claims about noisy estimates: the sign of an estimate (of a mean, of a paired
difference, of an effect of either sign) and a sign test, each with its standard errors and its power."""

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
    vague_word,
)

NOISE_JUDGES: dict[str, Judge] = {}


# ----------------------------------------------------------------------------------------------
# Claims: signs and orderings with their noise


SIDES = ("above", "below", "away_from", "at")


def _direction(params, vague) -> tuple[str, float, str]:
    """The claimed side (``above``, ``below``, ``away_from`` for an effect of either sign, or ``at``
    for no effect: "as often too high as too low"), its reference value, and where the value comes
    from: the record's number, or a vague word's bound on its scale ("no such bias": below a quarter
    of the bias it answers), whose side it takes."""
    given = [k for k in SIDES if k in params]
    if "word" in params:
        if given:
            raise JudgeError("a vague word brings its own side and bound: give the word or the side, not both")
        entry, source = vague_word(params, vague)
        bounds = [k for k in ("at_most", "below", "at_least", "above") if k in entry]
        if len(bounds) != 1:
            raise JudgeError(f"'{params['word']}' has two bounds; a sign test needs a word with one")
        side = "below" if bounds[0] in ("at_most", "below") else "above"
        return side, float(entry[bounds[0]]), source
    if "scale" in params:
        raise JudgeError("a scale is named only beside the word it measures ('word')")
    if len(given) != 1:
        raise JudgeError(
            "give the claimed side: above, below, away_from or at (a reference value, usually 0), or a word"
        )
    return given[0], number(params, given[0]), ""


def _sign_words(params, vague) -> str:
    side, reference, word = _direction(params, vague)
    z = number(params, "se", DETECTION_SE)
    every_row(params)
    if side == "at":
        return (
            f"equals {short(reference)}: it differs when more than {short(z)} standard errors off it"
            f"{rows_words(params, '')} (an equality is refuted, never confirmed: within, the test cannot decide)"
        )
    if side == "away_from":
        power = number(params, "power_se", POWER_SE)
        return (
            f"differs from {short(reference)} by more than {short(z)} standard errors{rows_words(params, '')} "
            f"(an effect of either sign; a non-detection decides nothing: the test sees an effect of "
            f"{short(power)} SE 80% of the time)"
        )
    return f"is {side} {short(reference)}{word} by more than {short(z)} standard errors{rows_words(params, '')}"


def _z(difference: float, se: float) -> float:
    if se > 0:
        return difference / se
    return math.copysign(math.inf, difference) if difference else 0.0


@judge(
    NOISE_JUDGES,
    "sign",
    "claim",
    takes=(*SIDES, "word", "scale", "se", "power_se", "rows"),
    reads=lambda column, params: (f"{column}_se",),
    many_rows=True,
    words=_sign_words,
    plain="""An estimate with sampling noise (a mean over simulated datasets, or the difference of two things
    measured on the same datasets). It must lie on the claimed side of a reference by more than 2 of its
    standard errors. It differs only when it lies more than 2 standard errors on the other side; in
    between, the test cannot decide, and the verdict says the smallest effect it would have seen. An
    effect the sentence says exists, of either sign ("depends on K", "can be high"), is never refuted by
    a test that does not see it. A sentence that says there is no effect is refuted by one beyond 2
    standard errors, and never confirmed by a test that sees none.""",
)
def sign(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """The sign of an estimate: it lies above (or below) a reference by more than ``se`` (2) of its
    standard errors (``<column>_se``); for an ordering of two things measured on the same data, the
    estimate is their paired difference (one minus the other, dataset by dataset), and the pairing
    removes the noise the two share. Null: the estimate equals the reference. It says ``differs``
    only when the estimate lies beyond ``se`` standard errors on the other side; between, it cannot
    decide (``inconclusive``), and says the smallest effect it would have seen: one of ``power_se``
    (2.8) standard errors is seen 80% of the time. ``away_from``: an effect of either sign ("depends
    on K", "can be high"), which a non-detection never refutes: it reads ``inconclusive``. ``at``: no
    effect ("as often too high as too low"), which an effect beyond ``se`` standard errors refutes
    and nothing confirms: within them it reads ``inconclusive``. Every selected row must hold
    (``rows: some``: one)."""
    side, reference, _ = _direction(params, vague)
    z = number(params, "se", DETECTION_SE)
    power = number(params, "power_se", POWER_SE)
    values, ses = evidence.numbers(), evidence.se()
    if side == "at":
        # No side is claimed but the reference: a distance beyond the allowance refutes it, and
        # nothing confirms it (a scores' floor of -inf keeps every row from holding).
        scores = [-abs(_z(v - reference, s)) for v, s in zip(values, ses)]
        sign_of = [1.0 if v >= reference else -1.0 for v in values]
    elif side == "away_from":
        scores = [abs(_z(v - reference, s)) for v, s in zip(values, ses)]
        sign_of = [1.0 if v >= reference else -1.0 for v in values]
    else:
        sign_of = [1.0 if side == "above" else -1.0] * len(values)
        scores = [_z(g * (v - reference), s) for g, v, s in zip(sign_of, values, ses)]
    holds_each = [s > z for s in scores]
    fails_each = [s < -z for s in scores]  # never for an effect of either sign: its scores are not negative
    every = every_row(params)
    if all(holds_each) if every else any(holds_each):
        verdict = True
    elif any(fails_each) if every else all(fails_each):
        verdict = False
    else:
        verdict = None
    pick = min(range(len(scores)), key=scores.__getitem__) if every else max(range(len(scores)), key=scores.__getitem__)
    signed = sign_of[pick] * abs(scores[pick]) if side == "at" else sign_of[pick] * scores[pick]
    found = f"{short4(values[pick])} ± {short4(ses[pick])} ({signed:+.1f} SE from {short(reference)})"
    if len(values) > 1:
        found += f"; {sum(holds_each)} of {len(values)} rows beyond {short(z)} SE"
        if any(fails_each):
            found += f" on the claimed side, {sum(fails_each)} on the other"
    if verdict is None:
        effect = "an effect" if reference == 0 else f"a distance from {short(reference)}"
        # With one row enough, the steadiest row could have seen the least effect; with every row
        # needed, the row that decided nothing is the one to power.
        power_se = min(ses) if not every else ses[pick]
        found += f"; {effect} of {short4(power * power_se)} would have been seen"
    return claim_judgement(verdict, values[pick], _sign_words(params, vague), found, ses[pick])


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
    plain="""That something is systematic, not the luck of one draw: of many draws, more fall on the claimed
    side than a fair coin would put there (a one-sided sign test at the 5% level). One extreme draw counts
    once, as it would not in a mean.""",
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
