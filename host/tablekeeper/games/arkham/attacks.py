"""Enemy attacks: attacks of opportunity (AH-AOO) and the Enemy phase's attacks (3.3), with the
damage and horror of each assigned by the attacked investigator to eligible assets (AH-DMG-3..6).

Every choice is a prompt the seat buttons or the panel answer: which enemy attacks next, and where
each point of an attack goes. The work left is kept in the game's record (``aoo``, ``attack_queue``,
``soak`` of ``record.ArkhamRecord``), so a prompt can interrupt it and ``choices.resume`` carries on after.
"""

from __future__ import annotations

import msgspec

from tablekeeper.core.game import Txn
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import actions, assets, board, effects, rules
from tablekeeper.games.arkham.record import rec
from tablekeeper.games.arkham.records import AssetCard, Provoked, Soak


# --- attacks of opportunity (AH-AOO-1..9) --------------------------------------------------------
def provoke(txn: Txn, seat: int, kind: str, effect: Provoked | None = None) -> None:
    """AH-AOO-1/2/3/9: after the costs of a provoking action, each ready enemy engaged with the
    actor attacks once (AH-AOO-4: without exhausting), in the order the investigator chooses (a
    prompt when several); AH-AOO-5: then the action's ``effect`` resolves."""
    pending = effect if effect is not None else Provoked(seat, ())
    if kind in rules.NON_PROVOKING:
        left: tuple[str, ...] = ()
    else:
        left = pending.left if pending.ordered else tuple(_ready_attackers(txn, seat))
    txn.put("aoo", msgspec.structs.replace(pending, left=left))
    continue_provoked(txn)


def _ready_attackers(txn: Txn, seat: int) -> list[str]:
    return [n for n in board.engaged_with(txn.state, seat) if board.enemy(txn.state, n).ready]


def continue_provoked(txn: Txn, chosen: str | None = None) -> None:
    pending = rec(txn.state).aoo
    if pending is None:
        return
    seat = pending.seat
    left = list(pending.left)
    while True:
        if not effects.is_live(txn.state, seat):
            txn.put("aoo", None)
            return  # defeated by the attacks: the action does not resolve
        ready = set(_ready_attackers(txn, seat))
        left = [n for n in left if n in ready]
        if not left:
            break
        if chosen is None and len(left) > 1 and not pending.ordered:
            txn.put("aoo", msgspec.structs.replace(pending, left=tuple(left)))
            txn.ask("aoo_order", f"Seat {seat}: which attack of opportunity first?", left, seat=seat,
                    context={"seat": seat, "enemies": left})
            return
        name = chosen if chosen in left else left[0]
        chosen = None
        left.remove(name)
        txn.put("aoo", msgspec.structs.replace(pending, left=tuple(left)))
        attack(txn, name, seat, "attack of opportunity")
        if txn.state.prompt is not None:
            return  # where the harm goes, a trauma or a new lead first
    txn.put("aoo", None)
    actions.resolve(txn, pending)


# --- the Enemy phase (3.3) -----------------------------------------------------------------------
def enemy_phase(txn: Txn) -> None:
    """3.3 (outside the seeds): each investigator in player order takes the attacks of the ready
    enemies engaged with them, in the order that player chooses (a prompt when there are several);
    each attacker exhausts (unlike AH-AOO-4)."""
    txn.put("attack_queue", effects.live_seats(txn.state))
    continue_enemy_phase(txn)


