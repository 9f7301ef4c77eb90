"""The regression test: run the whole workflow at the documents' scale and read the registry.

It fails, with a readable table, when any registered number does not read as the registry expects
(see ``failing_claims``). The run itself is the session fixture ``finished_workflow`` (conftest.py).
"""

import re

import pandas as pd
import pytest

from conftest import project_records, snakemake

pytestmark = pytest.mark.workflow


def failing_claims(comparison: pd.DataFrame) -> pd.DataFrame:
    """The rows that do not read as the registry expects at the documents' settings.

    A number reads reproduced (or reproduced by construction), or consistent by a powered test; a
    number the documents print wrongly is registered with its erratum and must differ; a claim
    true on one reading and false on another is registered with how it depends and must depend; a number
    the suite cannot compute is not reproducible with its reason; a re-simulated figure the default
    config cannot power reads inconclusive, its note saying so. Anything else fails: a number that
    stopped matching, an erratum that no longer differs, a number the documents' own settings do not
    compute.
    """
    matched = comparison["status"].isin(["reproduced", "reproduced by construction", "consistent"])
    erratum = comparison["erratum"].fillna("").str.len().gt(0)
    depends = comparison["depends"].fillna("").str.len().gt(0)
    noted = comparison["note"].fillna("")
    # 'inconclusive' is an honest verdict, but only with a note that says why the power is missing.
    honest_gap = comparison["status"].isin(["not reproducible", "inconclusive"]) & noted.str.len().gt(0)
    honest_gap &= ~((comparison["status"] == "inconclusive") & ~noted.str.contains("(?i)too little power"))
    expected_difference = (comparison["status"] == "differs") & erratum
    expected_dependence = (comparison["status"] == "depends on the reading") & depends
    return comparison[~((matched & ~erratum & ~depends) | honest_gap | expected_difference | expected_dependence)]


def test_every_registered_number_reads_as_the_registry_expects(finished_workflow):
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    ids = [record.id for record in project_records()]
    assert list(comparison["claim"]) == ids, "the comparison must list every record of the registry, in order"
    bad = failing_claims(comparison)
    table = bad[["claim", "published", "reproduced_as_printed", "status", "erratum", "where"]].to_string(index=False)
    assert bad.empty, f"{len(bad)} registered number(s) do not read as expected:\n{table}"


def test_every_consistent_verdict_had_the_power_to_differ(finished_workflow):
    from cvsuite.methods.printed_numbers import parse_printed
    from cvsuite.published.judges import POWER_FRACTION

    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", keep_default_na=False)
    consistent = comparison[comparison["status"] == "consistent"]
    assert len(consistent) > 0
    for row in consistent.itertuples():
        distance = abs(parse_printed(row.published).value - parse_printed(row.alternative).value)
        assert float(row.allowance) <= POWER_FRACTION * distance, row.claim
        assert abs(float(row.z)) * float(row.se) == pytest.approx(float(row.allowance) * abs(float(row.z)) / 2)


def test_the_report_shows_the_verdict_and_every_figure(finished_workflow):
    report = (finished_workflow / "results" / "REPORT.md").read_text(encoding="utf-8")
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    assert f"**{len(comparison)} records (" in report.splitlines()[2]
    assert "## Settings that differ from the documents'" in report and "## Errata" in report
    assert report.index("## Contents") < report.index("## Errata") and "- [Errata](#errata)" in report
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', report))
    assert set(re.findall(r"\]\(#([^)]+)\)", report)) <= anchors, "REPORT.md links to an anchor it lacks"
    figures = sorted((finished_workflow / "figures").rglob("*.png"))
    assert figures, "the workflow drew no figures"
    for figure in figures:
        assert f"../figures/{figure.relative_to(finished_workflow / 'figures').as_posix()}" in report
        assert figure.with_suffix(".svg").exists()


def test_every_results_folder_records_its_provenance(finished_workflow):
    import json

    results = finished_workflow / "results"
    # The site's copies of the tables are recorded by the comparison; the extracts of printed values
    # are inputs the Snakefile writes as it reads the registry (like results/code), not a job's results.
    inputs = (results / "site", results / "published_values")
    folders = {t.parent for t in results.rglob("*.csv") if not any(f in t.parents for f in inputs)} - {results}
    assert folders
    for folder in folders:
        if folder.is_dir():
            record = json.loads((folder / "provenance.json").read_text())
            assert record["config"], folder
            assert record["packages"]["numpy"]
            assert "commit" in record["git"]


