"""Chapter 1's encounter, the Broodmother, fought to its end through the verbs with the numbers of the
data file: five locations with one HP die each, DEFENSE 2, the boss's MIGHT (3 yellow, 2 red), the
stage deck of fifteen named cards, stage 2 after two breaks and stage 3 after four; a knocked-out
seat's ally attacks with its own MIGHT."""

from __future__ import annotations

from collections import Counter

import pytest

from tablekeeper.core.chance import Deck
from tablekeeper.core.script import parse_line
from tablekeeper.core.session import Session
from tablekeeper.games.oathsworn.cards import COLOUR_NAMES, parse_card
from tablekeeper.games.oathsworn.record import rec
from tablekeeper.games.oathsworn.table import encounter_of, might_cubes

from .helpers import last, new, no, ok, perform, seat, v

LOCATIONS = ("front", "left", "right", "rear", "core")


def press(s: Session, role: str) -> None:
    """A panel button, as the station sends it."""
    command = s.game.button(s.state, role, False)
    assert command is not None, f"{role} does nothing now"
    out = s.perform(command)
    assert out.accepted, out.reason


def chapter_one(**options: str) -> Session:
    """Chapter 1's own encounter (the default for chapter 1), from its setup."""
    return new(part="encounter", encounter="", **options)


def deck(s: Session, name: str) -> Deck:
    src = s.state.sources[name]
    assert isinstance(src, Deck)
    return src


def strongest(s: Session, colours: list[str]) -> list[str]:
    """Cards for these colours as the table could draw them: the highest plain card left in each draw
    pile (then in its discard pile, which a draw from an empty pile reshuffles); a critical only when
    nothing else is left, followed by the extra card it calls for."""
    left: dict[str, Counter[str]] = {}

    def take(colour: str) -> str:
        d = deck(s, f"might.{COLOUR_NAMES[colour]}")
        if colour not in left:
            left[colour] = Counter()
            for stage in d.stages:
                left[colour].update(dict(stage.items))
        if not sum(left[colour].values()):
            left[colour] = Counter(dict(d.discard.items))
        there = [c for c, k in left[colour].items() if k]
        card = max(there, key=lambda c: (not c.endswith("*"), parse_card(c).value))
        left[colour][card] -= 1
        return card

    counted = [take(c) for c in colours]
    owed = [parse_card(c).colour for c in counted if c.endswith("*")]
    extras = []
    while owed:
        card = take(owed.pop(0))
        extras.append(card)
        if card.endswith("*"):
            owed.append(parse_card(card).colour)
    return counted + extras


def attack(s: Session, n: int, target: str, whites: int = 2) -> int:
    """Seat n attacks with its own MIGHT cubes and some white cards; returns the damage if it hits."""
    colours = might_cubes(s.state, n) + ["W"] * whites
    cards = strongest(s, colours)
    ok(s, f"attack {n} {target} white={whites} = {' '.join(cards)}", "resolve")
    return sum(parse_card(c).value for c in cards)


def answer_ally(s: Session) -> None:
    """A knocked-out seat's player answers the ally question with the documented ``ally`` verb."""
    prompt = s.state.prompt
    if prompt is not None and prompt.id == "ally":
        assert prompt.options == ("men-at-arms",)
        ok(s, f"ally {prompt.seat} men-at-arms")


