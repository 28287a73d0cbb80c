"""Spirit Island's script verbs: each validates, then changes state through the transaction."""

from __future__ import annotations

from collections.abc import Mapping

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import CORE_VERBS, ChoiceHandler, Txn, Verb, parse_int, parse_seat, want
from tablekeeper.core.numbers import is_number
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.spirit_island import (
    blight_effects,
    blight_prompts,
    blight_track,
    events,
    fear,
    invader_counts,
    invader_track,
    lands,
    seat_menu,
    spirits,
    table_actions,
)
from tablekeeper.games.spirit_island.common import table
from tablekeeper.games.spirit_island.data import PIECES, Piece
from tablekeeper.games.spirit_island.record import COUNTS, LandRecord, shared

# Tracks that follow the decks: changed by fear/draw/reveal, never by hand.
DERIVED = ("fear.cards_left", "fear.earned", "terror", "invader.stage", "invader.cards_left")


def _count(args: tuple[str, ...], index: int, what: str) -> int:
    n = parse_int(args[index], what) if len(args) > index else 1
    if n < 1:
        raise Rejected(f"{what} must be at least 1")
    return n


def _fear(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) > 1:
        raise Rejected("usage: fear [N]")
    txn.add("fear.generated", _count(args, 0, "Fear"))


def _piece(text: str) -> Piece:
    name = text.lower().rstrip("s").replace("citie", "city")
    for piece in PIECES:
        if piece == name:
            return piece
    raise Rejected(f"unknown Invader {text!r} (explorer, town or city)")


def _track_of(piece: str) -> str:
    return "island." + lands.PIECE_KINDS[piece]


def _piece_args(args: tuple[str, ...], usage: str) -> tuple[Piece, int, str]:
    """``PIECE [N] [LAND]``: the piece, how many, and the land (empty: the one land holding them,
    else asked)."""
    if not 1 <= len(args) <= 3:
        raise Rejected(f"usage: {usage}")
    piece, rest = _piece(args[0]), list(args[1:])
    n = 1
    if rest and is_number(rest[0]):
        n = _count(tuple(rest), 0, "count")
        rest = rest[1:]
    if len(rest) > 1:
        raise Rejected(f"usage: {usage}")
    return piece, n, rest[0] if rest else ""


def _where_from(txn: Txn, piece: str, n: int, land: str) -> str:
    """The land the pieces leave: the one named, else the only land holding that many ("" : ask)."""
    kind = lands.PIECE_KINDS[piece]
    if land:
        return lands.place(txn.state, land).name
    if txn.value(_track_of(piece)) < n:
        raise Rejected(f"the island has {txn.value(_track_of(piece))} {kind}, cannot take {n}")
    holding = [name for name, rec in lands.all_lands(txn.state).items() if rec.count(kind)]
    return holding[0] if len(holding) == 1 and lands.land(txn.state, holding[0]).count(kind) >= n else ""


def _destroy(txn: Txn, args: tuple[str, ...]) -> None:
    """SI-INV-8: destroying a Town or City generates Fear on top of the effect's own; the pieces
    leave the land named (or the only land holding them; else the players are asked which)."""
    piece, n, land = _piece_args(args, "destroy explorer|town|city [N] [LAND]")
    where = _where_from(txn, piece, n, land)
    if where:
        invader_counts.destroy_pieces(txn, piece, n, where)
        invader_counts.resume(txn)  # Russia 2's push, asked now
        return
    fear_each = table(txn.state).piece_fear[piece]
    if fear_each * n:
        txn.notice(f"Destroying {n} {piece}(s) generates {fear_each * n} Fear")
        txn.add("fear.generated", fear_each * n)
    txn.add(_track_of(piece), -n)


