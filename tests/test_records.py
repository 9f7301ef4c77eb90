"""The registry's records are read whole and checked before any job: every key, the judges' parameters,
the declared tables, and each quote against the document it quotes."""

import re
from pathlib import Path

import pytest

from conftest import ROOT, project_records
from cvsuite.published.census import quote_position
from cvsuite.published.published_values import published_value
from cvsuite.published.records import DOCUMENTS, WORDED_FIELDS, RecordError, read_records

DECLARED = {
    "k_bias/k_bias.csv": ["K", "cv_estimate", "cv_estimate_se", "bias", "bias_over_truth", "fits"],
    "t/y.csv": ["d", "y_*"],
}
VAGUE = {"a few percent": {"at_most": "5", "why": "w"}}
SCALES = """\
share:
  yardstick: a part of a whole
  document: Cross-Validation
  quote: a quote
  words:
    a few percent:
      at_most: '5'
      why: w
"""
GOOD = """\
  - id: demo.k2-estimate
    section: From scratch
    quote: the mean over 40 shuffles is $5.14$
    published: '5.136417'
    statistic: k_bias/k_bias.csv[K=2].cv_estimate
    judge: rounded
"""
# The documents, where this machine has them: beside the repository, as the reference listings are.
SEEDS = ROOT.parent / "shared" / "seeds"
SEED_FILES = {
    "Cross-Validation": "000_03a96ac40e6e345a.txt",
    "Regularization and Cross-Validation": "001_5fb05c4d99f1d53f.txt",
    "Estimating Out-of-Sample Error": "003_ff2a940f8de55ba7.txt",
}


def write_registry(folder: Path, records: str, document: str = "Cross-Validation") -> Path:
    folder.mkdir(exist_ok=True)
    for title, name in DOCUMENTS.items():
        body = records if title == document else ""
        (folder / name).write_text(
            f"document: {title}\nrecords:\n{body or '  []'}\n".replace("records:\n  []", "records: []"),
            encoding="utf-8",
        )
    (folder / "scales.yaml").write_text(SCALES, encoding="utf-8")
    return folder


def read(folder: Path, records: str, document: str = "Cross-Validation"):
    return read_records(write_registry(folder, records, document), DECLARED, VAGUE)


def test_the_project_registry_reads_with_every_statistic_declared():
    records = project_records()
    assert len({r.id for r in records}) == len(records) > 500


def test_a_good_record_is_read(tmp_path):
    record = read(tmp_path / "r", GOOD)[0]
    assert (record.id, record.study, record.statistic, record.published) == (
        "demo.k2-estimate",
        "k_bias",
        "k_bias/k_bias.csv[K=2].cv_estimate",
        "5.136417",
    )
    assert record.origin == f"{tmp_path / 'r' / 'cross_validation.yaml'}, line 3"


def test_values_load_as_text_so_the_printed_precision_survives(tmp_path):
    record = read(tmp_path / "r", GOOD.replace("'5.136417'", "0.50"))[0]
    assert record.published == "0.50"


