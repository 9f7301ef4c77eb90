"""A document's text cut mechanically into units, each of one kind: its prose sentences, and the
headings, titles, code listings, printed output, displayed maths, table rows, diagrams and quiz
parts that are not prose.

The documents are plain text in which a prose paragraph, and each bullet or numbered item, is one
line, and paragraphs are parted by an empty line. Every unit carries its span in the text, so that a
caller can ask which of a document's clauses stand inside which sentence. The functions read no
file: the caller passes the text.

The kinds, and how each is recognised (first match wins, paragraph by paragraph):

- ``code``: a Python listing, from a paragraph that opens as a module does (``import``,
  ``from … import``, ``def``, ``class``) to the marker of its printed output or the first paragraph
  that reads as prose;
- ``output``: a listing's printed output, from its marker (a line ``Output:`` or ``text`` right after
  the listing) through the paragraphs of several lines that follow it; prose resumes at the first
  paragraph of one line, as every prose paragraph is one line;
- ``title``: the title line of a figure, diagram or sketch (``figure …``, ``diagram …``,
  ``sketch …``), of a quiz (``pch.quizTag …``) or of a listing (a file name ``….py``);
- ``diagram``: the paragraph after a diagram's title (its mermaid source);
- ``maths``: a displayed formula, a paragraph between ``$$`` and ``$$``;
- ``table row``: a line of a paragraph whose every line holds a tab;
- ``quiz options``: a quiz question's option line, ``A … B … C … D …``;
- ``quiz answer``: the key of a quiz's answer line, ``B — <the option's text>``; the explanation
  after it is prose;
- ``placeholder``: the marker of an interactive element the plain text kept without its content
  (``pch.quizShowAnswer``, ``pch.exerciseTag pch.exerciseTitle``);
- ``rule``: a line of dashes that parts blocks;
- ``heading``: a paragraph of one line that does not end as a sentence ends (no full stop, question or
  exclamation mark, colon, semicolon or comma) and opens with no lower-case letter;
- ``question``: a prose sentence that ends with a question mark: it asks and states nothing;
- ``prose``: every other sentence of a paragraph, bullet, numbered item or quiz explanation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROSE, QUESTION, HEADING, TITLE = "prose", "question", "heading", "title"
CODE, OUTPUT, MATHS, TABLE_ROW, DIAGRAM = "code", "output", "maths", "table row", "diagram"
QUIZ_OPTIONS, QUIZ_ANSWER, PLACEHOLDER, RULE = "quiz options", "quiz answer", "placeholder", "rule"
KINDS = (
    PROSE, QUESTION, HEADING, TITLE, CODE, OUTPUT, MATHS, TABLE_ROW, DIAGRAM,
    QUIZ_OPTIONS, QUIZ_ANSWER, PLACEHOLDER, RULE,
)  # fmt: skip

_LISTING_START = re.compile(r"(import \w|from [\w.]+ import |def \w|class \w)")
_OUTPUT_MARKER = re.compile(r"(Output:|text)")
_TITLE = re.compile(r"((figure|diagram|sketch) \S.*|pch\.quizTag\b.*|[\w.-]+\.py)")
_PLACEHOLDER = re.compile(r"\s*pch\.\w+(\s+pch\.\w+)*\s*")
_RULE = re.compile(r"-{3,}")
# A list item's marker: a bullet or a number; the item's sentences start after it.
_ITEM = re.compile(r"\s*(•|\d+\.)\s+")
# An option line: four options lettered in order, each letter alone between spaces.
_OPTIONS = re.compile(r"\s*A \S.* B \S.* C \S.* D \S.*")
_ANSWER = re.compile(r"\s*([A-D]) — ")
# A line that reads as prose, not as code: a capitalised word, a lower-case word, and a sentence's end.
_PROSE_LINE = re.compile(r"[A-Z][a-z’']*,? [a-z].*[.!?:]")
# Words whose full stop does not end a sentence: "ESL, eq. 7.49", "Recht et al. (2018)", initials.
_ABBREVIATION = re.compile(r"(\b(e\.g|i\.e|et al|eq|Eq|Fig|fig|cf|vs|approx|s\.d)|(^|\s)[A-Z])$")
# A name that opens a sentence in lower case: a capital, an underscore or a hyphen inside its first word.
_LOWER_CASE_NAME = re.compile(r"[a-z][\w.]*[A-Z_-]")
_CLOSERS = '”’")]'
_OPENERS = '“‘"($§'


@dataclass(frozen=True)
class Unit:
    """One unit of a document: its kind (one of ``KINDS``), its text, its span in the document
    (``text == document[start:end]``) and, for a quiz answer's key, the span of the option text it
    repeats in the option line above it."""

    kind: str
    text: str
    start: int
    end: int
    repeats: tuple[int, int] | None = None


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of ``text[start:end]`` without the spaces or tabs around it."""
    inner = text[start:end]
    start += len(inner) - len(inner.lstrip())
    return start, start + len(inner.strip())


