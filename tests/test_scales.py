"""The scales of the vague words (registry/scales.yaml): each names its yardstick and quotes the document
that sets it, each word holds one bound with its reason, and a synonym is held to its word's bound."""

import pytest

from conftest import ROOT, project_records
from cvsuite.published.census import quote_position
from cvsuite.published.records import DOCUMENTS
from cvsuite.published.scales import read_scales

SEEDS = ROOT.parent / "shared" / "seeds"
SEED_FILES = dict(zip(DOCUMENTS, ("000_03a96ac40e6e345a.txt", "001_5fb05c4d99f1d53f.txt", "003_ff2a940f8de55ba7.txt")))


def test_a_synonym_is_held_to_its_words_bound_on_its_home_scale_and_by_its_scales_name():
    words = read_scales(ROOT / "registry").words
    assert words["vanishes"] is words["negligible"] and words["vanishes"]["word"] == "negligible"
    assert words["share/a few percent"] is words["a few percent"]
    assert words["negligible"]["below"] == "0.01" and words["negligible"]["scale"] == "share"


def test_a_few_named_scales_hold_every_word_the_records_use():
    scales = read_scales(ROOT / "registry")
    assert 3 <= len(scales.scales) <= 8
    words = scales.words
    used = {r.params["word"] for record in project_records() for r in record.readings if "word" in r.params}
    assert used <= set(words), sorted(used - set(words))


def test_every_word_and_synonym_stands_once_on_its_scale():
    for scale in read_scales(ROOT / "registry").scales:
        names = [n for w in scale.words for n in w.names]
        assert len(names) == len(set(names)), scale.name


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the documents are not beside the repository ({SEEDS})")
def test_every_scales_quote_stands_verbatim_in_the_document_it_names():
    for scale in read_scales(ROOT / "registry").scales:
        text = (SEEDS / SEED_FILES[scale.document]).read_text(encoding="utf-8")
        assert quote_position(scale.quote, text) is not None, f"scale '{scale.name}': its quote is not verbatim"
