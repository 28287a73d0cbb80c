"""Deck order by adversary level (SI-DECK-1) and the quiet round of issue #20, through the verbs:
a quiet round takes at most seats + 3 accepted lines, an Invader step's one question answers every
board, and seat A at Build never adds Blight."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablekeeper.core.events import Command
from tablekeeper.core.session import Session
from tablekeeper.errors import ConfigError
from tablekeeper.games import load

from .helpers import answer_counts, attempt, record, run, session, to_step, tracks

STANDARD = Path(__file__).resolve().parents[3] / "host" / "tablekeeper" / "games" / "spirit_island" / "data"


def _no_coastal_cities(s: Session) -> None:
    """Scotland 1's Towns grow into Cities on the coast: the players destroy them, so the Trade Hub
    does not end a game that is only here to see the deck order."""
    for name, land in s.view()["spirit_island"]["lands"].items():
        if (land.get("cities") or land.get("towns")) and name[1:] in ("1", "2", "3"):
            run(s, f"land {name} cities=0 towns=0")


def _reveal_all(s: Session, cards: list[str]) -> list[int]:
    """Report each Invader card in turn; the stage the deck was at before each one."""
    stages = [tracks(s)["invader.stage"]]
    run(s, f"reveal invaders {cards[0]}")
    answer_counts(s)
    run(s, "next")
    for card in cards[1:]:
        to_step(s, "invader", "explore")
        stages.append(tracks(s)["invader.stage"])
        run(s, f"reveal invaders {card}")
        answer_counts(s)
        _no_coastal_cities(s)
        run(s, "next")
    return stages


@pytest.mark.rule("SI-DECK-1")
def test_scotland_2_deals_stage_two_cards_early_and_the_coastal_card_sixth() -> None:
    s = session(seats=1, invaders="report", adversary="scotland:2")
    assert tracks(s)["invader.cards_left"] == 12
    cards = ["Jungle", "Sands", "Wetland", "Mountain", "Mountain", "Coastal", "Sands",
             "Jungle+Sands", "Mountain+Wetland", "Sands+Wetland", "Jungle+Mountain", "Jungle+Wetland"]
    stages = _reveal_all(s, cards[:5])
    to_step(s, "invader", "explore")
    refused = attempt(s, "reveal invaders Jungle")  # the sixth card is the Coastal card
    assert not refused.accepted and "Jungle" in str(refused.reason)
    stages += _reveal_rest(s, cards[5:])
    assert stages == [1, 1, 2, 2, 1, 2, 2, 3, 3, 3, 3, 3]
    assert tracks(s)["invader.cards_left"] == 0


def _reveal_rest(s: Session, cards: list[str]) -> list[int]:
    stages = []
    for card in cards:
        to_step(s, "invader", "explore")
        stages.append(tracks(s)["invader.stage"])
        run(s, f"reveal invaders {card}")
        answer_counts(s)
        _no_coastal_cities(s)
        run(s, "next")
    return stages


@pytest.mark.rule("SI-DECK-1")
def test_scotland_4_swaps_the_last_stage_one_card_for_a_stage_three_card() -> None:
    s = session(seats=1, invaders="report", adversary="scotland:4")
    assert tracks(s)["invader.cards_left"] == 11
    cards = ["Jungle", "Sands", "Wetland", "Mountain", "Jungle+Sands", "Coastal", "Sands",
             "Mountain+Wetland", "Sands+Wetland", "Jungle+Mountain", "Jungle+Wetland"]
    assert _reveal_all(s, cards) == [1, 1, 2, 2, 3, 2, 2, 3, 3, 3, 3]


@pytest.mark.rule("SI-DECK-1")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_device_flips_follow_the_adversary_order_without_dealing_a_card_twice(seed: int) -> None:
    s = session(seats=1, seed=seed, adversary="scotland:2")
    run(s, "next")
    while tracks(s)["invader.cards_left"] > 0:
        to_step(s, "invader", "explore")
        answer_counts(s)
        _no_coastal_cities(s)
        run(s, "next")
    slots = record(s).slots.as_mapping()
    order = [*record(s).discard, *slots["ravage"], *slots["build"], *slots["explore"]]
    assert len(order) == 12 and order[5] == "Coastal"
    stage1 = [order[0], order[1], order[4]]
    stage2 = [order[2], order[3], order[6]]
    assert len(set(stage1)) == 3 and len(set(stage2)) == 3 and "Coastal" not in stage2
    assert all("+" in c for c in order[7:]) and len(set(order[7:])) == 5


def test_scotland_below_level_2_keeps_the_standard_deck() -> None:
    s = session(seats=1, adversary="scotland:1", invaders="report")
    assert tracks(s)["invader.cards_left"] == 12 and tracks(s)["invader.stage"] == 1


def test_a_bad_deck_order_in_a_data_copy_is_one_line(tmp_path: Path) -> None:
    # a data file may hold just the adversaries table: it replaces the packaged one
    text = (STANDARD / "adversaries.toml").read_text(encoding="utf-8").replace("11-22-1-C2-33333", "11-22-1-X2-33333")
    bad = tmp_path / "si.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"si\.toml: adversaries\.scotland: invader_deck order '11-22-1-X2-33333': "
                                          r"'X' is no stage"):
        session(data=str(bad))
    greedy = tmp_path / "greedy.toml"
    greedy.write_text(text.replace("11-22-1-X2-33333", "11111-2222-33333"), encoding="utf-8")
    with pytest.raises(ConfigError, match="deals more stage 1 cards than its pool of 4"):
        session(data=str(greedy))


def _quiet_round(seats: int) -> tuple[int, int]:
    """Accepted lines of round 2 for the generic player (first answer, else a seat owing passes,
    else next), as ``bench/bench_presses.py`` counts them; and how many of them chose where a
    Blight cascades (a choice the rules leave to the players)."""
    s = Session(load("spirit_island"), seats=seats, seed=3, options={"flow": "auto"})
    counted = cascades = 0
    for _ in range(200):
        state = s.state
        if state.round >= 3:
            return counted, cascades
        if state.prompt is not None:
            tries = [Command("choose", ("1",))]
            cascades += state.round == 2 and state.prompt.id == "si.blight.cascade"
        else:
            seat = state.owing[0] if state.owing else state.active_seat
            tries = [*([Command("pass", (str(seat),))] if seat is not None else []), Command("next")]
        assert any(s.perform(c).accepted for c in tries)
        counted += state.round == 2
    raise AssertionError("the round never ended")


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_a_quiet_round_takes_seats_plus_three_lines(seats: int) -> None:
    lines, cascades = _quiet_round(seats)
    assert lines - cascades <= seats + 3


def _to_turn_two_ravage(options: dict[str, str]) -> Session:
    s = Session(load("spirit_island"), seats=2, seed=3, options={"flow": "auto", **options})
    answer_counts(s)
    while s.state.round < 2 or (s.state.phase, s.state.step) != ("invader", "ravage"):
        s.perform(Command("choose", ("1",))) if s.state.prompt else run(s, f"done {s.state.owing[0]}")
    return s


def test_one_question_answers_every_land_and_the_second_answer_asks_land_by_land() -> None:
    s = _to_turn_two_ravage({})
    prompt = s.state.prompt
    assert prompt is not None and prompt.text == "Ravage in Mountain: what happened?"
    # each Mountain land's own Invaders, on the real boards: A1 Explorer + Town, B2 Explorer +
    # Town + City (Sweden-free Damage 1/2/3), each adding its own Blight
    assert prompt.options[0].startswith("as the rules place them: A1: 3 Damage, Blight; A6, B7: 3 Damage, "
                                        "Blight, 1 Dahan lost; B2: 6 Damage, Blight")
    assert prompt.options[1] == "land by land"
    before = tracks(s)["blight.card"]
    run(s, "choose 1")
    assert tracks(s)["blight.card"] == before - 4 and record(s).ravage_blight_boards == ("A", "B")
    assert s.state.step == "build"  # the answered Ravage ended by itself
    run(s, "undo", "choose 2")
    assert s.state.prompt is not None and s.state.prompt.text == "Ravage in A1: did it add Blight?"


def test_seat_a_at_build_never_adds_blight() -> None:
    s = session(seats=2)
    to_step(s, "spirit", "growth")
    run(s, "done 1", "done 2")
    assert s.state.step == "build" and s.state.prompt is not None
    blight = tracks(s)["blight.card"]
    command = s.game.button(s.state, "seat1.a", False)
    assert command == Command("choose", ("1",), origin="button")
    run(s, "choose 1")
    assert tracks(s)["blight.card"] == blight and s.state.prompt is None
    assert s.game.button(s.state, "seat1.a", False) is None  # answered: A does nothing, never "Blight"
    assert tracks(s)["blight.card"] == blight


@pytest.mark.rule("SI-BLIGHT-1")
def test_the_rules_answer_is_one_invader_action_per_land_so_scotland_fires_after_each() -> None:
    s = _to_turn_two_ravage({"adversary": "scotland:5"})
    outcome = run(s, "choose 1")  # as the rules place them: Blight in each Mountain land
    texts = [str(e["text"]) for e in outcome.events if e.kind == "notice"]
    blights = [i for i, t in enumerate(texts) if t.startswith("Ravage in ") and t.endswith("Blight added")]
    runoffs = [i for i, t in enumerate(texts) if t.startswith("Triggered action now: Runoff")]
    assert len(blights) == len(runoffs) == 4
    # each land's Ravage is its own Invader Action: its Runoff comes after it, before the next land's
    assert all(b < r for b, r in zip(blights, runoffs, strict=True))
    assert all(r < b for r, b in zip(runoffs, blights[1:], strict=False))


@pytest.mark.rule("SI-TURN-2")
def test_energy_is_gained_as_the_spirit_phase_begins_and_follows_a_growth_before_the_first_card() -> None:
    s = session(seats=2)
    to_step(s, "spirit", "growth")
    assert tracks(s)["seat1.energy"] == 1  # 0 at setup, 1 per turn gained as the phase began
    run(s, "set seat1.energy_per_turn 3")  # Growth uncovers a higher Energy number
    assert tracks(s)["seat1.energy"] == 3
    out = run(s, "play 1 2 fast", "set seat1.energy_per_turn 4")  # after a card: next turn's income only
    assert tracks(s)["seat1.energy"] == 1
    said = [str(e["text"]) for e in out.events if e.kind == "notice"]  # and the table is told what to type
    assert said == ["Seat 1 has played a card, so this turn's Energy stays as it was (4 a turn from next turn); "
                    "if this was this turn's Growth: add seat1.energy +1"]
    run(s, "done 2", "set seat2.energy_per_turn 2")  # a seat already done keeps its Energy
    assert tracks(s)["seat2.energy"] == 1
