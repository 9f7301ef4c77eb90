"""Each rule's code inputs: the library files its entry point imports, transitively (code_inputs)."""

from conftest import ROOT
from cvsuite.workflow.code_inputs import DATA, code_inputs, imported_modules

SRC = ROOT / "src"


def test_a_simulation_shard_does_not_depend_on_code_it_never_imports():
    shard = code_inputs(SRC, ROOT / "experiments" / "shape_image_datasets.py")
    assert "src/cvsuite/methods/knn.py" in shard and "src/cvsuite/data/shape_images.py" in shard
    assert "src/cvsuite/methods/ridge.py" not in shard
    assert not any(path.startswith("src/cvsuite/published/") for path in shard)


def test_lazy_imports_and_package_inits_count():
    # study_job imports the layout checks inside a function, only when a study draws.
    assert "cvsuite.figures.layout_checks" in imported_modules(SRC / "cvsuite" / "workflow" / "study_job.py", "x")
    inputs = code_inputs(SRC, ROOT / "experiments" / "k_bias.py")
    assert {"src/cvsuite/__init__.py", "src/cvsuite/figures/__init__.py", "src/cvsuite/figures/k_bias.py"} <= set(
        inputs
    )


def test_every_data_file_under_src_is_read_by_a_declared_module_and_reaches_its_job():
    data = {p.relative_to(ROOT).as_posix() for p in (SRC / "cvsuite").rglob("*") if p.is_file()}
    data = {p for p in data if not p.endswith((".py", ".pyc", "py.typed")) and "__pycache__" not in p}
    compare = set(code_inputs(SRC, ROOT / "experiments" / "compare.py"))
    assert data and data <= compare, sorted(data - compare)
    claimed = {
        p.relative_to(ROOT).as_posix()
        for module, patterns in DATA.items()
        for pattern in patterns
        for p in (SRC / module.replace(".", "/")).parent.glob(pattern)
    }
    assert data == claimed
