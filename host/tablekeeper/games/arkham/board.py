"""Enemies and locations as far as a tracker follows them: where each enemy is, whom it is engaged
with, ready or exhausted, its damage and doom; each location's clues and whether it is revealed.

Kept in the game's typed record (``record.ArkhamRecord``) so undo and replay cover it like everything else.
"""

from __future__ import annotations

from msgspec.structs import replace

from tablekeeper.core.game import Txn
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import assets, effects, places, rules
from tablekeeper.games.arkham.content import EnemyEvent
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import Enemy, Location, Treachery


# --- reading -------------------------------------------------------------------------------------
def enemies(state: GameState) -> dict[str, Enemy]:
    """The enemies in play (a copy the caller may change and save)."""
    return dict(rec(state).enemies)


def locations(state: GameState) -> dict[str, Location]:
    """The locations in play (a copy the caller may change and save)."""
    return dict(rec(state).locations)


def where(state: GameState, seat: int) -> str | None:
    return rec(state).at.get(str(seat))


def enemy(state: GameState, name: str) -> Enemy:
    found = enemies(state).get(name)
    if found is None:
        known = ", ".join(sorted(enemies(state))) or "none"
        raise Rejected(f"no enemy {name!r} in play (enemies: {known})")
    return found


def location(state: GameState, name: str) -> Location:
    found = locations(state).get(name)
    if found is None:
        known = ", ".join(sorted(locations(state))) or "none"
        raise Rejected(f"no location {name!r} in play (locations: {known})")
    return found


def enemy_location(state: GameState, foe: Enemy) -> str | None:
    """AH-ENGM-2: an engaged enemy is at its investigator's location."""
    if foe.engaged is not None:
        return where(state, foe.engaged)
    return foe.location


def engaged_with(state: GameState, seat: int) -> list[str]:
    """The enemies engaged with the seat: in its threat area, and (outside the seeds) each ready
    massive enemy at its location, which counts as engaged with everyone there."""
    return sorted(n for n, e in enemies(state).items() if is_engaged(state, e, seat))


def is_engaged(state: GameState, foe: Enemy, seat: int) -> bool:
    if foe.engaged == seat:
        return True
    here = where(state, seat)
    return foe.has("massive") and foe.ready and here is not None and foe.location == here


def enemies_at(state: GameState, loc: str) -> list[str]:
    return sorted(n for n, e in enemies(state).items() if enemy_location(state, e) == loc)


def nearest(state: GameState, seat: int, names: list[str]) -> list[str]:
    """Of these enemies, those nearest the seat by connections (all of them when distances are unknown)."""
    start = where(state, seat)
    if start is None:
        return sorted(n for n in names if enemy(state, n).engaged == seat) or sorted(names)
    distance = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for loc in frontier:
            for other in neighbours(state, loc) if loc in locations(state) else []:
                if other not in distance:
                    distance[other] = distance[loc] + 1
                    nxt.append(other)
        frontier = nxt
    far = {n: distance.get(str(enemy_location(state, enemy(state, n))), 999) for n in names}
    best = min(far.values())
    return sorted(n for n, d in far.items() if d == best)


def seats_at(state: GameState, loc: str) -> list[int]:
    return [s for s in effects.live_seats(state) if where(state, s) == loc]


def is_empty(state: GameState, loc: str) -> bool:
    """AH-EMPTY-1: no enemies and no investigators at the location."""
    return not seats_at(state, loc) and not any(enemy_location(state, e) == loc for e in enemies(state).values())


def modified(foe: Enemy, value: str, card_mod: int = 0) -> int:
    """AH-BASE-1: the printed (base) fight or evade plus active modifiers (``card_mod``: what the
    current agenda gives every enemy)."""
    return max(0, (foe.fight + foe.fight_mod if value == "fight" else foe.evade + foe.evade_mod) + card_mod)


def shroud(state: GameState, loc: str) -> int:
    """AH-DIFF-2: the location's shroud, with what attached treacheries add (Obscuring Fog)."""
    extra = sum(t.shroud for t in rec(state).treacheries.values() if t.location == loc)
    return location(state, loc).shroud + extra


# --- writing -------------------------------------------------------------------------------------
def save_enemy(txn: Txn, name: str, foe: Enemy | None) -> None:
    all_enemies = enemies(txn.state)
    if foe is None:
        all_enemies.pop(name, None)
    else:
        all_enemies[name] = foe
    txn.put("enemies", all_enemies)


