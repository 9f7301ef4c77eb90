"""studies.yaml is the one list of studies: every study is found by its name alone, everywhere."""

import re

import pytest

from conftest import ROOT
from cvsuite.workflow.catalog import CatalogError, columns_match, declares_column, load_catalog

CATALOG = load_catalog(ROOT / "studies.yaml")
NAMES = sorted(CATALOG.studies)
RULES = set(re.findall(r"^rule (\w+):", (ROOT / "Snakefile").read_text(), re.M))


def test_every_study_and_step_has_a_rule_and_every_rule_is_listed():
    assert RULES == set(CATALOG.studies) | set(CATALOG.steps) | {"all", "compare"}


@pytest.mark.parametrize("name", NAMES)
def test_a_study_is_found_by_its_name_alone(name):
    assert (ROOT / "experiments" / f"{name}.py").exists()
    assert (ROOT / "src" / "cvsuite" / "studies" / f"{name}.py").exists()
    assert (ROOT / "config.yaml").read_text().count(f"\n{name}:") == 1, f"no config block {name}"


@pytest.mark.parametrize("name", sorted(CATALOG.steps))
def test_a_simulation_step_has_its_entry_point(name):
    assert (ROOT / "experiments" / f"{name}.py").exists()


@pytest.mark.parametrize("name", NAMES)
def test_every_figure_has_its_one_line_caption(name):
    for figure in CATALOG.studies[name].figures:
        caption = ROOT / "report" / name / f"{figure}.rst"
        assert caption.exists(), caption
        assert len(caption.read_text().strip().splitlines()) == 1, caption


def test_every_study_reads_only_config_blocks_that_exist():
    import yaml

    blocks = set(yaml.safe_load((ROOT / "config.yaml").read_text()))
    for study in CATALOG.studies.values():
        assert set(study.config) <= blocks, study.name


def test_no_module_under_src_is_over_400_lines():
    long = {
        p.relative_to(ROOT).as_posix(): n
        for p in (ROOT / "src").rglob("*.py")
        if (n := len(p.read_text().splitlines())) > 400
    }
    assert not long, long


@pytest.mark.parametrize(
    "declared, actual, matches",
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["b", "a"], False),
        (["a", "b"], ["a", "b", "c"], False),
        (["d", "y_*"], ["d", "y_1", "y_2", "y_12"], True),
        (["d", "y_*"], ["d"], False),
        (["y_*", "z"], ["y_1", "z"], True),
    ],
)
def test_declared_columns_match_in_order_with_prefix_patterns(declared, actual, matches):
    assert columns_match(declared, actual) is matches


def test_a_column_pattern_declares_the_columns_it_stands_for():
    assert declares_column(["d", "y_*"], "y_7") and not declares_column(["d", "y_*"], "x_7")


@pytest.mark.parametrize(
    "text, named",
    [
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, colour: red}}\n",
            "unknown key(s) colour",
        ),
        ("steps: {}\nstudies: {s: {title: t, config: [c], tables: {a: [x]}}}\n", "studies.s.source is missing"),
        ("steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: []}}}\n", "every table needs a list"),
        ("studies: {}\n", "exactly the two blocks"),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, figure_arrays: [i]}}\n",
            "studies.s.figure_arrays: only a study that draws figures",
        ),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, figures_read_published: 1}}\n",
            "studies.s.figures_read_published: must be true or false",
        ),
    ],
)
def test_a_malformed_catalog_is_refused_naming_the_study(tmp_path, text, named):
    path = tmp_path / "studies.yaml"
    path.write_text(text)
    with pytest.raises(CatalogError, match=re.escape(named)):
        load_catalog(path)