@pytest.mark.parametrize(
    "change, message",
    [
        (("'5.136417'", "'5.13.6'"), "does not parse"),
        (("    section: From scratch\n", ""), "'section' is empty"),
        (("judge: rounded", "judge: roughly"), "judge 'roughly' is not one of"),
        (("k_bias/k_bias.csv[K=2]", "k_bias/nowhere.csv[K=2]"), "no study produces the table 'k_bias/nowhere.csv'"),
        ((".cv_estimate\n", ".cv_estimat\n"), "table 'k_bias/k_bias.csv' has no column 'cv_estimat'"),
        (("[K=2]", "[k=2]"), "has no column 'k'"),
        (("[K=2]", "[K2]"), "row selector"),
        (("judge: rounded", "judge: {within_se: {}}"), "needs alternative"),
        (
            (".cv_estimate\n    judge: rounded", ".bias\n    judge: {within_se: {alternative: '1'}}"),
            "has no column 'bias_se'",
        ),
        (("judge: rounded", "judge: {size: a handful}"), "'a handful' is not a word of the scales of vague words"),
        (("judge: rounded", "judge: {size: {at_most: few}}"), "must be a number"),
        (("judge: rounded", "judge: {size: a few percent}"), "needs its 'measure'"),
        (
            ("judge: rounded", "judge: {sign: {above: '0', rows: many}}\n    measure: m"),
            "rows must be 'every' or 'some'",
        ),
        (("    judge: rounded\n", ""), "needs its statistic and its judge"),
        (("id: demo.k2-estimate", "id: Has Spaces"), "id may hold only"),
        (("    quote: the mean", "    quot: the mean"), "unknown key"),
        (
            ("    judge: rounded\n", "    judge: rounded\n    note: the bias is ${k_bias/k_bias.csv[K=2].biass:.2f}\n"),
            "note: placeholder .* has no column 'biass'",
        ),
        (
            ("    judge: rounded\n", "    judge: rounded\n    remark: ${k_bias/nowhere.csv.x}\n"),
            "remark: placeholder .* no study produces",
        ),
        (("    judge: rounded\n", "    judge: rounded\n    figure: k_bias/x.svg\n"), "must be <study>/<figure>.png"),
        (
            ("    judge: rounded\n", "    judge: rounded\n    cited: {work: Kohavi (1995)}\n    erratum: wrong\n"),
            "an erratum must be a claim of one of the documents",
        ),
    ],
)
def test_a_malformed_record_is_refused_naming_its_file_line_and_id(tmp_path, change, message):
    text = GOOD.replace(*change)
    with pytest.raises(RecordError, match=message) as err:
        read(tmp_path / "r", text)
    assert "cross_validation.yaml, line 3" in str(err.value) and "record '" in str(err.value)


def test_a_record_that_is_not_reproducible_says_why_and_points_at_nothing(tmp_path):
    text = "  - id: demo.cited\n    section: S\n    quote: q\n    published: 41.7%\n"
    text += "    not_reproducible: the SVM is not given\n"
    record = read(tmp_path / "r", text)[0]
    assert not record.readings and record.not_reproducible == "the SVM is not given"
    with pytest.raises(RecordError, match="points at no statistic"):
        read(tmp_path / "s", text + "    statistic: k_bias/k_bias.csv[K=2].bias\n")
    with pytest.raises(RecordError, match="needs a judge that can say 'differs'"):
        read(tmp_path / "t", text + "    erratum: wrong\n")


def test_a_printed_table_is_one_block_whose_cells_are_records(tmp_path):
    text = (
        "  - table: demo.table\n    section: S\n    quote: |-\n      $K$\tbias\n      $2$\t$+4.98$\n"
        "    judge: rounded\n    cells:\n"
        "      - {id: demo.table.k2.bias, where: 'row K = 2, column bias', published: '+4.98',\n"
        "         statistic: 'k_bias/k_bias.csv[K=2].bias'}\n"
    )
    record = read(tmp_path / "r", text)[0]
    assert (record.id, record.quote, record.where, record.statistic) == (
        "demo.table.k2.bias",
        "$K$\tbias\n$2$\t$+4.98$",
        "row K = 2, column bias",
        "k_bias/k_bias.csv[K=2].bias",
    )
    with pytest.raises(RecordError, match="needs 'where'"):
        read(tmp_path / "s", text.replace("where: 'row K = 2, column bias', ", ""))


