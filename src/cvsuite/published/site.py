"""results/site/: the comparison as a small static website a reader can use offline.

Pages (all in one folder, so the folder opens from disk, from a zip, or inside the Snakemake report):
``index.html`` (what was found, in words: a sentence for the whole, a paragraph per document with its
coverage by the census and its printed tables, the errata listed, each verdict in a sentence, the
changed settings, how to rerun it; ``site_summary``), ``verdicts.html`` (each verdict's full rule),
one ``study-<name>.html`` per study (its figures with their captions, its numbers under the
sections and printed tables they come from), ``numbers.html`` (every number: a status filter, typed
sorting, search, a row count, the view kept in the address), ``errata.html`` (each finding once,
open, with its sentences, the readings tried, evidence, note and figure, then the remarks), ``sentences.html``
(every registered sentence as the document prints it, math included, each with an anchor every other
page links to), one ``table-<study>-<table>.html`` per table a record reads, its cited rows marked
(``site_tables``; a study page's sections, ``site_sections``), ``search.html`` with
``search-index.js`` (``site_search``), one ``notes-<study>.html`` per study notes file
(docs/notes/<study>.md) and ``tables.zip``, every table.
Values are shown as printed, the full precision in a tooltip.

``site_pages`` builds the pages from the comparison; the caller copies the figures and tables the
pages link to (``site_assets``) and writes the archive (``site_files``). Every string enters the HTML
through Jinja's autoescape, except the sentences, which ``site_math.sentence_html`` escapes itself
around the MathML it writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
from jinja2 import Environment, FileSystemLoader, select_autoescape

from cvsuite.methods.printed_numbers import parse_printed
from cvsuite.published.comparison import DEPENDS, STATUSES, verdict_counts
from cvsuite.published.findings import (
    by_finding,
    depending,
    errata,
    grouped_by_remark,
    readings_of,
    remarks,
    without_unmoved,
)
from cvsuite.published.judges import JUDGES
from cvsuite.published.judging_guide import PAGE as GUIDE_PAGE
from cvsuite.published.judging_guide import guide, judge_anchor
from cvsuite.published.notes_page import notes_html
from cvsuite.published.report import MEANINGS, figure_anchor, is_claim, shown_value
from cvsuite.published.scales import Scales
from cvsuite.published.site_math import sentence_html
from cvsuite.published.site_search import plain_text, search_entries, search_script
from cvsuite.published.site_sections import by_section, printed_tables
from cvsuite.published.site_summary import SHORT, RunFacts, documents, in_words
from cvsuite.published.site_tables import (
    ARCHIVE,
    cited_by_table,
    csv_file,
    evidence_link,
    evidence_words,
    read_columns,
    reads_of,
    table_views,
    tables_archive,
)

TEMPLATES = Path(__file__).with_name("site_templates")
# The three documents, in their order; the sources they cite come after, together.
DOCUMENTS = ("Cross-Validation", "Regularization and Cross-Validation", "Estimating Out-of-Sample Error")
CITED = "Results the documents cite"
# Statuses by severity, for sorting: what a reader must look at first comes first.
SEVERITY = (
    "differs",
    DEPENDS,
    "inconclusive",
    "not computed at this config",
    "not reproducible",
    "consistent",
    "reproduced by construction",
    "reproduced",
)
BADGE_CLASSES = {status: status.replace(" ", "-") for status in STATUSES}


@dataclass(frozen=True)
class SiteStudy:
    """A study as the site shows it: its name, title, source, and figures as (name, caption)."""

    name: str
    title: str
    source: str
    figures: list[tuple[str, str]] = field(default_factory=list)


def page_name(study: str) -> str:
    return f"study-{study}.html"


def figure_file(figure: str) -> str:
    """The site's copy of a figure named as the registry names it ("k_bias/x.png")."""
    return f"figures/{figure}"