def _dream(txn: Txn, args: tuple[str, ...]) -> None:
    """SI-ERRATA-1: a Power of a Spirit that dreams a thousand deaths (Bringer of Dreams and
    Nightmares) would destroy Invaders: they are not destroyed (no Fear for destroying them); its
    special rule's Fear instead, and the pieces it pushes are pushed, each asked where."""
    usage = "dream SEAT explorer|town|city [N] LAND"
    if len(args) < 3:
        raise Rejected(f"usage: {usage}")
    seat = parse_seat(txn.state, args[0])
    spirit = spirits.spirit_of(txn.state, seat)
    if spirit is None or not spirit.destroys_as_fear:
        raise Rejected(f"seat {seat}'s Spirit does not turn destruction into Fear: destroy PIECE [N] [LAND]")
    piece, n, land = _piece_args(args[1:], usage)
    if not land:
        raise Rejected(f"name the land the Invaders are in: {usage}")
    where, kind = lands.place(txn.state, land).name, lands.PIECE_KINDS[piece]
    if lands.land(txn.state, where).count(kind) < n:
        raise Rejected(f"{where} has {lands.land(txn.state, where).count(kind)} {kind}, not {n}")
    fear_made = n * spirit.destroys_as_fear.get(piece, 0)
    txn.notice(f"To Dream a Thousand Deaths: {n} {piece}(s) in {where} not destroyed: {fear_made} Fear instead")
    if fear_made:
        txn.add("fear.generated", fear_made)
    if piece in spirit.pushes_instead:
        invader_counts.push_pieces(txn, kind, n, where, "To Dream a Thousand Deaths")


def _remove(txn: Txn, args: tuple[str, ...]) -> None:
    """Removing (or replacing away) an Invader generates no Fear."""
    piece, n, land = _piece_args(args, "remove explorer|town|city [N] [LAND]")
    where = _where_from(txn, piece, n, land)
    if where:
        rec = lands.land(txn.state, where)
        kind = lands.PIECE_KINDS[piece]
        if rec.count(kind) < n:
            raise Rejected(f"{where} has {rec.count(kind)} {kind}, cannot remove {n}")
        lands.put(txn, where, rec.add(kind, -n))
        return
    txn.add(_track_of(piece), -n)


def _blight(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) > 2:
        raise Rejected("usage: blight [LAND [N]]")
    asked = invader_counts.ravage_question_land(txn.state)
    if asked is not None and args and lands.place(txn.state, args[0]).name == asked and len(args) == 1:
        # a Ravage's Blight question answered with its land's name: yes, Blight there
        prompt = txn.state.prompt
        first = bool(prompt.context["blight_first"]) if prompt is not None else True
        CHOICES[invader_counts.PROMPTS["ravage"]](txn, 0 if first else 1)
        return
    immediately = blight_effects.placing(txn.state)
    if txn.state.prompt is not None and not (immediately and txn.state.prompt.id == blight_track.PROMPTS["cascade"]):
        raise Rejected(flowmod.answer_first(txn.state))
    if not args:
        blight_prompts.start(txn)
        return
    if shared(txn.state).blight_pending and not immediately:
        raise Rejected("finish the cascade first: " + str(blight_track.waiting_for_cascade(txn.state)))
    land = lands.place(txn.state, args[0]).name
    if immediately:
        blight_effects.placed(txn)  # step 1's Blight, placed before the cascade
    blight_track.add(txn, land, _count(args, 1, "Blight"))
    blight_track.settle(txn)
    invader_counts.resume(txn)


def _cascade(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "cascade LAND")
    if blight_effects.placing(txn.state):
        raise Rejected(f"place the Immediately Blight first ({shared(txn.state).immediately_left} left): blight LAND")
    prompt = txn.state.prompt
    if prompt is not None and prompt.id != blight_track.PROMPTS["cascade"]:
        raise Rejected(flowmod.answer_first(txn.state))
    blight_track.cascade(txn, args[0])
    invader_counts.resume(txn)


def _remove_blight(txn: Txn, args: tuple[str, ...]) -> None:
    if not 1 <= len(args) <= 2:
        raise Rejected("usage: remove-blight LAND [N]")
    blight_track.remove(txn, lands.place(txn.state, args[0]).name, _count(args, 1, "Blight"))


def _land(txn: Txn, args: tuple[str, ...]) -> None:
    """Record what a land holds (setup Blight comes from the box, not the card); its Invaders count
    on the island at once."""
    if len(args) < 2:
        raise Rejected("usage: land LAND blight=N vitality=N towns=N presenceS=N ...")
    name = lands.place(txn.state, args[0]).name
    recorded = lands.all_lands(txn.state)
    rec = recorded.get(name, LandRecord())
    for item in args[1:]:
        key, sep, value = item.partition("=")
        if not sep:
            raise Rejected(f"land {name}: expected KEY=N, got {item!r}")
        if key == "terrain":
            where = lands.place(txn.state, name)
            raise Rejected(f"land {name}: its terrain is printed on board {where.board} ({where.terrain})")
        n = parse_int(value, key)
        if n < 0:
            raise Rejected(f"land {name}: {key} cannot be negative")
        if key in COUNTS:
            rec = rec.with_count(key, n)
        elif key.startswith("presence"):
            seat = parse_seat(txn.state, key.removeprefix("presence"))
            rec = rec.with_presence(str(seat), n)
            located = n + sum(other.presence.get(str(seat), 0) for land, other in recorded.items() if land != name)
            if located > txn.value(seat_track(seat, "presence")):
                txn.set(seat_track(seat, "presence"), located)
        else:
            raise Rejected(f"land {name}: unknown key {key!r} ({', '.join(COUNTS)}, presenceS)")
    lands.put(txn, name, rec)


