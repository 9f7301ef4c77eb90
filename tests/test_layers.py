"""The library's layers, in order: each module imports only from its own layer and those before it.

data (the generators) < methods (generic methods on arrays, printed numbers among them) < studies
(each study's science: statistics, never verdicts) < published (the registry's records, the judges,
the comparison, the report) < figures (drawn from saved tables) < workflow (where Snakemake meets the
library). So nothing a study computes can depend on how it is judged: a judge's or a record's edit
reruns the comparison, never a simulation. A lower layer that reached up would tie a generator
or a method to a study, a figure or the workflow, and the code inputs of every job that runs it to
files it has no business with. Every import counts, a lazy one inside a function too.
"""

import re
from pathlib import Path

import pytest

from conftest import ROOT
from cvsuite.workflow.code_inputs import PACKAGE, imported_modules

LAYERS = ("data", "methods", "studies", "published", "figures", "workflow")
SRC = ROOT / "src"
MODULES = sorted(p for p in (SRC / PACKAGE).glob("*/*.py"))


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_is_in_a_layer():
    assert {p.parent.name for p in MODULES} == set(LAYERS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(SRC / PACKAGE).as_posix())
def test_a_module_imports_only_from_its_layer_and_those_before_it(path: Path):
    module = ".".join(path.relative_to(SRC).with_suffix("").parts)
    own = LAYERS.index(layer_of(module))
    above = sorted(m for m in imported_modules(path, module) if layer_of(m) and LAYERS.index(layer_of(m)) > own)
    assert not above, f"{module} ({LAYERS[own]}) imports from a later layer: {above}"


# A verdict named as a column; a statistic about one (held_out, a percent or share of draws on which a
# stated reason holds) is not.
VERDICT_WORDS = re.compile(
    r"(^|_)(holds?|held|verdicts?|claims?|undecided|criterion|finding)(?!_out|_percent|_share)(_|$)"
)


def test_no_study_writes_a_verdict_only_statistics():
    """The studies compute; the registry's judges decide. No table a study or step declares is a claims,
    findings or verdict table, and no column gives a verdict on a sentence."""
    from cvsuite.workflow.catalog import load_catalog

    catalog = load_catalog(ROOT / "studies.yaml")
    named = [
        f"{table} {column}"
        for table, columns in catalog.table_columns().items()
        for column in [table.split("/")[1].removesuffix(".csv"), *columns]
        if VERDICT_WORDS.search(column)
    ]
    assert not named, named


@pytest.mark.parametrize("layer", ("data", "methods", "studies"))
def test_no_module_below_the_registry_decides_a_sentence(layer: str):
    """No module under data/, methods/ or studies/ writes 'undecided' or keeps a claims table's helpers."""
    found = [
        p.name
        for p in sorted((SRC / PACKAGE / layer).glob("*.py"))
        if re.search(r"\bUNDECIDED\b|['\"]undecided['\"]|claims_table", p.read_text(encoding="utf-8"))
    ]
    assert not found, found


def test_every_public_function_and_class_of_the_science_states_its_contract():
    """Every public function and class of data/, methods/ and studies/ has a docstring: the contract a
    reader needs without reading the body, and the document section it follows where it follows one."""
    import ast

    bare = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for layer in ("data", "methods", "studies")
        for path in sorted((ROOT / "src" / "cvsuite" / layer).glob("*.py"))
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, (ast.FunctionDef, ast.ClassDef))
        and not node.name.startswith("_")
        and not ast.get_docstring(node)
    ]
    assert bare == [], "public functions without a docstring:\n" + "\n".join(bare)