def site_assets(comparison: pd.DataFrame, studies: list[SiteStudy]) -> dict[str, str]:
    """{path in the site: path in the run} of every figure and table the pages link to."""
    # Both formats: the page shows the PNG and links each figure to its full-size PNG and its SVG.
    assets = {
        figure_file(f"{s.name}/{name}.{fmt}"): f"figures/{s.name}/{name}.{fmt}"
        for s in studies
        for name, _ in s.figures
        for fmt in ("png", "svg")
    }
    # A record's table is its statistic's: every table a number reads, and so every table page's CSV.
    for table in sorted({t for t in comparison["table"] if t}):
        assets[csv_file(table)] = f"results/{table}"
    return assets


def site_files(csv_bytes: dict[str, bytes]) -> dict[str, bytes]:
    """The site's files that are not pages: the archive of every table (``csv_bytes``, as the run
    wrote them, by the registry's name)."""
    return {ARCHIVE: tables_archive({f"tables/{name}": data for name, data in csv_bytes.items()})}


def notes_page_name(study: str) -> str:
    return f"notes-{study}.html"


def _notes_link(target: str, notes: dict[str, str]) -> str | None:
    """A link inside a notes file, as the site has it: another study's notes page, a web address, or
    None (a file of the repository, which the site does not carry: its text stays)."""
    if target.startswith(("http://", "https://")):
        return target
    page, _, anchor = target.partition("#")
    name = Path(page).stem if page.endswith(".md") else ""
    if name in notes:
        return notes_page_name(name) + (f"#{anchor}" if anchor else "")
    if not page and anchor:
        return f"#{anchor}"
    return None


