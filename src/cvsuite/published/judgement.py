"""What every judge shares: the evidence it reads, the judgement it returns, and how it is named.

A judge (``cvsuite.published.judges`` lists them all) is a function registered with ``judge``: its
name, whether it judges a number or a claim, the parameters it takes, the sibling columns it reads
and the rule it applies, in words made from its parameters. The constants here are the allowances
every judge of a kind shares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

ALLOWANCE_SE = 2.0  # within 2 standard errors: one two-sided 95% test, the same allowance everywhere
POWER_FRACTION = 0.25  # a consistent figure's allowance is at most a quarter of the distance to its alternative
DETECTION_SE = 2.0  # an effect is seen when it lies more than 2 of its standard errors from zero
POWER_SE = 2.8  # the effect a 2-SE two-sided test sees 80% of the time: 2 + 0.84 standard errors
SIGN_LEVEL = 0.05  # one-sided level of a sign test

HOLDS, FAILS, UNDECIDED = "True", "False", "undecided"  # a claim's outcome, as the comparison shows it


class JudgeError(ValueError):
    """A judge's parameters a record cannot use; the message says which and why."""


@dataclass(frozen=True)
class Evidence:
    """What a record's statistic selects in this run: the rows of its table, and the column it names."""

    column: str
    rows: object  # a pandas DataFrame: the selected rows, in table order

    def values(self, column: str | None = None) -> list:
        return list(self.rows[column or self.column])

    def numbers(self, column: str | None = None) -> list[float]:
        return [float(v) for v in self.values(column)]

    def one(self, column: str | None = None):
        values = self.values(column)
        if len(values) != 1:
            raise JudgeError(f"the judge reads one row, and the statistic selects {len(values)}")
        return values[0]

    def se(self) -> list[float]:
        return self.numbers(f"{self.column}_se")


@dataclass(frozen=True)
class Judgement:
    """A judge's verdict: status, the value it rests on (and that value as the comparison shows it),
    its standard error, the rule in words, and what the test found."""

    status: str
    value: object
    shown: str
    rule: str
    found: str = ""
    se: float | None = None
    allowance: float | None = None
    z: float | None = None
    within: bool | None = None  # a re-simulated figure inside the allowance, whatever the test's power

    @property
    def matched(self) -> bool:
        """Whether the published value reads as ours: a match, a claim that holds, or a figure inside
        the allowance (a figure that was an input matches so, however little power the test has)."""
        return self.status in ("reproduced", "consistent") or bool(self.within)


@dataclass(frozen=True)
class Judge:
    """A named rule: its function, whether it judges a number or a claim, the parameters it takes (and
    which it needs), the sibling columns it reads, and the rule in words for given parameters."""

    name: str
    kind: str  # "number" or "claim"
    run: Callable
    words: Callable
    takes: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    reads: Callable = field(default=lambda column, params: ())
    many_rows: bool = False
    doc: str = ""
    plain: str = ""  # the rule in plain words for a reader who reads no code: the guide to the verdicts

    def check(self, params: dict[str, str], vague: dict[str, dict[str, str]]) -> str:
        """What is wrong with ``params`` for this judge, or ""."""
        unknown = [p for p in params if p not in self.takes]
        if unknown:
            takes = ", ".join(self.takes) or "none"
            return f"judge '{self.name}' takes no parameter {', '.join(unknown)} (it takes {takes})"
        missing = [p for p in self.needs if p not in params]
        if missing:
            return f"judge '{self.name}' needs {', '.join(missing)}"
        try:
            self.words(params, vague)
        except JudgeError as err:
            return str(err)
        return ""

    def __call__(self, evidence: Evidence, params: dict[str, str], printed: str, vague: dict) -> Judgement:
        return self.run(evidence, params, printed, vague)


def judge(registry: dict, name: str, kind: str, *, takes=(), needs=(), reads=None, many_rows=False, words, plain):
    """Register the decorated function as the judge ``name`` in ``registry``; ``plain`` is its rule in
    plain words, as the guide to the verdicts shows it."""

    def register(run: Callable) -> Callable:
        registry[name] = Judge(
            name,
            kind,
            run,
            words,
            tuple(takes),
            tuple(needs),
            reads or (lambda column, params: ()),
            many_rows,
            (run.__doc__ or "").strip(),
            " ".join(plain.split()),
        )
        return run

    return register


