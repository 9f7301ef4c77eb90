"""docs/directional_sentences.md, the hand-kept census of the documents' directional sentences,
held to the registry and the documents: every record it names exists, its counts line is its table's
tally, and every sentence it quotes stands in its document."""

import re
from collections import Counter

import pytest

from conftest import ROOT, project_records

CENSUS = ROOT / "docs" / "directional_sentences.md"
SEEDS = ROOT.parent / "shared" / "seeds"
DOCUMENTS = {"000": "000_03a96ac40e6e345a.txt", "001": "001_5fb05c4d99f1d53f.txt", "003": "003_ff2a940f8de55ba7.txt"}
# A record id as the census names it: dotted, starting with a letter; a trailing * names a family.
RECORD_ID = re.compile(r"\b[a-z][a-z0-9]*(?:\.[a-z0-9*-]+)+")


def census_rows() -> list[dict[str, str]]:
    keys = ("number", "document", "section", "sentence", "records", "status", "reason")
    rows = []
    for line in CENSUS.read_text(encoding="utf-8").splitlines():
        if re.match(r"\| \d+ \|", line):
            cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
            assert len(cells) == len(keys), f"census row {cells[0]} has {len(cells)} cells, not {len(keys)}"
            rows.append(dict(zip(keys, cells, strict=True)))
    return rows


def test_every_record_the_census_names_is_in_the_registry():
    ids = {record.id for record in project_records()}
    unknown = []
    for row in census_rows():
        for name in RECORD_ID.findall(row["records"]):
            known = any(i.startswith(name.split("*")[0]) for i in ids) if "*" in name else name in ids
            if not known:
                unknown.append(f"row {row['number']}: {name}")
    assert not unknown, "the census names records the registry does not have:\n" + "\n".join(unknown)


def test_the_census_counts_line_is_its_tally():
    rows = census_rows()
    status = Counter("registered" if r["status"].startswith("registered") else r["status"] for r in rows)
    left_out = [r for r in rows if r["status"] == "unregistered"]
    checkable = sum(r["reason"].startswith("Left out for a later issue") for r in left_out)
    text = CENSUS.read_text(encoding="utf-8")
    said = re.search(
        r"Counts: (\d+) registered.*?(\d+) partly registered, (\d+) left out \((\d+) of them not "
        r"checkable.*?(\d+) checkable",
        text,
        re.S,
    )
    assert said, "the census has no counts line"
    assert [int(n) for n in said.groups()] == [
        status["registered"],
        status["partial"],
        len(left_out),
        len(left_out) - checkable,
        checkable,
    ]
    assert all(r["records"] == "—" for r in left_out), "a left-out row names records"
    assert all(r["records"] != "—" for r in rows if r["status"] != "unregistered"), "a registered row names none"


def pieces_in_order(quote: str, text: str) -> bool:
    """Each piece of a census quote (split at its ' ... ', ' / ', ⏎ and ⇥ marks) in ``text``, in order."""
    at = 0
    for piece in re.split(r" \.\.\. | / |⏎|⇥", quote):
        piece = piece.strip().rstrip("\\").strip()
        if piece:
            found = text.find(piece, at)
            if found < 0:
                return False
            at = found + len(piece)
    return True


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the documents are not beside the repository ({SEEDS})")
def test_every_sentence_the_census_quotes_stands_in_its_document():
    texts = {doc: (SEEDS / name).read_text(encoding="utf-8") for doc, name in DOCUMENTS.items()}
    lost = [
        f"row {r['number']} ({r['document']}): {r['sentence'][:70]}"
        for r in census_rows()
        if not r["sentence"].startswith("[table]")
        and not pieces_in_order(r["sentence"].strip("“”"), texts[r["document"]])
    ]
    assert not lost, "census quotes not found in their documents:\n" + "\n".join(lost)
