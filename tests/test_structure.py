"""The package stays readable: modules under 400 lines, functions under 50 (a module that
grows past it is hiding a second one; split it, as pages/builder.py was into pages/site_pages.py)."""

import ast

import pytest
from conftest import ROOT

MODULES = sorted((ROOT / "studysite").glob("*.py"))
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 50


@pytest.mark.parametrize("module", MODULES, ids=lambda path: path.name)
def test_modules_and_their_functions_stay_small(module):
    text = module.read_text(encoding="utf-8")
    assert text.count("\n") < MAX_MODULE_LINES, f"{module.name} has {text.count(chr(10))} lines"
    long = [
        f"{node.name} (line {node.lineno}): {node.end_lineno - node.lineno + 1} lines"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long, f"{module.name}: " + ", ".join(long)
