"""The package shows its design: a subpackage per stage, no import cycles between them, the
domain stages free of the incremental machinery that wraps them, public library APIs
only, and functions short enough to read at once."""

import ast
import functools
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "studysite"
MODULES = sorted(PACKAGE.rglob("*.py"))
# The stages, which read as if every build were cold; incremental/ wraps them (and the
# orchestration, pipeline.py, serve/ and cli.py, holds both).
DOMAIN = {"content", "text", "i18n", "pages", "render", "output", "study"}
LIBRARIES = {"jinja2", "markupsafe", "markdown", "babel", "yaml", "genanki", "nh3", "latex2mathml", "pagefind", "watchfiles", "PIL"}
MAX_FUNCTION_LINES = 50


def unit_of(module: Path) -> str:
    """The subpackage a module belongs to, or the top-level module's own name."""
    parts = module.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def imported_units(module: Path) -> set[str]:
    """The units of the package a module imports, at any depth of its code."""
    units = set()
    for node in ast.walk(parsed(module)):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        for name in names:
            parts = name.split(".")
            if parts[0] == "studysite" and len(parts) > 1:
                units.add(parts[1])
            elif isinstance(node, ast.ImportFrom) and parts == ["studysite"]:
                units.update(alias.name for alias in node.names)
    return units


def unit_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        unit = unit_of(module)
        graph[unit] |= imported_units(module) - {unit}
    return graph


def test_the_domain_stages_never_import_the_incremental_layer():
    offenders = [f"{module.relative_to(ROOT)}" for module in MODULES if unit_of(module) in DOMAIN and "incremental" in imported_units(module)]
    assert not offenders, "domain modules that import studysite.incremental: " + ", ".join(offenders)


def test_the_domain_stages_leave_sharing_work_among_processes_to_what_wraps_them():
    """workers.py forks; a domain stage takes a map_each or is wrapped by incremental/."""
    forking = [module.relative_to(PACKAGE).as_posix() for module in MODULES if unit_of(module) in DOMAIN and "workers" in imported_units(module)]
    assert not forking, "domain modules that fork themselves: " + ", ".join(forking)


# What lets a build skip or share work, by the names it had in the domain stages: a page's
# sources and work group (incremental/page_sources.py, rendering.py), plans made again after
# an edit (incremental/replanning.py), the texts' conversion cut short (incremental/texts.py),
# the decks' memo (incremental/decks.py), serve's file replacer (serve/file_replacer.py).
MACHINERY = {
    "sources",
    "reads_only_sources",
    "work_group",
    "with_edits",
    "pages_again",
    "misses_allowed",
    "MissLimited",
    "TooManyMisses",
    "NoteMemo",
    "FileReplacer",
}


def machinery_defined(module: Path) -> list[str]:
    """The functions, classes and fields (annotated names) a module defines by MACHINERY's names."""
    found = []
    for node in ast.walk(parsed(module)):
        name = node.target.id if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) else getattr(node, "name", None)
        if isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AnnAssign) and name in MACHINERY:
            found.append(f"line {node.lineno}: {name}")
    return found


def test_the_domain_stages_plan_every_build_as_if_it_were_cold():
    """No domain stage says what a page's key is made from, which pages share a process, what
    to plan again after an edit or when to stop converting: what wraps the stages does."""
    found = [f"{module.relative_to(PACKAGE).as_posix()} {where}" for module in MODULES if unit_of(module) in DOMAIN for where in machinery_defined(module)]
    assert not found, "speed machinery in the domain stages: " + "; ".join(found)


def test_no_import_cycles_between_subpackages():
    graph = unit_graph()
    cycles = []

    def visit(unit: str, path: list[str]) -> None:
        for other in sorted(graph.get(unit, ())):
            if other == path[0]:
                cycles.append(" -> ".join([*path, other]))
            elif other not in path and other > path[0]:  # each cycle once, from its smallest unit
                visit(other, [*path, other])

    for unit in sorted(graph):
        visit(unit, [unit])
    assert not cycles, "import cycles: " + "; ".join(cycles)


