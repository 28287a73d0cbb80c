"""Verbs for cards in play and their tokens, rules steps, and standing effects (responses)."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from msgspec.structs import replace

from tablekeeper.core import flow as flowmod
from tablekeeper.core.game import Txn, parse_int, parse_seat, want
from tablekeeper.core.state import GameState
from tablekeeper.errors import Rejected
from tablekeeper.games.earthborne import engine, tables, valley
from tablekeeper.games.earthborne.data import CARD_TYPES, ICONS
from tablekeeper.games.earthborne.frames import OpenStep
from tablekeeper.games.earthborne.parsing import (
    name_and_threshold,
    name_then,
    no_extra,
    seat_or_active,
    split_args,
    threshold_text,
)
from tablekeeper.games.earthborne.record import CardInPlay, GameConfig, PathSpec, Place, Presence, Response, rec

AREAS = ("along", "reach", "weather", "mission", "player")
RESPONSE_WINDOWS = (*engine.WINDOWS, "place-progress", "place-harm", "rest")

# --- cards and tokens -----------------------------------------------------------------------------

def add_card(txn: Txn, record: CardInPlay) -> str:
    """A card enters play; a campaign-guide entry it shows is read before anything else happens
    (ER-PATH-1), so it opens a rules step the players resolve."""
    number = rec(txn.state).next_card
    key = f"card{number}"
    txn.put("next_card", number + 1)
    txn.define(f"{key}.progress", 0, lo=0)
    txn.define(f"{key}.harm", 0, lo=0)
    tables.put_card(txn, key, record)
    where = {"reach": f"within reach of seat {record.seat}", "player": f"seat {record.seat}'s area",
             "along": "along the way"}.get(record.area, record.area)
    txn.notice(f"{key}: {record.name} ({where}) progress {record.progress}, harm {record.harm}")
    if record.guide is not None:
        label = f"{record.name} enters play: read campaign guide entry {record.guide}"
        engine.push(txn, OpenStep(label))
        tables.log(txn, f"guide {record.guide} ({key} enters play)")
        txn.notice(label + ", then resolve")
    return key


PATH_OPTIONS = ("progress", "harm", "area", "seat", "type", "presence", "icons", "entry", "guide", "arrow",
                "clear")
# What ``reveal path`` may teach about a printed card (where this copy goes is not asked there).
REVEAL_OPTIONS = tuple(o for o in PATH_OPTIONS if o not in ("area", "seat", "clear"))
# A card given any of these is described by the players, so it need be no card the device knows.
NUMBER_OPTIONS = tuple(o for o in REVEAL_OPTIONS if o != "arrow")
FLAGS = ("obstacle", "persistent", "exhausted", "rangers")


def known_path_card(state: GameState, name: str) -> PathSpec | None:
    """A path card's printed data: remembered from an earlier report, or shipped in the path data."""
    for table in (rec(state).known_path, tables.cfg(state).path):
        match = table.get(name)
        if match is None:
            match = next((c for n, c in table.items() if n.lower() == name.lower()), None)
        if match is not None:
            return match
    return None


def _near_miss(state: GameState, name: str) -> str | None:
    """The card the device knows (remembered or shipped) that ``name`` is one slip away from, if any:
    a misspelt card put in play as new would have no thresholds, presence or challenge effects."""
    names = [*rec(state).known_path, *(c.name for c in tables.cfg(state).path.values())]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    return close[0] if close else None


def remember_path_card(txn: Txn, name: str, options: dict[str, str], flags: list[str]) -> None:
    """A path card new to the device: its thresholds and presence are asked once and kept for the
    campaign, so the next time the players only name it."""
    no_extra(options, REVEAL_OPTIONS, "reveal path")
    base = known_path_card(txn.state, name)
    if base is None and not options:
        close = _near_miss(txn.state, name)
        if close:
            raise Rejected(f"no path card {name!r} (did you mean {close!r}?); a card new to the device: "
                           f"reveal path \"{name}\" progress=N|Nr|- harm=N|Nr|- presence=N ...")
        raise Rejected(f"{name} is new to the device: report it once with its printed numbers, e.g. "
                       f"reveal path \"{name}\" progress=N|Nr|- harm=N|Nr|- presence=N [arrow=down] "
                       "[type=being|feature] [icons=sun,..] [guide=N] [entry=N] [obstacle] [persistent] [rangers]")
    spec = base or PathSpec(name)
    arrow = options.get("arrow", spec.arrow)
    if arrow not in ("up", "down"):
        raise Rejected(f"reveal path: arrow must be up or down, not {arrow!r}")
    probe = card_record(txn.state, name, {k: v for k, v in options.items() if k != "arrow"}, flags,
                        base=spec)
    spec = replace(spec, progress=probe.progress, harm=probe.harm, type=probe.type, presence=probe.presence,
                   keywords=probe.keywords, icons=probe.icons, entry=probe.entry, guide=probe.guide,
                   rtoken_clear=probe.rtoken_clear, arrow=arrow)
    txn.put("known_path", {**rec(txn.state).known_path, name: spec})
    tables.log(txn, f"remembered path card {name}")