def site_pages(
    comparison: pd.DataFrame,
    studies: list[SiteStudy],
    changes: list[tuple] = (),
    notes: dict[str, str] | None = None,
    tables: dict[str, pd.DataFrame] | None = None,
    coverage: pd.DataFrame | None = None,
    run: RunFacts | None = None,
    readings: pd.DataFrame | None = None,
    scales: Scales | None = None,
) -> dict[str, str]:
    """Every page of the site, by file name (see the module's docstring); ``notes`` maps a study to the
    Markdown of its notes (docs/notes/<study>.md), ``tables`` a table's registry name to the table,
    ``coverage`` is the census's (results/coverage.csv), ``run`` says how to rerun it, ``readings`` is
    results/readings.csv and ``scales`` the scales of the vague words (the guide, judging.html)."""
    notes, tables, run = notes or {}, tables or {}, run or RunFacts()
    comparison = comparison.fillna("")
    reads = reads_of(comparison, tables)
    cited = cited_by_table(reads)
    rows = [_row(r, notes, reads.get(r.claim, [])) for r in comparison.itertuples()]
    by_study = {s.name: [r for r in rows if r["study"] == s.name] for s in studies}
    titles = {s.name: s.title for s in studies}
    captions = {f"{s.name}/{name}.png": caption for s in studies for name, caption in s.figures}
    for r in rows:
        r["search"] = " ".join([plain_text(r["sentence"]), r["section"], r["id"], r["published"], r["ours"]])
        r["study_title"] = titles.get(r["study"], "")
        r["figure_caption"] = captions.get(r["figure_name"], "")
        if r["figure_name"] not in captions:
            r["figure_img"] = ""  # a figure no study draws in this run: its page link stays, no image
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True))
    env.globals.update(badge=BADGE_CLASSES, page_name=page_name)
    counts = verdict_counts(comparison)
    legend = [
        {"status": s, "count": counts[s], "meaning": MEANINGS[s], "short": SHORT[s], "css": BADGE_CLASSES[s]}
        for s in STATUSES
    ]
    groups = {g["document"]: g["studies"] for g in _documents(comparison, studies, by_study)}
    by_id = {r["id"]: r for r in rows}
    for r in rows:
        r["readings"], r["ruled_out"] = readings_of(readings, r["id"])
        for reading in r["readings"] + r["ruled_out"]:
            name = reading["judge"].split("(", 1)[0]
            reading["rule"] = f"{GUIDE_PAGE}#{judge_anchor(name)}" if name in JUDGES else ""
            reading["support_html"] = sentence_html(reading["support"]) if reading["support"] else ""
    findings = _findings(errata(comparison), by_id)
    for i, f in enumerate(findings, 1):
        f["anchor"] = f"finding-{i}"
    depends = _findings(depending(comparison), by_id)
    for i, f in enumerate(depends, 1):
        f["anchor"] = f"depends-{i}"
    described = documents(comparison, coverage, findings)
    printed = printed_tables(rows, page_name)
    for d in described:
        d["studies"] = groups.get(d["document"], [])
        d["printed"] = printed.get(d["document"], [])
    pages = {
        "index.html": env.get_template("index.html.j2").render(
            legend=legend,
            total=len(comparison),
            summary=in_words(comparison),
            documents=described,
            cited_studies=groups.get(CITED, []),
            cited_numbers=int((~comparison["document"].isin(DOCUMENTS)).sum()),
            findings=findings,
            depends=depends,
            run=run,
            changes=list(changes),
            remarks=comparison["remark"].ne("").sum(),
            current="index.html",
        ),
        "verdicts.html": env.get_template("verdicts.html.j2").render(legend=legend, current="verdicts.html"),
        "numbers.html": env.get_template("numbers.html.j2").render(
            rows=rows, legend=legend, total=len(rows), current="numbers.html"
        ),
        "errata.html": env.get_template("errata.html.j2").render(
            findings=findings, depends=depends, remarks=_remarks(remarks(comparison), by_id), current="errata.html"
        ),
        "sentences.html": env.get_template("sentences.html.j2").render(
            documents=_sentences(rows), current="sentences.html"
        ),
    }
    titles = {s.name: s.title for s in studies}
    citing = {t: {p: [by_id[c] for c in claims] for p, claims in by_row.items()} for t, by_row in cited.items()}
    for view in table_views({t: tables[t] for t in cited}, citing, read_columns(reads)):
        pages[view["page"]] = env.get_template("table.html.j2").render(
            t=view, study_title=titles.get(view["study"], "")
        )
    for study in studies:
        shown = [
            {
                "file": figure_file(f"{study.name}/{name}.png"),
                "svg": figure_file(f"{study.name}/{name}.svg"),
                # The caption follows as the figcaption: the alt text names the figure, so a screen
                # reader does not read the caption twice.
                "alt": f"Figure {name.replace('_', ' ')}, described in its caption",
                "caption": caption,
                "anchor": figure_anchor(f"{study.name}/{name}.png"),
            }
            for name, caption in study.figures
        ]
        pages[page_name(study.name)] = env.get_template("study.html.j2").render(
            study=study, figures=shown, sections=by_section(by_study[study.name], DOCUMENTS),
            counts={s: n for s, n in verdict_counts(comparison[comparison["study"] == study.name]).items() if n},
            notes=notes_page_name(study.name) if study.name in notes else "",
        )  # fmt: skip
    for name, markdown in sorted(notes.items()):
        title, body = notes_html(markdown, lambda target: _notes_link(target, notes))
        pages[notes_page_name(name)] = env.get_template("notes.html.j2").render(
            title=title or name, body=body, study=name, study_title=titles.get(name, "")
        )
    guide_page = guide(scales or Scales(()))
    for scale in guide_page["scales"]:
        scale["quote_html"] = sentence_html(scale["quote"])  # the quote's maths as MathML, never raw TeX
    pages[GUIDE_PAGE] = env.get_template("judging.html.j2").render(guide=guide_page, legend=legend, current=GUIDE_PAGE)
    pages["search.html"] = env.get_template("search.html.j2").render(current="search.html")
    pages["search-index.js"] = search_script(search_entries(rows, studies, findings, notes, page_name, notes_page_name))
    return pages


