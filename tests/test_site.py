"""The static site (cvsuite.published.site): pages, links, math, escaping, values as printed."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest

from cvsuite.published.comparison import COMPARISON_COLUMNS
from cvsuite.published.site import SiteStudy, site_assets, site_files, site_pages
from cvsuite.published.site_math import sentence_html
from cvsuite.published.site_summary import COMMANDS, RunFacts

PLANTED = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def a_comparison() -> pd.DataFrame:
    base = {column: "" for column in COMPARISON_COLUMNS}
    rows = [
        {
            **base,
            "claim": "rcv.learn.k2-factor",
            "document": "Regularization and Cross-Validation",
            "section": "What you'll learn",
            "where": "'a factor of $33$ at $K = 2$'",
            "published": "33",
            "reproduced": "45.7108112",
            "reproduced_as_printed": "46",
            "status": "differs",
            "judge": "rounded",
            "erratum": "the factor is 46",
            "reading": "the estimate over the truth",
            "statistic": "k_bias/k_bias.csv[K=2].cv_over_truth",
            "note": PLANTED,
            "study": "k_bias",
            "table": "k_bias/k_bias.csv",
            "figure": "k_bias/cv_estimate_against_k.png",
        },
        {
            **base,
            "claim": "rcv.learn.loo-bias",
            "document": "Regularization and Cross-Validation",
            "section": "What you'll learn",
            "where": "'and by +0.000063 at leave-one-out'",
            "published": "+0.000063",
            "reproduced": "6.341957159392009e-05",
            "reproduced_as_printed": "+0.000063",
            "status": "reproduced",
            "judge": "rounded",
            "remark": PLANTED,
            "study": "k_bias",
            "table": "k_bias/k_bias.csv",
        },
        {
            **base,
            "claim": "cv.cited.nnunet.folds",
            "document": "Cross-Validation",
            "where": "'nnU-Net trains five folds'",
            "published": "5",
            "status": "not reproducible",
        },
    ]
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


STUDIES = [SiteStudy("k_bias", "The bias of K-fold cross-validation", "§8.2.4", [("cv_estimate_against_k", PLANTED)])]
TABLES = {
    "k_bias/k_bias.csv": pd.DataFrame(
        {"K": [2, 3, 25], "cv_over_truth": [45.7108112, 3.86, 1.000415], "note": ["a", PLANTED, "c"]}
    )
}
COVERAGE = pd.DataFrame(
    {
        "document": ["Regularization and Cross-Validation"] * 2,
        "section": ["What you’ll learn", "Quiz"],
        "clauses": [3, 4],
        "judged": [2, 4],
        "not_checkable": [1, 0],
        "not_judged_yet": [0, 0],
    }
)
RUN = RunFacts(commit="0123456789abcdef", packages={"numpy": "2.4.6"}, date="2026-12-04")


class Links(HTMLParser):
    """Every href and src of a page, every id it defines, and its visible text."""

    def __init__(self):
        super().__init__()
        self.targets, self.ids, self.text, self._skip = [], set(), [], 0
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.targets += [attrs[k] for k in ("href", "src") if k in attrs]
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag in ("script", "style"):
            self._skip += 1
            self.scripts += tag == "script"

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def parsed(page: str) -> Links:
    links = Links()
    links.feed(page)
    return links


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return site_pages(a_comparison(), STUDIES, tables=TABLES, coverage=COVERAGE, run=RUN)


def test_the_site_has_an_index_a_page_per_study_and_the_number_pages(pages):
    assert set(pages) == {
        "index.html", "numbers.html", "errata.html", "sentences.html", "verdicts.html", "judging.html", "search.html",
        "search-index.js", "study-k_bias.html", "table-k_bias-k_bias.html",
    }  # fmt: skip
    index = " ".join(parsed(pages["index.html"]).text)
    assert "3 numbers and claims" in index and "numbers.html?status=differs" in pages["index.html"]


def test_the_index_says_what_was_found_in_words_before_any_table(pages):
    """A sentence of the whole verdict, a paragraph per document (where it comes from, its counts, its
    coverage by the census, its errata), the errata listed with links, one sentence per verdict with
    the full rule a click away, and how to rerun it: the README's commands, the commit, the packages."""
    index = pages["index.html"]
    text = " ".join(" ".join(parsed(index).text).split())
    assert index.index("<table") > index.index('class="lead"') > 0
    assert "Of the 3 numbers and claims the three documents print, 1 are confirmed when the workflow" in text
    assert "1 are wrong on every reasonable reading listed" in text and "1 cannot be checked" in text
    assert "Deisenroth, Faisal and Ong" in text
    assert "splits into 7 clauses that state something: 6 are judged by a record and 1 state" in text
    assert 'href="errata.html#finding-1"' in index and "the factor is 46" in text
    assert 'href="verdicts.html#differs"' in index and 'id="differs"' in pages["verdicts.html"]
    for command in COMMANDS:
        assert command in text
    assert "commit 0123456789ab" in text and "numpy 2.4.6" in text and "2026-12-04" in text


