"""Search across the whole site, offline: every sentence, study, erratum and notes page as one entry
of an index the pages load as a script (a page opened from disk may not fetch a file, but it may load
one), searched in the browser by search.html."""

from __future__ import annotations

import html
import json
import re

_TAGS = re.compile(r"<[^>]+>")


def _text(markup: str) -> str:
    return " ".join(html.unescape(_TAGS.sub(" ", markup)).split())


def search_entries(rows: list[dict], studies, findings: list[dict], notes: dict[str, str]) -> list[dict]:
    """One entry per thing a reader may look for: {kind, title, text, href}."""
    from cvsuite.published.site import notes_page_name, page_name

    entries = [
        {
            "kind": "study",
            "title": s.title,
            "text": f"{s.name} {s.source} " + " ".join(c for _, c in s.figures),
            "href": page_name(s.name),
        }
        for s in studies
    ]
    entries += [
        {
            "kind": "erratum",
            "title": f["erratum"] or f["rows"][0]["id"],
            "text": " ".join(_text(r["sentence"]) for r in f["rows"]),
            "href": f"errata.html#{f['anchor']}",
        }
        for f in findings
    ]
    entries += [
        {
            "kind": r["status"],
            "title": _text(r["sentence"]),
            "text": f"{r['id']} {r['document']} {r['section']} {r['published']} {r['note']} {r['remark']}",
            "href": f"sentences.html#{r['id']}",
        }
        for r in rows
    ]
    entries += [
        {"kind": "notes", "title": f"Notes of {name}", "text": _text(markdown), "href": notes_page_name(name)}
        for name, markdown in sorted(notes.items())
    ]
    return entries


def search_script(entries: list[dict]) -> str:
    """The index as a script that defines ``SEARCH_INDEX``; ``<`` escaped, so no entry ends the script."""
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.SEARCH_INDEX = {data};\n"
