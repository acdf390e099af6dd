"""The package shows its design: a subpackage per stage, no import cycles between them, the
domain stages free of the incremental machinery that wraps them, public library APIs
only, and functions short enough to read at once."""

import ast
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "studysite"
MODULES = sorted(PACKAGE.rglob("*.py"))
# The stages, which read as if every build were cold; incremental/ wraps them (and the
# orchestration, pipeline.py, serve/ and cli.py, holds both).
DOMAIN = {"content", "text", "i18n", "pages", "render", "output", "study"}
LIBRARIES = {"jinja2", "markupsafe", "markdown", "babel", "yaml", "genanki", "nh3", "latex2mathml", "pagefind", "watchfiles"}
MAX_FUNCTION_LINES = 50


def unit_of(module: Path) -> str:
    """The subpackage a module belongs to, or the top-level module's own name."""
    parts = module.relative_to(PACKAGE).with_suffix("").parts
    return parts[0]


def imported_units(module: Path) -> set[str]:
    """The units of the package a module imports, at any depth of its code."""
    units = set()
    for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
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
    tree = ast.parse(module.read_text(encoding="utf-8"))
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


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_only_public_library_apis(module):
    assert not private_names(module), f"{module.name} uses private names of libraries: " + "; ".join(private_names(module))


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.relative_to(PACKAGE).as_posix())
def test_functions_stay_short(module):
    long = [
        f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{module.name}: " + ", ".join(long)


def test_the_structure_checks_can_fail(tmp_path):
    """The checks find what they look for (a private name, an import of the incremental layer)."""
    sample = tmp_path / "sample.py"
    sample.write_text("import jinja2\nfrom markupsafe import _escape_inner\nx = jinja2.runtime.Macro._func\nfrom studysite.incremental import cache\n")
    assert len(private_names(sample)) == 2
    assert imported_units(sample) == {"incremental"}