def test_the_site_shows_the_readmes_own_commands():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    for command in COMMANDS:
        assert f"```sh\n{command}\n```" in quick_start, command


def test_every_evidence_link_opens_the_table_page_at_the_row_the_judge_read(pages):
    """A number's statistic names its table's rows: its 'judged by' opens that table's page at the
    first of them, which is marked, with the number beside it; a cell reads to four figures with the
    value as written behind a tooltip, and the page links its CSV and the archive of every table."""
    errata = pages["errata.html"]
    assert (
        'href="table-k_bias-k_bias.html#row-1-cv_over_truth">row 1 of k_bias/k_bias.csv, column cv_over_truth' in errata
    )
    table = pages["table-k_bias-k_bias.html"]
    row = re.search(r'<tr id="row-1" class="cited">(.*?)</tr>', table, re.S).group(1)
    assert '<td class="num read" id="row-1-cv_over_truth" title="45.7108112">45.71</td>' in row
    assert 'href="sentences.html#rcv.learn.k2-factor"' in row
    assert '<tr id="row-2">' in table and '<tr id="row-3">' in table
    assert '<a class="muted" href="#row-2">2</a> · 3</td>' in table  # the row's number beside its first column
    assert 'href="tables/k_bias/k_bias.csv"' in table and 'href="tables.zip"' in table


def test_the_archive_holds_every_table_and_is_the_same_for_the_same_tables():
    import io
    import zipfile

    csv = {"k_bias/k_bias.csv": b"K,bias\n2,4.98\n", "ridge_path/summary.csv": b"a\n1\n"}
    first, again = site_files(csv)["tables.zip"], site_files(dict(reversed(csv.items())))["tables.zip"]
    assert first == again
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        assert archive.namelist() == ["tables/k_bias/k_bias.csv", "tables/ridge_path/summary.csv"]
        assert archive.read("tables/k_bias/k_bias.csv") == csv["k_bias/k_bias.csv"]


def test_a_study_page_groups_its_numbers_under_the_sections_and_printed_tables_they_come_from(pages):
    study = pages["study-k_bias.html"]
    assert "<h2>Numbers of “Regularization and Cross-Validation”</h2>" in study
    assert '<h3 id="sec-racv-what-you-ll-learn">What you&#39;ll learn</h3>' in study
    assert "ours from" in study and 'href="table-k_bias-k_bias.html#row-1-cv_over_truth"' in study


def test_search_covers_every_sentence_study_and_erratum_from_every_page(pages):
    import json

    script = pages["search-index.js"]
    entries = json.loads(script.split("=", 1)[1].strip().rstrip(";"))
    hrefs = {e["href"] for e in entries}
    assert {f"sentences.html#{c}" for c in a_comparison()["claim"]} <= hrefs
    assert "study-k_bias.html" in hrefs and "errata.html#finding-1" in hrefs
    assert "</script" not in script.lower() and "<" not in script
    for name, page in pages.items():
        if name.endswith(".html"):
            assert 'action="search.html"' in page, name


