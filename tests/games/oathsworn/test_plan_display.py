"""The planned attack on the display (OS-ATK-6..14): who attacks what with how many whites, the
chance to hit and to break the location, damage labelled as holding only on a hit, the best white
count, and the up/down buttons trying other counts; through the verbs, the buttons and a real store."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tablekeeper import cli
from tablekeeper.games.oathsworn.panels import plan_odds
from tablekeeper.games.oathsworn.record import rec

from .helpers import ok, reloaded, stored


def test_the_panel_names_seat_target_and_whites_with_break_and_best(tmp_path: Path) -> None:
    save = str(tmp_path / "s.db")
    s = ok(stored(save, part="encounter"), "next", "set boss.head 2", "plan 1 head white=3")
    panel = s.game.panels(s.state)["tokens"]
    assert panel.title == "seat 1 attacks head" and panel.big is not None and panel.big.endswith("%?")
    assert dict(panel.legend)["?"] == "from card numbers not checked against the printed card"  # items unverified
    expected = float(plan_odds(s.state).expected_hp)
    assert panel.lines[:3] == ("chance to hit", "3 white cards", f"about {expected:.1f} HP")
    assert panel.lines[3].startswith("breaks it ") and panel.lines[4].endswith(" damage if hit")
    assert panel.lines[5].startswith("best: ")
    odds = s.view()["odds"]
    assert (odds["seat"], odds["target"], odds["white"]) == (1, "head", 3)
    hp = {int(k): Fraction(v) for k, v in odds["hp_lost"].items()}
    assert Fraction(odds["break"]) == sum(p for k, p in hp.items() if k >= 2)  # the die holds 2
    best = max(range(11), key=lambda w: (ok(s, f"plan 1 head white={w}") and plan_odds(s.state)).expected_hp)
    assert s.view()["odds"]["best_white"] == best
    assert reloaded(save).state == s.state


def test_more_whites_can_lower_the_hit_chance() -> None:
    from .helpers import encounter

    s = ok(encounter(), "next")
    chances = [ok(s, f"plan 1 head white={w}") and plan_odds(s.state).hit for w in (0, 6)]
    assert chances[1] < chances[0]


def test_up_and_down_change_the_white_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "plan.script"
    script.write_text("next\nplan 1 head white=3\npress up\npress up\npress down\n")
    save = tmp_path / "s.db"
    code = cli.main(["play", "oathsworn", "--option", "part=encounter", "--option", "encounter=practice", "--script",
                     str(script), "--save", str(save), "--strict", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    view = json.loads(out)
    assert view["odds"]["white"] == 4 and view["tracks"]["plan.white"] == 4


def test_the_planned_attack_clears_the_plan() -> None:
    from .helpers import encounter

    s = ok(encounter(), "next", "plan 1 head white=2", "attack 1 head white=2")
    assert rec(s.state).plan is None and "plan.white" not in s.state.tracks
    assert s.game.panels(s.state)["tokens"].title.startswith("seat 1 vs head")


@pytest.mark.rule("OS-CHECK-2")
def test_story_check_odds_for_every_white_count(tmp_path: Path) -> None:
    """The choice of 0..10 white cards is the decision: the display gives each count's exact pass
    chance (equal to the previous enumeration) and the best count."""
    from tablekeeper.games.oathsworn.plan import current_piles

    from . import reference_odds

    save = str(tmp_path / "s.db")
    s = ok(stored(save), "reveal might.white W0", "plan check 4")
    odds = s.view()["odds"]
    assert odds["kind"] == "check" and set(odds["pass"]) == {str(w) for w in range(11)}
    pile = current_piles(s.state)["W"]
    ref = reference_odds.Pile(pile.faces, pile.draw, pile.discard)
    for w in range(1, 11):
        dist = reference_odds.draw_distribution({"W": ref}, {"W": w})
        assert Fraction(odds["pass"][str(w)]) == sum(p for (b, t), p in dist.items() if b < 2 and t >= 4)
    best = odds["best_white"]
    assert all(Fraction(odds["pass"][str(best)]) >= Fraction(p) for p in odds["pass"].values())
    panel = s.game.panels(s.state)["tokens"]
    assert panel.title == f"check 4: best {best} white" and panel.lines[0].startswith("0:0 1:")
    assert reloaded(save).state == s.state


def test_an_attack_leaves_a_check_plan_alone() -> None:
    from .helpers import new

    s = ok(new(), "plan check 4", "attack 1 6 white=2", "resolve")
    assert rec(s.state).plan.kind == "check"
