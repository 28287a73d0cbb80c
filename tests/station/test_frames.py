"""Every frame of each game's example script typed at the simulated station, of the demo, and of the
station's own button behaviour (menu, legend, NEXT asked twice, paging on small displays) is byte for
byte the committed reference (``tests/station/frames.py`` says how to regenerate it)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.station import frames


@pytest.mark.parametrize("case", frames.CASES, ids=[c.name for c in frames.CASES])
def test_every_frame_matches_the_reference(case: frames.Case, tmp_path: Path) -> None:
    expected = frames.reference(case).read_text(encoding="utf-8").splitlines()
    actual = frames.record_alone(case, tmp_path).splitlines()
    if actual != expected:
        diff = list(difflib.unified_diff(expected, actual, "reference", "this run", n=2, lineterm=""))
        pytest.fail(f"{case.name}: the frames differ from {frames.reference(case).relative_to(frames.ROOT)} "
                    f"(on purpose? .venv/bin/python -m tests.station.frames --update {case.name})\n"
                    + "\n".join(diff[:40]))
