"""docs/adding-a-claim.md says what the code does: its keys, its judges and its worked example are the registry's."""

import re

from conftest import ROOT, project_records
from cvsuite.published.judges import JUDGES
from cvsuite.published.records import RECORD_KEYS
from cvsuite.published.scales import read_scales
from cvsuite.workflow.catalog import load_catalog

GUIDE = (ROOT / "docs" / "adding-a-claim.md").read_text(encoding="utf-8")


def table_names(heading: str) -> set[str]:
    """The first column of the table under ``## <heading>``, without backquotes."""
    section = GUIDE.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name.strip("` ") for row in rows for name in row.split("|")[1].split(",")}


def test_the_guide_lists_every_judge_and_no_other():
    assert table_names("The judges") == set(JUDGES)


def test_the_guide_lists_every_key_a_record_may_have():
    assert table_names("The record") == RECORD_KEYS


def test_the_worked_example_is_a_record_of_the_registry_as_the_guide_shows_it():
    block = re.search(r"```yaml\n(.*?)```", GUIDE, re.S).group(1)
    registry = (ROOT / "registry" / "regularization_and_cross_validation.yaml").read_text(encoding="utf-8")
    assert block in registry
    ident = re.search(r"id: (\S+)", block).group(1)
    record = next(r for r in project_records() if r.id == ident)
    reading = record.reading
    assert reading.judge in JUDGES and f"{reading.measure} " in GUIDE.replace("\n", " ")
    column = reading.reference.column + "_se"
    declared = load_catalog(ROOT / "studies.yaml").table_columns()[reading.reference.table]
    assert column in declared and column in GUIDE


def test_the_vague_word_the_guide_names_is_in_the_list():
    words = read_scales(ROOT / "registry").words
    named = re.findall(r"judge: \{size: ([a-z ]+)\}", GUIDE)
    assert named and all(word in words for word in named)
