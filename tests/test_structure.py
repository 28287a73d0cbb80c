"""Classes in the station, UI and hardware layers stay small enough to read: at most 250 lines and 20
methods each (properties count as methods). The check reads the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("station", "ui", "hw")
MAX_LINES = 250
MAX_METHODS = 20


def oversized(source: str) -> list[tuple[str, int, int]]:
    """(class, lines, methods) of every class in ``source`` over either limit."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            methods = sum(isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body)
            if lines > MAX_LINES or methods > MAX_METHODS:
                out.append((node.name, lines, methods))
    return out


@pytest.mark.parametrize("layer", LAYERS)
def test_no_class_in_the_layer_is_over_250_lines_or_20_methods(layer: str) -> None:
    found = {str(path.relative_to(ROOT)): big for path in sorted((ROOT / "host" / "tablekeeper" / layer).rglob("*.py"))
             if (big := oversized(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_check_sees_a_class_with_too_many_methods() -> None:
    body = "".join(f"    def m{i}(self) -> None:\n        pass\n" for i in range(MAX_METHODS + 1))
    assert oversized(f"class Big:\n{body}") == [("Big", 1 + 2 * (MAX_METHODS + 1), MAX_METHODS + 1)]
    assert oversized(f"class Fine:\n{body.split('    def m20')[0]}") == []
