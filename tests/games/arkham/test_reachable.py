"""Code the product runs: every public function and class of the Arkham package is referenced
somewhere in ``host/`` outside its own definition (tests alone do not count), and the package keeps
no hidden globals (no ContextVar) and does no I/O of its own in the campaign log."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

HOST = Path(__file__).resolve().parents[3] / "host" / "tablekeeper"
PACKAGE = HOST / "games" / "arkham"
WORD = re.compile(r"\b\w+\b")


def unreferenced() -> list[str]:
    """Each name counted once over the whole package as a word (one pass over the text, not one
    regular expression per name); the definition itself is one of those words."""
    texts = {path: path.read_text(encoding="utf-8") for path in HOST.rglob("*.py")}
    words = Counter(word for text in texts.values() for word in WORD.findall(text))
    out = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.parse(texts[path]).body:
            public = isinstance(node, ast.FunctionDef | ast.ClassDef) and not node.name.startswith("_")
            if public and words[node.name] - 1 < 1:  # minus the definition
                out.append(f"{path.name}: {node.name}")
    return out


def test_every_public_function_and_class_is_used_by_the_product() -> None:
    assert unreferenced() == []


def test_no_context_variables_and_no_store_in_the_campaign() -> None:
    for path in PACKAGE.glob("*.py"):
        assert "contextvars" not in path.read_text(encoding="utf-8"), path.name
    assert "core.store" not in (PACKAGE / "campaign.py").read_text(encoding="utf-8")
