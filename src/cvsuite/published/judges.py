"""The judges: one small, named rule per kind of published number or claim.

A record names its judge and the judge's parameters beside its quote (``judge: {sign: {above: 0}}``);
the judge reads the record's statistic from this run's tables and returns a ``Judgement``: the
status, the statistic the verdict rests on, its standard error, and the rule it applied in words
made from its parameters. That sentence is the reading a reader sees: the rule that ran, word for
word. The same evidence is always judged by the same rule because the rule is a name, not code.

Each judge's docstring states its null and its power: what it would take to say ``differs``, and
what it cannot see.

- Numbers (``number_judges``): ``rounded``, ``exact``, ``within_se``.
- Claims a computation decides exactly (``exact_judges``): ``size``, ``identity``, ``monotone``,
  ``interior_minimum``.
- Claims about noisy estimates (``noise_judges``): ``sign``, ``sign_test``.

Vague words ("a few percent", "almost every") take their bounds from their scales
(registry/scales.yaml, passed in as ``vague``: ``Scales.words``), never from a record. A claim that holds reads
``reproduced``; one that fails, ``differs``; one the test cannot decide, ``inconclusive``. A judge
never decides on a statistic the run does not have: the comparison says ``not computed at this
config`` before any judge is asked.
"""

from __future__ import annotations

from cvsuite.published.exact_judges import EXACT_JUDGES
from cvsuite.published.judgement import (
    ALLOWANCE_SE,
    DETECTION_SE,
    FAILS,
    HOLDS,
    POWER_FRACTION,
    POWER_SE,
    SIGN_LEVEL,
    UNDECIDED,
    Evidence,
    Judge,
    JudgeError,
    Judgement,
    describe,
    parse_judge,
)
from cvsuite.published.noise_judges import NOISE_JUDGES
from cvsuite.published.number_judges import NUMBER_JUDGES

JUDGES: dict[str, Judge] = {**NUMBER_JUDGES, **EXACT_JUDGES, **NOISE_JUDGES}

__all__ = [
    "ALLOWANCE_SE",
    "DETECTION_SE",
    "FAILS",
    "HOLDS",
    "JUDGES",
    "POWER_FRACTION",
    "POWER_SE",
    "SIGN_LEVEL",
    "UNDECIDED",
    "Evidence",
    "Judge",
    "JudgeError",
    "Judgement",
    "describe",
    "parse_judge",
]
