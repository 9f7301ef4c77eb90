"""Search across the whole site, offline: every sentence, study, erratum and notes page as one entry
of an index the pages load as a script (a page opened from disk may not fetch a file, but it may load
one), searched in the browser by search.html."""

from __future__ import annotations

import html
import json
import re

_TAGS = re.compile(r"<[^>]+>")


def plain_text(markup: str) -> str:
    """A page fragment as the words a reader reads in it: tags dropped, entities read."""
    return " ".join(html.unescape(_TAGS.sub(" ", markup)).split())


def _title(markdown: str) -> str:
    """A notes file's first heading."""
    match = re.search(r"^#\s+(.+)$", markdown, re.M)
    return match.group(1).strip() if match else ""


def search_entries(rows: list[dict], studies, findings: list[dict], notes: dict[str, str], page_name, notes_page_name):
    """One entry per thing a reader may look for: {kind, title, text, href}; ``page_name`` and
    ``notes_page_name`` name a study's page and its notes page."""
    entries = [
        {
            "kind": "study",
            "title": s.title,
            "text": f"{s.name} {s.source} " + " ".join(c for _, c in s.figures),
            "href": page_name(s.name),
            "where": s.source,
        }
        for s in studies
    ]
    entries += [
        {
            "kind": "erratum",
            "title": f["erratum"] or f["rows"][0]["id"],
            "text": " ".join(plain_text(r["sentence"]) for r in f["rows"]),
            "href": f"errata.html#{f['anchor']}",
            "where": f["rows"][0]["document"],
        }
        for f in findings
    ]
    entries += [
        {
            "kind": r["status"],
            "title": plain_text(r["sentence"]),
            "text": f"{r['id']} {r['published']} {r['note']} {r['remark']}",
            "href": f"sentences.html#{r['id']}",
            "where": f"{r['document']}, {r['section']}" if r["section"] else r["document"],
        }
        for r in rows
    ]
    entries += [
        {
            "kind": "notes",
            "title": _title(markdown) or name,
            "text": plain_text(markdown),
            "href": notes_page_name(name),
            "where": "a study's notes",
        }
        for name, markdown in sorted(notes.items())
    ]
    return entries


def search_script(entries: list[dict]) -> str:
    """The index as a script that defines ``SEARCH_INDEX``; ``<`` escaped, so no entry ends the script."""
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.SEARCH_INDEX = {data};\n"
