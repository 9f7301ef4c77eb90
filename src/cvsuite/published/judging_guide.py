"""How claims in words are judged, on one page: how readings decide a verdict, every judge's rule in
plain words, and every scale of vague words with its yardstick, the document quote that sets it, and
each word's bound and synonyms. REPORT.md has it as a section and the site as ``judging.html``; every
reading the report or the site shows links to it. Built from the judges' own ``plain`` rules and
registry/scales.yaml, so it cannot say a rule the comparison does not apply.
"""

from __future__ import annotations

from cvsuite.published.judges import JUDGES
from cvsuite.published.scales import BOUND_KEYS, Scales

TITLE = "How claims in words are judged"
ANCHOR = "how-claims-in-words-are-judged"
PAGE = "judging.html"

# How a record's readings make its verdict: the rule cvsuite.published.comparison.decide applies.
READINGS = (
    "A claim in words is read as a statement about a quantity the run computes: the reading, a rule "
    "applied to one of the study tables. Where a sentence can reasonably be read in more than one way, "
    "each reading is listed (at most four), each settling one named ambiguity with the documents' own "
    "words as its support, and none weakening what the sentence asserts. Every reading is judged.",
    "Reproduced: the claim holds on every reading listed. Depends on the reading: it holds on at least "
    "one reading and fails on at least one other; it is counted neither as an erratum nor as reproduced, "
    "and both readings are shown. Differs: it fails on every reading listed, and is an erratum. "
    "Inconclusive: a reading's test cannot decide, and the verdict turns on it.",
    "A reading someone proposed that the documents' own words rule out is kept beside the verdict, as "
    "also considered, with the words that rule it out.",
)

_PHRASES = {"at_least": "at least", "above": "above", "at_most": "at most", "below": "below"}


def judge_anchor(name: str) -> str:
    return f"judge-{name.replace('_', '-')}"


def scale_anchor(name: str) -> str:
    return "scale-" + "-".join(name.split())


def bound_words(bounds: dict[str, str]) -> str:
    """A word's bounds in words: "at most 0.05", "above 0 and at most 0.05"."""
    return " and ".join(f"{_PHRASES[k]} {float(bounds[k]):g}" for k in BOUND_KEYS if k in bounds)


def guide(scales: Scales) -> dict:
    """What the page shows: the readings rule, the judges (name, kind, plain rule) and the scales (name,
    yardstick, quote, document, words with bounds and synonyms), with their anchors."""
    return {
        "title": TITLE,
        "readings": READINGS,
        "judges": [
            {"name": j.name, "anchor": judge_anchor(j.name), "kind": j.kind, "plain": j.plain} for j in JUDGES.values()
        ],
        "scales": [
            {
                "name": s.name,
                "anchor": scale_anchor(s.name),
                "yardstick": s.yardstick,
                "quote": s.quote,
                "document": s.document,
                "words": [
                    {"word": w.word, "bound": bound_words(w.bounds), "synonyms": ", ".join(w.synonyms), "why": w.why}
                    for w in s.words
                ],
            }
            for s in scales.scales
        ],
    }


def guide_markdown(scales: Scales) -> list[str]:
    """The guide as a REPORT.md section."""
    page = guide(scales)
    lines = [f'<a id="{ANCHOR}"></a>', f"## {TITLE}", "", *(f"{p}\n" for p in page["readings"])]
    lines += ["### The rules", ""]
    for j in page["judges"]:
        lines.append(f'- <a id="{j["anchor"]}"></a>**{j["name"].replace("_", " ")}** ({j["kind"]}). {j["plain"]}')
    lines += ["", "### The scales of vague words", ""]
    lines.append(
        "A vague word is held to one bound, on a scale that says what it is measured against; a synonym is "
        "held to its word's bound."
    )
    lines.append("")
    for s in page["scales"]:
        lines += [
            f'<a id="{s["anchor"]}"></a>',
            f'**{s["name"].capitalize()}**: {s["yardstick"]}. Set by "{s["quote"]}" ({s["document"]}).',
            "",
            "| word | bound | synonyms | why |",
            "|---|---|---|---|",
        ]
        lines += [f"| {w['word']} | {w['bound']} | {w['synonyms']} | {w['why']} |" for w in s["words"]]
        lines.append("")
    return lines
