"""Classes in the station, UI and hardware layers stay small enough to read: at most 250 lines and 20
methods each (properties count as methods). The check reads the source with ``ast``."""

from __future__ import annotations

import ast
import re
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


TRACK_NAMER = Path("host/tablekeeper/core/tracks.py")
"""The one module that writes a seat's track as the console and the saves spell it (``seat2.damage``)."""
SEAT_TRACK_CALL = re.compile(r'seat_track\((\w+), "(\w+)"\)')


def seat_names_built(source: str) -> list[int]:
    """Lines of ``source`` that spell a seat's track by hand: an f-string holding ``seat{…}.``, or a
    template (``"seat%d."``, ``"seat{}."``) that would make one."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, value, after in zip(parts, parts[1:], parts[2:], strict=False):
                if isinstance(before, ast.Constant) and str(before.value).endswith("seat") \
                        and isinstance(value, ast.FormattedValue) \
                        and isinstance(after, ast.Constant) and str(after.value).startswith("."):
                    lines.append(node.lineno)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and re.search(r"seat(%d|%s|\{\})\.", node.value):
            lines.append(node.lineno)
    return sorted(set(lines))


def seat_names_outside_the_namer(sources: dict[Path, str]) -> dict[str, list[int]]:
    return {str(path): lines for path, source in sorted(sources.items())
            if path != TRACK_NAMER and (lines := seat_names_built(source))}


def host_sources() -> dict[Path, str]:
    return {path.relative_to(ROOT): path.read_text(encoding="utf-8")
            for path in (ROOT / "host" / "tablekeeper").rglob("*.py")}


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
def test_no_seat_track_name_is_built_outside_the_one_namer(protection: str) -> None:
    """Seat tracks are ``SeatTrack`` values and ``seat_track`` names; ``seat2.damage`` is written in one
    place. With the protection removed (Arkham's verbs spelling their names by hand again, as they did),
    the scan names the file."""
    sources = host_sources()
    verbs = Path("host/tablekeeper/games/arkham/verbs.py")
    if protection == "protection-removed":
        sources[verbs] = SEAT_TRACK_CALL.sub(r'f"seat{\1}.\2"', sources[verbs])
    found = seat_names_outside_the_namer(sources)
    if protection == "on":
        assert found == {}
        assert seat_names_built(sources[TRACK_NAMER]) != []  # the namer itself is what the scan sees
    else:
        assert list(found) == [str(verbs)] and len(found[str(verbs)]) >= 5


@pytest.mark.parametrize("spelled", ['f"seat{n}.damage"', 'f"x {a} seat{n}.{t}"', '"seat%d.hp" % n',
                                     '"seat{}.hp".format(n)'])
def test_the_scan_sees_each_way_of_spelling_a_seat_track(spelled: str) -> None:
    assert seat_names_built(f"n = t = a = 1\nname = {spelled}\n") == [2]
    assert seat_names_built('name = f"seat{n}"\nlabel = f"seat {n}."\n') == []
