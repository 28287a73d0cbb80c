"""A skill test run step by step (ST.1 to ST.8), with the exact odds shown before the reveal.

The record (``records.SkillTest``) is the game record's ``test``: who tests, which skill, the
base value and the committed icons, the difficulty, the tokens revealed so far, the step reached
and the result.
"""

from __future__ import annotations

from fractions import Fraction

from msgspec.structs import replace

from tablekeeper.core import derived
from tablekeeper.core.chance import Bag
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import attacks, board, effects, reference, rules, steps
from tablekeeper.games.arkham.content import Step
from tablekeeper.games.arkham.data import TokenKind
from tablekeeper.games.arkham.odds import success_chance, token_effect
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import Pending, SkillTest, TestResult

KINDS = ("plain", "investigate", "fight", "evade")


def current(state: GameState) -> SkillTest | None:
    return rec(state).test


def token_kinds(state: GameState, seat: int) -> dict[str, TokenKind]:
    """The tokens as they resolve for a test by ``seat`` now: the reference card read on the board."""
    return reference.tokens_for(state, seat)


def chaos_bag(state: GameState) -> Bag:
    bag = state.sources["chaos"]
    if not isinstance(bag, Bag):
        raise TypeError("the chaos source must be a bag")
    return bag


def elder_sign(state: GameState, seat: int) -> int:
    """AH-CHAOS-4: the investigator's Elder Sign modifier now: Roland's counts the clues at his
    location, Agnes's the horror on her (read on the board as the token resolves)."""
    info = effects.seat_info(state, seat)
    if info.elder_sign_per == "clue_here":
        here = board.where(state, seat)
        place = board.locations(state).get(here) if here else None
        return info.elder_sign + (place.clues if place is not None else 0)
    if info.elder_sign_per == "horror":
        return info.elder_sign + effects.seat_value(state, seat, "horror")
    return info.elder_sign


def odds(state: GameState, test: SkillTest, placeholder: Fraction | None = None) -> Fraction | None:
    """The exact chance of success for the current skill value (ST.2) against the difficulty; while
    the station sends the frame answering a press, ``placeholder`` until that frame is out."""
    skill = test.value
    difficulty = 0 if test.autosuccess else test.difficulty
    contents = chaos_bag(state).contents
    elder = elder_sign(state, test.seat)
    kinds = token_kinds(state, test.seat)
    key = ("arkham.test", contents, tuple(sorted(kinds.items())), skill, difficulty, elder)
    return derived.get(key, lambda: success_chance(contents.as_dict(), kinds, skill, difficulty, elder),
                     placeholder=placeholder)


