"""A study's notes (docs/notes/<study>.md) as the HTML of a site page: the Markdown the notes use.

The notes are ours, written in a small part of Markdown: ``#`` headings, paragraphs, ``-`` and
``1.`` lists (continued by indented lines), pipe tables, fenced code, and inline ``code``,
``**bold**``, ``*italic*`` and ``[links](target)``. That part is rendered here, every character of
the text escaped first; anything else reads as the text it is. Headings get the anchors GitHub
gives them, so a record's ``notes: <study>#<anchor>`` link lands on the same heading on GitHub and
on the site.
"""

from __future__ import annotations

import html
import re

_INLINE = [
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<b>\1</b>"),
    (re.compile(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])"), r"<i>\1</i>"),
    (re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)"), r'<a href="\2">\1</a>'),
]


def heading_anchor(title: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


def inline(text: str) -> str:
    """One line's inline Markdown as HTML, the text escaped first (code spans kept verbatim)."""
    parts = re.split(r"(`[^`]+`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        escaped = html.escape(part, quote=False)
        for pattern, replacement in _INLINE[1:]:
            escaped = pattern.sub(replacement, escaped)
        out.append(escaped)
    return "".join(out)


def notes_html(markdown: str, link=lambda target: target) -> tuple[str, str]:
    """(title, body HTML) of a notes file; ``link`` rewrites each link target (another study's notes
    become its site page), or returns None to keep only the link's text (a file the site lacks)."""
    lines = markdown.splitlines()
    title, body, i = "", [], 0

    def rewrite(match: re.Match) -> str:
        target = link(html.unescape(match[1]))
        return match[2] if target is None else f'<a href="{html.escape(target)}">{match[2]}</a>'

    def links(text: str) -> str:
        return re.sub(r'<a href="([^"]+)">(.*?)</a>', rewrite, text)

    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            block = []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                block.append(lines[i])
                i += 1
            body.append(f"<pre><code>{html.escape(chr(10).join(block))}</code></pre>")
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*)$", line)
        if heading:
            level, text = len(heading[1]), heading[2].strip()
            if level == 1 and not title:
                title = text
            body.append(f'<h{level} id="{heading_anchor(text)}">{links(inline(text))}</h{level}>')
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([cell.strip() for cell in lines[i].strip().strip("|").split("|")])
                i += 1
            body.append(_table(rows, links))
            continue
        item = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)$", line)
        if item:
            ordered = item[2][0].isdigit()
            items = []
            while i < len(lines):
                match = re.match(r"^(\s*)([-*]|\d+\.)\s+(.*)$", lines[i])
                if match and len(match[1]) <= len(item[1]):
                    items.append(match[3])
                elif lines[i].strip() and lines[i].startswith(" ") and items:
                    items[-1] += " " + lines[i].strip()
                else:
                    break
                i += 1
            tag = "ol" if ordered else "ul"
            body.append(f"<{tag}>" + "".join(f"<li>{links(inline(t))}</li>" for t in items) + f"</{tag}>")
            continue
        paragraph = []
        while i < len(lines) and lines[i].strip() and not re.match(r"^(#{1,6}\s|\||```|\s*([-*]|\d+\.)\s)", lines[i]):
            paragraph.append(lines[i].strip())
            i += 1
        body.append(f"<p>{links(inline(' '.join(paragraph)))}</p>")
    return title, "\n".join(body)


def _table(rows: list[list[str]], links) -> str:
    header, *rest = rows
    if rest and all(re.fullmatch(r":?-{3,}:?", cell) for cell in rest[0]):
        rest = rest[1:]
    head = "".join(f"<th>{links(inline(c))}</th>" for c in header)
    cells = "".join("<tr>" + "".join(f"<td>{links(inline(c))}</td>" for c in row) + "</tr>" for row in rest)
    return f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{cells}</tbody></table></div>'