def parse_judge(spec) -> tuple[str, dict[str, str]]:
    """A record's ``judge:`` as (name, parameters): ``rounded``, ``{rounded: ''}``,
    ``{sign: {above: '0'}}`` or ``{size: a few percent}`` (a judge's one word-valued parameter)."""
    if isinstance(spec, str):
        return spec.strip(), {}
    if isinstance(spec, dict) and len(spec) == 1:
        ((name, params),) = spec.items()
        if params in ("", None):
            return name, {}
        if isinstance(params, str):
            return name, {"word": params}
        if isinstance(params, dict):
            return name, {str(k): v for k, v in params.items()}
    raise JudgeError(f"judge must be a name or {{name: parameters}}, not {spec!r}")


def describe(name: str, params: dict[str, str]) -> str:
    """The judge as comparison.csv names it: ``sign(above=0, se=2)``."""
    shown = ", ".join(f"{k}={v}" if k != "word" else f"'{v}'" for k, v in params.items())
    return f"{name}({shown})" if shown else name


# ----------------------------------------------------------------------------------------------
# What the claim judges share


def number(params: dict, key: str, default: float | None = None) -> float:
    if key not in params:
        if default is None:
            raise JudgeError(f"parameter '{key}' is needed")
        return default
    try:
        return float(params[key])
    except (TypeError, ValueError):
        raise JudgeError(f"parameter '{key}' must be a number, not '{params[key]}'") from None


def vague_word(params: dict, vague: dict) -> tuple[dict[str, str], str]:
    """The vague word a judge's ``word`` names, on its home scale or on the ``scale`` the reading
    names (registry/scales.yaml), and how its source reads: " ('a few percent')"."""
    word = params["word"]
    key = f"{params['scale']}/{word}" if "scale" in params else word
    if key not in vague:
        on = f" on the scale '{params['scale']}'" if "scale" in params else ""
        raise JudgeError(f"'{word}' is not a word{on} of the scales of vague words (registry/scales.yaml)")
    entry = vague[key]
    scale = f", on the scale '{params['scale']}'" if "scale" in params else ""
    return entry, f" ('{word}'{scale})"


def parsed_bounds(params: dict, vague: dict) -> tuple[dict[str, float], str]:
    """The bounds of a size judge and how they read: the record's own numbers, or a vague word's
    from its scale (``word``), never both."""
    keys = ("at_most", "at_least", "below", "above")
    own = {k: params[k] for k in keys if k in params}
    if "scale" in params and "word" not in params:
        raise JudgeError("a scale is named only beside the word it measures ('word')")
    if "word" in params:
        if own:
            raise JudgeError("a vague word brings its own bounds: give the word or the bounds, not both")
        entry, source = vague_word(params, vague)
        own = {k: entry[k] for k in keys if k in entry}
    else:
        source = ""
    if not own:
        raise JudgeError("a bound is needed: at_most, at_least, below or above, or a vague word")
    bounds = {k: number(own, k) for k in own}
    phrases = {"at_most": "at most", "at_least": "at least", "below": "below", "above": "above"}
    text = " and ".join(f"{phrases[k]} {short(v)}" for k, v in bounds.items())
    return bounds, text + source


def within_bounds(value: float, bounds: dict[str, float]) -> bool:
    checks = {
        "at_most": lambda b: value <= b,
        "at_least": lambda b: value >= b,
        "below": lambda b: value < b,
        "above": lambda b: value > b,
    }
    return all(checks[k](b) for k, b in bounds.items())


def short(value: float) -> str:
    return f"{value:g}"


def every_row(params: dict) -> bool:
    quantifier = params.get("rows", "every")
    if quantifier not in ("every", "some"):
        raise JudgeError(f"rows must be 'every' or 'some', not '{quantifier}'")
    return quantifier == "every"


def rows_words(params: dict, count_words: str = "") -> str:
    return " in some row" if params.get("rows") == "some" else count_words


def claim_judgement(holds: bool | None, value, rule: str, found: str, se=None) -> Judgement:
    if holds is None:
        return Judgement("inconclusive", value, UNDECIDED, rule, found, se)
    return Judgement("reproduced" if holds else "differs", value, HOLDS if holds else FAILS, rule, found, se)


def grouped(evidence: Evidence, per: str | None) -> list:
    """The selected rows, one frame per value of ``per`` (all of them together without one)."""
    rows = evidence.rows
    if not per:
        return [rows]
    return [group for _, group in rows.groupby(per, sort=False)]


def short4(value: float) -> str:
    return f"{value:.4g}"