def _presence(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 3, "presence SEAT LAND +N|-N")
    seat = parse_seat(txn.state, args[0])
    delta = parse_int(args[2], "presence change")
    name = lands.place(txn.state, args[1]).name
    rec = lands.land(txn.state, name)
    have = rec.presence.get(str(seat), 0)
    if have + delta < 0:
        raise Rejected(f"seat {seat} has {have} Presence in {name}")
    lands.put(txn, name, rec.with_presence(str(seat), have + delta))
    txn.add(seat_track(seat, "presence"), delta)


def _play(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) >= 2 and not is_number(args[1], signed=False):
        spirits.play_named(txn, parse_seat(txn.state, args[0]), " ".join(args[1:]))
        return
    if len(args) < 3:
        raise Rejected("usage: play SEAT COST fast|slow [ELEMENT ...] (or play SEAT CARD-NAME)")
    spirits.play(txn, parse_seat(txn.state, args[0]), args[1], args[2].lower(), tuple(a.lower() for a in args[3:]))


def _use(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "use SEAT CARD")
    spirits.use(txn, parse_seat(txn.state, args[0]), args[1])


def _repeat(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "repeat SEAT CARD")
    spirits.repeat(txn, parse_seat(txn.state, args[0]), args[1])


def _innate(txn: Txn, args: tuple[str, ...]) -> None:
    if not args:
        raise Rejected("usage: innate SEAT [NAME | ELEMENT=N ...]")
    spirits.innate(txn, parse_seat(txn.state, args[0]), args[1:])


def _element(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) < 2:
        raise Rejected("usage: element SEAT ELEMENT ...")
    seat = parse_seat(txn.state, args[0])
    for name in args[1:]:
        spirits.gain_element(txn, seat, name.lower())


def _menu(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "seat-menu SEAT")
    seat_menu.open_menu(txn, parse_seat(txn.state, args[0]))


def _more(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "more SEAT")
    seat_menu.more(txn, parse_seat(txn.state, args[0]))


def _uncover(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) not in (2, 3):
        raise Rejected("usage: uncover SEAT energy|plays [LAND]")
    spirits.uncover(txn, parse_seat(txn.state, args[0]), args[1].lower(), args[2] if len(args) == 3 else "")


def _whenever(txn: Txn, args: tuple[str, ...]) -> None:
    if len(args) < 2:
        raise Rejected("usage: whenever SEAT TEXT")
    spirits.whenever(txn, parse_seat(txn.state, args[0]), " ".join(args[1:]))


def _begin(txn: Txn, args: tuple[str, ...]) -> None:
    """Open an action (a Power, a Ravage in one land, a Fear card): Blight triggers and the end
    check wait until it ends; actions nest."""
    if not args:
        raise Rejected("usage: begin NAME")
    table_actions.begin(txn, " ".join(args))


def _end(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 0, "end")
    names = table_actions.open_names(txn.state)
    if invader_counts.owns_current_action(txn.state):
        raise Rejected(f"{names[-1]} is the station's own Invader Action: it ends once its questions are answered")
    if shared(txn.state).blight_pending and len(names) <= 1:
        raise Rejected("finish the cascade first: " + str(blight_track.waiting_for_cascade(txn.state)))
    if shared(txn.state).blight_implicit and len(names) == 1:
        raise Rejected("no action is open")
    table_actions.end(txn)
    blight_track.settle(txn)  # a Blight addition waiting only for this nested action ends too