def save_location(txn: Txn, name: str, loc: Location) -> None:
    all_locations = locations(txn.state)
    all_locations[name] = loc
    txn.put("locations", all_locations)


def put_into_play(txn: Txn, key: str) -> None:
    """A location of the scenario's data comes into play unrevealed (all its copies), connected by
    its symbols; one already in play stays as it is."""
    spec = rec(txn.state).scenario.locations.get(key)
    if spec is None:
        known = ", ".join(sorted(rec(txn.state).scenario.locations)) or "none"
        raise Rejected(f"no location {key!r} in the scenario's data (locations: {known}); "
                       "give its numbers: location NAME SHROUD CLUES [per]")
    table = locations(txn.state)
    added = [name for name in places.copies(key, spec) if name not in table]
    for name in added:
        table[name] = places.placed(key, spec)
    if added:
        txn.put("locations", places.relinked(table))
        txn.notice(f"{', '.join(added)} in play")


def remove_location(txn: Txn, name: str) -> None:
    """A location leaves the game (a card says so): its enemies and attached treacheries are discarded;
    investigators still there must be moved first."""
    location(txn.state, name)
    here = seats_at(txn.state, name)
    if here:
        raise Rejected(f"{name} cannot leave play with seat {here[0]} there: move them first")
    for foe in enemies_at(txn.state, name):
        discard_enemy(txn, foe)
    cards = dict(rec(txn.state).treacheries)
    gone = [n for n, t in cards.items() if t.location == name]
    for card in gone:
        del cards[card]
        txn.add("encounter.discard", 1)
    if gone:
        txn.put("treacheries", cards)
    table = locations(txn.state)
    del table[name]
    txn.put("locations", places.relinked(table))
    effects.remove_from_game(txn, f"location {name}")
    txn.notice(f"{name} is removed from the game")


def reveal(txn: Txn, name: str) -> None:
    """AH-CLUE-2: turned face up with its clues (a card may reveal it without anyone entering)."""
    place = location(txn.state, name)
    if place.revealed:
        return
    opened, clues = places.revealed(place, effects.investigator_count(txn.state))
    table = locations(txn.state)
    table[name] = opened
    txn.put("locations", places.relinked(table))
    what = f" ({opened.variant})" if opened.variant else ""
    txn.notice(f"{name}{what} revealed with {clues} clues")


def investigated(txn: Txn, loc: str) -> None:
    """After a successful investigation: treacheries attached there that leave then (Obscuring Fog)."""
    cards = dict(rec(txn.state).treacheries)
    gone = [n for n, t in cards.items() if t.location == loc and t.leaves_on_investigate]
    for name in gone:
        del cards[name]
        txn.add("encounter.discard", 1)
        txn.notice(f"{name} leaves {loc}")
    if gone:
        txn.put("treacheries", cards)


def enemy_to_victory(txn: Txn, name: str) -> None:
    """An enemy a card adds to the victory display (Ruth Turner evaded, Victoria Devereux's parley)
    leaves play, its doom with it; it reaches neither encounter pile."""
    foe = enemy(txn.state, name)
    if foe.doom:
        txn.add("doom.other", -foe.doom)
    save_enemy(txn, name, None)
    txn.notice(f"{name} leaves play for the victory display")


def discard_enemy(txn: Txn, name: str) -> None:
    """An enemy discarded by a card (not defeated): to the encounter discard pile, its doom with it."""
    foe = enemy(txn.state, name)
    if foe.doom:
        txn.add("doom.other", -foe.doom)
    save_enemy(txn, name, None)
    owner = foe.weakness_of
    if owner is not None and effects.is_live(txn.state, owner):
        txn.add(seat_track(owner, "discard"), 1)
    else:
        txn.add("encounter.discard", 1)
    txn.notice(f"{name} is discarded")


def add_location(txn: Txn, name: str, shroud: int, clue_value: int, per_investigator: bool,
                 connections: list[str] | None = None) -> None:
    if name in locations(txn.state):
        raise Rejected(f"location {name!r} is already in play")
    links = sorted(set(connections or ()) - {name})
    save_location(txn, name, Location(shroud=shroud, clue_value=clue_value, per_investigator=per_investigator,
                                      connections=tuple(links)))
    for other in links:  # connections go both ways
        if other in locations(txn.state):
            place = location(txn.state, other)
            save_location(txn, other, replace(place, connections=tuple(sorted({*place.connections, name}))))


