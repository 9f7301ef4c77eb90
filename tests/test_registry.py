"""The registry is read whole and checked before any job: every field, the quoting, the declared tables."""

import csv
from pathlib import Path

import pytest

from cvsuite.published.registry import COLUMNS, RegistryError, published_value, quoting_problem, read_registry
from cvsuite.workflow.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[1]
DECLARED = {"k_bias/k_bias.csv": ["K", "cv_estimate", "cv_estimate_se", "std_error"], "t/y.csv": ["d", "y_*"]}
GOOD = {
    "id": "demo.k2-estimate",
    "document": "Regularization and Cross-Validation",
    "section": "From scratch",
    "where": "K table row 2",
    "published": "5.136417",
    "comparison": "rounded",
    "reading": "",
    "evidence": "",
    "table": "k_bias/k_bias.csv",
    "row": "K=2",
    "column": "cv_estimate",
    "alternative": "",
    "by_construction": "",
    "erratum": "",
    "remark": "",
    "figure": "",
    "note": "",
}
JUDGED = {"reading": "the proposition", "evidence": "figure: k_bias/k_bias.csv[K=2]:cv_estimate"}


def write_rows(path: Path, rows, columns=COLUMNS) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_the_project_registry_points_only_at_declared_tables_and_columns():
    declared = load_catalog(ROOT / "studies.yaml").table_columns()
    claims = read_registry(ROOT / "registry" / "published_numbers.csv", declared)
    assert len({c.id for c in claims}) == len(claims)


def test_a_good_row_is_read(tmp_path):
    claims = read_registry(write_rows(tmp_path / "r.csv", [GOOD]), DECLARED)
    assert claims[0].study == "k_bias" and claims[0].row == "K=2"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"published": "5.13.6"}, "does not parse"),
        ({"where": ""}, "'where' is empty"),
        ({"comparison": "roughly"}, "is not one of"),
        ({"table": "k_bias/nowhere.csv"}, "no study produces the table 'k_bias/nowhere.csv'"),
        ({"column": "cv_estimat"}, "table 'k_bias/k_bias.csv' has no column 'cv_estimat'"),
        ({"row": "k=2"}, "table 'k_bias/k_bias.csv' has no column 'k'"),
        ({"column": ""}, "must say which result"),
        ({"comparison": "within_se", "note": "re-simulated"}, "needs the value the claim argues against"),
        ({"comparison": "within_se", "alternative": "50%"}, "needs a note"),
        (
            {"comparison": "within_se", "column": "std_error", "alternative": "1", "note": "n", **JUDGED},
            "no column 'std_error_se'",
        ),
        ({"comparison": "exact", "published": "True"}, "a judged claim \\('exact'\\) needs its 'reading'"),
        ({"comparison": "exact", "published": "True", "reading": "r"}, "needs its 'evidence'"),
        ({**JUDGED, "evidence": "k_bias/k_bias.csv:cv_estimate"}, "must start with its kind"),
        (
            {**JUDGED, "evidence": "sign: k_bias/k_bias.csv:cv_estimat"},
            "evidence: table 'k_bias/k_bias.csv' has no column",
        ),
        ({**JUDGED, "evidence": "sign: k_bias/nowhere.csv:x"}, "evidence: no study produces the table"),
        ({"erratum": "wrong", "document": "Kohavi (1995)"}, "an erratum must be a claim of one of the documents"),
        ({"note": "the bias is ${k_bias/k_bias.csv[K=2].biass:.2f}"}, "note: placeholder .* has no column 'biass'"),
        ({"remark": "${k_bias/nowhere.csv.x}"}, "remark: placeholder .* no study produces the table"),
        ({"reading": "${k_bias/k_bias.csv[K=2]cv_estimate}"}, "reading: placeholder .* is not of the form"),
        ({"alternative": "50%"}, "does not test against one"),
        ({"comparison": "not_reproducible", "table": "", "column": "", "row": ""}, "needs a note saying why"),
        ({"row": "K2"}, "row selector"),
        (
            {"comparison": "not_reproducible", "table": "", "column": "", "row": "", "note": "n", "erratum": "wrong"},
            "an erratum needs a comparison that can say 'differs'",
        ),
        ({"id": "Has Spaces"}, "id may hold only"),
    ],
)
def test_a_malformed_row_is_refused_with_its_id(tmp_path, change, message):
    row = {**GOOD, **change}
    path = write_rows(tmp_path / "r.csv", [row])
    with pytest.raises(RegistryError, match=message) as err:
        read_registry(path, DECLARED)
    assert f"row '{row['id']}'" in str(err.value) or "at line" in str(err.value)


def test_a_judged_claim_with_its_reading_and_evidence_is_read(tmp_path):
    row = {**GOOD, **JUDGED, "comparison": "exact", "published": "True", "remark": "true, but imprecise"}
    claim = read_registry(write_rows(tmp_path / "r.csv", [row]), DECLARED)[0]
    assert claim.judged and claim.reading == "the proposition" and claim.remark == "true, but imprecise"


def test_a_prefix_pattern_declares_its_columns(tmp_path):
    row = {**GOOD, "table": "t/y.csv", "row": "d=1", "column": "y_3"}
    assert read_registry(write_rows(tmp_path / "r.csv", [row]), DECLARED)[0].column == "y_3"