def test_other_readings_need_their_support_and_there_are_at_most_three(tmp_path):
    claim = (
        GOOD.replace("'5.136417'", "'True'")
        .replace("judge: rounded", "judge: {size: a few percent}\n    measure: the K = 2 bias, in percent")
        .replace("[K=2].cv_estimate", "[K=2].bias_over_truth")
    )
    other = (
        "      - statistic: k_bias/k_bias.csv[K=2].bias\n        judge: {size: {at_most: '0.1'}}\n"
        "        measure: the bias in the risk's units\n        settles: what a percent is of\n"
    )
    with pytest.raises(RecordError, match="needs its support"):
        read(tmp_path / "a", claim + "    readings:\n" + other)
    supported = other + "        support: bias of a few percent\n"
    record = read(tmp_path / "b", claim + "    readings:\n" + supported)[0]
    assert [r.judge for r in record.readings] == ["size", "size"] and record.readings[1].support
    with pytest.raises(RecordError, match="at most 4 readings"):
        read(tmp_path / "c", claim + "    readings:\n" + supported * 4)
    with pytest.raises(RecordError, match="which ambiguity it settles"):
        read(
            tmp_path / "d", claim + "    readings:\n" + supported.replace("        settles: what a percent is of\n", "")
        )


def test_a_reading_ruled_out_keeps_the_documents_words_that_rule_it_out(tmp_path):
    claim = GOOD.replace("'5.136417'", "'True'").replace(
        "judge: rounded", "judge: {size: a few percent}\n    measure: the K = 2 bias, in percent"
    )
    ruled = (
        "    rejected:\n      - reading: the bias as a share of the response's variance\n"
        "        because: by a factor of $33$\n        why: the page measures this bias against the truth\n"
    )
    record = read(tmp_path / "a", claim.replace("[K=2].cv_estimate", "[K=2].bias_over_truth") + ruled)[0]
    assert record.rejected[0].because == "by a factor of $33$" and record.rejected[0].why.startswith("the page")
    with pytest.raises(RecordError, match="the document's words that rule it out"):
        read(tmp_path / "b", claim + ruled.replace("        because: by a factor of $33$\n", ""))
    own = claim + "    settles: what a percent is of\n"
    with pytest.raises(RecordError, match="both what it settles"):
        read(tmp_path / "c", own.replace("[K=2].cv_estimate", "[K=2].bias_over_truth"))


def test_a_repeated_id_is_refused_naming_both_places(tmp_path):
    with pytest.raises(
        RecordError, match=r"line \d+: record 'demo.k2-estimate' repeats the id of .*cross_validation.yaml, line 3$"
    ):
        read(tmp_path / "r", GOOD + "\n" + GOOD)


def test_a_yaml_syntax_error_is_named_with_its_line(tmp_path):
    with pytest.raises(RecordError, match=r"cross_validation.yaml, line \d+, column \d+: found unexpected end"):
        read(tmp_path / "r", GOOD.replace("    published: '5.136417'", "    published: '5.136417"))


def test_a_missing_file_or_scales_file_is_named(tmp_path):
    folder = write_registry(tmp_path / "r", GOOD)
    (folder / "scales.yaml").unlink()
    with pytest.raises(RecordError, match="the scales of the vague words are missing"):
        read_records(folder, DECLARED)
    (folder / "estimating_out_of_sample_error.yaml").unlink()
    with pytest.raises(RecordError, match="registry file of 'Estimating Out-of-Sample Error' is missing"):
        read_records(folder, DECLARED, VAGUE)