def _trigger(txn: Txn, args: tuple[str, ...]) -> None:
    """SI-TRIGGER-1/4: an effect the players say is set off now (Vengeance of the Dead, Sworn to
    Victory, ...) is a triggered action: it waits for the outermost open action to end."""
    if not args:
        raise Rejected("usage: trigger TEXT")
    table_actions.trigger(txn, " ".join(args))
    txn.notice(f"{' '.join(args)}: after {table_actions.open_names(txn.state)[0]} ends")


def _counts_as(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 2, "counts-as PIECE yes|no")
    if args[1] not in ("yes", "no"):
        raise Rejected("usage: counts-as PIECE yes|no")
    table_actions.declare(txn, args[0], args[1] == "yes")
    txn.notice(f"{args[0]} {'counts' if args[1] == 'yes' else 'does not count'} for this action")


def _explore(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "explore more|skip")
    if args[0] == "more":
        invader_track.explore_more(txn)
    elif args[0] == "skip":
        invader_track.explore_skip(txn)
    else:
        raise Rejected("usage: explore more|skip")


def _event(txn: Txn, args: tuple[str, ...]) -> None:
    events.event(txn, " ".join(args).lower())


def _next(txn: Txn, args: tuple[str, ...]) -> None:
    """``next`` with an Invader-count question open confirms the answer offered first (the rules'
    one), as NEXT on the panel confirms the option shown; otherwise the core's ``next``."""
    prompt = txn.state.prompt
    if not args and prompt is not None and prompt.id.startswith("si.counts."):
        txn.notice(f"{prompt.text} {prompt.options[0]}")
        CHOICES[prompt.id](txn, 0)
        return
    CORE_VERBS["next"].handler(txn, args)


def _guard(core: str) -> Verb:
    """``set``/``add`` as in the core, but the deck-driven tracks are read-only."""
    base = CORE_VERBS[core]

    def handler(txn: Txn, args: tuple[str, ...]) -> None:
        if core == "set" and len(args) == 2 and is_number(args[1]):
            txn.game.counter(txn.state, args[0])
            if int(args[1]) == txn.value(args[0]):
                txn.notice(f"{args[0]} is already {args[1]}")  # a no-op, accepted
                return
        if args and args[0] in DERIVED:
            raise Rejected(f"{args[0]} follows its deck: use fear, draw or reveal")
        base.handler(txn, args)

    return Verb(base.usage, base.help, handler)


def _reveal(txn: Txn, args: tuple[str, ...]) -> None:
    """The card the players turned over, once the step allows it; the core matches it to the names
    the deck may show now (any case, a Stage III card's terrains in either order, a name's start)."""
    if len(args) < 2:
        raise Rejected("usage: reveal invaders CARD | reveal fear_cards NAME | reveal blight_deck NAME")
    source, typed = args[0], " ".join(args[1:])
    allowed = {"invaders": invader_track.may_draw, "fear_cards": fear.may_name, "blight_deck": blight_track.may_draw}
    reason = allowed[source](txn.state) if source in allowed else None
    if reason:
        raise Rejected(reason)
    txn.draw(source, typed)