def _stripped(kind: str, text: str, start: int, end: int) -> Unit:
    """A unit of ``text[start:end]`` without the spaces or tabs around it (a quiz line's indent, a
    table's empty first cell)."""
    start, end = _trimmed(text, start, end)
    return Unit(kind, text[start:end], start, end)


def _paragraphs(text: str) -> list[list[tuple[int, int]]]:
    """The paragraphs of ``text``, each a list of its lines' (start, end) spans. Only an empty line
    parts paragraphs: a listing keeps its own blank lines as a single space, which stays inside it."""
    paragraphs, current, at = [], [], 0
    for line in text.split("\n"):
        if line == "":
            if current:
                paragraphs.append(current)
            current = []
        else:
            current.append((at, at + len(line)))
        at += len(line) + 1
    if current:
        paragraphs.append(current)
    return paragraphs


def sentence_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The sentences of ``text[start:end]``, as spans without surrounding spaces. A sentence ends at
    a full stop, question or exclamation mark (and any closing quote or bracket after it) followed by
    a space and what can open a sentence (a capital, a digit, an opening quote or bracket, ``$``,
    ``§``, or a name printed in lower case); not inside inline maths (``$…$``), and not after an
    abbreviation or an initial."""
    spans, begin, in_maths, i = [], start, False, start
    while i < end:
        char = text[i]
        if char == "$":
            in_maths = not in_maths
        elif char in ".?!" and not in_maths:
            stop = i + 1
            while stop < end and text[stop] in _CLOSERS:
                stop += 1
            following = stop
            while following < end and text[following] == " ":
                following += 1
            ends = following == end or (
                following > stop
                and _opens_a_sentence(text[following:end])
                and not (char == "." and _ABBREVIATION.search(text[begin:i]))
            )
            if ends:
                spans.append((begin, stop))
                begin, i = following, following
                continue
        i += 1
    if begin < end:
        spans.append((begin, end))
    return [_trimmed(text, a, b) for a, b in spans if text[a:b].strip()]


def _opens_a_sentence(rest: str) -> bool:
    """Whether ``rest`` can open a sentence: a capital, a digit, an opening quote or bracket, ``$``
    or ``§``, or a name printed in lower case ("nnU-Net", "cross_val_score", "scikit-learn")."""
    return rest[:1].isupper() or rest[:1].isdigit() or rest[:1] in _OPENERS or bool(_LOWER_CASE_NAME.match(rest))


def _sentences(text: str, start: int, end: int) -> list[Unit]:
    units = []
    for a, b in sentence_spans(text, start, end):
        kind = QUESTION if text[a:b].rstrip(_CLOSERS).endswith("?") else PROSE
        units.append(Unit(kind, text[a:b], a, b))
    return units


def _ends_as_a_sentence(line: str) -> bool:
    return line.rstrip().rstrip(_CLOSERS).endswith((".", "?", "!", ":", ";", ","))


def _is_heading(line: str, next_line: str) -> bool:
    """Whether a paragraph of one line is a heading: it does not end as a sentence ends, opens with
    no lower-case letter and is no list item, and the next paragraph (its first line, ``next_line``)
    is no displayed formula: a line that runs into a formula is a sentence the formula completes."""
    runs_into_maths = next_line.startswith("$$")
    return not (_ends_as_a_sentence(line) or line[:1].islower() or _ITEM.match(line) or runs_into_maths)


def _answer_units(text: str, start: int, end: int, options: tuple[int, int]) -> list[Unit]:
    """An answer line, ``B — <option B's text> — <explanation>``: its key, then the explanation's
    sentences. The key ends at the last dash before which the line still repeats option B as the
    option line (``options``, its span) prints it, up to the next option's letter."""
    line, listed = text[start:end], text[options[0] : options[1]]
    letter = _ANSWER.match(line)
    body = letter.end()
    following = {"A": " B ", "B": " C ", "C": " D ", "D": ""}[letter.group(1)]
    key_end, repeats = len(line), None  # an answer that does not repeat its option: all of it is the key
    for dash in (m.start() for m in re.finditer(" — ", line[body:])):
        option = f"{letter.group(1)} {line[body : body + dash]}"
        at = listed.find(option)
        after = at + len(option)
        if at >= 0 and (listed.startswith(following, after) if following else after == len(listed)):
            key_end = body + dash
            repeats = (options[0] + at + 2, options[0] + after)  # the option's text, without its letter
    indent = len(line) - len(line.lstrip())
    key = Unit(QUIZ_ANSWER, line[indent:key_end], start + indent, start + key_end, repeats)
    return [key] + (_sentences(text, start + key_end + len(" — "), end) if key_end < len(line) else [])