@pytest.mark.parametrize(
    "line, problem",
    [
        ('a,"b, c",d', None),
        ('a,"say ""hi""",d', None),
        ('a,b"c,d', "a stray quote at column 4 inside an unquoted field"),
        ('a,"b"c,d', "a closing quote at column 5 is followed by 'c', not a comma"),
        ('a,"b,c', "a quoted field is not closed on its line"),
    ],
)
def test_quoting_is_checked_line_by_line(line, problem):
    assert quoting_problem(line) == problem


def test_a_stray_quote_in_a_where_cell_is_refused_with_its_line(tmp_path):
    path = write_rows(tmp_path / "r.csv", [GOOD])
    with path.open("a", encoding="utf-8") as handle:
        handle.write('demo.quote,Doc,S,the "best" score,1.0,rounded,k_bias/k_bias.csv,K=2,cv_estimate,,,,,\n')
    with pytest.raises(RegistryError, match=r"row 'demo.quote' \(line 3\): malformed quoting: a stray quote"):
        read_registry(path, DECLARED)


def test_a_duplicate_id_is_refused(tmp_path):
    path = write_rows(tmp_path / "r.csv", [GOOD, GOOD])
    with pytest.raises(RegistryError, match="row 'demo.k2-estimate' \\(line 3\\) repeats the id of line 2"):
        read_registry(path)


def test_a_missing_column_is_refused(tmp_path):
    columns = [c for c in COLUMNS if c != "note"]
    path = write_rows(tmp_path / "r.csv", [{k: v for k, v in GOOD.items() if k != "note"}], columns)
    with pytest.raises(RegistryError, match="header lacks column\\(s\\) note"):
        read_registry(path)


def test_a_row_with_too_many_fields_is_refused(tmp_path):
    path = write_rows(tmp_path / "r.csv", [GOOD])
    with path.open("a", encoding="utf-8") as handle:
        handle.write("demo.extra,a,b,c,1,rounded,k_bias/k_bias.csv,K=2,cv_estimate,,,,,note,surplus\n")
    with pytest.raises(RegistryError, match="row 'demo.extra' \\(line 3\\) has the wrong number of fields"):
        read_registry(path)


def test_a_missing_registry_is_named(tmp_path):
    with pytest.raises(RegistryError, match="is missing"):
        read_registry(tmp_path / "absent.csv")


def test_published_value_reads_a_registry_row_and_names_a_missing_one(tmp_path):
    claims = read_registry(write_rows(tmp_path / "r.csv", [{**GOOD, "published": "12.5%"}]), DECLARED)
    assert published_value(claims, "demo.k2-estimate") == 12.5
    with pytest.raises(KeyError, match="no row 'x.z'"):
        published_value(claims, "x.z")


def test_no_registry_sentence_types_a_computed_number():
    """Every number in a note, reading, remark or erratum is a placeholder filled from the run's tables,
    a quotation of a document (its `where` or `published` text, or words in quotes), or a reference or a
    definition (a section, K = 5, 2 SE): so a rerun under another config or seed cannot leave one stale."""
    from cvsuite.published.registry import WORDED_FIELDS
    from cvsuite.published.templates import quoted_numbers, typed_numbers

    claims = read_registry(ROOT / "registry" / "published_numbers.csv")
    quotes = quoted_numbers([c.where for c in claims] + [c.published for c in claims])
    typed = {
        (c.id, field): typed_numbers(getattr(c, field), quotes)
        for c in claims
        for field in WORDED_FIELDS
        if typed_numbers(getattr(c, field), quotes)
    }
    assert not typed, f"typed numbers (write them as placeholders): {typed}"


def test_the_same_evidence_and_kind_of_claim_is_judged_by_one_rule():
    """Rows that read the same evidence for the same kind of assertion must get the same verdict rule:
    the same comparison, and for a judged claim the same result cell (one criterion, one verdict)."""
    from cvsuite.studies.nested_optimism import MIRRORED_CLAIMS

    mirrored = {f"claim={a}": f"claim={b}" for a, b in MIRRORED_CLAIMS.items()}
    claims = read_registry(ROOT / "registry" / "published_numbers.csv")
    by_evidence: dict[str, list] = {}
    for c in claims:
        if c.evidence:
            by_evidence.setdefault(c.evidence, []).append(c)
    clashes = []
    for evidence, group in by_evidence.items():
        rules = {
            (c.comparison, c.table, mirrored.get(c.row, c.row), c.column)
            for c in group
            if c.comparison in ("exact", "not_reproducible")
        }
        comparisons = {c.comparison for c in group}
        if len(rules) > 1 or (len(comparisons) > 1 and comparisons != {"rounded", "within_se"}):
            clashes.append((evidence, sorted(c.id for c in group), sorted(rules)))
    assert not clashes, clashes


def test_only_the_documents_claims_are_errata_and_each_has_its_reading():
    from cvsuite.published.registry import DOCUMENTS

    claims = read_registry(ROOT / "registry" / "published_numbers.csv")
    errata = [c for c in claims if c.erratum]
    assert errata and all(c.document in DOCUMENTS for c in errata)
    assert all(c.reading and c.evidence for c in errata), [c.id for c in errata if not (c.reading and c.evidence)]
    assert all(c.reading and c.evidence for c in claims if c.judged)
