"""State changes several verbs and framework steps share: advancing the agenda and act, drawing
cards, taking damage and horror, defeat, trauma and elimination. Each names its rule ID."""

from __future__ import annotations

from collections.abc import Mapping

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState, Result
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import rules
from tablekeeper.games.arkham.content import Step
from tablekeeper.games.arkham.data import Card
from tablekeeper.games.arkham.record import EncounterDraw, rec
from tablekeeper.games.arkham.records import Seat


# --- reading the state ---------------------------------------------------------------------------
def seat_value(state: GameState, seat: int, name: str) -> int:
    return state.value(seat_track(seat, name))


def eliminated(state: GameState) -> Mapping[str, str]:
    return rec(state).eliminated


def is_live(state: GameState, seat: int) -> bool:
    return str(seat) not in eliminated(state)


def live_seats(state: GameState) -> list[int]:
    """Seats still in the scenario, in player order starting with the lead (AH-ELIM)."""
    order = [((state.lead - 1 + i) % state.seats) + 1 for i in range(state.seats)]
    return [s for s in order if is_live(state, s)]


def over_hand_limit(state: GameState) -> str | None:
    """4.5: the seats holding more than 8 cards, and what each must discard (None: nobody)."""
    over = [(seat, seat_value(state, seat, "hand") - rules.HAND_LIMIT) for seat in live_seats(state)]
    parts = [f"seat {seat} holds {rules.HAND_LIMIT + n} cards: discard {n} (discard seat{seat} {n}, or pass seat{seat})"
             for seat, n in over if n > 0]
    return "; ".join(parts) or None


def hand_owing(state: GameState) -> tuple[int, ...]:
    """4.5: the seats that still owe a discard (the table waits for them)."""
    if state.step != "4.5":
        return ()
    return tuple(s for s in live_seats(state) if seat_value(state, s, "hand") > rules.HAND_LIMIT)


def discard_to_limit(txn: Txn, seat: int) -> None:
    """4.5: the seat discards down to 8 cards (which ones is the player's choice)."""
    excess = seat_value(txn.state, seat, "hand") - rules.HAND_LIMIT
    txn.add(seat_track(seat, "hand"), -excess)
    txn.add(seat_track(seat, "discard"), excess)
    txn.notice(f"seat {seat} discards {excess} card{'s' if excess != 1 else ''} down to {rules.HAND_LIMIT}")


def investigator_count(state: GameState) -> int:
    """Per-investigator values count eliminated investigators unless told otherwise (ambiguity 7)."""
    return state.seats if rec(state).count_eliminated else max(1, len(live_seats(state)))


def seat_info(state: GameState, seat: int) -> Seat:
    return rec(state).seats[str(seat)]


def skill(state: GameState, seat: int, name: str) -> int:
    """The seat's skill value now: printed, changed by the treacheries in its threat area (01182
    Dreams of R'lyeh: -1 willpower), never below 0."""
    cards = rec(state).scenario.cards
    value = seat_info(state, seat).skills[name]
    for t in rec(state).treacheries.values():
        card = cards.get(t.card) if t.card is not None and t.seat == seat and t.location is None else None
        mods = card.bearer_skills if card is not None else None
        value += int(getattr(mods, name)) if mods is not None else 0
    return max(0, value)


def deck_cards(state: GameState, deck: str) -> tuple[Card, ...]:
    """The scenario's agenda or act deck, in order."""
    info = rec(state).scenario
    return info.agendas if deck == "agenda" else info.acts


def card(state: GameState, deck: str) -> Card:
    """The current agenda or act card (AH-ACTAG-2)."""
    return deck_cards(state, deck)[state.value(deck) - 1]


def amount(card: Card, investigators: int) -> int:
    if card.amount is None:
        return 0
    return rules.per_investigator(card.amount, card.per_investigator, investigators)


def remove_from_game(txn: Txn, what: str) -> None:
    """A card leaves the game (the scenario's record lists it)."""
    txn.put("removed", (*rec(txn.state).removed, what))


def add_victory(txn: Txn, points: int, name: str | None = None) -> None:
    """A card goes to the victory display: its points, and its name when known (objectives count them)."""
    txn.put("victory", (*rec(txn.state).victory, points))
    if name is not None:
        txn.put("victory_cards", (*rec(txn.state).victory_cards, name))