def _row(r, notes: dict[str, str], reads: list) -> dict:
    """One published number as every page shows it."""
    figure = r.figure
    published = shown_value(r, "published")
    try:
        published_value = parse_printed(str(r.published)).value if not is_claim(r) else ""
    except (ValueError, AttributeError):
        published_value = ""
    return {
        "id": r.claim,
        "document": r.document,
        "section": r.section,
        "sentence": sentence_html(r.where),
        "published": published,
        "published_value": published_value,
        "ours": shown_value(r, "reproduced") if r.status != "not reproducible" else "",
        "ours_full": str(r.reproduced),
        "status": r.status,
        "severity": SEVERITY.index(r.status) if r.status in SEVERITY else len(SEVERITY),
        "note": without_unmoved(r.note),
        "remark": r.remark,
        "erratum": r.erratum,
        "depends": getattr(r, "depends", ""),
        "reading": r.reading,
        "other_readings": r.other_readings,
        "evidence": f"{r.judge} on {r.statistic}" if r.statistic else "",
        "judge": r.judge,
        "rule": f"{GUIDE_PAGE}#{judge_anchor(str(r.judge).split('(', 1)[0])}" if r.judge else "",
        "study": r.study,
        "table": csv_file(r.table) if r.table else "",
        "table_name": r.table,
        "evidence_link": evidence_link(reads),
        "evidence_where": evidence_words(reads),
        "figure": f"{page_name(figure.split('/')[0])}#{figure_anchor(figure)}" if figure else "",
        "figure_name": figure,
        "figure_img": figure_file(figure) if figure else "",
        "notes": _record_notes(str(r.notes or ""), notes),
    }


def _record_notes(link: str, notes: dict[str, str]) -> str:
    """A record's ``notes`` (``<study>#<anchor>``) as a link to the study's notes page."""
    study, _, anchor = link.partition("#")
    if not study or study not in notes:
        return ""
    return notes_page_name(study) + (f"#{anchor}" if anchor else "")


def _documents(comparison: pd.DataFrame, studies: list[SiteStudy], by_study: dict) -> list[dict]:
    """The studies grouped under the document most of their numbers come from, in the documents' order."""
    groups: dict[str, list] = {name: [] for name in (*DOCUMENTS, CITED)}
    for study in studies:
        documents = comparison.loc[comparison["study"] == study.name, "document"]
        document = documents.mode().iloc[0] if len(documents) else CITED
        counts = verdict_counts(comparison[comparison["study"] == study.name])
        groups[document if document in DOCUMENTS else CITED].append(
            {"study": study, "numbers": len(by_study[study.name]), "counts": {s: n for s, n in counts.items() if n}}
        )
    return [{"document": name, "studies": listed} for name, listed in groups.items() if listed]


def _findings(rows: pd.DataFrame, by_id: dict[str, dict]) -> list[dict]:
    """The findings of ``rows`` (records that share a sentence or the same evidence are one), each with
    every row it covers."""
    findings = [[by_id[r.claim] for r in group] for group in by_finding(rows).values()]
    return [
        {
            "erratum": group[0]["erratum"],
            "rows": group,
            "readings": list(dict.fromkeys(r["reading"] for r in group if r["reading"])),
            "evidence": list(dict.fromkeys(r["evidence"] for r in group if r["evidence"])),
            "notes": list(dict.fromkeys(r["note"] for r in group if r["note"])),
        }
        for group in findings
    ]


def _remarks(rows: pd.DataFrame, by_id: dict[str, dict]) -> list[dict]:
    return [
        {"remark": remark, "rows": [by_id[r.claim] for r in group]} for remark, group in grouped_by_remark(rows).items()
    ]


def _sentences(rows: list[dict]) -> list[dict]:
    """Every registered sentence, grouped by document then section, in the registry's order."""
    documents: dict[str, dict[str, list]] = {}
    for r in rows:
        documents.setdefault(r["document"], {}).setdefault(r["section"] or "", []).append(r)
    order = {name: i for i, name in enumerate(DOCUMENTS)}
    return [
        {"document": name, "sections": [{"section": s, "rows": listed} for s, listed in sections.items()]}
        for name, sections in sorted(documents.items(), key=lambda item: order.get(item[0], len(order)))
    ]


def overview_rst(comparison: pd.DataFrame) -> str:
    """The first page of the Snakemake report (its workflow description): the verdict and where to read on."""
    counts = verdict_counts(comparison)
    title = "Published and reproduced"
    lines = [title, "=" * len(title), "", f"**{len(comparison)} published numbers** of the three documents:", ""]
    lines += [f"- {n} {status}: {MEANINGS[status]}" for status, n in counts.items() if n]
    lines += [
        "",
        "Read them in the site the same run wrote, results/site/index.html (it opens from disk, with no "
        "network): each study's figures, captions and numbers together, every number linked to its "
        "sentence, table and figure, the errata, and a table of every number to filter and sort.",
        "",
    ]
    return "\n".join(lines)
