"""The code a job runs, as files: an entry point's imports from the library, followed to the end.

Each rule's inputs name the library files its entry point imports, directly or through other
modules, every ``import`` statement counted wherever it stands (a lazy import inside a function
included), with the packages' ``__init__.py`` on the way and the non-Python files a module reads
(``DATA``). An edit then reruns exactly the jobs whose code it touches: a figure module's comment
reruns its study, not every simulation shard, as one stamp of the whole library did.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "cvsuite"
# Non-Python files a module reads, by module: a module that reads one must say so here, and a test
# holds every such file under src/ to being claimed by some module.
DATA = {
    "cvsuite.published.site": ("site_templates/*.j2",),
}


def module_file(src: Path, module: str) -> Path | None:
    """The file of ``module`` under ``src`` (a module or a package's ``__init__.py``), or None."""
    base = src.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(path: Path, module: str) -> set[str]:
    """The library modules one file imports, by every import statement in it (``module`` is the
    file's own dotted name, to resolve relative imports; "" for an entry point)."""
    found = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == PACKAGE}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(p for p in [*parts, node.module or ""] if p)
            else:
                base = node.module or ""
            if base.split(".")[0] != PACKAGE:
                continue
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # names that are submodules
    return found


def code_inputs(src: str | Path, entry: str | Path) -> list[str]:
    """Every library file (and data file) the entry point ``entry`` runs, sorted, as paths relative to
    the folder that holds ``src``."""
    src, entry = Path(src), Path(entry)
    seen: dict[str, Path] = {}
    todo = sorted(imported_modules(entry, ""))
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        file = module_file(src, module)
        if file is None:
            continue  # a name imported from a module, not a module
        seen[module] = file
        parents = [".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)]
        todo += [m for m in parents if m not in seen]
        todo += sorted(imported_modules(file, module) - set(seen))
    files = set(seen.values())
    for module, patterns in DATA.items():
        if module in seen:
            files |= {p for pattern in patterns for p in seen[module].parent.glob(pattern)}
    return sorted(p.relative_to(src.parent).as_posix() for p in files)