# --- agenda and act (AH-ACTAG-8..11, AH-DOOM-4) ----------------------------------------------------
def advance_agenda(txn: Txn, why: str) -> None:
    """AH-ACTAG-8: clear the agenda's doom and all doom in play; AH-ACTAG-10: the next agenda becomes
    current and the old one is removed from the game; AH-ACTAG-11: a resolution point ends it."""
    state = txn.state
    current = card(state, "agenda")
    txn.notice(f"agenda {state.value('agenda')} advances ({why})")
    txn.set("agenda.doom", 0)
    txn.set("doom.other", 0)
    from tablekeeper.games.arkham import board

    board.clear_enemy_doom(txn)
    remove_from_game(txn, f"agenda {state.value('agenda')}: {current.name}")
    _after_advance(txn, "agenda", current)


def advance_act(txn: Txn, why: str) -> None:
    """AH-ACTAG-8..11 for the act: only the act's own tokens go; doom elsewhere stays."""
    state = txn.state
    current = card(state, "act")
    txn.notice(f"act {state.value('act')} advances ({why})")
    remove_from_game(txn, f"act {state.value('act')}: {current.name}")
    _after_advance(txn, "act", current)


def late_side(state: GameState, deck: str, current: Card) -> tuple[Step, ...] | None:
    """01107: the steps an agenda's reverse side takes instead of its resolution once the act reached
    is the one it names or later (None: its resolution as usual)."""
    late = current.from_act if deck == "agenda" else None
    return late.then if late is not None and state.value("act") >= late.act else None


def _after_advance(txn: Txn, deck: str, current: Card) -> None:
    if late_side(txn.state, deck, current) is not None:
        txn.notice(f"{current.name}: act {txn.state.value('act')} reached, so no resolution yet")
        return  # its steps follow (scenario_cards)
    if current.resolutions:  # the lead investigator decides which resolution it is
        txn.ask("resolution", f"{current.name}: which resolution? (the lead decides)", list(current.resolutions),
                seat=txn.state.lead, context={"deck": deck})
        return
    if current.resolution:
        reach_resolution(txn, current.resolution, Result.VICTORY if deck == "act" else Result.DEFEAT)
        return
    count = len(deck_cards(txn.state, deck))
    index = txn.state.value(deck)
    if index >= count:
        reach_resolution(txn, "no resolution", Result.DEFEAT)
        return
    txn.set(deck, index + 1)
    nxt = card(txn.state, deck)
    need = amount(nxt, investigator_count(txn.state))
    if deck == "agenda":
        txn.set("agenda.threshold", max(1, need))
    else:
        txn.set("act.clues_required", need)
    txn.notice(f"{deck} {index + 1}: {nxt.name}" + (f" (objective: {nxt.objective})" if nxt.objective else ""))


def reach_resolution(txn: Txn, resolution: str, result: Result) -> None:
    """AH-ACTAG-11: a resolution point ends the scenario at once (an act's is won, an agenda's lost).
    Each revealed location in play with victory points and no clues left goes to the victory display
    as it ends (the Rules Reference's Victory X, outside the catalogue: AH-XP-2 counts it)."""
    for name, place in rec(txn.state).locations.items():
        if place.revealed and place.victory and not place.clues:
            add_victory(txn, place.victory, name)
            txn.notice(f"{name} (no clues left) goes to the victory display: victory {place.victory}")
    txn.put("resolution", resolution)
    txn.end(resolution if resolution == "no resolution" else f"resolution {resolution}", result=result)


# --- cards ---------------------------------------------------------------------------------------
def draw_cards(txn: Txn, seat: int, n: int) -> None:
    """AH-DRAW-1/3/5: draw from the deck; an empty deck is reset from the discard pile mid-draw, and
    1 horror follows once the whole draw is done (ambiguity 14: once per draw). AH-DRAW-6: an empty
    deck costs nothing until a draw needs it."""
    reset = False
    for _ in range(n):
        if seat_value(txn.state, seat, "deck") == 0:
            pile = seat_value(txn.state, seat, "discard")
            if pile == 0:
                txn.notice(f"seat {seat}: deck and discard pile are empty; nothing more to draw")
                break
            txn.set(seat_track(seat, "deck"), pile)
            txn.set(seat_track(seat, "discard"), 0)
            txn.notice(f"seat {seat}: discard pile shuffled into a new deck")
            reset = True
        txn.add(seat_track(seat, "deck"), -1)
        txn.add(seat_track(seat, "hand"), 1)
    if reset:
        take_harm(txn, seat, 0, 1)


