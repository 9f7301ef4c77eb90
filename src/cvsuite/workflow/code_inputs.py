"""The code a job runs, as files: an entry point's imports from the library, followed to the end.

Each rule's inputs name the library files its entry point imports, directly or through other
modules, every ``import`` statement counted wherever it stands (a lazy import inside a function
included), with the packages' ``__init__.py`` on the way and the non-Python files a module reads
(``DATA``). An edit then reruns exactly the jobs whose code it touches: a figure module's comment
reruns its study, not every simulation shard, as one stamp of the whole library did.
"""

from __future__ import annotations

import ast
import hashlib
import re
from functools import cache
from pathlib import Path

PACKAGE = "cvsuite"
# Non-Python files a module reads, by module: a module that reads one must say so here, and a test
# holds every such file under src/ to being claimed by some module.
DATA = {
    "cvsuite.published.site": ("site_templates/*.j2",),
}


@cache  # every rule's closure looks up the same modules: two stats each, once per run
def module_file(src: Path, module: str) -> Path | None:
    """The file of ``module`` under ``src`` (a module or a package's ``__init__.py``), or None."""
    base = src.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


_IMPORT_LINE = re.compile(r"^[ \t]*(?:import[ \t]|from[ \t]+[\w.]+[ \t]+import\b)")


def import_statements(text: str) -> list[str]:
    """Every import statement of a module's text, dedented, wherever it stands (a lazy import inside a
    function included), a parenthesised one joined over its lines. Only these lines are parsed: parsing
    whole modules cost 0.2 s of every Snakemake start. A line of a docstring that reads like an import
    counts too, which can only add an input, never lose one."""
    lines, statements, i = text.splitlines(), [], 0
    while i < len(lines):
        if _IMPORT_LINE.match(lines[i]):
            statement = lines[i].strip()
            while "(" in statement and ")" not in statement and i + 1 < len(lines):
                i += 1
                statement += " " + lines[i].strip()
            statements.append(statement.split("#", 1)[0].rstrip("\\ "))
        i += 1
    return statements


@cache  # every rule's closure walks the same files: each is read once per run
def imported_modules(path: Path, module: str) -> frozenset[str]:
    """The library modules one file imports, by every import statement in it (``module`` is the
    file's own dotted name, to resolve relative imports; "" for an entry point)."""
    found = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for statement in import_statements(path.read_text(encoding="utf-8")):
        try:
            node = ast.parse(statement).body[0]
        except SyntaxError:
            continue  # a docstring's line that only looks like an import
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
    return frozenset(found)


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


def figure_code_inputs(src: str | Path, entry: str | Path, study: str) -> list[str]:
    """A figure job's code: the figure rules' entry point ``entry`` and the study's figure module,
    ``cvsuite.figures.<study>``, which the job imports by name, each with everything it imports."""
    src = Path(src)
    drawing = src / PACKAGE / "figures" / f"{study}.py"
    own = drawing.relative_to(src.parent).as_posix()
    return sorted({*code_inputs(src, entry), own, *code_inputs(src, drawing)})


_QUOTED_NAME = re.compile(r"""["']([a-z0-9][a-z0-9._-]*)["']""")


@cache  # a file shared by many rules' code is read once per run
def quoted_names(path: Path) -> frozenset[str]:
    """Every short quoted name in a file's text (``"rcv.823.norm-degree-15"``): where a module names
    the registry records whose printed values it reads, so that a job's extract of them can hold
    those alone."""
    return frozenset(_QUOTED_NAME.findall(path.read_text(encoding="utf-8")))


@cache  # a file shared by many rules' code is hashed once per run
def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def code_record(root: str | Path, files) -> str:
    """The text of a rule's code stamp: each of ``files`` (paths relative to ``root``) with its
    sha256, one per line, sorted. It changes exactly when one of the files does."""
    root = Path(root)
    return "".join(f"{_file_digest(root / f)}  {f}\n" for f in sorted(set(files)))