def card_record(state: GameState, name: str, options: dict[str, str], flags: list[str],
                base: PathSpec | None = None) -> CardInPlay:
    """A card's record from the path data (remembered or shipped) and the options given."""
    spec = base if base is not None else known_path_card(state, name)
    printed = spec or PathSpec(name)
    area = options.get("area", "reach" if printed.arrow == "down" else "along")
    if area not in AREAS:
        raise Rejected(f"card: area must be one of {', '.join(AREAS)}, not {area!r}")
    kind = options.get("type", printed.type)
    if kind not in CARD_TYPES:
        raise Rejected(f"card: type must be one of {', '.join(CARD_TYPES)}, not {kind!r}")
    icons = [i for i in options.get("icons", ",".join(printed.icons)).split(",") if i]
    bad = [i for i in icons if i not in ICONS]
    if bad:
        raise Rejected(f"card: unknown icon {bad[0]!r} (sun, mountain, crest)")
    keywords = list(printed.keywords)
    for flag in flags:
        if flag not in FLAGS:
            raise Rejected(f"card: unknown flag {flag!r} ({', '.join(FLAGS)})")
        if flag in ("obstacle", "persistent") and flag not in keywords:
            keywords.append(flag)
    entry = options.get("entry", printed.entry)
    guide = options.get("guide", printed.guide)
    seat: int | None = None
    if area == "reach" and "seat" not in options and state.phase == "path":
        seat = tables.next_path_seat(state)  # ER-PATH-1: within reach of the Ranger whose path card it is
    elif area in ("reach", "player"):
        seat = seat_or_active(state, options.get("seat"))
    return CardInPlay(
        name=printed.name,
        progress=threshold_text(str(options.get("progress", printed.progress)), "card progress"),
        harm=threshold_text(str(options.get("harm", printed.harm)), "card harm"),
        area=area,
        seat=seat,
        type=kind,
        presence=_presence(str(options.get("presence", printed.presence))),
        keywords=tuple(keywords),
        icons=tuple(icons),
        entry=None if entry is None else parse_int(str(entry), "entry"),
        guide=None if guide is None else parse_int(str(guide), "guide"),
        clear=options.get("clear"),
        ready="exhausted" not in flags,
        rtoken_clear="rangers" in flags or printed.rtoken_clear,
        from_path=spec is not None and area in ("along", "reach"),
        verified=printed.verified,
    )


def _presence(text: str) -> Presence:
    """A card's presence: a number, or X (its card says what X is; ER-TEST-3 leaves it to the table)."""
    if text.strip().upper() == "X":
        return "X"
    value = parse_int(text, "presence")
    if value < 0:
        raise Rejected("presence: a number 0 or more, or X")
    return value


def card_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """A card enters play by an effect; a path card (known by name) goes to the path discard when it
    leaves play, and a down-arrow one within reach of the Ranger whose turn it is."""
    words, options = split_args(args)
    if not words:
        raise Rejected("usage: card NAME [progress=N|Nr|-] [harm=N|Nr|-] [area=along|reach|weather|mission|player] ...")
    no_extra(options, PATH_OPTIONS, "card")
    if "arrow" in options:
        raise Rejected("card: give area=reach|along instead of arrow=")
    name, flags = name_then(words, lambda w: w.lower() in FLAGS)
    _check_not_a_near_miss(txn.state, name, options)
    add_card(txn, card_record(txn.state, name, options, flags))
    engine.end_of_command(txn)


def _check_not_a_near_miss(state: GameState, name: str, options: dict[str, str]) -> None:
    """A name one slip away from a card the device knows, given without numbers, is that card misspelt:
    put in play as a new card it would have no thresholds, presence or challenge effects."""
    if known_path_card(state, name) is not None or any(o in options for o in NUMBER_OPTIONS):
        return
    close = _near_miss(state, name)
    if close:
        raise Rejected(f"card: no card {name!r} is known (did you mean {close!r}?); a card of your own: "
                       f"give its numbers, card \"{name}\" progress=N|Nr|- harm=N|Nr|- presence=N")