def test_a_differing_number_fails_the_check(finished_workflow):
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    broken = comparison.copy()
    plain = broken.index[broken["erratum"] == ""]
    broken.loc[plain[0], "status"] = "differs"
    assert len(failing_claims(broken)) == 1
    broken.loc[plain[1], ["status", "note"]] = ["not reproducible", ""]
    assert len(failing_claims(broken)) == 2
    errata = broken.index[broken["erratum"] != ""]
    broken.loc[errata[0], "status"] = "reproduced"  # an erratum that stopped differing
    assert len(failing_claims(broken)) == 3


def test_outputs_are_readable_by_others_under_umask_022(finished_workflow):
    import stat

    files = [p for folder in ("results", "figures") for p in (finished_workflow / folder).rglob("*") if p.is_file()]
    assert files
    private = [str(p.relative_to(finished_workflow)) for p in files if not p.stat().st_mode & stat.S_IROTH]
    assert not private, private[:10]


def chromium() -> str | None:
    import shutil

    return shutil.which("chromium") or shutil.which("chromium-browser")


def headless_dom(browser: str, page, profile, query: str = "") -> str:
    import subprocess

    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        "--virtual-time-budget=10000",
        "--dump-dom",
    ]
    done = subprocess.run([browser, *flags, page.as_uri() + query], capture_output=True, text=True, timeout=180)
    return done.stdout


def test_the_html_report_opens_in_chromium_and_shows_every_figure(finished_workflow, tmp_path):
    """`snakemake --report` gathers every figure with its one-line caption, grouped by study.

    CI installs Debian's chromium (.ci/run); elsewhere the browser half is skipped unless
    CVSUITE_REQUIRE_CHROMIUM is set.
    """
    import json
    import os
    import re

    report = finished_workflow / "report.html"
    run = snakemake(finished_workflow, "--report", str(report))
    assert run.returncode == 0, run.stderr[-3000:]
    html = report.read_text(encoding="utf-8")
    results = json.loads(re.search(r"var results = (\{.*?\});?\n", html, re.S).group(1))
    figures = {p.relative_to(finished_workflow).as_posix() for p in (finished_workflow / "figures").rglob("*.png")}
    # The site is not embedded (a folder is embedded only in a zip report): the report's first page
    # points to it, and the report holds the figures.
    assert set(results) == figures
    categories = json.loads(re.search(r"var categories = (\{.*?\});?\n", html, re.S).group(1))
    grouped = {path: study for study, sub in categories.items() for paths in sub.values() for path in paths}
    assert set(grouped) == figures
    assert "results/site/index.html" in html
    for path, entry in results.items():
        assert entry["data_uri"].startswith("data:image/png"), path
        caption = re.sub(r"<[^>]+>", "", entry["caption"]).strip()
        assert caption and "\n" not in caption, f"{path} needs a one-line caption"
        assert grouped[path] == path.split("/")[1], f"{path} is not grouped under its study"

    browser = chromium()
    if browser is None:
        if os.environ.get("CVSUITE_REQUIRE_CHROMIUM"):
            pytest.fail("CVSUITE_REQUIRE_CHROMIUM is set but chromium is not installed")
        pytest.skip("chromium is not installed (CI installs it)")
    dom = headless_dom(browser, report, tmp_path / "profile-report")
    assert "Snakemake Report" in dom or "snakemake" in dom.lower()
    for study in {path.split("/")[1] for path in results}:
        assert study in dom, f"the report's menu lacks {study}"
    # Decode every embedded figure in the browser: the page counts the images it could draw.
    probe = tmp_path / "probe.html"
    probe.write_text(
        html.replace(
            "</body>",
            """<script>
      let drawn = 0;
      const names = Object.keys(results).filter(n => results[n].data_uri.startsWith('data:image/'));
      names.forEach(n => { const i = new Image(); i.onload = () => { if (i.naturalWidth > 0) drawn++;
        document.body.setAttribute('data-drawn', drawn + '/' + names.length); }; i.src = results[n].data_uri; });
    </script></body>""",
        ),
        encoding="utf-8",
    )
    dom = headless_dom(browser, probe, tmp_path / "profile-probe")
    assert f'data-drawn="{len(figures)}/{len(figures)}"' in dom


def test_every_figure_passes_every_layout_check(finished_workflow):
    checks = pd.read_csv(finished_workflow / "results" / "figure_checks.csv", keep_default_na=False)
    drawn = {
        p.relative_to(finished_workflow / "figures").with_suffix("").as_posix()
        for p in (finished_workflow / "figures").rglob("*.png")
    }
    assert set(checks["figure"]) == drawn
    failed = checks[~checks["passed"].astype(bool)]
    assert failed.empty, failed.to_string(index=False)