def to_turns(s: Session) -> None:
    """Walk the encounter phase, the end of the round and the refresh: each stage card's attack hits
    the seat with most HP with the Broodmother's own MIGHT, drawn by the device (the seat takes the
    damage without tokens)."""
    attacked = None
    while rec(s.state).part == "encounter" and s.state.step != "turns":
        if s.state.prompt is not None:
            ok(s, "choose 1")
        elif s.state.step == "stage" and attacked != s.state.round:
            attacked = s.state.round
            target = max((k for k in (1, 2, 3, 4) if not seat(s, k)["down"] or seat(s, k)["ally"]),
                         key=lambda k: v(s, f"seat{k}.hp"))
            line = parse_line(f"enemy {target}")
            assert line is not None
            out = s.perform(line.command)
            assert out.accepted, out.reason
            drawn = Counter(str(e["source"]) for e in out.events if e.kind == "source.drawn")
            card = encounter_of(s.state).card(str(rec(s.state).attack_card))
            broken = card.attack is not None and v(s, f"boss.{card.attack}") == 0
            # the Broodmother's MIGHT (OS-EATK-2), one red less from a broken location (OS-EATK-1)
            assert drawn == {"enemy.yellow": 3, "enemy.red": 1 if broken else 2}
        else:
            ok(s, "next")
    answer_ally(s)


@pytest.mark.rule("OS-ESET-3")
def test_chapter_one_sets_up_the_broodmother() -> None:
    s = chapter_one()
    assert rec(s.state).encounter == "broodmother"
    assert {k: v(s, k) for k in s.state.tracks if k.startswith("boss.")} == {f"boss.{loc}": 6 for loc in LOCATIONS}
    faceup = str(rec(s.state).stage_faceup)
    view = s.game.view(s.state)
    assert view["encounter"] == {"id": "broodmother", "name": "Broodmother", "verified": False,
                                 "up_next": view["encounter"]["up_next"]}
    assert faceup.startswith("S1.") and view["encounter"]["up_next"] in ("Gnaw", "Acidic Maw", "Encourage", "Tail Whip")
    assert [st.total for st in deck(s, "stage").stages] == [4, 5, 5]
    track = s.game.panels(s.state)["track"]
    assert track.lines[1] == f"stage 1; up next {view['encounter']['up_next']}"  # the card's printed name
    assert track.lines[2] == "Broodmother?" and dict(track.legend)["?"].startswith("from card numbers not checked")


