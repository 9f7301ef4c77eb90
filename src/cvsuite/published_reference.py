"""Published numbers as reference lines: a registered figure's value, read from the registry's rows.

A published number lives only in the registry; a figure that draws it as a reference asks for it
by the row's id, so that the line moves if the registry is corrected and nothing is typed twice.
"""

from __future__ import annotations

from cvsuite.printed_numbers import parse_printed
from cvsuite.registry import Claim


def published_value(claims: list[Claim], claim_id: str) -> float:
    """The value of registry row ``claim_id`` as printed ("0%" -> 0.0, "0.007581" -> 0.007581)."""
    for claim in claims:
        if claim.id == claim_id:
            return parse_printed(claim.published).value
    raise KeyError(f"the registry has no row '{claim_id}' (a figure draws it as the published reference)")
