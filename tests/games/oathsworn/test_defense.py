"""Defense after the draw (OS-TOK-4, OS-EATK-3): a device enemy draw shows the damage first, then each
targeted seat decides (defense tokens, a defensive card) before any HP is lost; a defensive card
protects only the seat that played it and goes on cooldown. Driven through the verbs, the seat
buttons and ``tablekeeper play``, every entry in a real store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.core.session import Session
from tablekeeper.games.oathsworn.record import EnemyHit, rec

from .helpers import encounter, last, no, ok, reloaded, seat, stored, v


@pytest.fixture
def save(tmp_path: Path) -> str:
    return str(tmp_path / "s.db")


def _hit(s: Session) -> EnemyHit:
    hit = rec(s.state).enemy_hit
    assert hit is not None
    return hit


@pytest.mark.rule("OS-TOK-4")
def test_a_device_draw_waits_for_the_defense_decision(save: str) -> None:
    s = ok(stored(save, part="encounter", seed=3), "token 1 defense", "enemy 1 B B R")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "defense" and prompt.seat == 1
    damage = _hit(s).damage
    assert v(s, "seat1.hp") == 6  # nothing lost yet
    defense = v(s, "seat1.defense")
    assert prompt.options == (f"take {damage // defense} HP", f"1 def token: {damage // (defense + 1)} HP")
    ok(s, "choose 2")
    assert seat(s, 1)["tokens"]["defense"] == 0
    assert v(s, "seat1.hp") == 6 - damage // (defense + 1)
    assert last(s)["losses"] == {"1": damage // (defense + 1)} and s.state.prompt is None
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-EATK-3")
def test_a_defensive_card_protects_only_its_player_and_goes_on_cooldown(save: str) -> None:
    s = ok(stored(save, part="encounter", seed=3), "enemy 1,2 B B R")
    damage = _hit(s).damage
    assert "not deciding" in no(s, "defend 2 Parry 2 3")  # seat 1 is asked first
    ok(s, "defend 1 Parry 2 3")
    assert s.state.prompt is not None and "DEF" in s.state.prompt.text
    assert "already played" in no(s, "defend 1 Guard 1 2")
    assert seat(s, 1)["positions"][2] == ["Parry"]
    ok(s, "choose 1")
    assert s.state.prompt is not None and s.state.prompt.seat == 2
    ok(s, "choose 1")
    d1, d2 = v(s, "seat1.defense"), v(s, "seat2.defense")
    assert last(s)["losses"] == {"1": damage // (d1 + 3), "2": damage // d2}
    assert reloaded(save).state == s.state


def test_one_shield_for_several_targets_is_refused() -> None:
    from .helpers import encounter
    assert "only the Oathsworn who played it" in no(encounter(), "enemy 1,2 B R shield=2 = B3 R2")


def test_the_targeted_seats_answer_with_their_buttons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "defense.script"
    script.write_text("token 3 defense\nenemy 3,1 B B R\npress seat3.b\npress seat1.a\n")
    save = tmp_path / "s.db"
    code = cli.main(["play", "oathsworn", "--option", "part=encounter", "--seed", "3", "--script", str(script),
                     "--save", str(save), "--strict", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    view = json.loads(out)
    assert view["prompt"] is None
    assert view["seats_detail"]["3"]["tokens"]["defense"] == 0
    assert set(view["last"]["losses"]) == {"1", "3"}
    assert reloaded(str(save)).game.view(reloaded(str(save)).state)["tracks"] == view["tracks"]


@pytest.mark.rule("OS-TOK-4")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_the_defense_question_offers_only_tokens_that_save_hp(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A draw of 0 damage asks nothing (an offered token would be spent for nothing), and against 8
    damage at DEFENSE 3 the seat's third token saves no HP (8 // 5 = 8 // 6 = 1), so the question stops
    at two tokens. With the trimming removed, every token is offered again."""
    from tablekeeper.games.oathsworn import rules

    if protection == "protection-removed":
        monkeypatch.setattr(rules, "defense_choices",
                            lambda damage, defense, tokens: [damage // (defense + k) for k in range(tokens + 1)])
    s = ok(encounter(seed=5), "token 1 defense 3", "enemy 1 B B R")  # the device draws 0 damage
    if protection == "protection-removed":
        assert s.state.prompt is not None and len(s.state.prompt.options) == 4
        return
    assert s.state.prompt is None and last(s)["losses"] == {"1": 0}
    assert seat(s, 1)["tokens"]["defense"] == 3 and v(s, "seat1.hp") == 6
    s = ok(encounter(seed=2), "token 1 defense 3", "enemy 1 B B R")
    assert _hit(s).damage == 8 and v(s, "seat1.defense") == 3
    prompt = s.state.prompt
    assert prompt is not None and prompt.options == ("take 2 HP", "1 def token: 2 HP", "2 def tokens: 1 HP")
    ok(s, "choose 3")
    assert seat(s, 1)["tokens"]["defense"] == 1 and v(s, "seat1.hp") == 5
