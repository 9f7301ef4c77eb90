"""results/site in headless Chromium, on the documents' run and on the tiny one: no page wider than a
360-px phone or a 1300-px window, the index's summary and errata, the numbers page's view read from
its address (sort, verdict, search), every evidence link opening its table at a highlighted row, and
the errata page printed to PDF with every note's text.

A probe page outside the site holds each page in an iframe of the width asked and measures it in the
page's own DOM (Chromium reads a file page from another file page only with
--allow-file-access-from-files); it writes what it found into its own DOM, which --dump-dom prints.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from test_site import broken_links, parsed
from test_workflow import chromium

pytestmark = pytest.mark.workflow

WIDTHS = (360, 1300)
HIGHLIGHT = "rgb(255, 233, 168)"  # tr:target > td in base.html.j2
MAX_PAGE_BYTES = 2_000_000

# Each probe page holds its iframes from the start, so its load event waits for every one, and
# --dump-dom prints the DOM once the load handler has measured them all (no virtual time to race).
PROBE = """<!DOCTYPE html><html><body>%(frames)s<script>
const frames = Array.from(document.querySelectorAll("iframe"));
const visible = doc => Array.from(doc.querySelectorAll("#numbers tbody tr")).filter(r => !r.hidden);
window.addEventListener("load", () => {
  const found = {wide: [], loaded: 0, badLinks: []};
  try {
    for (const frame of frames) {
      const doc = frame.contentDocument, kind = frame.dataset.kind, name = frame.dataset.name;
      if (!doc || !doc.body) continue;
      found.loaded++;
      if (kind === "width") {
        const root = doc.documentElement;
        if (root.scrollWidth > root.clientWidth) found.wide.push([frame.width, name, root.scrollWidth]);
      } else if (kind === "sort") {
        found.ours = visible(doc).map(r => r.cells[2].textContent.trim());
        found.sortState = doc.querySelector("th[aria-sort=descending] button").dataset.key;
      } else if (kind === "status") {
        found.statusSelected = doc.getElementById("status").value;
        found.statusRows = visible(doc).map(r => r.dataset.status);
        doc.getElementById("status").value = "inconclusive";
        doc.getElementById("status").dispatchEvent(new Event("change"));
        found.statusWritten = frame.contentWindow.location.search;
      } else if (kind === "search") {
        found.leaveOneOut = visible(doc).map(r => r.cells[5].textContent.trim());
      } else if (kind === "index") {
        found.lead = (doc.querySelector("p.lead") || {}).textContent || "";
        found.errataListed = Array.from(doc.querySelectorAll("#errata + ol li a")).map(a => a.getAttribute("href"));
      } else if (kind === "link") {
        // The link names the cell a number reads: its row is the cited one, shaded.
        const target = doc.querySelector(":target");
        const row = target && target.tagName === "TD" ? target.parentElement : target;
        const cell = row && row.cells ? row.cells[1] : null;
        const shade = cell ? frame.contentWindow.getComputedStyle(cell).backgroundColor : "";
        if (!row || row.tagName !== "TR" || !row.classList.contains("cited") || shade !== %(highlight)s)
          found.badLinks.push([name, target ? target.tagName : "", shade]);
      }
    }
  } catch (error) { found.error = String(error); }
  document.body.setAttribute("data-found", JSON.stringify(found));
});
</script></body></html>"""


def flags(profile: Path) -> list[str]:
    return [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
    ]


def evidence_links(site: Path) -> list[str]:
    """Every distinct link of the site's pages to a table page's row."""
    found = set()
    for page in site.glob("*.html"):
        found |= {
            t
            for t in parsed(page.read_text(encoding="utf-8")).targets
            if re.match(r"table-[^#]+\.html#row-\d+(-\w+)?$", t)
        }
    return sorted(found)


def frame(site: Path, kind: str, name: str, width: int = 1300) -> str:
    src = html.escape(site.as_uri() + "/" + name)
    return (
        f'<iframe data-kind="{kind}" data-name="{html.escape(name)}" width="{width}" height="900" src="{src}"></iframe>'
    )


def run_probe(browser: str, frames: list[str], tmp_path: Path, name: str) -> dict:
    page = tmp_path / f"probe-{name}.html"
    page.write_text(PROBE % {"frames": "\n".join(frames), "highlight": json.dumps(HIGHLIGHT)}, encoding="utf-8")
    command = [
        browser, *flags(tmp_path / f"profile-{name}"), "--allow-file-access-from-files", "--window-size=1400,1000",
        "--dump-dom", page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    match = re.search(r'<body data-found="([^"]*)"', done.stdout)
    assert match, f"the probe {name} did not finish: {done.stderr[-2000:]}"
    found = json.loads(html.unescape(match.group(1)))
    assert "error" not in found, found["error"]
    assert found["loaded"] == len(frames), (name, found["loaded"], len(frames))
    return found


def probe(browser: str, site: Path, tmp_path: Path) -> dict:
    """What the pages show in Chromium: one probe per width, one for the views and one for the links."""
    pages = sorted(p.name for p in site.glob("*.html"))
    found = {"wide": []}
    for width in WIDTHS:
        found["wide"] += run_probe(browser, [frame(site, "width", p, width) for p in pages], tmp_path, str(width))[
            "wide"
        ]
    views = [
        frame(site, "sort", "numbers.html?sort=-ours"),
        frame(site, "status", "numbers.html?status=differs"),
        frame(site, "search", "numbers.html?q=leave+one+out"),
        frame(site, "index", "index.html"),
    ]
    found.update({k: v for k, v in run_probe(browser, views, tmp_path, "views").items() if k not in ("wide", "loaded")})
    found["links"] = evidence_links(site)
    found["badLinks"] = run_probe(browser, [frame(site, "link", link) for link in found["links"]], tmp_path, "links")[
        "badLinks"
    ]
    return found


def words(text: str) -> str:
    """Text as the numbers page's search reads it: lower case, LOO as leave-one-out, and any mark
    between words (a hyphen, a quote, a dot) a boundary."""
    text = re.sub(r"\bloo(cv)?\b", "leave one out", str(text).lower())
    return " " + " ".join(re.findall(r"[^\W_]+", text))


def check_site(workdir: Path, tmp_path: Path) -> None:
    site = workdir / "results" / "site"
    assert broken_links(site) == []
    heavy = []
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        shown = set(re.findall(r'<img[^>]* src="([^"]+)"', text))  # what the page loads, not what it links
        size = page.stat().st_size + sum((site / t).stat().st_size for t in shown)
        if size > MAX_PAGE_BYTES:
            heavy.append((page.name, size))
    assert not heavy, heavy
    # Nothing the pages load comes from the network: no address with a scheme, no CSS import.
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//|@import|url\(\s*['"]?https?:""", text), page.name

    browser = chromium()
    if browser is None:
        if os.environ.get("CVSUITE_REQUIRE_CHROMIUM"):
            pytest.fail("CVSUITE_REQUIRE_CHROMIUM is set but chromium is not installed")
        pytest.skip("chromium is not installed (CI installs it)")
    found = probe(browser, site, tmp_path)
    assert found["wide"] == [], found["wide"][:10]

    comparison = pd.read_csv(workdir / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    assert found["lead"].startswith(f"Of the {len(comparison)} numbers and claims")
    # The errata are the numbers that differ with no setting changed: a what-if's moved numbers are not.
    from cvsuite.published.findings import by_finding, errata

    findings = by_finding(errata(comparison))
    assert found["errataListed"] == [f"errata.html#finding-{i}" for i in range(1, len(findings) + 1)]

    ours = found["ours"]
    if "81,050" in ours and "160" in ours:
        assert ours.index("81,050") < ours.index("160")
    assert found["sortState"] == "ours"

    differs = (comparison["status"] == "differs").sum()
    assert found["statusSelected"] == "differs" and found["statusRows"] == ["differs"] * differs
    assert "status=inconclusive" in found["statusWritten"]

    # Search reads the sentence, id, section and values, never the document's or study's title alone.
    named = comparison[
        [
            bool(re.search(r" leave one out", words(" ".join([r.where, r.claim, r.section]))))
            for r in comparison.itertuples()
        ]
    ]
    shown = set(found["leaveOneOut"])
    assert set(named["claim"]) <= shown, sorted(set(named["claim"]) - shown)[:10]
    by_claim = comparison.set_index("claim")
    for claim in shown:
        r = by_claim.loc[claim]
        text = words(" ".join([r["where"], claim, r["section"], r["published"], r["reproduced_as_printed"]]))
        assert " leave one out" in text, claim

    assert found["links"], "no number links its evidence to a table row"
    assert found["badLinks"] == [], found["badLinks"][:10]

    print_errata(browser, site, comparison, tmp_path)


def print_errata(browser: str, site: Path, comparison: pd.DataFrame, tmp_path: Path) -> None:
    """The errata page printed to PDF holds every erratum's and every note's text."""
    from pypdf import PdfReader

    from cvsuite.published.findings import errata, without_unmoved

    pdf = tmp_path / "errata.pdf"
    command = [browser, *flags(tmp_path / "profile-print"), "--no-pdf-header-footer", f"--print-to-pdf={pdf}"]
    subprocess.run([*command, (site / "errata.html").as_uri()], capture_output=True, timeout=300)
    import unicodedata

    # NFKC undoes the ligatures the PDF's fonts set ("ﬄ" back to "ffl").
    extracted = " ".join(page.extract_text() or "" for page in PdfReader(pdf).pages)
    text = " ".join(unicodedata.normalize("NFKC", extracted).split())
    missing = []
    for r in errata(comparison).itertuples():
        for field in (r.erratum, without_unmoved(r.note)):
            said = " ".join(str(field).split())
            # The page opens each finding with a capital letter; the record's text need not.
            start = said[:60]
            if said and not ((start in text or start[:1].upper() + start[1:] in text) and said[-40:] in text):
                missing.append((r.claim, said[:80]))
    assert not missing, missing[:5]


def test_the_documents_site_reads_on_a_phone_and_a_wide_screen_keeps_its_views_and_prints(finished_workflow, tmp_path):
    check_site(finished_workflow, tmp_path)


def test_the_tiny_runs_site_does_the_same(tiny_workflow, tmp_path):
    check_site(tiny_workflow, tmp_path)
