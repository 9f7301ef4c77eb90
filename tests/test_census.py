"""The census (registry/census.csv, docs/census.md): every clause of the documents, judged by the
registry's records or left out with a reason (registry/left_out.yaml). Held to the registry always,
and to the documents where they stand beside the repository."""

import importlib.util

import pandas as pd
import pytest
import yaml

from conftest import ROOT, project_records
from cvsuite.published.census import (
    JUDGED,
    NOT_CHECKABLE,
    NOT_JUDGED,
    CensusError,
    census_markdown,
    census_rows,
    checked_census,
    clause_spans,
    coverage,
    read_left_out,
    section_of,
    section_starts,
    units_no_clause_covers,
)
from cvsuite.published.document_units import PROSE, QUIZ_ANSWER, TABLE_ROW, TITLE, document_units
from cvsuite.published.records import Record

SEEDS = ROOT.parent / "shared" / "seeds"
CENSUS = ROOT / "registry" / "census.csv"


def committed_census() -> pd.DataFrame:
    return pd.read_csv(CENSUS, keep_default_na=False, dtype=str)


def left_out_entries():
    data = yaml.safe_load((ROOT / "registry" / "left_out.yaml").read_text(encoding="utf-8"))
    return read_left_out(data, "registry/left_out.yaml")


def test_the_census_names_every_record_once_and_no_other():
    census = committed_census()
    named = [i for ids in census["records"] for i in ids.split()]
    ids = [r.id for r in project_records()]
    assert sorted(named) == sorted(ids), (
        "registry/census.csv and the registry disagree: rerun python experiments/write_census.py\n"
        f"not in the census: {sorted(set(ids) - set(named))[:10]}; not in the registry: "
        f"{sorted(set(named) - set(ids))[:10]}"
    )


def test_the_census_lists_every_left_out_clause_and_no_other():
    _, clauses = left_out_entries()
    census = committed_census()
    listed = census[census["status"] != JUDGED]
    assert sorted(zip(listed["quote"], listed["status"])) == sorted(
        (" ".join(c.quote.replace("\t", " ⇥ ").split()), c.status) for c in clauses
    ), "registry/census.csv and registry/left_out.yaml disagree: rerun python experiments/write_census.py"


def test_docs_census_md_is_the_census_written_out():
    assert (ROOT / "docs" / "census.md").read_text(encoding="utf-8") == census_markdown(committed_census())


def write_census():
    """experiments/write_census.py, loaded as a module (experiments/ is no package)."""
    spec = importlib.util.spec_from_file_location("write_census", ROOT / "experiments" / "write_census.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the documents are not beside the repository ({SEEDS})")
def test_the_committed_census_is_what_write_census_writes_from_the_documents(tmp_path):
    module = write_census()
    (tmp_path / "registry").mkdir()
    (tmp_path / "docs").mkdir()
    module.main(SEEDS, tmp_path)
    assert (tmp_path / "registry" / "census.csv").read_text() == CENSUS.read_text(), "rerun experiments/write_census.py"
    assert (tmp_path / "docs" / "census.md").read_text() == (ROOT / "docs" / "census.md").read_text()


# The units every clause of the census must cover between them: a prose sentence (a paragraph's, a
# bullet's or numbered item's, a caption's, a quiz question's statement or a quiz answer's
# explanation), a title (a figure's, diagram's, sketch's, listing's or quiz's: two of the documents'
# figure titles state their finding), a table row, and a quiz answer's key (the option the document
# asserts, which repeats that option's words). A heading names a part of the document and a question
# asks; a listing, its printed output, a displayed formula, a diagram's source, a quiz's option line
# (candidates, not assertions) and a placeholder are not sentences: none of them need be covered.
COVERED_KINDS = (PROSE, TITLE, TABLE_ROW, QUIZ_ANSWER)


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the documents are not beside the repository ({SEEDS})")
def test_every_sentence_of_the_documents_stands_in_a_clause_of_the_census():
    """Each document is cut into units (``document_units``) and every unit of ``COVERED_KINDS`` must be
    covered by a clause: a record's quote or an entry of registry/left_out.yaml. A clause covers a unit
    when one of its quote's pieces (between ``...`` elisions), at the place in the text where the
    census puts it, lies wholly inside the unit, or the unit lies wholly inside one piece (a quote of
    several sentences). Places, not words: a quote covers no other sentence that repeats its words,
    and no sentence its elision skips. A quiz answer's key is also covered where its option's words
    are, in the option line, since it repeats them verbatim. So a sentence no clause quotes can never
    pass; to pass it needs a record or a left-out clause, with its reason or its check."""
    records = project_records()
    sections, left_out = left_out_entries()
    missing = []
    for document, name in write_census().DOCUMENT_FILES.items():
        text = (SEEDS / name).read_text(encoding="utf-8")
        starts = section_starts(document, sections[document], text)
        units = [u for u in document_units(text) if u.kind in COVERED_KINDS]
        for unit in units_no_clause_covers(units, clause_spans(records, left_out, document, text)):
            missing.append(f"{document} / {section_of(unit.start, starts)} ({unit.kind}): {unit.text}")
    assert not missing, (
        f"{len(missing)} sentences of the documents no clause covers: quote each in a record, or list it in "
        "registry/left_out.yaml (not_checkable with the reason, or not_judged with the check), then rerun "
        "python experiments/write_census.py\n" + "\n".join(missing)
    )


# The census on a document made up for the test.
TEXT = "Title\n\nFirst\nAlpha rises with beta. Gamma is an opinion.\n\nSecond\nDelta falls; epsilon exists.\n"
SECTIONS = {"Doc": [("Opening", "Title"), ("First", "First"), ("Second", "Second")]}