VERBS: Mapping[str, Verb] = {
    "next": Verb("next", "next step; with an Invader-count question open, confirm its first answer", _next),
    "reveal": Verb("reveal invaders CARD | reveal fear_cards NAME | reveal blight_deck NAME",
                   "report the card the players turned over (any case; a Stage III card's terrains in any order)",
                   _reveal),
    "fear": Verb("fear [N]", "generate N Fear (earns cards, raises Terror)", _fear),
    "destroy": Verb("destroy explorer|town|city [N] [LAND]", "destroy Invaders (Towns/Cities add Fear)", _destroy),
    "remove": Verb("remove explorer|town|city [N] [LAND]", "remove Invaders (no Fear)", _remove),
    "dream": Verb("dream SEAT explorer|town|city [N] LAND",
                  "Bringer's Power would destroy Invaders: its Fear instead, Explorers and Towns pushed", _dream),
    "blight": Verb("blight [LAND [N]]", "add Blight in the FAQ's order (no LAND: yes/no questions)", _blight),
    "cascade": Verb("cascade LAND", "the adjacent land a cascading Blight goes to", _cascade),
    "remove-blight": Verb("remove-blight LAND [N]", "Blight leaves the island back to the card", _remove_blight),
    "land": Verb("land LAND key=N ...", "record a land's pieces, blight, vitality, defend, presenceS", _land),
    "presence": Verb("presence SEAT LAND +N|-N", "add or remove Presence in a land", _presence),
    "play": Verb("play SEAT COST fast|slow [ELEMENT ...] | play SEAT NAME",
                 "choose and pay for a Power Card, by its cost and elements or by its name", _play),
    "use": Verb("use SEAT CARD", "resolve played card CARD (1-based) in its phase", _use),
    "repeat": Verb("repeat SEAT CARD", "Repeat a used card (a new Power use)", _repeat),
    "innate": Verb("innate SEAT [NAME|ELEMENT=N ...]", "use an Innate Power (refused below its threshold)",
                   _innate),
    "element": Verb("element SEAT ELEMENT ...", "elements gained this turn outside a played card", _element),
    "seat-menu": Verb("seat-menu SEAT", "open the seat's menu (its B button)", _menu),
    "more": Verb("more SEAT", "show the next item of the seat's open menu (its B button)", _more),
    "uncover": Verb("uncover SEAT energy|plays [LAND]", "Growth: a Presence leaves a track (into LAND)", _uncover),
    "whenever": Verb("whenever SEAT TEXT", "this turn: TEXT each time the seat uses a Power", _whenever),
    "begin": Verb("begin NAME", "open an action (triggers wait for its end)", _begin),
    "end": Verb("end", "close the innermost open action", _end),
    "trigger": Verb("trigger TEXT", "a triggered action set off now: it runs after the open action ends", _trigger),
    "counts-as": Verb("counts-as PIECE yes|no", "this action counts PIECE as the category (fixed until it ends)",
                      _counts_as),
    "explore": Verb("explore more|skip", "a second Explore card this step, or none resolved (France 6 counts them)",
                    _explore),
    "event": Verb("event NAME", "Fortification / Cash Crops Take Hold: pick the terrain", _event),
    "set": _guard("set"),
    "add": _guard("add"),
}

def _then_resume(handler: ChoiceHandler) -> ChoiceHandler:
    """After an answer, what a Blight addition waits for, then the next queued Invader question."""

    def answered(txn: Txn, index: int) -> None:
        handler(txn, index)
        invader_counts.resume(txn)

    return answered


CHOICES: Mapping[str, ChoiceHandler] = {name: _then_resume(handler) for name, handler in {
    "si.event_terrain": events.on_terrain,
    "si.blight.had": blight_prompts.on_had,
    blight_effects.LOSS_PROMPT: blight_effects.on_loss,
    "si.blight.vitality": blight_prompts.on_vitality,
    "si.blight.presence": blight_prompts.on_presence,
    table_actions.ORDER_PROMPT: table_actions.on_order,
    fear.CARD_PROMPT: fear.on_resolved,
    invader_counts.PROMPTS["setup"]: invader_counts.on_setup,
    invader_counts.PROMPTS["build"]: invader_counts.on_counts,
    invader_counts.PROMPTS["explore"]: invader_counts.on_counts,
    invader_counts.PROMPTS["ravage"]: invader_counts.on_ravage_blight,
    invader_counts.PROMPTS["where"]: invader_counts.on_where,
    invader_counts.PROMPTS["place"]: invader_counts.on_place,
    invader_counts.PROMPTS["swayed"]: invader_counts.on_swayed,
    invader_counts.PROMPTS["push"]: invader_counts.on_push,
    invader_counts.PROMPTS["entrench"]: invader_track.on_entrench,
    blight_track.PROMPTS["cascade"]: blight_track.on_cascade,
    blight_track.PROMPTS["unplaced"]: blight_track.on_unplaced,
    blight_track.PROMPTS["draw"]: blight_track.on_draw,
    fear.NAME_PROMPT: fear.on_named,
    invader_counts.PROMPTS["destroyed"]: invader_counts.on_counts,
    invader_counts.PROMPTS["loss"]: invader_counts.on_loss,
    invader_counts.PROMPTS["overview"]: invader_counts.on_overview,
    seat_menu.PREFIX + "menu": seat_menu.on_menu,
    seat_menu.PREFIX + "card": seat_menu.on_card,
    seat_menu.PREFIX + "cost": seat_menu.on_cost,
    seat_menu.PREFIX + "speed": seat_menu.on_speed,
    seat_menu.PREFIX + "element": seat_menu.on_element,
    seat_menu.PREFIX + "presence": seat_menu.on_presence,
    seat_menu.PREFIX + "innate": seat_menu.on_innate,
    seat_menu.PREFIX + "track": seat_menu.on_track,
}.items()}
