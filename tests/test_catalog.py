"""studies.yaml is the one list of studies: every study is found by its name alone, everywhere."""

import re

import pytest

from conftest import ROOT
from cvsuite.workflow.catalog import CatalogError, columns_match, declares_column, load_catalog

CATALOG = load_catalog(ROOT / "studies.yaml")
NAMES = sorted(CATALOG.studies)
# The rules, as the Snakefile and the files it includes write them; each study's rule and figure rule
# are generated from studies.yaml (rules/studies.smk, rules/figures.smk), the loops GENERATORS names.
RULE_FILES = [ROOT / "Snakefile", *sorted((ROOT / "rules").glob("*.smk"))]
RULES = {rule for path in RULE_FILES for rule in re.findall(r"^rule (\w+):", path.read_text(), re.M)}
GENERATORS = {
    "rules/studies.smk": "for _study in CATALOG.studies:",
    "rules/figures.smk": "for _name in (n for n in CATALOG.studies if study(n).figures):",
}
# A caption is read under its figure, on a phone too: what is plotted, the finding, the source.
CAPTION_MAX_WORDS = 60


def test_every_study_and_step_has_a_rule_and_every_rule_is_listed():
    """The steps' rules and all and compare are written; the studies' are generated (the tiny
    workflow runs every one of them)."""
    assert RULES == set(CATALOG.steps) | {"all", "compare"}
    for path, loop in GENERATORS.items():
        assert loop in (ROOT / path).read_text(encoding="utf-8"), path


def test_the_snakefile_is_a_contents_page_of_the_files_it_includes():
    snakefile = (ROOT / "Snakefile").read_text()
    included = set(re.findall(r'^include: "(rules/\w+\.smk)"', snakefile, re.M))
    assert included == {p.relative_to(ROOT).as_posix() for p in RULE_FILES[1:]}
    assert re.findall(r"^rule (\w+):", snakefile, re.M) == ["all"] and len(snakefile.splitlines()) <= 150


def test_every_rule_records_its_jobs_times_with_a_benchmark_file():
    for path in RULE_FILES:
        for rule in re.split(r"\n(?=rule |    rule:)", path.read_text())[1:]:
            name = re.match(r"(?:rule (\w+)|    rule:\n\s+name:\n\s+(.+))", rule)
            if name.group(1) != "all":
                assert "benchmark:" in rule and "benchmarks/jobs/" in rule, (path.name, name.group(0))


@pytest.mark.parametrize("name", NAMES)
def test_a_study_is_found_by_its_name_alone(name):
    assert (ROOT / "experiments" / f"{name}.py").exists()
    assert (ROOT / "src" / "cvsuite" / "studies" / f"{name}.py").exists()
    assert (ROOT / "config.yaml").read_text().count(f"\n{name}:") == 1, f"no config block {name}"


@pytest.mark.parametrize("name", sorted(CATALOG.steps))
def test_a_simulation_step_has_its_entry_point(name):
    assert (ROOT / "experiments" / f"{name}.py").exists()


def long_captions(catalog) -> dict[str, int]:
    """Every caption of a catalog's figures longer than CAPTION_MAX_WORDS, as ``<study>/<figure>`` ->
    its words (runs of non-space characters, as ``wc -w`` counts)."""
    words = {
        f"{study.name}/{figure}": len(caption.split())
        for study in catalog.studies.values()
        for figure, caption in study.captions.items()
    }
    return {name: n for name, n in sorted(words.items()) if n > CAPTION_MAX_WORDS}


@pytest.mark.parametrize("name", NAMES)
def test_every_figure_has_its_caption(name):
    study = CATALOG.studies[name]
    assert set(study.captions) == set(study.figures) and all(study.captions.values())


def test_every_caption_is_at_most_60_words():
    """A caption says what is plotted, what it shows and where it comes from, under the figure in
    REPORT.md, on the site and in the Snakemake report; the longer reasoning goes to the study's notes,
    docs/notes/<study>.md."""
    assert any(study.captions for study in CATALOG.studies.values()), "no caption found in studies.yaml"
    long = long_captions(CATALOG)
    assert long == {}, f"over {CAPTION_MAX_WORDS} words (caption: its words); move the detail to docs/notes: {long}"


def test_a_caption_over_60_words_is_named_with_its_count(tmp_path):
    import yaml

    figures = {"short": "word " * CAPTION_MAX_WORDS, "long": "a\tlong,  caption " * 21}
    study = {"title": "A", "source": "B", "config": ["c"], "tables": {"t": ["x"]}, "figures": figures}
    path = tmp_path / "studies.yaml"
    path.write_text(yaml.safe_dump({"steps": {}, "studies": {"a_study": study}}))
    assert long_captions(load_catalog(path)) == {"a_study/long": 63}


def test_every_study_reads_only_config_blocks_that_exist():
    import yaml

    blocks = set(yaml.safe_load((ROOT / "config.yaml").read_text()))
    for study in CATALOG.studies.values():
        assert set(study.config) <= blocks, study.name


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
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]},"
            " figures_read_published: 1}}\n",
            "studies.s.figures_read_published: must be true or false",
        ),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, reads: {b: u.a}}}\n",
            "studies.s.reads.b: no study or step 'u'",
        ),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, reads: {b: s.z}}}\n",
            "studies.s.reads.b: 's' has no table 'z' (it has a)",
        ),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, reads: {b: s.a@p}}}\n",
            "studies.s.reads.b: '@p' names shards, and 's' is a study, not a step",
        ),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, reads: {code: s.a}}}\n",
            "studies.s.reads: code is the name of an input every rule has",
        ),
        (
            "steps: {}\nstudies: {s: {title: t, source: s, config: [c], tables: {a: [x]}, reads: {b: a}}}\n",
            "studies.s.reads.b: 'a' is not '<study>.<table>' or '<step>.<table>'",
        ),
    ],
)
def test_a_malformed_catalog_is_refused_naming_the_study(tmp_path, text, named):
    path = tmp_path / "studies.yaml"
    path.write_text(text)
    with pytest.raises(CatalogError, match=re.escape(named)):
        load_catalog(path)