def neighbours(state: GameState, loc: str) -> list[str]:
    """The locations connected to ``loc``, either way (typed connections and printed symbols)."""
    here = location(state, loc).connections
    known = locations(state)
    back = [n for n, p in known.items() if loc in p.connections]
    return sorted({*(n for n in here if n in known), *back})


def first_steps_toward_investigators(state: GameState, start: str) -> list[str]:
    """3.2: the locations one step along every shortest path to the nearest investigator(s)."""
    occupied = {loc for s in effects.live_seats(state) if (loc := where(state, s)) is not None}
    return first_steps_toward(state, start, occupied)


def first_steps_toward(state: GameState, start: str, occupied: set[str]) -> list[str]:
    """The locations one step along every shortest path from ``start`` to the nearest of ``occupied``
    (none: already there, or no way leads there). Two ways that meet again on the way are both kept."""
    if start in occupied:
        return []
    frontier = {n: {n} for n in neighbours(state, start)}  # location -> the first steps reaching it
    seen = {start, *frontier}
    while frontier:
        found = sorted({first for loc, firsts in frontier.items() if loc in occupied for first in firsts})
        if found:
            return found
        nxt: dict[str, set[str]] = {}
        for loc, firsts in sorted(frontier.items()):
            for n in neighbours(state, loc):
                if n not in seen:
                    nxt.setdefault(n, set()).update(firsts)
        seen |= set(nxt)
        frontier = nxt
    return []


def move_hunters(txn: Txn, chosen: tuple[str, str] | None = None) -> None:
    """3.2 (outside the seeds): each ready, unengaged hunter moves one location toward the nearest
    investigator; where two ways are equally short, its prey decides (a prompt)."""
    done = set(rec(txn.state).hunters_moved or ())
    for name, foe in sorted(enemies(txn.state).items()):
        if name in done or not foe.hunter or not foe.ready or foe.engaged is not None:
            continue
        loc = foe.location
        steps = [] if loc is None else first_steps_toward_investigators(txn.state, str(loc))
        if chosen is not None and chosen[0] == name:
            steps = [chosen[1]]
        if len(steps) > 1:
            txn.put("hunters_moved", sorted(done))
            txn.ask("hunter_move", f"{name} hunts: which way?", steps, context={"enemy": name, "ways": steps})
            return
        done.add(name)
        if steps:
            save_enemy(txn, name, replace(foe, location=steps[0]))
            txn.notice(f"{name} hunts to {steps[0]}")
            engage_check(txn, name)
            if txn.state.prompt is not None:
                txn.put("hunters_moved", sorted(done))
                return
        elif loc is None or not neighbours(txn.state, str(loc)):
            txn.notice(f"{name} hunts: move it with move-enemy (its location's connections are not known)")
    txn.put("hunters_moved", None)


def move_enemy(txn: Txn, name: str, to: str, why: str) -> None:
    """A card moves an unengaged enemy to a connecting location; ready there beside investigators, it
    engages one (AH-ENGM-3)."""
    save_enemy(txn, name, replace(enemy(txn.state, name), location=to))
    txn.notice(f"{name} moves to {to} ({why})")
    engage_check(txn, name)


def enter(txn: Txn, seat: int, loc: str) -> None:
    """Move an investigator: AH-CLUE-2 reveals on the first entry (a location that may be one of
    several printed cards asks which first); AH-ENGM-2 engaged enemies come along; AH-ENGM-5 ready
    unengaged enemies there engage on arrival; then the location's own "after you enter" effect."""
    place = location(txn.state, loc)
    if where(txn.state, seat) == loc:
        raise Rejected(f"seat {seat} is already at {loc}")
    if place.barrier and not place.revealed:
        raise Rejected(f"nobody can move into {loc} while it is unrevealed (its card bars the way)")
    txn.put("at", {**rec(txn.state).at, str(seat): loc})
    if not place.revealed and place.candidates:
        txn.ask("location_card", f"{loc} is revealed: which card is it?", list(place.candidates), seat=seat,
                context={"location": loc, "cards": list(place.candidates), "seat": seat})
        return
    reveal(txn, loc)
    entered(txn, seat, loc)