def record(id_: str, quote: str, judge: str = "sign", where: str = "") -> Record:
    from cvsuite.published.records import Reading

    reading = Reading(statistic="s/t.csv.c", judge=judge, params={"above": "0"} if judge == "sign" else {})
    return Record(id_, "Doc", "Doc", "", quote, "True", f"test, {id_}", where=where, readings=(reading,))


def left(quote: str, status: str = NOT_JUDGED):
    data = {"sections": {"Doc": [{"name": n, "starts": s} for n, s in SECTIONS["Doc"]]}}
    data["not_checkable" if status == NOT_CHECKABLE else "not_judged"] = [
        {"document": "Doc", "quote": quote, ("reason" if status == NOT_CHECKABLE else "check"): "why"}
    ]
    return read_left_out(data, "left_out.yaml")[1]


def test_the_census_merges_records_and_left_out_clauses_in_the_documents_order_by_section():
    records = [
        record("a.rises", "Alpha rises with beta."),
        record("a.rises2", "Alpha rises with beta."),
        record("d", "Delta falls"),
    ]
    clauses = left("Gamma is an opinion.", NOT_CHECKABLE) + left("epsilon exists")
    census = census_rows(records, clauses, SECTIONS, {"Doc": TEXT})
    assert list(census["quote"]) == ["Alpha rises with beta.", "Gamma is an opinion.", "Delta falls", "epsilon exists"]
    assert list(census["section"]) == ["First", "First", "Second", "Second"]
    assert list(census["status"]) == [JUDGED, NOT_CHECKABLE, JUDGED, NOT_JUDGED]
    assert census["records"].iloc[0] == "a.rises a.rises2"  # one clause, two records
    covered = coverage(census, {"a.rises": "reproduced", "a.rises2": "differs", "d": "reproduced", "x": "differs"})
    first = covered.iloc[0]
    assert (first["clauses"], first["judged"], first["not_checkable"], first["reproduced"], first["differs"]) == (
        2,
        1,
        1,
        1,
        1,
    )
    assert covered.iloc[1]["not_judged_yet"] == 1
    assert covered.iloc[-1]["section"] == "(not in the census)" and covered.iloc[-1]["records"] == 1


def test_a_left_out_clause_a_claim_quotes_or_the_document_lacks_is_refused_by_name():
    with pytest.raises(CensusError, match="a record already quotes it"):
        census_rows([record("a", "Alpha rises with beta.")], left("rises with beta"), SECTIONS, {"Doc": TEXT})
    with pytest.raises(CensusError, match="its quote is not in 'Doc'"):
        census_rows([], left("Zeta is absent"), SECTIONS, {"Doc": TEXT})
    # A printed number's record quotes its sentence without judging the sentence's claims.
    number = record("n", "Alpha rises with beta.", judge="rounded")
    assert len(census_rows([number], left("rises with beta"), SECTIONS, {"Doc": TEXT})) == 2
    with pytest.raises(CensusError, match="not_judged entry 1: needs check"):
        read_left_out({"sections": {"Doc": []}, "not_judged": [{"document": "Doc", "quote": "q"}]}, "left_out.yaml")


def test_a_damaged_census_is_refused_naming_its_file():
    census = committed_census()
    assert checked_census(census, "registry/census.csv") is census
    with pytest.raises(CensusError, match="registry/census.csv: its columns"):
        checked_census(census.drop(columns="records"), "registry/census.csv")
    with pytest.raises(CensusError, match="unknown status 'maybe'"):
        checked_census(census.assign(status="maybe"), "registry/census.csv")


def test_a_clause_covers_the_sentences_its_quote_stands_in_where_the_census_places_it():
    text = (
        "Title\n\nFirst\n\nAlpha rises. Beta falls. Gamma waits.\n\n"
        "Second\n\nDelta is fixed. Alpha rises. Epsilon ends, and zeta. Eta holds. Theta goes.\n"
    )
    units = [u for u in document_units(text) if u.kind == PROSE]
    records = [record("a", "Alpha rises."), record("b", "Beta falls. Gamma waits.")]
    clauses = left("Epsilon ends ... Theta goes.") + left("Delta is", NOT_CHECKABLE)
    placed = clause_spans(records, clauses, "Doc", text)
    uncovered = [u.text for u in units_no_clause_covers(units, placed)]
    # The second "Alpha rises." repeats the first's words but no clause stands there; "Eta holds."
    # is skipped by the elision around it.
    assert uncovered == ["Alpha rises.", "Eta holds."]
    # A record below the first quotes the second "Alpha rises.": the census places it there.
    placed = clause_spans(
        [*records, record("d", "Delta is fixed."), record("a2", "Alpha rises.")], clauses, "Doc", text
    )
    assert [u.text for u in units_no_clause_covers(units, placed)] == ["Eta holds."]
    with pytest.raises(CensusError, match="its quote is not in 'Doc'"):
        clause_spans([], left("Iota is absent"), "Doc", text)


def test_the_same_words_left_out_elsewhere_than_a_claim_quotes_them_are_another_clause():
    text = "Title\n\nFirst\n\nAlpha rises with beta.\n\nSecond\n\nbeta, again.\n"
    # "beta" first stands inside the claim's quote, where the claim judges it: refused.
    with pytest.raises(CensusError, match="a record already quotes it"):
        census_rows([record("a", "Alpha rises with beta.")], left("beta"), SECTIONS, {"Doc": text})
    census = census_rows([record("a", "Alpha rises with beta.")], left("beta, again"), SECTIONS, {"Doc": text})
    assert list(census["status"]) == [JUDGED, NOT_JUDGED]
