"""The library's layers, in order: each module imports only from its own layer and those before it.

data (the generators) < methods (generic methods on arrays, printed numbers among them) < studies
(each study's science: statistics, never verdicts) < published (the registry's records, the judges,
the comparison, the report) < figures (drawn from saved tables) < workflow (where Snakemake meets the
library). So nothing a study computes can depend on how it is judged: a judge's or a record's edit
reruns the comparison, never a simulation. A lower layer that reached up would tie a generator
or a method to a study, a figure or the workflow, and the code inputs of every job that runs it to
files it has no business with. Every import counts, a lazy one inside a function too.
"""

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