def test_the_navigation_marks_the_current_page_and_printing_opens_every_note(pages):
    assert '<a href="numbers.html" aria-current="page">' in pages["numbers.html"]
    assert 'aria-current="page"' not in pages["study-k_bias.html"]
    for name, page in pages.items():
        if name.endswith(".html"):
            assert "@media print" in page and "beforeprint" in page, name
    # The errata page folds nothing away: each note is a paragraph.
    assert "<details" not in pages["errata.html"]


def test_every_internal_link_reaches_a_page_or_asset_and_its_anchor(pages):
    files = set(pages) | set(site_assets(a_comparison(), STUDIES)) | set(site_files({}))
    ids = {name: parsed(page).ids for name, page in pages.items()}
    for name, page in pages.items():
        for target in parsed(page).targets:
            path, _, anchor = target.partition("#")
            path = path.split("?")[0] or name
            assert path in files, (name, target)
            if anchor:
                assert anchor in ids[path], (name, target)


def test_every_number_links_to_its_sentence_and_a_row_with_a_figure_to_the_figure(pages):
    numbers = pages["numbers.html"]
    for claim in a_comparison()["claim"]:
        assert f'href="sentences.html#{claim}"' in numbers
    assert 'href="study-k_bias.html#fig-k_bias-cv_estimate_against_k"' in numbers
    assert 'href="tables/k_bias/k_bias.csv"' in numbers


def test_a_narrow_screen_never_scrolls_the_page_sideways(pages):
    """Every table scrolls inside its own box (a 'wide' div), a narrow screen has its own rules, and
    each figure links to its full-size PNG and SVG, which the site carries; its alt text does not
    repeat the caption the figcaption gives. (Measured in Chromium at 360 and 390 px: 0 of the
    documents' run's 148 pages scroll sideways; the workflow tier measures it again.)"""
    for name, page in ((n, p) for n, p in pages.items() if n.endswith(".html")):
        assert page.count("<table") == page.count('<div class="wide'), name
        assert "@media (max-width: 640px)" in page, name
    study = pages["study-k_bias.html"]
    assets = site_assets(a_comparison(), STUDIES)
    for fmt in ("png", "svg"):
        assert f'href="figures/k_bias/cv_estimate_against_k.{fmt}"' in study
        assert f"figures/k_bias/cv_estimate_against_k.{fmt}" in assets
    # The planted caption, escaped, stands in the figcaption and not in the alt text.
    assert 'alt="&lt;script' not in study and "&lt;script&gt;alert(1)" in study
    assert 'alt="Figure cv estimate against k, described in its caption"' in study


def test_the_numbers_page_offers_every_verdict_and_keeps_its_view_in_the_address(pages):
    """Every verdict an index badge links to is an option (a count of 0 included), each heading is a
    button a keyboard reaches, and the view is read from and written to ?status=&sort=&q=. (Checked
    in Chromium: ?q=leave+one+out, ?q=LOO and ?q=leave-one-out show the same 35 rows; ?sort=-published
    starts 500,000, 297,010, 81,050; a change of verdict, search or sort rewrites the address.)"""
    numbers = pages["numbers.html"]
    from cvsuite.published.comparison import STATUSES

    for status in STATUSES:
        assert f'<option value="{status}">' in numbers, status
    assert numbers.count('<button type="button" class="sort"') == 6
    for key in ('get("status")', 'get("sort")', 'get("q")', "history.replaceState"):
        assert key in numbers, key
    assert 'aria-live="polite"' in numbers
    # A row is searched by its sentence, section, id and values, never by its document's or study's title.
    searched = re.findall(r'data-search="([^"]*)"', numbers)
    assert len(searched) == len(a_comparison()) and "rcv.learn.k2-factor" in searched[0]
    assert not any("Regularization and Cross" in text or "The bias of K-fold" in text for text in searched)