def encounter_draw(txn: Txn, seat: int) -> bool:
    """AH-DRAW-2 / 1.4: one encounter card off the top (whether it stays in play is asked next:
    ``mythos``); AH-ENCDECK-2 reshuffles when the deck runs out (ambiguity 15: as soon as it is empty)."""
    state = txn.state
    if state.value("encounter.deck") == 0:
        txn.notice(f"seat {seat}: the encounter deck and its discard pile are empty")
        return False
    txn.add("encounter.deck", -1)
    txn.put("encounters", (*rec(txn.state).encounters, EncounterDraw(state.round, seat, txn.state.value("agenda"))))
    txn.notice(f"seat {seat} draws an encounter card (agenda {txn.state.value('agenda')})")
    return True


def reshuffle_encounters(txn: Txn) -> None:
    pile = txn.value("encounter.discard")
    if txn.value("encounter.deck") == 0 and pile > 0:
        txn.set("encounter.discard", 0)
        txn.set("encounter.deck", pile)
        txn.notice(f"encounter discard pile shuffled into a new deck ({pile} cards)")


# --- damage, horror, defeat (AH-DMG-9, AH-DEFEAT, AH-TRAUMA, AH-ELIM) -------------------------------
def take_harm(txn: Txn, seat: int, damage: int, horror: int) -> None:
    """Dealt damage and horror land together, then one defeat check (AH-DMG-8, AH-DMG-9). Dealt
    harm is never refused: past health or sanity the track stops at the limit and the investigator
    is defeated (AH-DEFEAT-1); only ``set``/``add`` of a track refuse values beyond it."""
    if not is_live(txn.state, seat):
        raise Rejected(f"seat {seat} is no longer in the scenario")
    for name, limit, dealt in (("damage", "health", damage), ("horror", "sanity", horror)):
        if dealt:
            have, top = seat_value(txn.state, seat, name), seat_value(txn.state, seat, limit)
            txn.set(seat_track(seat, name), min(top, have + dealt))
    check_defeat(txn, seat)


def defeat_pending(state: GameState, seat: int) -> bool:
    """Defeated by damage and horror at once, and the trauma choice is still open (AH-TRAUMA-5)."""
    prompt = state.prompt
    return prompt is not None and prompt.id == "trauma" and prompt.context.get("seat") == seat


def check_defeat(txn: Txn, seat: int) -> None:
    """AH-DMG-9: called where harm was applied and once after every command (``Arkham.after_command``),
    so several changes of one command are judged together."""
    state = txn.state
    if not is_live(state, seat) or state.over is not None:
        return
    if defeat_pending(state, seat):
        return
    cause = rules.defeat_cause(seat_value(state, seat, "damage"), seat_value(state, seat, "health"),
                               seat_value(state, seat, "horror"), seat_value(state, seat, "sanity"))
    if cause is None:
        return
    if cause == "both" and rec(state).mode == "campaign":
        # AH-TRAUMA-5: the player picks which single trauma to take.
        txn.ask("trauma", f"Seat {seat} defeated by damage and horror: which trauma?", ["physical", "mental"],
                seat=seat, context={"seat": seat})
        return
    eliminate(txn, seat, rules.trauma_for(cause) if cause != "both" else rules.Defeat("both"))