def entered(txn: Txn, seat: int, loc: str) -> None:
    """What follows an entry: enemies there engage, the location's forced effect (queued steps)."""
    for name, foe in enemies(txn.state).items():
        if foe.engaged is None and foe.location == loc:
            engage_check(txn, name)
    on_enter = location(txn.state, loc).on_enter
    if on_enter:
        from tablekeeper.games.arkham import steps  # steps build on the board

        steps.run(txn, on_enter, seat, source=loc)


def spawn(txn: Txn, seat: int, name: str, foe: Enemy, at: str | None) -> None:
    """AH-ENEMY-2: without a spawn instruction the enemy engages the drawer; AH-ALOOF-2: an aloof
    enemy spawns unengaged at the drawer's location; with ``at`` it spawns there (AH-SPAWN-1)."""
    if name in enemies(txn.state):
        raise Rejected(f"an enemy called {name!r} is already in play; give this one another name")
    if at is not None:
        location(txn.state, at)
        save_enemy(txn, name, replace(foe, engaged=None, location=at))
        engage_check(txn, name)
    elif foe.aloof or foe.has("massive"):
        save_enemy(txn, name, replace(foe, engaged=None, location=where(txn.state, seat)))
    else:
        save_enemy(txn, name, replace(foe, engaged=seat, location=None))
    txn.notice(f"{name} spawns " + (f"engaged with seat {seat}" if enemy(txn.state, name).engaged == seat
                                    else f"at {enemy_location(txn.state, enemy(txn.state, name)) or 'no location'}"))
    if at is None and enemy(txn.state, name).engaged == seat:
        _after(txn, "engages", name, [seat])


def engage_check(txn: Txn, name: str) -> None:
    """AH-ENGM-3 / AH-ENGM-6 / AH-ALOOF-1: a ready, unengaged, non-aloof enemy sharing a location
    with investigators engages one at once; with several there, the players apply its prey
    instruction (a prompt). With a question open, it waits its turn (``engage_waiting``): an enemy
    readied or arriving while another's prey is asked still engages once that is answered."""
    if txn.state.prompt is not None:
        if name not in rec(txn.state).engage_later:
            txn.put("engage_later", (*rec(txn.state).engage_later, name))
        return
    foe = enemy(txn.state, name)
    loc = foe.location
    if foe.engaged is not None or not foe.ready or foe.aloof or foe.has("massive") or loc is None:
        return
    here = prey_candidates(txn, name, foe.prey, seats_at(txn.state, loc))
    if len(here) == 1:
        engages(txn, name, here[0])
    elif here:
        prey = f" ({foe.prey})" if foe.prey else ""
        txn.ask("prey", f"{name}'s prey{prey}: whom does it engage?", [f"seat {s}" for s in here],
                context={"enemy": name, "seats": here})


def engage_waiting(txn: Txn) -> None:
    """The next enemy whose engagement waited for a question (``pending.resume``), if still in play."""
    name, *rest = rec(txn.state).engage_later
    txn.put("engage_later", tuple(rest))
    if name in enemies(txn.state):
        engage_check(txn, name)


def prey_candidates(txn: Txn, name: str, prey: str | None, seats: list[int]) -> list[int]:
    """AH-PREY-1: of several candidates, those the enemy's prey instruction leaves, weighed on what the
    box tracks (printed skills, clues, remaining health and sanity, cards in hand); the players pick
    among a tie, or among all when the instruction is not one the box can weigh. A pick the box makes
    is said, with the values it read (skills as printed: a card that changes one is the table's to undo)."""
    instruction = rules.prey_instruction(prey)
    if instruction is None or len(seats) < 2:
        return seats
    end, measure = instruction
    values = {seat: prey_value(txn.state, seat, measure) for seat in seats}
    picks = list(rules.prey_picks(end, values))
    if len(picks) == 1:
        printed = " printed" if measure in rules.SKILLS else ""
        weighed = ", ".join(f"seat {seat} {value}" for seat, value in values.items())
        txn.notice(f"{name}'s prey, {prey}: seat {picks[0]} ({weighed}{printed})")
    return picks