def location_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """Place the location: a Valley location needs only its name (its card's numbers are known)."""
    words, options = split_args(args)
    if not words:
        raise Rejected("usage: location NAME [THRESHOLD] [icons=sun,...]")
    no_extra(options, ("icons",), "location")
    icons = [i for i in options["icons"].split(",") if i] if "icons" in options else None
    cfg = tables.cfg(txn.state)
    name, threshold = name_and_threshold(words, lambda n: valley.find_location(cfg, n) is not None)
    place_location(txn, name, threshold, icons)


def location_record(cfg: GameConfig, name: str, threshold: str | None, icons: list[str] | None) -> Place:
    """ER-LOC-1: the location's record: a Valley location's printed numbers (a threshold given here
    replaces its own, e.g. for an X threshold); any other location needs its threshold."""
    found = valley.find_location(cfg, name)
    if found is None and threshold is None:
        raise Rejected(f"{name!r} is not a Valley location the device knows: give its progress threshold "
                       f"(location \"{name}\" N, Nr per Ranger){_near(cfg, name)}")
    bad = [i for i in icons or () if i not in ICONS]
    if bad:
        raise Rejected(f"location: unknown icon {bad[0]!r} (sun, mountain, crest)")
    if found is None:
        return Place(name, threshold_text(str(threshold), "location threshold"), icons=tuple(icons or ()))
    loc_id, loc = found
    progress = threshold_text(threshold, "location threshold") if threshold is not None else loc.progress
    return Place(loc.name, progress, icons=tuple(icons) if icons is not None else loc.icons, id=loc_id,
                 verified=loc.verified, rtoken_clear=loc.rangers and threshold is None)


def _near(cfg: GameConfig, name: str) -> str:
    names = [loc.name for loc in cfg.locations.values()]
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def place_location(txn: Txn, name: str, threshold: str | None, icons: list[str] | None) -> None:
    set_location(txn, location_record(tables.cfg(txn.state), name, threshold, icons))


def set_location(txn: Txn, record: Place) -> None:
    """ER-LOC-1: the location holds progress toward travel (and maybe harm) but never clears."""
    txn.put("location", record)
    tables.set_tokens(txn, "location.progress", 0)
    tables.set_tokens(txn, "location.harm", 0)
    if record.rtoken_clear:
        how = "travel once every Ranger's token is on it (rtoken SEAT location)"
    elif record.progress == "X":
        how = f"progress threshold X: give it when known (location \"{record.name}\" N)"
    else:
        how = f"progress threshold {record.progress}"
    txn.notice(f"location: {record.name}, {how}" + ("" if record.verified else " (unverified numbers)"))


def placement_by(state: GameState, text: str | None) -> int | None:
    """ER-CHAL-2: who placed tokens; challenge effects place them for nobody."""
    if text is not None:
        if text in ("challenge", "none"):
            return None
        return parse_seat(state, text)
    if engine.challenge_step_open(state):
        return None
    return state.active_seat if state.phase == "turns" else None


def place(txn: Txn, target: str, kind: str, delta: int, by: int | None) -> None:
    track = f"{target}.{kind}"
    tables.add_tokens(txn, track, delta)
    if delta > 0 and by is not None:
        for response in rec(txn.state).responses:
            if response.window == f"place-{kind}" and response.seat == by:
                tables.log(txn, response.label)
                txn.notice(f"seat {by}: {response.label} (placed {delta} {kind})")


def tokens_verb(kind: str) -> Callable[[Txn, tuple[str, ...]], None]:
    def handler(txn: Txn, args: tuple[str, ...]) -> None:
        words, options = split_args(args)
        if len(words) != 2:
            raise Rejected(f"usage: {kind} CARD|location +N|-N [by=SEAT|challenge]")
        no_extra(options, ("by",), kind)
        target = tables.card_key(txn.state, words[0])
        delta = parse_int(words[1], kind)
        place(txn, target, kind, delta, placement_by(txn.state, options.get("by")))
        engine.end_of_command(txn)
    return handler


