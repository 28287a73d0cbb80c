"""The tally's item losses are a list the table ticks off (OS-TALLY-9, OS-KO-2): one item each, two
for a knocked-out Oathsworn; the chapter ends when the list is empty. Through the verbs, with a store."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.games.oathsworn.record import rec

from .helpers import no, ok, reloaded, seat, stored


@pytest.mark.rule("OS-TALLY-9")
def test_item_losses_are_ticked_off_one_by_one(tmp_path: Path) -> None:
    save = str(tmp_path / "s.db")
    s = ok(stored(save, part="encounter"), "set seat3.hp 0", "break head", "break body", "break claws", "tally")
    assert dict(rec(s.state).losses_due) == {"1": 1, "2": 1, "3": 2, "4": 1}
    panel = s.game.panels(s.state)["tokens"]
    assert panel.title == "items to lose" and "seat 3: 2 items" in panel.lines
    assert s.state.over is None
    assert "holds no" in no(s, "lose 1 Crown")
    ok(s, "lose 3 Great Maul")
    ok(s, "lose 3 Pig Iron Coat")
    assert "3" not in rec(s.state).losses_due
    assert "no item loss to tick off" in no(s, "lose 3 Great Maul")
    for n in (1, 2, 4):
        ok(s, f"lose {n} {seat(s, n)['items'][0]}")
    assert s.state.over == "victory" and rec(s.state).losses_due is None
    assert reloaded(save).state == s.state