def begin(txn: Txn, seat: int, skill: str, base: int, difficulty: int, kind: str = "plain",
          target: str | None = None, autosuccess: bool = False, *, source: str | None = None,
          on_fail: tuple[Step, ...] = (), discards: str | None = None, on_success: tuple[Step, ...] = (),
          card: str | None = None) -> None:
    """ST.1: the skill and difficulty are fixed and the test begins; then ST.2 (commit) is open."""
    if current(txn.state) is not None:
        raise Rejected("a skill test is already running; finish it with `resolve` first")
    if not effects.is_live(txn.state, seat):
        raise Rejected(f"seat {seat} is no longer in the scenario")
    if skill not in rules.SKILLS:
        raise Rejected(f"skill must be one of {', '.join(rules.SKILLS)}, not {skill!r}")
    if base < 0 or difficulty < 0:
        raise Rejected("skill values and difficulties are 0 or more")
    if kind not in KINDS:
        raise Rejected(f"test kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if kind in ("fight", "evade"):
        if target is None:
            raise Rejected(f"a {kind} test names its enemy")
        board.enemy(txn.state, target)
    txn.put("test", SkillTest(seat=seat, skill=skill, base=base, difficulty=difficulty, kind=kind,
                                        target=target, autosuccess=autosuccess, source=source, on_fail=on_fail,
                                        discards=discards, on_success=on_success, card=card))
    txn.notice(f"ST.1 seat {seat} tests {skill} {base} against {difficulty}" + (f" ({source})" if source else ""))


def commit(txn: Txn, seat: int, icons: int) -> None:
    """ST.2: committed cards add their matching icons to the skill value."""
    test = _need(txn.state, "ST.2", "commit cards")
    if icons < 1:
        raise Rejected("commit at least 1 icon")
    if not effects.is_live(txn.state, seat):
        raise Rejected(f"seat {seat} is no longer in the scenario")
    txn.put("test", replace(test, committed=test.committed + icons))


def on_reveal(txn: Txn, token: str) -> None:
    """ST.3: a token is revealed (by the device or reported from the cardboard bag). A token that
    says "reveal another" keeps the test at ST.3; otherwise ST.4 to ST.6 follow at once."""
    test = current(txn.state)
    if test is None or test.step not in ("ST.2", "ST.3"):
        raise Rejected("reveal chaos tokens during a skill test (start one with `test` or an action)")
    kinds = token_kinds(txn.state, test.seat)
    if token not in kinds:
        raise Rejected(f"no rule for chaos token {token!r}")
    tokens = (*test.tokens, token)
    if kinds[token].again and chaos_bag(txn.state).contents.total > 0:
        txn.put("test", replace(test, tokens=tokens, step="ST.3"))
        txn.notice(f"ST.3 {token}: reveal another token")
        return
    modifier, autofail = token_effect(tokens, kinds, elder_sign(txn.state, test.seat))  # ST.4
    result = rules.skill_test_result(test.value, modifier, test.difficulty, autofail=autofail,
                                     autosuccess=test.autosuccess)  # ST.5 / ST.6
    txn.put("test", replace(test, tokens=tokens, step="ST.6", result=TestResult(
        modifier, result.modified_skill, result.difficulty, result.success, result.autofail)))
    txn.notice(f"ST.6 {' '.join(tokens)}: {result.modified_skill} vs {result.difficulty} -> "
               + ("success" if result.success else "failure"))


def resolve(txn: Txn) -> None:
    """ST.7: apply the result (AH-FW-4: an evaded enemy is exhausted and disengaged only now);
    ST.8: the test ends, tokens go back to the bag, and bless/curse leave it."""
    test = _need(txn.state, "ST.6", "resolve the test")
    seat = test.seat
    success = test.result is not None and test.result.success
    kind, target = test.kind, test.target
    if success and kind == "investigate":
        loc = board.where(txn.state, seat)
        if loc is not None:
            place = board.location(txn.state, loc)
            if place.clues > 0:  # AH-CLUE-5: the clues on the location, not those investigators hold
                board.save_location(txn, loc, replace(place, clues=place.clues - 1))
                txn.add(seat_track(seat, "clues"), 1)  # AH-CLUE-3
            else:
                txn.notice(f"{loc} has no clues left")
            board.investigated(txn, loc)
        else:
            txn.add(seat_track(seat, "clues"), 1)
    elif success and kind == "evade" and target in board.enemies(txn.state):
        txn.notice(f"{target} is evaded")
        board.evaded(txn, str(target))  # AH-EVADE-2 / AH-EVADE-4
    elif success and kind == "fight" and target in board.enemies(txn.state):
        board.harm_enemy(txn, str(target), 1)
    txn.put("test", replace(test, step="ST.7"))
    kinds = rec(txn.state).tokens
    txn.source_op("chaos", "return")  # ST.8
    for token in test.tokens:
        if kinds[token].leaves:
            txn.source_op("chaos", "take", token)
    txn.put("test", None)
    txn.notice(f"ST.8 test over: {'success' if success else 'failure'}")
    _after(txn, test, success)


def _after(txn: Txn, test: SkillTest, success: bool) -> None:
    """Once the test is over: a treachery whose test was passed is discarded (01164); a failed attack
    on a retaliate enemy, or a failed evasion of an alert one, brings its attack (outside the seeds);
    then what the revealed tokens do (the reference card: on their reveal, and on a failure) and what
    the card whose test it was does on a failure."""
    if success and test.discards in rec(txn.state).treacheries:  # a treachery's test passed (01164)
        board.discard_treachery(txn, str(test.discards), "its test passed")
    foe = board.enemies(txn.state).get(str(test.target)) if test.target else None
    if not success and foe is not None and foe.ready and effects.is_live(txn.state, test.seat) and (
            (test.kind == "fight" and foe.has("retaliate")) or (test.kind == "evade" and foe.has("alert"))):
        attacks.attack(txn, str(test.target), test.seat, "retaliate attack" if test.kind == "fight" else "alert attack")
    margin = 0  # points failed by (an automatic failure counts the skill as 0, AH-AUTO-2)
    if test.result is not None and not success:
        margin = max(1, test.result.difficulty - test.result.modified_skill)
    symbols = reference.effects(txn.state)
    batch = []
    for token in test.tokens:
        effect = symbols.get(token)
        if effect is not None:
            batch.append(Pending(steps=effect.on_reveal + (() if success else effect.on_fail), seat=test.seat,
                                 margin=margin, source=token))
    if not success:
        batch.append(Pending(steps=test.on_fail, seat=test.seat, margin=margin, source=test.source or "the test",
                             card=test.card))
    elif test.on_success:  # 01151: the move the test held
        batch.append(Pending(steps=test.on_success, seat=test.seat, source=test.source or "the test",
                             card=test.card))
    steps.run_all(txn, batch)


def _need(state: GameState, step: str, what: str) -> SkillTest:
    test = current(state)
    if test is None:
        raise Rejected(f"no skill test is running to {what}")
    if test.step != step:
        raise Rejected(f"cannot {what} at {test.step} (only at {step})")
    return test
