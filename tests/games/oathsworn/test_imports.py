"""The Oathsworn modules import one another in one direction only: no circle, not even through an
import inside a function (grimp reads every import statement, as import-linter does)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp
import pytest

PACKAGE = "tablekeeper.games.oathsworn"


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("tablekeeper", cache_dir=None)


def _edges(graph: grimp.ImportGraph) -> dict[str, set[str]]:
    modules = {m for m in graph.modules if m.startswith(PACKAGE + ".")}
    return {m: {x for x in graph.find_modules_directly_imported_by(m) if x in modules} for m in modules}


def cycles(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every import circle, as the modules on it (Tarjan's strongly connected components of size > 1,
    or a module importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in edges.get(m, ()):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            component = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                component.append(n)
                if n == m:
                    break
            if len(component) > 1 or m in edges.get(m, ()):
                found.append(sorted(component))

    for m in sorted(edges):
        if m not in index:
            visit(m)
    return found


@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_no_import_circle_inside_the_package(protection: str) -> None:
    graph = _graph()
    if protection == "protection-removed":  # the circle the package had: the table reaching back into the story
        graph.add_import(importer=f"{PACKAGE}.table", imported=f"{PACKAGE}.story", line_number=1,
                         line_contents="from tablekeeper.games.oathsworn.story import reset_all_might")
    found = cycles(_edges(graph))
    if protection == "in place":
        assert found == []
    else:
        assert any(f"{PACKAGE}.table" in c and f"{PACKAGE}.story" in c for c in found)


def test_the_reader_of_arguments_knows_no_verb_module() -> None:
    """One option parser for all verbs: it sits below every verb module and imports none of them."""
    edges = _edges(_graph())
    assert edges[f"{PACKAGE}.args"] <= {f"{PACKAGE}.cards", f"{PACKAGE}.rules"}
    for verbs in ("story", "encounter", "turns", "draws", "epilogue", "plan"):
        assert f"{PACKAGE}.args" in edges[f"{PACKAGE}.{verbs}"]