def test_planted_markup_is_shown_as_text_and_never_becomes_an_element(pages):
    for name, page in pages.items():
        assert "<script>alert" not in page and "<img src=x" not in page, name
        assert parsed(page).scripts <= 3, name  # the page's own scripts only
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"
    assert escaped in pages["study-k_bias.html"] and escaped in pages["errata.html"]


def test_sentences_show_math_as_mathml_never_as_raw_tex(pages):
    text = " ".join(parsed(pages["sentences.html"]).text)
    assert "$" not in text
    assert "<math" in pages["sentences.html"] and "<mn>33</mn>" in pages["sentences.html"]


def test_values_are_shown_as_printed_with_the_full_precision_behind_a_tooltip(pages):
    numbers = pages["numbers.html"]
    assert ">46<" in numbers and 'title="45.7108112"' in numbers
    assert ">45.7108112<" not in numbers and "6.341957159392009e-05<" not in numbers


def test_the_numbers_table_sorts_published_values_as_numbers_and_verdicts_by_severity(pages):
    assert 'data-value="33.0"' in pages["numbers.html"] and 'data-value="0"' in pages["numbers.html"]


def test_math_the_converter_cannot_vouch_for_is_shown_as_escaped_source():
    assert sentence_html(r"$\text{<script>alert(1)</script>}$") == (
        r"<code>\text{&lt;script&gt;alert(1)&lt;/script&gt;}</code>"
    )
    assert sentence_html("a < b & $x$").startswith("a &lt; b &amp; <math")


def test_the_templates_ship_with_the_package():
    import tomllib

    from cvsuite.published import site

    data = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())
    shipped = data["tool"]["setuptools"]["package-data"]["cvsuite"]
    templates = sorted(p.relative_to(site.TEMPLATES.parents[1]).as_posix() for p in site.TEMPLATES.glob("*.j2"))
    assert templates and any(pattern.endswith("*.j2") for pattern in shipped), shipped


def broken_links(folder: Path) -> list[str]:
    """Every link or source in the site's pages that does not resolve inside ``folder`` (file and
    anchor), and every one that would reach the network: the site must open offline, from anywhere."""
    pages = {p.relative_to(folder).as_posix(): parsed(p.read_text(encoding="utf-8")) for p in folder.rglob("*.html")}
    broken = []
    for name, links in pages.items():
        for target in links.targets:
            if re.match(r"^[a-z]+:", target):
                broken.append(f"{name}: {target} (leaves the site)")
                continue
            path, _, anchor = target.partition("#")
            path = path.split("?")[0] or name
            if not (folder / path).is_file():
                broken.append(f"{name}: {target} (no such file)")
            elif anchor and anchor not in pages.get(path, Links()).ids:
                broken.append(f"{name}: {target} (no such anchor)")
    return broken


def test_a_studys_notes_become_a_page_every_record_links_to_by_its_heading():
    comparison = a_comparison()
    comparison.loc[0, "notes"] = "k_bias#a-few-percent"
    notes = {
        "k_bias": "# Notes\n\n## A few percent\n\nSee [the other](twelve_points.md#x), [a file](../registry.md) "
        "and `code <b>`.\n\n- one\n  continued\n- two\n\n| a | b |\n|---|---|\n| 1 | **2** |\n",
        "twelve_points": f"# Twelve\n\n## X\n\n{PLANTED}\n",
    }
    pages = site_pages(comparison, [SiteStudy("k_bias", "K bias", "§8.2.4")], notes=notes)
    page = pages["notes-k_bias.html"]
    assert '<h2 id="a-few-percent">A few percent</h2>' in page
    assert (
        '<a href="notes-twelve_points.html#x">the other</a>' in page and "a file" in page and "registry.md" not in page
    )
    assert "<code>code &lt;b&gt;</code>" in page and "<li>one continued</li>" in page and "<b>2</b>" in page
    assert PLANTED not in pages["notes-twelve_points.html"]
    assert 'href="notes-k_bias.html#a-few-percent"' in pages["study-k_bias.html"]
