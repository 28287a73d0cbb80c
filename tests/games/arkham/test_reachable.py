"""Code the product runs: every public function and class of the Arkham package is referenced
somewhere in ``host/`` outside its own definition (tests alone do not count), and the package keeps
no hidden globals (no ContextVar) and does no I/O of its own in the campaign log."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HOST = Path(__file__).resolve().parents[3] / "host" / "tablekeeper"
PACKAGE = HOST / "games" / "arkham"


def unreferenced() -> list[str]:
    texts = {path: path.read_text(encoding="utf-8") for path in HOST.rglob("*.py")}
    out = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.parse(texts[path]).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_"):
                word = re.compile(rf"\b{re.escape(node.name)}\b")
                uses = sum(len(word.findall(text)) for text in texts.values()) - 1  # minus the definition
                if uses < 1:
                    out.append(f"{path.name}: {node.name}")
    return out


def test_every_public_function_and_class_is_used_by_the_product() -> None:
    assert unreferenced() == []


def test_no_context_variables_and_no_store_in_the_campaign() -> None:
    for path in PACKAGE.glob("*.py"):
        assert "contextvars" not in path.read_text(encoding="utf-8"), path.name
    assert "core.store" not in (PACKAGE / "campaign.py").read_text(encoding="utf-8")