def test_the_readme_states_the_verdict_this_run_gives(finished_workflow):
    import re

    from conftest import ROOT
    from cvsuite.published.report import verdict_line

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The verdict", 1)[1].split("\n## ", 1)[0]
    stated = re.search(r"\*\*\d+ records \([^*]*\*\*", section).group(0)
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", keep_default_na=False)
    assert " ".join(stated.split()) == verdict_line(comparison)  # wrapped in the README


def test_the_site_opens_in_chromium_with_every_figure_a_working_filter_and_no_raw_tex(finished_workflow, tmp_path):
    """results/site in a real browser: every figure decodes, the verdict filter leaves exactly the rows
    of that verdict, no TeX is left visible, and screenshots of the index, a study page and the table
    are saved (their paths are printed, to look at)."""
    import os
    import re
    import subprocess

    from test_site import broken_links

    site = finished_workflow / "results" / "site"
    assert broken_links(site) == []
    browser = chromium()
    if browser is None:
        if os.environ.get("CVSUITE_REQUIRE_CHROMIUM"):
            pytest.fail("CVSUITE_REQUIRE_CHROMIUM is set but chromium is not installed")
        pytest.skip("chromium is not installed (CI installs it)")
    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", keep_default_na=False)
    for status, expected in comparison["status"].value_counts().items():
        page = site / "numbers.html"
        dom = headless_dom(browser, page, tmp_path / f"profile-{status}", query=f"?status={status}")
        rows = re.findall(r'<tr data-status="([^"]+)"([^>]*)>', dom)
        shown = [s for s, rest in rows if not re.search(r"\shidden\b", rest)]
        assert len(shown) == expected and set(shown) == {status}, (status, len(shown), expected)
        assert f"{expected} of {len(comparison)} numbers shown" in dom
    probe = site / "probe-images.html"
    figures = sorted(p.relative_to(site).as_posix() for p in (site / "figures").rglob("*.png"))
    probe.write_text(
        "<html><body><script>let drawn = 0; const names = " + repr(figures).replace("'", '"') + ";"
        "names.forEach(n => { const i = new Image(); i.onload = () => { if (i.naturalWidth > 0) drawn++;"
        "document.body.setAttribute('data-drawn', drawn + '/' + names.length); }; i.src = n; });</script></body></html>"
    )
    try:
        dom = headless_dom(browser, probe, tmp_path / "profile-images")
    finally:
        probe.unlink()
    assert f'data-drawn="{len(figures)}/{len(figures)}"' in dom
    for page in ("sentences.html", "errata.html", "numbers.html", "study-k_bias.html"):
        dom = headless_dom(browser, site / page, tmp_path / f"profile-{page}")
        text = re.sub(r"<(script|style)[^>]*>.*?</\1>|<[^>]+>", " ", dom, flags=re.S)
        assert "$" not in text and not re.search(r"\\[a-zA-Z]+\{", text), page
    shots = tmp_path / "screenshots"
    shots.mkdir()
    for page in ("index.html", "study-k_bias.html", "numbers.html"):
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1300,1400"]
        profile = f"--user-data-dir={tmp_path / 'profile-shots'}"
        shot = [browser, *flags, profile, f"--screenshot={shots / page}.png", (site / page).as_uri()]
        subprocess.run(shot, capture_output=True, timeout=120)
        assert (shots / f"{page}.png").stat().st_size > 10_000, page
    print(f"\nscreenshots of the site: {shots}")


def test_every_judged_record_names_its_judge_and_every_text_fits_a_reader(finished_workflow):
    """comparison.csv names the judge and statistic of every record it judges, and each note, remark
    and erratum, as rendered with what the comparison adds to it, runs to at most 600 characters."""
    from cvsuite.published.records import MAX_WORDED

    comparison = pd.read_csv(finished_workflow / "results" / "comparison.csv", dtype=str, keep_default_na=False)
    judged = comparison[comparison["status"] != "not reproducible"]
    assert (judged["judge"] != "").all() and (judged["statistic"] != "").all()
    long = [
        (row["claim"], field, len(row[field]))
        for _, row in comparison.iterrows()
        for field in ("note", "remark", "erratum")
        if len(row[field]) > MAX_WORDED
    ]
    assert not long, long


def test_what_readers_see_never_speaks_of_issues_or_reviews(finished_workflow):
    results = finished_workflow / "results"
    pages = [results / "comparison.csv", results / "REPORT.md", *sorted((results / "site").glob("*.html"))]
    pattern = re.compile(r"\bissues? \d+|\breview(?:s|ed)?\b|\bsession\b", re.I)
    found = [(p.name, m.group(0)) for p in pages for m in pattern.finditer(p.read_text(encoding="utf-8"))]
    assert not found, found[:10]
