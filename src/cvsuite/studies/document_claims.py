"""A study's verdicts on what its document says in words: one row per claim.

Each row names the claim, says whether it ``holds`` under a stated criterion (``reading``: the
sentence's words and the number that decides them), and gives the ``value`` the verdict rests on.
The registry compares a claim's printed ``True`` with ``holds``, or a printed count with ``value``.
"""

from __future__ import annotations

import pandas as pd

CLAIM_COLUMNS = ["claim", "holds", "value", "reading"]


def claims_table(claims: list[tuple[str, bool, float, str]]) -> pd.DataFrame:
    """(claim, holds, value, reading) tuples as the claims table, holds as a bool and value as a float."""
    return pd.DataFrame(
        [{"claim": c, "holds": bool(h), "value": float(v), "reading": r} for c, h, v, r in claims],
        columns=CLAIM_COLUMNS,
    )