def test_a_vague_word_needs_a_bound_and_a_reason_and_a_scale_its_yardstick(tmp_path):
    from cvsuite.published.scales import read_scales

    folder = write_registry(tmp_path / "r", GOOD)
    head = "cases:\n  yardstick: the cases counted\n  document: Cross-Validation\n  quote: q\n  words:\n"
    (folder / "scales.yaml").write_text(head + "    most:\n      above: '0.5'\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"scales.yaml, line 7: 'most' \(scale 'cases'\) needs a 'why'"):
        read_scales(folder)
    (folder / "scales.yaml").write_text(head + "    most:\n      why: more than half\n", encoding="utf-8")
    with pytest.raises(RecordError, match="'most' .scale 'cases'. needs a bound"):
        read_scales(folder)
    word = "    most:\n      above: '0.5'\n      why: more than half\n"
    (folder / "scales.yaml").write_text(head.replace("  yardstick: the cases counted\n", "") + word, encoding="utf-8")
    with pytest.raises(RecordError, match="scale 'cases' needs yardstick"):
        read_scales(folder)


def test_published_value_reads_a_record_and_names_a_missing_one(tmp_path):
    records = read(tmp_path / "r", GOOD.replace("'5.136417'", "12.5%"))
    assert published_value(records, "demo.k2-estimate") == 12.5
    with pytest.raises(KeyError, match="no record 'x.z'"):
        published_value(records, "x.z")


quote_found = quote_position  # where a quote stands in its document, as the census finds it


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the documents are not beside the repository ({SEEDS})")
def test_every_quote_stands_verbatim_in_its_document_and_records_follow_the_quotes_order():
    records = project_records()
    texts = {title: (SEEDS / name).read_text(encoding="utf-8") for title, name in SEED_FILES.items()}
    cursor = dict.fromkeys(texts, 0)
    problems = []
    for record in records:
        text = texts[record.quoted_in]
        at = quote_found(record.quote, text, cursor[record.quoted_in])
        if at is None:
            earlier = quote_found(record.quote, text, 0)
            why = "is not verbatim in the document" if earlier is None else "stands before the record above it"
            problems.append(f"{record.origin}: {record.id}: its quote {why}")
            continue
        cursor[record.quoted_in] = at
        for reading in record.readings[1:]:
            if reading.support and all(quote_found(reading.support, t, 0) is None for t in texts.values()):
                problems.append(
                    f"{record.origin}: {record.id}: the support of a reading is not verbatim in the documents"
                )
    assert not problems, "\n".join(problems)


def test_a_table_cells_printed_number_stands_in_its_quoted_table():
    printed = [r for r in project_records() if r.published not in ("True", "False")]
    cells = [r for r in printed if "\t" in r.quote or r.quote.startswith(" ")]
    assert cells
    bare = lambda text: re.sub(r"[${}\\]|mathbf", "", text)  # noqa: E731
    missing = [r.id for r in cells if bare(r.published).rstrip("×x") not in bare(r.quote)]
    assert not missing, missing


def test_no_record_types_a_computed_number():
    """Every number in a note, remark, erratum or measure is a placeholder filled from the run's tables,
    a quotation of a document (its quote or published text, or words in quotes), or a reference or a
    definition (a section, K = 5, 2 SE): so a rerun under another config or seed cannot leave one stale."""
    from cvsuite.published.templates import quoted_numbers, typed_numbers

    records = project_records()
    quotes = quoted_numbers([r.quote for r in records] + [r.where for r in records] + [r.published for r in records])
    typed = {}
    for r in records:
        texts = {field: getattr(r, field, "") for field in WORDED_FIELDS if field != "measure"}
        texts.update({f"measure {i}": reading.measure for i, reading in enumerate(r.readings)})
        for field, text in texts.items():
            found = typed_numbers(text, quotes)
            if found:
                typed[(r.id, field)] = found
    assert not typed, f"typed numbers (write them as placeholders): {typed}"


def test_only_the_documents_claims_are_errata_and_each_is_judged():
    records = project_records()
    errata = [r for r in records if r.erratum]
    assert errata and all(r.document in DOCUMENTS for r in errata)
    assert all(r.readings for r in errata)


def test_every_records_notes_link_is_a_heading_of_its_studys_notes():
    from test_docs import anchors

    broken = []
    for record in project_records():
        if not record.notes:
            continue
        study, _, anchor = record.notes.partition("#")
        page = ROOT / "docs" / "notes" / f"{study}.md"
        if not page.is_file() or (anchor and anchor not in anchors(page)):
            broken.append(f"{record.id}: {record.notes}")
    assert not broken, broken