def set_ready_verb(ready: bool) -> Callable[[Txn, tuple[str, ...]], None]:
    def handler(txn: Txn, args: tuple[str, ...]) -> None:
        want(args, 1, f"{'ready' if ready else 'exhaust'} CARD")
        key = tables.card_key(txn.state, args[0])
        if key == "location":
            raise Rejected("the location is never exhausted")
        record = tables.card(txn.state, key)
        if record.ready == ready:
            raise Rejected(f"{record.name} is already {'ready' if ready else 'exhausted'}")
        tables.put_card(txn, key, replace(record, ready=ready))
        engine.end_of_command(txn)
    return handler


def discard_verb(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "discard CARD")
    key = tables.card_key(txn.state, args[0])
    if key == "location":
        raise Rejected("the location is never discarded; travel replaces it")
    if key in engine.clearing_keys(txn.state):
        raise Rejected(f"{key} is clearing; its re-check decides whether it is discarded")
    txn.notice(f"{tables.card(txn.state, key).name} leaves play")
    engine.remove_card(txn, key)
    engine.end_of_command(txn)


def rtoken_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-RTOKEN-1: a Ranger's token sits on one card at a time (or on a location that needs them)."""
    want(args, 2, "rtoken SEAT CARD")
    seat = parse_seat(txn.state, args[0])
    key = tables.card_key(txn.state, args[1])
    loc = tables.location(txn.state)
    if key == "location" and not (loc and loc.rtoken_clear):
        raise Rejected("put Ranger tokens on path cards (or on a location whose card asks for them)")
    all_cards = {k: replace(record, rtokens=tuple(s for s in record.rtokens if s != seat))
                 for k, record in tables.cards(txn.state).items()}
    if loc is not None and loc.rtoken_clear:
        kept = tuple(s for s in loc.rtokens if s != seat)
        txn.put("location", replace(loc, rtokens=(*kept, seat) if key == "location" else kept))
    if key != "location":
        all_cards[key] = replace(all_cards[key], rtokens=(*all_cards[key].rtokens, seat))
    txn.put("cards", all_cards)
    engine.end_of_command(txn)  # a card that clears by Ranger tokens may now be due


def step_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """ER-CLEAR-6: open a rules step; clears wait until it is resolved."""
    if not args:
        raise Rejected("usage: step LABEL")
    if txn.state.prompt is not None:
        raise Rejected(flowmod.answer_first(txn.state))
    engine.push(txn, OpenStep(" ".join(args)))
    tables.log(txn, f"step: {' '.join(args)}")


def resolve_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """``resolve`` the shown effect; ``resolve LABEL`` also checks it is that one (ER-CLEAR-2)."""
    if len(args) > 1:
        raise Rejected("usage: resolve [LABEL]")
    expected = engine.current_label(txn.state)
    if args and args[0] != expected:
        raise Rejected(f"{args[0]} does not resolve now: {expected or 'nothing'} comes first")
    engine.resolve(txn)


def response_verb(txn: Txn, args: tuple[str, ...]) -> None:
    """A standing effect that triggers in a clearing step, on placing tokens, or on resting."""
    words, options = split_args(args)
    if len(words) < 2:
        raise Rejected("usage: response before|when|after|place-progress|place-harm|rest LABEL "
                       "[seat=N] [card=K] [type=being] [kind=harm] [you] [once]")
    no_extra(options, ("seat", "card", "type", "kind"), "response")
    window, label, flags = words[0], words[1], words[2:]
    if window not in RESPONSE_WINDOWS:
        raise Rejected(f"response: window must be one of {', '.join(RESPONSE_WINDOWS)}, not {window!r}")
    bad = [f for f in flags if f not in ("you", "once")]
    if bad:
        raise Rejected(f"response: unknown flag {bad[0]!r} (you, once)")
    responses = [r for r in rec(txn.state).responses if r.label != label]
    seat = parse_seat(txn.state, options["seat"]) if "seat" in options else None
    if "you" in flags and seat is None:
        raise Rejected("response: a 'you' response needs seat=N")
    kind = options.get("kind")
    if kind not in (None, "progress", "harm"):
        raise Rejected("response: kind must be progress or harm")
    responses.append(Response(window, label, seat,
                              tables.card_key(txn.state, options["card"]) if "card" in options else None,
                              options.get("type"), kind, "you" in flags, "once" in flags))
    txn.put("responses", responses)


def unrespond_verb(txn: Txn, args: tuple[str, ...]) -> None:
    want(args, 1, "unrespond LABEL")
    if not any(r.label == args[0] for r in rec(txn.state).responses):
        raise Rejected(f"no response {args[0]!r}")
    engine.drop_response(txn, args[0])