def eliminate(txn: Txn, seat: int, defeat: rules.Defeat) -> None:
    """AH-ELIM-3 steps 0-6 as far as the tracker holds them, after the trauma of AH-TRAUMA."""
    from tablekeeper.games.arkham import assets, board  # board and assets build on these helpers

    state = txn.state
    info = seat_info(state, seat)
    txn.put("eliminated", {**rec(txn.state).eliminated, str(seat): defeat.cause})
    txn.notice(f"seat {seat} ({info.name}) is eliminated: " +
               {"resign": "resigned", "ability": "defeated by a card ability"}.get(defeat.cause,
                                                                                    f"defeated by {defeat.cause}"))
    if rec(state).mode == "campaign" and (defeat.physical or defeat.mental):
        if defeat.physical:
            txn.add(seat_track(seat, "physical_trauma"), defeat.physical)
        if defeat.mental:
            txn.add(seat_track(seat, "mental_trauma"), defeat.mental)
        fate = rules.killed_or_insane(seat_value(txn.state, seat, "physical_trauma"),
                                      seat_value(txn.state, seat, "mental_trauma"),
                                      info.printed_health, info.printed_sanity)
        if fate:
            txn.put("fate", {**rec(txn.state).fate, str(seat): fate})
            txn.notice(f"{info.name} is {fate}")
    board.remove_weaknesses(txn, seat)  # step 0
    for pile in ("hand", "deck", "discard"):  # step 1: their cards leave the game
        txn.set(seat_track(seat, pile), 0)
    assets.remove_all(txn, seat)
    # Step 2: clues to the location, resources back to the pool.
    clues = seat_value(txn.state, seat, "clues")
    if clues:
        txn.notice(f"seat {seat}'s {clues} clue{'s' if clues != 1 else ''} go{'' if clues != 1 else 'es'} onto their "
                   "location")
        board.drop_clues(txn, seat, clues)
        txn.set(seat_track(seat, "clues"), 0)
    txn.set(seat_track(seat, "resources"), 0)
    txn.set(seat_track(seat, "actions"), 0)
    board.discard_threat_area(txn, seat)  # step 4, before step 3 moves the enemies out
    board.release_engaged(txn, seat)  # step 3
    remaining = live_seats(txn.state)
    if not remaining:
        reach_resolution(txn, "no resolution", Result.DEFEAT)  # step 6
        return
    drop_from_turns(txn, seat)
    if txn.state.lead == seat:  # step 5
        if len(remaining) == 1:
            txn.emit("lead", seat=remaining[0])
            txn.notice(f"seat {remaining[0]} is the lead investigator")
        else:
            # a turn-order question it replaces is asked again once the lead is chosen (choices.resume)
            txn.ask("lead", "Choose the new lead investigator", [f"seat {s}" for s in remaining],
                    context={"seats": remaining})


def drop_from_turns(txn: Txn, seat: int) -> None:
    """An eliminated seat takes no further turn this investigation phase; eliminated on its own
    turn (resigned, or defeated by an attack of opportunity), its turn ends there, and the enemies'
    Forced effects at the end of each investigator's turn happen (01157), unless that turn's end had
    begun already (its Frozen in Fear test eliminated it): they ran as it began, once a turn."""
    state = txn.state
    if state.phase != "investigation" or state.step != "2.2" or seat in state.done:
        return
    ending = rec(state).turn_end
    if seat == state.active_seat and (ending is None or ending.seat != seat):
        from tablekeeper.games.arkham import forced  # forced builds on these helpers

        forced.happen(txn, "turn_end", f"at the end of seat {seat}'s turn")
        state = txn.state
    done = (*state.done, seat)
    active = None if seat == state.active_seat else state.active_seat
    flowmod.move(txn, round_no=state.round, phase=state.phase, step=state.step, seat=active,
                 done=done, passes=state.passes)
    if txn.state.prompt is None and active is None:
        last_turn_begins(txn)


def end_turns_if_all_taken(txn: Txn) -> None:
    """2.2 in the default flow: once the last investigator's turn has ended by an elimination (no
    pass, no NEXT), nobody owes a turn and the phase goes on by itself, as after a last pass."""
    state = txn.state
    if not state.auto or state.over is not None or (state.phase, state.step) != ("investigation", "2.2"):
        return
    if state.prompt is not None or state.active_seat is not None or rec(state).test is not None:
        return
    if any(s not in state.done for s in live_seats(state)):
        return
    flowmod.leave(txn, txn.game.flow)


def last_turn_begins(txn: Txn) -> None:
    """2.2: investigators take their turns in any order (the first to act begins); with one left
    to play, its turn begins."""
    state = txn.state
    remaining = [s for s in live_seats(state) if s not in state.done]
    if state.active_seat is None and len(remaining) == 1:
        flowmod.begin_turn(txn, txn.game.flow, remaining[0], done=state.done)
        txn.notice(f"seat {remaining[0]}'s turn begins (the last investigator to take one this round)")
