"""Conditions that bind, companion token attacks, one attack per story fight and off-turn abilities,
each driven through the verbs with every entry written to a real store that replays to the same state."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import last, no, ok, reloaded, seat, stored, v


@pytest.fixture
def save(tmp_path: Path) -> str:
    return str(tmp_path / "s.db")


@pytest.mark.rule("OS-FX-3")
@pytest.mark.parametrize("line", ["play 1 Strike 2 1", "attack 1 head white=2", "item 1 Short Sword",
                                  "move 1 1", "move 1 2 free=2", "boost 1", "throw 1 Buckler"])
def test_caged_only_passes_or_tries_to_escape(save: str, line: str) -> None:
    s = ok(stored(save, part="encounter"), "token 1 animus", "next", "status 1 caged")
    assert "caged" in no(s, line)
    ok(s, "pass 1")  # passing is still allowed
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-FX-4")
def test_a_caged_seat_that_escapes_acts_at_once(save: str) -> None:
    s = ok(stored(save, part="encounter"), "next", "status 1 caged", "escape 1 4 2 = W2 W2", "resolve")
    assert seat(s, 1)["caged_until"] is None
    ok(s, "attack 1 head white=1")
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-STAT-3")
def test_crippled_companion_cannot_move_with_a_token(save: str) -> None:
    s = ok(stored(save, part="encounter", companions="1"), "next", "status 1 crippled", "token 1 battleflow")
    assert "crippled" in no(s, "companion 1 battleflow move")
    assert "crippled" in no(s, "move 1 2 free=2")  # movement from an ability
    assert seat(s, 1)["tokens"]["battleflow"] == 1  # nothing was spent
    ok(s, "companion 1 battleflow refresh")  # the token is still good for something else
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-TOK-7")
@pytest.mark.parametrize("order", ["token first", "attack first"])
def test_a_companion_token_buys_an_extra_attack(save: str, order: str) -> None:
    s = ok(stored(save, part="encounter", companions="1"), "next", "token 1 animus")
    token = ("companion 1 animus attack", "attack 1 head white=1 = Y0 W0", "resolve")
    turn_attack = ("attack 1 head white=1 = Y2 W1", "resolve")
    ok(s, *(token + turn_attack if order == "token first" else turn_attack + token))
    assert seat(s, 1)["tokens"]["animus"] == 0
    assert "already attacked" in no(s, "attack 1 head white=1")  # two attacks, no third
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-TOK-7")
def test_the_token_attack_never_triggers_determination(save: str) -> None:
    s = ok(stored(save, part="encounter", companions="1"), "next", "token 1 animus",
           "companion 1 animus attack", "attack 1 head white=1 = Y0 W0", "resolve")
    assert last(s)["hit"] is False and s.state.prompt is None


@pytest.mark.rule("OS-SCOMBAT-1")
def test_a_story_fight_is_one_attack_per_oathsworn(save: str) -> None:
    s = ok(stored(save), "attack 1 6 white=2 = W1 W1 Y2", "resolve")
    assert "already drew its attack" in no(s, "attack 1 6 white=2")
    ok(s, *(line for k in (2, 3, 4) for line in (f"attack {k} 6 white=2", "resolve")))
    ok(s, "attack 1 6 white=2", "resolve")  # the fight is over: a new fight starts fresh
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-FX-21")
def test_off_turn_only_interrupts(save: str) -> None:
    s = ok(stored(save, part="encounter", companions="2"), "next")  # seat 1's turn
    assert "only an interrupt" in no(s, "item 2 Buckler")
    assert "only an interrupt" in no(s, "ability 2 1")
    assert "not seat 3's turn" in no(s, "play 3 Strike 2 1")
    ok(s, "ability 2 1 interrupt", "item 3 Great Maul interrupt", "play 3 Strike 2 0 interrupt")
    assert v(s, "seat3.hp") == 6
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-KO-3")
def test_a_knocked_out_seat_is_asked_for_an_ally_when_its_turn_starts(save: str) -> None:
    s = ok(stored(save, part="encounter"), "set seat1.hp 0")
    assert s.state.prompt is None  # not yet: at the start of that player's next turn
    ok(s, "next")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "ally" and prompt.seat == 1
    assert prompt.options == ("men-at-arms",)
    ok(s, "choose 1")
    assert seat(s, 1)["ally"] == "men-at-arms" and v(s, "seat1.hp") == 6 and v(s, "seat1.animus") == 2
    ok(s, "attack 1 head white=1")  # the ally acts on this turn
    assert reloaded(save).state == s.state


@pytest.mark.rule("OS-KO-3")
def test_the_ally_verb_answers_the_open_ally_question(save: str) -> None:
    """While the ally question is open, ``ally SEAT NAME`` is its answer (it was refused with "answer
    the prompt first"); another seat's answer and the other verbs still wait."""
    s = ok(stored(save, part="encounter"), "set seat1.hp 0", "next")
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "ally" and prompt.seat == 1
    assert "answer the prompt first" in no(s, "move 1 1")
    assert "seat 1's" in no(s, "ally 3 men-at-arms")
    ok(s, "ally 1 men-at-arms")
    assert s.state.prompt is None and seat(s, 1)["ally"] == "men-at-arms" and v(s, "seat1.animus") == 2
    assert reloaded(save).state == s.state
