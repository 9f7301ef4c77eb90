"""A study page's sections: its numbers grouped under the document and section they come from, the
document's printed tables (and printed output) named apart, each with an anchor the same on every
page, so the index links a printed table's cells directly."""

from __future__ import annotations

import re


def section_anchor(document: str, section: str) -> str:
    """A section's anchor on a study page, the same on every page: ``sec-<document initials>-<words>``."""
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", document)).lower()
    words = "-".join(re.findall(r"[a-z0-9]+", section.lower().replace("\u2019", "")))
    return f"sec-{initials}-{words or 'unsectioned'}"


def is_printed_table(section: str) -> bool:
    """Whether a section, as the registry names it, is a table or printed output of its document."""
    return bool(re.search(r"\btable\b|printed output", section, re.I))


def by_section(rows: list[dict], documents: tuple[str, ...]) -> list[dict]:
    """A study's numbers under the document and section (a printed table is a section of its own) they
    come from, documents in their order, sections in the registry's."""
    sections: dict[tuple, list] = {}
    for r in rows:
        sections.setdefault((r["document"], r["section"]), []).append(r)
    order = {name: i for i, name in enumerate(documents)}
    listed = sorted(sections.items(), key=lambda item: order.get(item[0][0], len(order)))
    return [
        {"document": d, "section": s, "anchor": section_anchor(d, s), "printed": is_printed_table(s), "rows": rows}
        | {"figure": next((r["figure"] for r in rows if r["figure"]), "")}
        for (d, s), rows in listed
    ]


def printed_tables(rows: list[dict], page_name) -> dict[str, list[dict]]:
    """{document: [its printed tables, each with the study page (``page_name`` of a study) and anchor
    that show its cells]}."""
    found: dict[str, dict] = {}
    for r in rows:
        if r["study"] and is_printed_table(r["section"]):
            key = (r["section"], r["study"])
            entry = found.setdefault(r["document"], {}).setdefault(key, {
                "section": r["section"], "study_title": r["study_title"], "figure": "",
                "href": f"{page_name(r['study'])}#{section_anchor(r['document'], r['section'])}", "numbers": 0,
            })  # fmt: skip
            entry["numbers"] += 1
            entry["figure"] = entry["figure"] or r["figure"]
    return {d: list(tables.values()) for d, tables in found.items()}