def _line_units(text: str, start: int, end: int, options: tuple[int, int] | None) -> list[Unit]:
    """The units of one line of a prose paragraph: a list item's or a paragraph's sentences, a quiz's
    option line, answer line or placeholder."""
    line = text[start:end]
    if _PLACEHOLDER.fullmatch(line):
        return [_stripped(PLACEHOLDER, text, start, end)]
    if _OPTIONS.fullmatch(line):
        return [_stripped(QUIZ_OPTIONS, text, start, end)]
    if options and _ANSWER.match(line):
        return _answer_units(text, start, end, options)
    item = _ITEM.match(line)
    return _sentences(text, start + (item.end() if item else 0), end)


def document_units(text: str) -> list[Unit]:
    """Every unit of a document's text, in order, each of one of ``KINDS`` (the module's docstring
    says how each is recognised). Every non-blank character stands in exactly one unit, but for list
    markers and the dash that parts a quiz answer's key from its explanation."""
    units: list[Unit] = []
    paragraphs = _paragraphs(text)
    state, listing, options = "prose", None, None
    for number, lines in enumerate(paragraphs):
        first = text[lines[0][0] : lines[0][1]]
        whole = (lines[0][0], lines[-1][1])
        next_line = text[slice(*paragraphs[number + 1][0])] if number + 1 < len(paragraphs) else ""
        if state == "code":
            if len(lines) == 1 and _OUTPUT_MARKER.fullmatch(first):
                units.append(Unit(CODE, text[listing[0] : listing[1]], *listing))
                state, listing = "output", whole
                continue
            if not (len(lines) == 1 and _PROSE_LINE.fullmatch(first)):
                listing = (listing[0], whole[1])
                continue
            units.append(Unit(CODE, text[listing[0] : listing[1]], *listing))
            state = "prose"
        elif state == "output":
            if len(lines) > 1:
                listing = (listing[0], whole[1])
                continue
            units.append(Unit(OUTPUT, text[listing[0] : listing[1]], *listing))
            state = "prose"
        elif state == "diagram":
            units.append(Unit(DIAGRAM, text[whole[0] : whole[1]], *whole))
            state = "prose"
            continue
        if _LISTING_START.match(first):
            state, listing = "code", whole
        elif len(lines) == 1 and _TITLE.fullmatch(first):
            units.append(Unit(TITLE, first, *whole))
            state = "diagram" if first.startswith("diagram ") else "prose"
        elif first.startswith("$$") and text[whole[1] - 2 : whole[1]] == "$$":
            units.append(Unit(MATHS, text[whole[0] : whole[1]], *whole))
        elif all("\t" in text[a:b] for a, b in lines):
            units += [_stripped(TABLE_ROW, text, a, b) for a, b in lines]
        elif len(lines) == 1 and _RULE.fullmatch(first):
            units.append(Unit(RULE, first, *whole))
        elif len(lines) == 1 and _is_heading(first, next_line):
            units.append(Unit(HEADING, first, *whole))
        else:
            for a, b in lines:
                found = _line_units(text, a, b, options)
                units += found
                if found and found[0].kind == QUIZ_OPTIONS:  # the options a later answer line repeats
                    options = (found[0].start, found[0].end)
    if state in ("code", "output"):
        units.append(Unit(CODE if state == "code" else OUTPUT, text[listing[0] : listing[1]], *listing))
    return units
