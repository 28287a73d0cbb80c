"""Malformed or illegal script lines: each is refused with a one-line reason and changes nothing."""

from __future__ import annotations

import pytest

from .helpers import do, new, rejects, start_turn

CASES = [
    ("act", "usage: act SEAT [KIND [TARGET]] [skill=N]"),
    ("act seat9", "no seat 9 (seats 1..2)"),
    ("act seat1 dance", "action must be one of"),
    ("act seat1 move", "usage: act SEAT move LOCATION"),
    ("act seat1 move Nowhere", "no location 'Nowhere' in play"),
    ("act seat1 fight Nobody", "no enemy 'Nobody' in play"),
    ("act seat1 investigate hard", "difficulty must be a whole number, not 'hard'"),
    ("act seat1 draw colour=red", "act: unknown option 'colour'"),
    ("act seat2", "the other action: it is seat 1's turn, not seat 2's"),
    ("activate seat1 0", "actions must be at least 1, not 0"),
    ("play seat1 -1", "cost must be at least 0, not -1"),
    ("play seat1 1 skill", "skill cards are committed to a test"),
    ("play seat1 1 gadget", "play: unknown word 'gadget'"),
    ("hit seat1", "usage: hit SEAT DAMAGE [HORROR] [ASSET=D/H ...] [prevent=D/H] [direct]"),
    ("hit seat1 1 0 prevent=2", "cannot prevent more than is assigned to the investigator"),
    ("hit seat1 x", "damage must be a whole number, not 'x'"),
    ("hit seat1 1 0 Ghost=1/0", "seat 1 controls no asset 'Ghost'"),
    ("heal seat1 0 1", "seat 1 has 0 horror; cannot heal 1"),
    ("discard seat1 9", "seat 1 holds 5 cards, cannot discard 9"),
    ("spend-clues seat1", "expected SEAT:N, not 'seat1'"),
    ("spend-clues seat1:x", "clues must be a whole number, not 'x'"),
    ("advance", "usage: advance agenda card | advance act objective"),
    ("advance deck", "advance agenda card | advance act objective"),
    ("resolution win", "a resolution is written R1, R2, ...; not 'win'"),
    ("victory 0", "victory points must be at least 1, not 0"),
    ("grim", "usage: grim TEXT"),
    ("test seat1 luck 3 2", "skill must be one of willpower, intellect, combat, agility, not 'luck'"),
    ("test seat1 agility 3", "usage: test SEAT SKILL VALUE DIFFICULTY"),
    ("commit seat1 1", "no skill test is running to commit cards"),
    ("resolve", "no skill test is running to resolve the test"),
    ("draw chaos", "reveal chaos tokens during a skill test"),
    ("reveal chaos joker", "the chaos bag holds no 'joker' token"),
    ("token shake bless", "token shake: expected add, remove, seal or release"),
    ("token release skull", "the sealed chaos tokens holds 0 'skull', cannot take 1"),
    ("token-value joker 1", "unknown chaos token 'joker'"),
    ("elder seat1 many", "elder sign value must be a whole number, not 'many'"),
    ("location Study 2", "usage: location NAME [SHROUD CLUES [per]] [to=A,B,...]"),
    ("location Study", "location 'Study' is already in play"),
    ("location Vault", "no location 'Vault' in the scenario's data"),
    ("enter seat1 Nowhere", "no location 'Nowhere' in play"),
    ("enemy seat1 Ghoul fight=x", "fight must be a whole number, not 'x'"),
    ("enemy seat1 Ghoul wings", "enemy 'Ghoul wings' is not in the scenario's data"),
    ("enemy seat1 Ghoul color=red", "enemy: unknown word 'color'"),
    ("enemy seat1 Ghoul fight=2 health=2 evade=2", "give damage=N (damage, horror missing)"),
    ("enemy seat1 Ghoul at=Nowhere", "no location 'Nowhere' in play"),
    ("move-enemy Nobody Hall", "no enemy 'Nobody' in play"),
    ("evade Nobody", "no enemy 'Nobody' in play"),
    ("asset seat1 Dog health=0", "health must be at least 1, not 0"),
    ("exhaust seat1 Dog", "seat 1 controls no asset 'Dog'"),
    ("bonus lots", "experience must be a whole number, not 'lots'"),
    ("go-to nowhere", "the campaign has no scenario 'nowhere'"),
    ("set seat1.health 0", "seat1.health cannot go below 1 (asked for 0)"),
    ("set act.clues_required 0", "act.clues_required cannot go below 1 for an act without an objective"),
    ("set agenda 4", "agenda cannot go above 3 (asked for 4)"),
    ("lose seat1 0", "actions must be at least 1, not 0"),
]


@pytest.mark.parametrize(("line", "reason"), CASES)
def test_bad_line_is_refused_with_its_reason(line: str, reason: str) -> None:
    s = start_turn(new(), 1)
    got = rejects(s, line)
    assert reason in got, got
    assert "\n" not in got


def test_investigating_nowhere_needs_a_difficulty() -> None:
    """A scenario with no locations of its own: an investigator placed nowhere names the difficulty."""
    s = start_turn(new(scenario_id="custom"), 1)
    assert "investigate needs a difficulty" in rejects(s, "act seat1 investigate")


def test_the_scenario_is_over_so_next_is_refused() -> None:
    s = do(new(), "resolution R2")
    assert rejects(s, "next") == ("the game is over (resolution R2): only undo and bonus, go-to, record, "
                                  "resolution, trauma, victory, xp")