def prey_value(state: GameState, seat: int, measure: str) -> int:
    """What a prey instruction weighs for one investigator (``rules.PREY_MEASURES``)."""
    if measure in rules.SKILLS:
        return effects.seat_info(state, seat).skills.get(measure, 0)
    if measure in ("remaining health", "remaining sanity"):
        limit, harm = ("health", "damage") if measure == "remaining health" else ("sanity", "horror")
        return effects.seat_value(state, seat, limit) - effects.seat_value(state, seat, harm)
    return effects.seat_value(state, seat, "hand" if measure == "cards in hand" else measure)


def engage(txn: Txn, name: str, seat: int) -> None:
    foe = enemy(txn.state, name)
    save_enemy(txn, name, replace(foe, engaged=seat, location=None))
    txn.notice(f"{name} engages seat {seat}")


def engages(txn: Txn, name: str, seat: int) -> None:
    """The enemy engages the seat by itself (at its location, spawning, its prey picked): then its
    card's Forced effects after it engages (01181)."""
    engage(txn, name, seat)
    _after(txn, "engages", name, [seat])


def evaded(txn: Txn, name: str) -> None:
    """AH-EVADE-4: the evaded enemy exhausts and leaves the threat area; then its card's Forced effects
    after it is evaded (01141)."""
    disengage(txn, name, exhaust=True)
    _after(txn, "evaded", name, [])


def _after(txn: Txn, at: EnemyEvent, name: str, seats: list[int], foe: Enemy | None = None) -> None:
    from tablekeeper.games.arkham import forced  # the cards' Forced effects build on the board

    forced.after(txn, at, name, foe or enemy(txn.state, name), seats)


def disengage(txn: Txn, name: str, exhaust: bool) -> None:
    """AH-EVADE-4: an evaded enemy exhausts (if ready), leaves the threat area for the location."""
    foe = enemy(txn.state, name)
    loc = enemy_location(txn.state, foe)
    save_enemy(txn, name, replace(foe, engaged=None, location=loc, ready=foe.ready and not exhaust))


def remove_weaknesses(txn: Txn, seat: int) -> None:
    """AH-ELIM-3 step 0: the weakness enemies an eliminated investigator owns leave the game."""
    for name, foe in enemies(txn.state).items():
        if foe.weakness_of == seat:
            if foe.doom:
                txn.add("doom.other", -foe.doom)
            save_enemy(txn, name, None)
            effects.remove_from_game(txn, f"weakness {name}")
            txn.notice(f"{name}, seat {seat}'s weakness, leaves the game")


def threat_area(state: GameState, seat: int) -> dict[str, Treachery]:
    """The treacheries lying in the seat's threat area, by their label in play."""
    return {label: t for label, t in rec(state).treacheries.items() if t.seat == seat and t.location is None}


def discard_threat_area(txn: Txn, seat: int) -> None:
    """AH-ELIM-3 step 4: the treacheries in an eliminated investigator's threat area are discarded."""
    cards = dict(rec(txn.state).treacheries)
    gone = list(threat_area(txn.state, seat))
    for name in gone:
        lift_bearer(txn, name, cards.pop(name))
        txn.add("encounter.discard", 1)
        txn.notice(f"{name} leaves seat {seat}'s threat area for the encounter discard pile")
    if gone:
        txn.put("treacheries", cards)


def bearer_sanity(txn: Txn, seat: int, label: str, change: int) -> None:
    """01182: a treachery in the seat's threat area changes its sanity while it is there (a drop to its
    horror defeats it: ``effects.check_defeat`` after the command)."""
    if not effects.is_live(txn.state, seat):
        return
    txn.add(seat_track(seat, "sanity"), change)
    txn.notice(f"seat {seat}'s sanity is {effects.seat_value(txn.state, seat, 'sanity')} "
               f"({'+' if change > 0 else ''}{change}: {label})")


def lift_bearer(txn: Txn, label: str, gone: Treachery) -> None:
    """A treachery leaving a threat area, by whatever path, gives back the sanity it took (01182): the
    track holds the change, so every removal must undo it; an eliminated bearer's track too, quietly."""
    card = rec(txn.state).scenario.cards.get(gone.card) if gone.card is not None else None
    if card is None or not card.bearer_sanity or gone.location is not None:
        return
    if effects.is_live(txn.state, gone.seat):
        bearer_sanity(txn, gone.seat, label, -card.bearer_sanity)
    else:
        txn.add(seat_track(gone.seat, "sanity"), -card.bearer_sanity)


