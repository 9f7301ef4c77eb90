"""The judges of claims a computation decides exactly: a size against a bound (or a share of a total), an identity,
and how a curve computed without noise moves (``monotone``) or turns (``interior_minimum``)."""

from __future__ import annotations

from cvsuite.published.judgement import (
    Evidence,
    Judge,
    JudgeError,
    Judgement,
    claim_judgement,
    every_row,
    grouped,
    judge,
    number,
    parsed_bounds,
    rows_words,
    short,
    short4,
    within_bounds,
)

EXACT_JUDGES: dict[str, Judge] = {}


# ----------------------------------------------------------------------------------------------
# Claims: bounds


def _size_words(params, vague) -> str:
    every_row(params)
    _, text = parsed_bounds(params, vague)
    absolute = "in absolute value " if params.get("absolute") == "true" else ""
    over = f"as a share of {params['over']}, " if "over" in params else ""
    return f"is {over}{absolute}{text}{rows_words(params, '')}"


@judge(
    EXACT_JUDGES,
    "size",
    "claim",
    takes=("word", "scale", "at_most", "at_least", "below", "above", "absolute", "over", "rows"),
    reads=lambda column, params: (params["over"],) if "over" in params else (),
    many_rows=True,
    words=_size_words,
    plain="""A size computed without sampling noise (an exact expectation, a table's own figures, a count). It
    must lie within a bound: the sentence's own number ("more than half"), or the bound of its vague word
    on that word's scale (below). Divided by a total, it is the share of the cases the claim holds on.""",
)
def size(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """A size against a bound: the statistic is at most, at least, below or above a number, the
    sentence's own ("more than half") or a vague word's from its scale ("a few percent"); with
    ``over``, the statistic divided by that column of the same row (a count of the cases it holds on
    over the cases counted: "almost every dataset"). Deterministic on the statistic: where the
    statistic is an estimate, its record says so and a ``sign`` judge tests its noise instead. Every
    selected row must be within (``rows: some``: one)."""
    bounds, _ = parsed_bounds(params, vague)
    values = evidence.numbers()
    totals = evidence.numbers(params["over"]) if "over" in params else None
    if totals is not None:
        values = [v / t if t else float("nan") for v, t in zip(values, totals)]
    if params.get("absolute") == "true":
        values = [abs(v) for v in values]
    inside = [within_bounds(v, bounds) for v in values]
    holds = all(inside) if every_row(params) else any(inside)
    worst = _worst(values, inside, bounds, holds) if every_row(params) else _best(values, inside, bounds)
    if len(values) == 1 and totals is not None:
        found = f"{evidence.numbers()[0]:g} of {totals[0]:g} ({worst:.1%})"
    elif len(values) == 1:
        found = f"{short4(worst)}"
    else:
        found = (
            f"{sum(inside)} of {len(values)} rows within; the {'extreme' if every_row(params) else 'best'} "
            f"{short4(worst)}"
        )
    return claim_judgement(holds, worst, _size_words(params, vague), found)


def _worst(values: list[float], inside: list[bool], bounds: dict, holds: bool) -> float:
    """The value a reader should see: the first outside the bounds, or the one nearest a bound."""
    outside = [v for v, ok in zip(values, inside) if not ok]
    if outside:
        return outside[0]
    upper = any(k in bounds for k in ("at_most", "below"))
    return max(values) if upper else min(values)


def _best(values: list[float], inside: list[bool], bounds: dict) -> float:
    """The value a reader should see when one row suffices: the row within the bounds farthest inside,
    or, when none is, the one nearest a bound."""
    upper = any(k in bounds for k in ("at_most", "below"))
    pool = [v for v, ok in zip(values, inside) if ok] or values
    return min(pool) if upper else max(pool)


def _identity_words(params, vague) -> str:
    if "equals" not in params and "equals_column" not in params:
        raise JudgeError("an identity needs equals (a number) or equals_column (a column of the same row)")
    target = params.get("equals", params.get("equals_column"))
    if "equals" in params:
        number(params, "equals")
    tolerance = f" to within {params['tolerance']}" if "tolerance" in params else ""
    return f"equals {target}{tolerance}, an identity of the procedure"


@judge(
    EXACT_JUDGES,
    "identity",
    "claim",
    takes=("equals", "equals_column", "tolerance"),
    reads=lambda column, params: (params["equals_column"],) if "equals_column" in params else (),
    many_rows=True,
    words=_identity_words,
    plain="""A fact of a procedure or of a formula (the number of fits, the size of a fold, a closed form against
    a numerical solve): two numbers must be equal, to the tolerance of the arithmetic where one is
    given. One counterexample refutes it.""",
)
def identity(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """An exact fact of a procedure or a formula (a count of fits, a fold assignment, a closed form
    against a numerical solve): the statistic equals a number, or another column of its row, in every
    selected row, to within ``tolerance`` (default: exactly). Deterministic; a failure is a
    counterexample."""
    tolerance = number(params, "tolerance", 0.0)
    values = evidence.numbers()
    targets = (
        evidence.numbers(params["equals_column"])
        if "equals_column" in params
        else [number(params, "equals")] * len(values)
    )
    gaps = [abs(v - t) for v, t in zip(values, targets)]
    holds = all(g <= tolerance for g in gaps)
    worst = max(range(len(gaps)), key=gaps.__getitem__)
    found = f"{short4(values[worst])}" + (f" (largest gap {max(gaps):.3g})" if len(values) > 1 or tolerance else "")
    return claim_judgement(holds, values[worst], _identity_words(params, vague), found)


def _monotone_words(params, vague) -> str:
    given = [k for k in ("rises_along", "falls_along") if k in params]
    if len(given) != 1:
        raise JudgeError("give rises_along or falls_along: the column the statistic moves along")
    verb = "rises" if given[0] == "rises_along" else "falls"
    weakly = "never " + ("falls" if verb == "rises" else "rises") if params.get("weakly") == "true" else f"{verb}"
    per = f", for every {params['per']}" if "per" in params else ""
    step = " at any step" if params.get("weakly") == "true" else " at every step"
    return f"{weakly}{step} of {params[given[0]]}{per}"


@judge(
    EXACT_JUDGES,
    "monotone",
    "claim",
    takes=("rises_along", "falls_along", "per", "weakly"),
    reads=lambda column, params: tuple(params[k] for k in ("rises_along", "falls_along", "per") if k in params),
    many_rows=True,
    words=_monotone_words,
    plain="""A curve computed without sampling noise must rise (or fall) at every step along its parameter.""",
)
def monotone(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """How a quantity moves along a parameter: strictly rises (or falls) at every step of ``along``
    (``weakly: true``: never moves the other way), in each group of ``per``. Deterministic on values
    computed without noise (a grid, exact expectations); an ordering of noisy estimates is an
    ``sign`` judge on their paired differences instead."""
    _monotone_words(params, vague)
    along = params.get("rises_along", params.get("falls_along"))
    rising = "rises_along" in params
    weakly = params.get("weakly") == "true"
    good = steps = 0
    first_bad = None
    for group in grouped(evidence, params.get("per")):
        ordered_rows = group.sort_values(along, kind="stable")
        values = [float(v) for v in ordered_rows[evidence.column]]
        for before, after in zip(values, values[1:]):
            step = after - before if rising else before - after
            ok = step >= 0 if weakly else step > 0
            steps += 1
            good += ok
            if not ok and first_bad is None:
                first_bad = (before, after)
    holds = good == steps and steps > 0
    found = f"{good} of {steps} steps" + (
        f"; first against it: {short4(first_bad[0])} to {short4(first_bad[1])}" if first_bad else ""
    )
    return claim_judgement(holds, good, _monotone_words(params, vague), found)


def _interior_words(params, vague) -> str:
    if "along" not in params:
        raise JudgeError("parameter 'along' is needed: the column the minimum is sought along")
    per = f", for every {params['per']}" if "per" in params else ""
    return f"is least at an interior {params['along']}, neither the first nor the last{per}"


@judge(
    EXACT_JUDGES,
    "interior_minimum",
    "claim",
    takes=("along", "per"),
    needs=("along",),
    reads=lambda column, params: tuple(params[k] for k in ("along", "per") if k in params),
    many_rows=True,
    words=_interior_words,
    plain="""A curve computed without sampling noise must be least strictly inside its range: it falls, then
    climbs.""",
)
def interior_minimum(evidence: Evidence, params, printed: str, vague) -> Judgement:
    """Where a curve turns: its least value lies strictly inside the range of ``along`` (in each group
    of ``per``), so it falls and then climbs. Deterministic on values computed without noise."""
    along = params["along"]
    where, inside = [], []
    for group in grouped(evidence, params.get("per")):
        ordered_rows = group.sort_values(along, kind="stable").reset_index(drop=True)
        best = int(ordered_rows[evidence.column].astype(float).idxmin())
        where.append(float(ordered_rows[along].iloc[best]))
        inside.append(0 < best < len(ordered_rows) - 1)
    found = f"least at {along} " + ", ".join(short(w) for w in where)
    return claim_judgement(all(inside) and bool(inside), where[0], _interior_words(params, vague), found)