def continue_enemy_phase(txn: Txn, chosen: str | None = None) -> None:
    queue = list(rec(txn.state).attack_queue or ())
    massive = list(rec(txn.state).massive_attacked)  # attacked some, still to exhaust
    while queue:
        seat = queue[0]
        done = {name for attacked, name in rec(txn.state).attacked if attacked == seat}
        waiting = [n for n in _ready_attackers(txn, seat) if n not in done]
        if not effects.is_live(txn.state, seat) or effects.defeat_pending(txn.state, seat) or not waiting:
            queue.pop(0)
            continue
        if chosen is None and len(waiting) > 1:
            txn.put("attack_queue", queue)
            txn.ask("attack_order", f"Seat {seat}: which enemy attacks next?", waiting, seat=seat,
                    context={"seat": seat, "enemies": waiting})
            return
        name = chosen if chosen in waiting else waiting[0]
        chosen = None
        foe = board.enemy(txn.state, name)
        if foe.has("massive"):  # it attacks each investigator it is engaged with, then exhausts
            txn.put("attacked", (*rec(txn.state).attacked, (seat, name)))
            if name not in massive:
                massive.append(name)
                txn.put("massive_attacked", massive)
        else:
            board.save_enemy(txn, name, msgspec.structs.replace(foe, ready=False))
        txn.put("attack_queue", queue)
        attack(txn, name, seat, "attack")
        if txn.state.prompt is not None:
            return  # the split of its harm, a trauma or a lead choice first; the attacks go on after it
    for name in massive:
        if name in board.enemies(txn.state):
            board.save_enemy(txn, name, msgspec.structs.replace(board.enemy(txn.state, name), ready=False))
    if rec(txn.state).attacked:
        txn.put("attacked", None)
    if rec(txn.state).massive_attacked:
        txn.put("massive_attacked", None)
    txn.put("attack_queue", None)


# --- one attack and where its harm goes (AH-DMG-3..8) --------------------------------------------
def attack(txn: Txn, name: str, seat: int, what: str) -> None:
    from tablekeeper.games.arkham import forced  # the cards' Forced effects build on the attacks

    more_damage, more_horror = forced.attacks(txn, name, seat)
    foe = board.enemy(txn.state, name)
    damage, horror = foe.attack_damage + more_damage, foe.attack_horror + more_horror
    article = "an" if what[0] in "aeiou" else "a"
    txn.notice(f"{name} makes {article} {what} on seat {seat}: {damage} damage, {horror} horror")
    txn.put("soak", Soak(seat, damage, horror))
    ask_split(txn)


def split_options(soak: Soak, cards: dict[str, AssetCard]) -> list[tuple[str, str]]:
    """The assets that can still take a point (AH-DMG-4: damage needs health, horror sanity;
    AH-DMG-5: never more than defeats it), as (asset, "damage"|"horror")."""
    left = {"damage": soak.damage - sum(d for d, _ in soak.assigned.values()),
            "horror": soak.horror - sum(h for _, h in soak.assigned.values())}
    out = []
    for name, card in sorted(cards.items()):
        given = soak.assigned.get(name, (0, 0))
        for i, kind in enumerate(("damage", "horror")):
            limit = card.health if kind == "damage" else card.sanity
            have = card.damage if kind == "damage" else card.horror
            if left[kind] > 0 and limit is not None and have + given[i] < limit:
                out.append((name, kind))
    return out


def ask_split(txn: Txn) -> None:
    """Ask where the next point goes while an eligible asset could take it; else it all lands."""
    soak = rec(txn.state).soak
    if soak is None:
        return
    options = split_options(soak, assets.assets(txn.state, soak.seat))
    if not options:
        land(txn, soak)
        return
    d_left = soak.damage - sum(d for d, _ in soak.assigned.values())
    h_left = soak.horror - sum(h for _, h in soak.assigned.values())
    name = effects.seat_info(txn.state, soak.seat).name.split()[0]
    txn.ask("soak", f"Seat {soak.seat}: where do {d_left} damage and {h_left} horror go?",
            [f"rest on {name}", *(f"1 {kind} on {card}" for card, kind in options)], seat=soak.seat,
            context={"seat": soak.seat, "options": [list(o) for o in options]})


def choose_split(txn: Txn, index: int) -> None:
    """The attacked investigator puts one more point on an asset, or the rest on themself."""
    prompt = txn.state.prompt
    soak = rec(txn.state).soak
    if prompt is None or soak is None:
        raise Rejected("no attack's harm is being placed")
    txn.close_prompt()
    if index == 0:
        land(txn, soak)
        return
    card, kind = (str(x) for x in prompt.context["options"][index - 1])
    d, h = soak.assigned.get(card, (0, 0))
    assigned = {**soak.assigned, card: (d + 1, h) if kind == "damage" else (d, h + 1)}
    txn.put("soak", Soak(soak.seat, soak.damage, soak.horror, assigned))
    ask_split(txn)


def land(txn: Txn, soak: Soak) -> None:
    """AH-DMG-8: everything assigned lands at once; the rest on the investigator (AH-DMG-6)."""
    txn.put("soak", None)
    assets.assign(txn, soak.seat, soak.damage, soak.horror, soak.assigned)