@pytest.mark.rule("OS-DMG-3")
def test_the_broodmother_fought_to_its_end_with_its_numbers() -> None:
    s = chapter_one()
    ok(s, "next")  # refresh -> the Oathsworn phase
    breaks_seen: list[tuple[int, int]] = []
    rounds = hits = 0
    while rec(s.state).part == "encounter":
        rounds += 1
        assert rounds < 12, "the fight does not end"
        for _ in range(4):
            if rec(s.state).part != "encounter":
                break
            answer_ally(s)
            n = s.state.active_seat
            assert n is not None
            record = seat(s, n)
            target = next((loc for loc in LOCATIONS if v(s, f"boss.{loc}") > 0), None)
            if target is not None and (not record["down"] or record["ally"]):
                die = v(s, f"boss.{target}")
                damage = attack(s, n, target)
                hit = last(s)
                if not hit["hit"]:  # two blanks left in a pile: a miss, and the determination token
                    assert s.state.prompt is not None and s.state.prompt.id == "determination"
                    ok(s, "choose 1")
                    continue
                hits += 1
                assert hit["damage"] == damage and hit["hp_lost"] == damage // 2  # DEFENSE 2 everywhere (OS-DMG-3)
                assert v(s, f"boss.{target}") == max(0, die - damage // 2)  # excess damage is lost (OS-DMG-5)
                breaks_seen.append((int(rec(s.state).breaks or 0), int(rec(s.state).stage_now or 1)))
                if rec(s.state).attacks_due:  # the reaction card's attack: out of reach here (OS-TGT-6)
                    ok(s, "noattack")
            if rec(s.state).part == "encounter":
                ok(s, f"pass {n}")
        to_turns(s)
    assert rec(s.state).result == "victory" and rec(s.state).breaks == 5
    for breaks, stage in breaks_seen:  # the special rules board's stage changes: 2 and 4 broken locations
        assert stage == (1 if breaks < 2 else 2 if breaks < 4 else 3)
    assert {stage for _, stage in breaks_seen} == {1, 2, 3}
    ok(s, "tally")
    for k, owed in dict(rec(s.state).losses_due or {}).items():
        for _ in range(int(owed)):
            ok(s, f"lose {k} {seat(s, int(k))['items'][0]}")
    assert s.state.over == "victory"


@pytest.mark.rule("OS-EATK-1")
@pytest.mark.rule("OS-EATK-2")
def test_the_broodmother_draws_her_own_might_and_a_broken_attack_one_card_less() -> None:
    s = chapter_one()
    ok(s, "next")
    assert "report the 5 planned cards" in no(s, "enemy 1 = Y1 Y1")
    ok(s, "enemy 1 = R2 R0 Y1 Y1 Y0")  # 3 yellow + 2 red: 4 damage vs DEFENSE 3 -> 1 HP
    assert v(s, "seat1.hp") == 5 and deck(s, "enemy.red").discard.total == 2
    assert "report the 4 planned cards" in no(s, "enemy 2 broken = R3 R2 Y1 Y0 Y0")
    ok(s, "enemy 2 broken = R2 Y0 Y1 Y0")  # OS-EATK-1: the strongest card (a red) is not drawn
    assert deck(s, "enemy.red").discard.total == 3 and v(s, "seat2.hp") == 6 - 3  # DEFENSE 1: 3 HP


@pytest.mark.rule("OS-EATK-1")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_card_attacking_from_the_broken_front_draws_one_red_less_on_enemy_seat_alone(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reaction to the front breaking is Acidic Maw (seed 7), which attacks from the front: the
    table types the ``enemy 1`` the notice names and the device plans the Broodmother's MIGHT one red
    less, as it knows the card and the broken front; a ``broken`` typed as well takes the card off only once; an
    attacker named by its colours draws them as typed. With the check removed the device wants all five
    cards."""
    from tablekeeper.games.oathsworn import draws

    if protection == "protection-removed":
        monkeypatch.setattr(draws, "_from_broken", lambda txn: False)
    s = chapter_one()
    ok(s, "next")
    out = perform(s, "break front 1")  # seat 1 breaks the front: the reaction card targets seat 1
    assert any("Acidic Maw (moves 5, attacks from the broken front" in str(e.data.get("text"))
               for e in out.events if e.kind == "notice")
    if protection == "protection-removed":
        assert "report the 5 planned cards" in no(s, "enemy 1 = R2 Y1 Y1 Y0")
        return
    assert "report the 4 planned cards" in no(s, "enemy 1 = R2 R2 Y1 Y1 Y0")
    assert "report the 4 planned cards" in no(s, "enemy 1 broken = R2 Y1 Y1")  # not two cards less
    ok(s, "enemy 1 = R2 Y1 Y1 Y0")  # 4 damage vs DEFENSE 3: 1 HP
    assert v(s, "seat1.hp") == 5 and deck(s, "enemy.red").discard.total == 1
    ok(s, "enemy 2 R Y")  # another attacker's MIGHT, named by colour, is drawn as typed
    assert deck(s, "enemy.red").discard.total == 2


@pytest.mark.rule("OS-BRK-2")
@pytest.mark.rule("OS-STAGE-1")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_drawn_card_that_attacks_holds_the_turn_until_its_attack_is_drawn_or_waived(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reaction card Acidic Maw attacks from the front (seed 7): the breaker's turn cannot end
    before ``enemy SEAT`` draws that attack, or ``noattack`` says it found no target (OS-TGT-6); the
    panel says so. Encourage, next up, has no attack and holds nothing. With the hold removed, the
    turn ends with the attack never drawn."""
    from tablekeeper.games.oathsworn import encounter

    if protection == "protection-removed":
        monkeypatch.setattr(encounter, "attack_owed", lambda state: None)
    s = chapter_one()
    assert "no stage or reaction card" in no(s, "noattack")
    ok(s, "next", "break front 1")
    if protection == "protection-removed":
        ok(s, "pass 1")  # the reaction's attack is simply skipped
        return
    reason = no(s, "pass 1")
    assert "Acidic Maw" in reason and "enemy SEAT" in reason and "noattack" in reason
    assert "Acidic Maw" in no(s, "next")
    tokens = s.game.panels(s.state)["tokens"]
    assert tokens.title == "Acidic Maw attacks" and s.game.legend(s.state, 3) == "A: hits me B: no one"
    press(s, "seat3.b")  # "no one": out of its reach this time (noattack)
    assert not rec(s.state).attacks_due
    ok(s, "next", "break rear 2")  # seat 2 breaks the rear: stage 2 begins; Maternal Rage reacts at seat 2
    assert "Maternal Rage" in no(s, "next")
    ok(s, "enemy 2 = R2 Y1 Y1 Y0")  # from the broken front: one red less; 4 damage vs DEFENSE 1
    assert v(s, "seat2.hp") == 2 and not rec(s.state).attacks_due
    ok(s, "next")
    ok(s, "pass 3", "pass 4", "pass 1", "pass 2")  # the stage card: its target's A has the device draw it
    assert rec(s.state).attacks_due and "A: hits me" in str(s.game.legend(s.state, 1))
    press(s, "seat1.a")
    assert not rec(s.state).attacks_due and s.state.step == "stage"


@pytest.mark.rule("OS-MIN-1")
@pytest.mark.rule("OS-STAGE-1")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_minion_the_stage_card_activated_attacks_without_settling_the_boss_attack(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 1's stage card is Acidic Maw (seed 7), which attacks from the front; a minion it activated
    attacks too (``minion=rat``, its own MIGHT typed as colours). That draw leaves the Broodmother's
    attack owed: ``next`` still waits for it, and the boss's own draw settles it, its notice naming the
    card. With the line's word ignored, the minion's draw clears the boss's attack and play goes on."""
    from tablekeeper.games.oathsworn import draws

    if protection == "protection-removed":
        monkeypatch.setattr(draws, "_attacking_minions", lambda txn, a: ())
    s = ok(chapter_one(), "next", "minion rat 2 1")
    for _ in range(4):
        ok(s, f"pass {s.state.active_seat}")
    assert s.state.step == "stage" and len(rec(s.state).attacks_due) == 1
    out = perform(s, "activated rat")
    assert out.accepted, out.reason
    out = perform(s, "enemy 2 W W minion=rat = W1 W0")  # 1 damage vs DEFENSE 1: 1 HP
    assert out.accepted, out.reason
    assert v(s, "seat2.hp") == 5
    if protection == "protection-removed":
        assert not rec(s.state).attacks_due
        ok(s, "next")  # the Broodmother never attacked
        return
    notices = [str(e.data["text"]) for e in out.events if e.kind == "notice"]
    assert "minion rat attacks; Acidic Maw still owes its attack" in notices
    assert "Acidic Maw" in no(s, "next")
    out = perform(s, "enemy 1 = R2 R0 Y1 Y1 Y0")  # the Broodmother's MIGHT: 4 damage vs DEFENSE 3
    assert out.accepted, out.reason
    assert "Acidic Maw: its owed attack is drawn" in [str(e.data["text"]) for e in out.events if e.kind == "notice"]
    assert v(s, "seat1.hp") == 5 and not rec(s.state).attacks_due
    ok(s, "next")
    assert s.state.step == "minions"


@pytest.mark.rule("OS-MIN-7")
def test_a_minion_attack_names_minions_on_the_board_and_pools_only_mobs() -> None:
    s = ok(chapter_one(), "next", "minion rat 2 1", "minion bat 2 1", "minion wasp 2 1 mob", "minion ant 2 1 mob")
    assert "no minion 'owl' on the board (minions: rat, bat, wasp, ant)" in no(s, "enemy 1 W minion=owl def=0")
    assert "name the minion's MIGHT colours" in no(s, "enemy 1 minion=rat def=0")
    assert "only mob minions pool" in no(s, "enemy 1 W W minion=rat,bat def=0")
    assert "name each attacking minion once" in no(s, "enemy 1 W W minion=wasp,wasp def=0")
    ok(s, "enemy 1 W W minion=wasp,ant def=0")
    assert deck(s, "enemy.white").discard.total == 2


@pytest.mark.rule("OS-BRK-2")
@pytest.mark.parametrize("protection", ["in place", "protection-removed"])
def test_a_reaction_card_without_an_attack_does_not_ask_for_one(
        protection: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Encourage (seed 9's reaction to the front breaking) names no attacking location in the data: its
    notice says there is no attack instead of suggesting ``enemy 1``, and the turn goes on. With the
    check removed, the notice invites an attack the card does not make."""
    from tablekeeper.games.oathsworn import encounter

    if protection == "protection-removed":
        monkeypatch.setattr(encounter, "_may_attack", lambda state, card: True)
    s = ok(new(part="encounter", encounter="", seed=9), "next")
    out = perform(s, "break front 1")
    notice = next(str(e.data["text"]) for e in out.events if e.kind == "notice"
                  and str(e.data["text"]).startswith("reaction: Encourage"))
    if protection == "protection-removed":
        assert "enemy 1" in notice
        return
    assert notice.endswith("resolve it now (no attack)") and "enemy" not in notice
    assert not rec(s.state).attacks_due
    ok(s, "pass 1")


@pytest.mark.rule("OS-BRK-7")
@pytest.mark.rule("OS-EATK-1")
def test_two_reactions_attack_in_the_order_drawn_each_from_its_own_location() -> None:
    """Right and core break together (seed 7, front and left already broken): stage 3's Retreat
    (from the rear, whole) and then Acid Spit (from the broken front, one red less) react in the
    order drawn; each ``enemy 1`` draws for the card whose turn it is, not for the last one drawn."""
    s = chapter_one()
    ok(s, "next", "break front 1", "noattack", "break left 1", "noattack", "break right,core 1")
    assert [encounter_of(s.state).card(c).name for c in rec(s.state).attacks_due] == ["Retreat", "Acid Spit"]
    assert "report the 5 planned cards" in no(s, "enemy 1 = R2 Y1 Y1 Y0")
    ok(s, "enemy 1 = R2 R2 Y1 Y1 Y0")  # Retreat: 6 damage vs DEFENSE 3
    assert "report the 4 planned cards" in no(s, "enemy 1 = R2 R3 Y1 Y0 Y0")
    ok(s, "enemy 1 = R3 Y1 Y0 Y0")  # Acid Spit from the broken front
    assert v(s, "seat1.hp") == 6 - 2 - 1 and not rec(s.state).attacks_due


@pytest.mark.rule("OS-KO-3")
def test_an_ally_attacks_with_the_might_of_its_card() -> None:
    """Allies attack with their own MIGHT (the ally card's cubes), not with white cards only."""
    s = chapter_one()
    ok(s, "set seat1.hp 0", "next")  # seat 1 is knocked out before round 1's Oathsworn phase
    prompt = s.state.prompt
    assert prompt is not None and prompt.id == "ally" and prompt.seat == 1
    assert "answer the prompt first" in no(s, "attack 1 front")  # other verbs still wait for the answer
    assert "seat 1's" in no(s, "ally 2 men-at-arms")
    ok(s, "ally 1 men-at-arms")  # the documented verb is taken as the answer
    assert seat(s, 1)["ally"] == "men-at-arms" and s.state.prompt is None
    assert might_cubes(s.state, 1) == ["Y"]  # the men-at-arms card's MIGHT (data: unverified)
    assert "report the 2 planned cards" in no(s, "attack 1 front white=1 = W1 W2")
    ok(s, "attack 1 front white=1 = Y2 W1", "resolve")
    assert last(s)["damage"] == 3 and v(s, "boss.front") == 6 - 3 // 2
    ok(s, "plan 1 left white=2")
    panel = s.game.panels(s.state)["tokens"]
    assert panel.big is not None and panel.big.endswith("?")  # the odds use the ally card's unchecked MIGHT
