"""A study's verdicts on what its document says in words: one row per claim.

Each row names the claim, says whether it ``holds`` under a stated criterion (``reading``: the
sentence's words and the number that decides them), and gives the ``value`` the verdict rests on.
The registry compares a claim's printed ``True`` with ``holds``, or a printed count with ``value``.
``holds`` is ``undecided`` where the test can decide neither way (a dependence or an ordering that
the data neither show nor rule out): the comparison reads that as inconclusive, never as differs.
"""

from __future__ import annotations

import pandas as pd

UNDECIDED = "undecided"  # TRANSITIONAL: a claims table that cannot decide


CLAIM_COLUMNS = ["claim", "holds", "value", "reading", "value_meaning"]


def claims_table(claims: list[tuple[str, bool | str, float, str]]) -> pd.DataFrame:
    """(claim, holds, value, reading) tuples as the claims table, holds as a bool (or ``undecided``)
    and value as a float. A reading that ends in "; value: ..." (what the value is) is split there:
    ``reading`` keeps the criterion, the proposition the registry's reading names, and
    ``value_meaning`` the rest."""
    rows = []
    for c, h, v, r in claims:
        criterion, _, meaning = r.partition("; value")
        rows.append(
            {
                "claim": c,
                "holds": h if isinstance(h, str) and h == UNDECIDED else bool(h),
                "value": float(v),
                "reading": criterion,
                "value_meaning": f"value{meaning}" if meaning else "",
            }
        )
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS)