def discard_treachery(txn: Txn, label: str, why: str = "") -> None:
    """A treachery in play leaves it for the encounter discard pile (its own Forced effect, a test
    passed, or the table's word); what it changed on its bearer ends."""
    cards = dict(rec(txn.state).treacheries)
    if label not in cards:
        raise Rejected(f"no treachery {label!r} in play (treacheries: {', '.join(sorted(cards)) or 'none'})")
    lift_bearer(txn, label, cards.pop(label))
    txn.put("treacheries", cards)
    txn.add("encounter.discard", 1)
    if why:
        txn.notice(f"{label} is discarded ({why})")


def release_engaged(txn: Txn, seat: int) -> None:
    """AH-ELIM-3 step 3: enemies engaged with an eliminated investigator stay at that location,
    unengaged and otherwise unchanged; ready ones then engage anyone there (AH-ENGM-3)."""
    names = engaged_with(txn.state, seat)
    loc = where(txn.state, seat)
    for name in names:
        foe = enemy(txn.state, name)
        save_enemy(txn, name, replace(foe, engaged=None, location=loc))
    txn.put("at", {k: v for k, v in rec(txn.state).at.items() if k != str(seat) and v is not None})
    for name in names:
        engage_check(txn, name)


def drop_clues(txn: Txn, seat: int, clues: int) -> None:
    loc = where(txn.state, seat)
    if loc is not None and loc in locations(txn.state):
        place = location(txn.state, loc)
        save_location(txn, loc, replace(place, clues=place.clues + clues))


def harm_enemy(txn: Txn, name: str, damage: int) -> None:
    """AH-DEFEAT-3 / AH-DMG-10: damage reaching health defeats the enemy: it goes to the encounter
    discard pile, a weakness enemy to its owner's discard pile."""
    foe = enemy(txn.state, name)
    total = foe.damage + damage
    if total >= foe.health:
        loc = enemy_location(txn.state, foe)
        txn.put("defeated_enemies", (*rec(txn.state).defeated_enemies, name))
        if foe.card is not None:
            txn.put("defeated_cards", (*rec(txn.state).defeated_cards, foe.card))
        if foe.doom:
            txn.add("doom.other", -foe.doom)
        save_enemy(txn, name, None)
        owner = foe.weakness_of
        if owner is not None and effects.is_live(txn.state, owner):
            txn.add(seat_track(owner, "discard"), 1)
            txn.notice(f"{name} is defeated and goes to seat {owner}'s discard pile")
        elif foe.victory:  # a card with victory points goes to the victory display instead
            effects.add_victory(txn, foe.victory, foe.card or name)
            txn.notice(f"{name} is defeated: victory {foe.victory}")
        else:
            txn.add("encounter.discard", 1)
            txn.notice(f"{name} is defeated")
        _after(txn, "defeated", name, seats_at(txn.state, loc) if loc is not None else [], foe)
    else:
        save_enemy(txn, name, replace(foe, damage=total))


def enemy_doom(txn: Txn, name: str, delta: int) -> None:
    """AH-DOOM-3: doom on an enemy is doom in play; it is kept in ``doom.other`` as well."""
    foe = enemy(txn.state, name)
    doom = foe.doom + delta
    if doom < 0:
        raise Rejected(f"{name} holds only {foe.doom} doom")
    save_enemy(txn, name, replace(foe, doom=doom))
    txn.add("doom.other", delta)


def clear_enemy_doom(txn: Txn) -> None:
    """AH-ACTAG-8: an advancing agenda takes the doom off every card in play."""
    all_enemies = enemies(txn.state)
    if any(e.doom for e in all_enemies.values()):
        txn.put("enemies", {n: replace(e, doom=0) for n, e in all_enemies.items()})


def ready_all(txn: Txn) -> None:
    """4.3: every exhausted card readies (assets and enemies); AH-ENGM-6: an enemy readied beside
    an investigator engages then."""
    for seat in txn.state.seat_numbers():
        assets.ready_all(txn, seat)
    names = [n for n, e in enemies(txn.state).items() if not e.ready]
    for name in names:
        save_enemy(txn, name, replace(enemy(txn.state, name), ready=True))
    for name in names:
        engage_check(txn, name)
