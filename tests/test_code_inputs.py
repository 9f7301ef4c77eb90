"""Each rule's code inputs: the library files its entry point imports, transitively (code_inputs)."""

from conftest import ROOT
from cvsuite.workflow.code_inputs import DATA, code_inputs, figure_code_inputs, imported_modules

SRC = ROOT / "src"


def test_a_simulation_shard_does_not_depend_on_code_it_never_imports():
    shard = code_inputs(SRC, ROOT / "experiments" / "shape_image_datasets.py")
    assert "src/cvsuite/methods/knn.py" in shard and "src/cvsuite/data/shape_images.py" in shard
    assert "src/cvsuite/methods/ridge.py" not in shard
    # Of the published layer, only the column patterns every job checks its tables against.
    published = {path for path in shard if path.startswith("src/cvsuite/published/")}
    assert published == {"src/cvsuite/published/__init__.py", "src/cvsuite/published/column_patterns.py"}


def test_a_study_does_not_depend_on_its_figures_and_its_figure_job_on_no_science_it_does_not_draw():
    study = code_inputs(SRC, ROOT / "experiments" / "k_bias.py")
    assert not any(path.startswith("src/cvsuite/figures/") for path in study)
    drawing = figure_code_inputs(SRC, ROOT / "experiments" / "draw_figures.py", "k_bias")
    assert {"src/cvsuite/figures/k_bias.py", "src/cvsuite/figures/layout_checks.py"} <= set(drawing)
    assert "src/cvsuite/studies/k_bias.py" not in drawing


def test_lazy_imports_and_package_inits_count():
    # figure_job imports the registry's extract inside a function, only for figures that draw it.
    assert "cvsuite.published.published_values" in imported_modules(SRC / "cvsuite" / "workflow" / "figure_job.py", "x")
    inputs = code_inputs(SRC, ROOT / "experiments" / "k_bias.py")
    assert {"src/cvsuite/__init__.py", "src/cvsuite/studies/__init__.py", "src/cvsuite/studies/k_bias.py"} <= set(
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
