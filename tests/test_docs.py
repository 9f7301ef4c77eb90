"""The README is for a reader who has just arrived; the run narratives live in docs/, one link away."""

import re
from pathlib import Path

import pytest

from conftest import ROOT

README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
README_MAX_LINES = 150  # a front door: what it is, the two commands, the verdict, where to look
README_MAX_WIDTH = 120  # tables aside, whose rows a renderer wraps


def links(page: Path) -> list[str]:
    """The targets of the page's Markdown links, leaving out code blocks and code spans (where a
    bracket is code, not a link)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)
    return re.findall(r"\[[^\]\n]*\]\(([^)\s]+)\)", text)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def broken(page: Path) -> list[str]:
    problems = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):
            continue  # a web address: not a file of this repository
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_file():
            problems.append(f"{target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            problems.append(f"{target} (no heading of {file.name} has that anchor)")
    return problems


def test_the_readme_is_at_most_150_lines_none_over_120_characters_but_table_rows():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail to docs/ and link it"
    wide = [n for n, line in enumerate(lines, 1) if len(line) > README_MAX_WIDTH and not line.startswith("|")]
    assert wide == [], f"README.md lines over {README_MAX_WIDTH} characters: {wide}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file_and_heading(page):
    assert broken(page) == []


def test_every_page_of_docs_is_linked_from_the_readme():
    # docs/notes/ are each study's notes, named in the README as docs/notes/<study>.md.
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in links(README)}
    unlinked = [p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "docs").glob("*.md")) if p not in linked]
    assert unlinked == [], "each page of docs/ should be in the README's 'More' list"


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [gone](nowhere.md) [bad](#no-such) `[code](x.md)` [web](https://x.org)\n")
    assert [p.split(" ")[0] for p in broken(page)] == ["nowhere.md", "#no-such"]


def test_the_readmes_study_table_names_every_study_and_step_in_studies_yaml():
    """The table under "What the workflow makes" is written by hand; it must not leave a study out."""
    from cvsuite.workflow.catalog import load_catalog

    catalog = load_catalog(ROOT / "studies.yaml")
    section = README.read_text(encoding="utf-8").split("## What the workflow makes", 1)[1].split("\n## ", 1)[0]
    first_cells = " ".join(line.split("|")[1] for line in section.splitlines() if line.startswith("| `"))
    named = set(re.findall(r"`(\w+)`", first_cells))
    assert sorted((set(catalog.studies) | set(catalog.steps)) - named) == []