def private_names(module: Path) -> list[str]:
    """Each use of a library's private name: `from lib import _x`, `import lib._x`, `lib._x`."""
    tree = parsed(module)
    aliases = {}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in LIBRARIES:
                    aliases[alias.asname or alias.name.split(".")[0]] = alias.name
                    if any(part.startswith("_") for part in alias.name.split(".")):
                        found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            if any(part.startswith("_") for part in node.module.split(".")):
                found.append(f"line {node.lineno}: from {node.module}")
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                else:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in aliases:
                found.append(f"line {node.lineno}: {aliases[base.id]}...{node.attr}")
    return found


@functools.cache
def parsed(module: Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the checks."""
    return ast.parse(module.read_text(encoding="utf-8"))


@functools.cache
def own_private_names() -> frozenset[str]:
    """Every _name the package defines itself: its functions, classes, attributes and variables."""
    names = set()
    for module in MODULES:
        for node in ast.walk(parsed(module)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name.startswith("_"):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) or isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.attr if isinstance(node, ast.Attribute) else node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return frozenset(name for name in names if name.startswith("_") and not name.startswith("__"))


def reached_private_names(module: Path, own: set[str]) -> list[str]:
    """Private names the module reaches that the package does not define: another's
    object's `_attribute`, or a private method of a library's class overridden."""
    tree = parsed(module)
    libraries = library_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") and node.attr not in own:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ClassDef) and any(root_name(base) in libraries for base in node.bases):
            found += [
                f"line {item.lineno}: {node.name}.{item.name} overrides a library's private method"
                for item in node.body
                if isinstance(item, ast.FunctionDef) and item.name.startswith("_") and not item.name.startswith("__")
            ]
    return found


def library_names(tree: ast.Module) -> set[str]:
    """The names a module binds to libraries or what it imports from them."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names if alias.name.split(".")[0] in LIBRARIES}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in LIBRARIES:
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def root_name(node: ast.expr) -> str:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def test_the_build_calls_its_stages_and_leaves_the_processes_aside_to_what_wraps_them():
    """pipeline.py calls the stages in turn; the collector held off, the early start and the
    work done in processes aside come from incremental/alongside.py, the sharing of a stage's
    work among processes from incremental/ too."""
    assert "workers" not in imported_units(PACKAGE / "pipeline.py"), "pipeline.py forks, freezes or starts work aside itself"


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_only_public_library_apis(module):
    reached = reached_private_names(module, own_private_names())
    assert not reached, f"{module.name} reaches private names it does not define: " + "; ".join(reached)
    assert not private_names(module), f"{module.name} uses private names of libraries: " + "; ".join(private_names(module))


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_functions_stay_short(module):
    long = [
        f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(parsed(module))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{module.name}: " + ", ".join(long)


def test_the_structure_checks_can_fail_too(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import jinja2.ext\n\n\nclass Ext(jinja2.ext.Extension):\n    def _make_node(self):\n        return self.macro._func()\n")
    assert sorted(reached_private_names(sample, own_private_names())) == ["line 5: Ext._make_node overrides a library's private method", "line 6: ._func"]


def test_the_structure_checks_can_fail(tmp_path):
    """The checks find what they look for (a private name, an import of the incremental layer)."""
    sample = tmp_path / "sample.py"
    sample.write_text("import jinja2\nfrom markupsafe import _escape_inner\nx = jinja2.runtime.Macro._func\nfrom studysite.incremental import cache\n")
    assert len(private_names(sample)) == 2
    assert imported_units(sample) == {"incremental"}
    orchestration = tmp_path / "pipeline.py"
    orchestration.write_text("from studysite.workers import Aside, CollectorSpared\n")
    assert imported_units(orchestration) == {"workers"}
    planted = tmp_path / "view_models.py"
    planted.write_text("class Page:\n    path: str\n    work_group: str = ''\n\n    def with_edits(self):\n        pass\n")
    assert machinery_defined(planted) == ["line 3: work_group", "line 5: with_edits"]
