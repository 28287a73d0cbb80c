"""``tablekeeper campaign``: what a group does to an Arkham campaign log between two scenarios.

The log lives in the save file beside the scenarios' slots (``play --save FILE --campaign NAME``
writes it when a scenario ends and starts the next scenario from it). This command reads it, applies
one between-scenario operation of ``games/arkham/campaign.py`` (which does no I/O of its own) and
writes it back; a refused operation is one line, exit 2, and the log is left as it was.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from tablekeeper.core.events import Command
from tablekeeper.core.numbers import is_number, option_number, parse_number
from tablekeeper.core.session import Session
from tablekeeper.core.store import Store
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import ConfigError, NotANumber, Rejected, ScriptError
from tablekeeper.schema import decode, parse_toml, read_text

if TYPE_CHECKING:  # the game is imported when the command runs: ``tablekeeper --help`` loads no game
    from tablekeeper.games.arkham.arkhamdb import Imported
    from tablekeeper.games.arkham.campaign import Campaign
    from tablekeeper.games.arkham.decks import DeckCard

ACTIONS = ("show", "new", "join", "leave", "rejoin", "replace", "deck", "swap", "buy")


class _DeckEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"card_class": "class"}):
    """One line of a deck file: a card and how many copies."""

    title: str
    copies: int = 1
    level: int | None = 0
    kind: str = "standard"
    card_class: str = "neutral"
    exceptional: bool = False
    permanent: bool = False


class _DeckFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[_DeckEntry]


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "campaign", help="change an Arkham campaign log between scenarios (players, decks, purchases)",
        description="An Arkham campaign log kept in a save file. Actions: show; new CAMPAIGN [--difficulty D] "
        "[--seat N=INVESTIGATOR ...] [--pool ID,ID]; join SEAT INVESTIGATOR; leave SEAT; rejoin SEAT INVESTIGATOR; "
        "replace SEAT [INVESTIGATOR]; deck SEAT DECK.toml|ARKHAMDB.json [--xp N] [--story TITLE ...]; "
        "swap SEAT OUT IN --guide [--level N] [--class C]; buy SEAT TITLE LEVEL [--exceptional] [--permanent] "
        "[--upgrade N] [--remove TITLE] [--class C].")
    p.add_argument("save", help="the save file (SQLite) the campaign lives in")
    p.add_argument("name", help="the campaign's name in that file (as in play --campaign NAME)")
    p.add_argument("action", choices=ACTIONS)
    p.add_argument("words", nargs="*", help="the action's arguments")
    p.add_argument("--difficulty", default="standard", help="new: easy, standard, hard or expert")
    p.add_argument("--seat", action="append", default=[], metavar="N=INVESTIGATOR", help="new: a player (repeatable)")
    p.add_argument("--pool", default=None, metavar="ID,ID,...",
                   help="new: the investigators the group owns (default: every one in the data)")
    p.add_argument("--xp", type=option_number, default=0,
                   help="deck: the starting experience higher-level cards are paid from")
    p.add_argument("--story", action="append", default=[], metavar="TITLE", help="deck: a story card the guide allows")
    p.add_argument("--guide", action="store_true", help="swap: the campaign guide says to change the deck")
    p.add_argument("--level", type=option_number, default=0, help="swap: the incoming card's level")
    p.add_argument("--class", dest="card_class", default=None,
                   help="swap: the card's class (default neutral); buy: checked against the card data")
    p.add_argument("--exceptional", action="store_true", help="buy: an exceptional card (double cost, 1 copy)")
    p.add_argument("--permanent", action="store_true", help="buy: a permanent card (no card taken out)")
    p.add_argument("--upgrade", type=option_number, default=None, metavar="LEVEL",
                   help="buy: upgrades this level of the card")
    p.add_argument("--remove", default=None, metavar="TITLE", help="buy: the card taken out to keep the deck size")
    p.set_defaults(func=run)


def _words(args: argparse.Namespace, lo: int, hi: int, usage: str) -> list[str]:
    words: list[str] = args.words
    if not lo <= len(words) <= hi:
        raise ScriptError(f"campaign {args.action}: usage: tablekeeper campaign FILE NAME {args.action} {usage}")
    return words


def _seat(text: str) -> int:
    digits = text.removeprefix("seat")
    if not is_number(digits, signed=False) or not 1 <= int(digits) <= 4:
        raise ScriptError(f"campaign: {text!r} is not a seat (1 to 4)")
    return int(digits)


def _number(text: str, what: str) -> int:
    try:
        return parse_number(text, what)
    except NotANumber as exc:
        raise ScriptError(f"campaign: {exc.reason}") from None


def read_deck(path: str, investigator: str | None = None) -> Imported:
    """A deck file: ``[[cards]]`` tables with title, copies, level, kind, class, exceptional, permanent;
    or an ArkhamDB deck export (JSON), which must be ``investigator``'s deck. With the cards, the
    experience an upgraded ArkhamDB deck has left (None for a first deck) and what the export had
    that the box leaves out."""
    from tablekeeper.games.arkham.arkhamdb import Imported
    from tablekeeper.games.arkham.decks import CLASSES, KINDS, DeckCard

    text = read_text(path, what="deck file")
    if text.lstrip().startswith("{"):
        from tablekeeper.games.arkham.arkhamdb import deck_from_export

        return deck_from_export(path, text, investigator)
    deck = decode(parse_toml(text, source=path), _DeckFile, source=path)
    cards: list[DeckCard] = []
    for index, entry in enumerate(deck.cards):
        if entry.kind not in KINDS:
            raise ConfigError(f"{path}: cards[{index}].kind: one of {', '.join(KINDS)}, not {entry.kind!r}")
        if entry.card_class not in CLASSES:
            raise ConfigError(f"{path}: cards[{index}].class: one of {', '.join(CLASSES)}, not {entry.card_class!r}")
        if entry.copies < 1:
            raise ConfigError(f"{path}: cards[{index}].copies: at least 1, not {entry.copies}")
        card = DeckCard(entry.title, entry.level, entry.kind, entry.card_class, entry.exceptional, entry.permanent)
        cards += [card] * entry.copies
    return Imported(cards, None)


def describe(name: str, log: Campaign) -> str:
    """The log as a group reads it between scenarios."""
    body = log.body
    playing = log.in_play()
    lines = [f"{name}: {body['campaign']} ({body['difficulty']}), {log.status}; "
             + (f"playing {playing['scenario']} in slot {playing['slot']!r}" if playing else
                f"next scenario: {log.next_scenario() or 'none left'}")]
    for seat, inv in sorted(body["players"].items(), key=lambda kv: int(kv[0])):
        record = log.investigator(inv)
        deck = record.get("deck")
        lines.append(f"seat {seat}: {inv}, {record['xp']} experience, trauma {record['physical_trauma']} physical "
                     f"{record['mental_trauma']} mental" + (f", {record['fate']}" if record.get("fate") else "")
                     + (f", deck of {len(deck)} cards" if deck is not None else ""))
    for result in body["results"]:
        for entry in result.get("records", ()):
            lines.append(f"{result['scenario']}: {entry}")
    away = sorted(set(body["investigators"]) - set(body["players"].values()))
    if away:
        lines.append("kept for a return: " + ", ".join(away))
    return "\n".join(lines)


def apply(log: Campaign, args: argparse.Namespace) -> str:
    """One between-scenario operation on ``log``; returns what it did, in a line."""
    from tablekeeper.games.arkham.decks import DeckCard

    action = args.action
    if action == "join":
        seat, inv = _words(args, 2, 2, "SEAT INVESTIGATOR")
        log.join(_seat(seat), inv)
        return f"{inv} joins at seat {_seat(seat)}"
    if action == "leave":
        (seat,) = _words(args, 1, 1, "SEAT")
        log.leave(_seat(seat))
        return f"seat {_seat(seat)} leaves; its investigator's record is kept"
    if action == "rejoin":
        seat, inv = _words(args, 2, 2, "SEAT INVESTIGATOR")
        log.rejoin(_seat(seat), inv)
        return f"{inv} returns at seat {_seat(seat)}"
    if action == "replace":
        words = _words(args, 1, 2, "SEAT [INVESTIGATOR]")
        log.replace(_seat(words[0]), words[1] if len(words) > 1 else None)
        return f"seat {_seat(words[0])} now plays {words[1]}"
    if action == "deck":
        seat, path = _words(args, 2, 2, "SEAT DECK.toml|DECK.json")
        log.require_between("decks are built")  # before the deck file is read: that is the first problem
        deck = read_deck(path, log.body["players"].get(str(_seat(seat))))
        carried = deck.xp_left
        if carried is not None and args.xp:
            raise ScriptError(f"{path}: an upgraded ArkhamDB deck brings its own experience ({carried} left); "
                              "drop --xp")
        ignored = f"ignored from {path}: " + "; ".join(deck.ignored) if deck.ignored else ""
        try:
            left = log.set_deck(_seat(seat), deck.cards, starting_xp=args.xp, story_allowed=args.story,
                                carried_xp=carried)
        except Rejected as exc:  # what was left out of the export is often why: the line says it
            raise Rejected(f"{exc.reason} ({ignored})" if ignored else exc.reason) from None
        said = f"seat {_seat(seat)}'s deck is kept; {left} experience left" + (
            " (as ArkhamDB left it)" if carried is not None else "")
        if deck.export:
            said += f"\nkept from {path}: {deck.kept()}"
        return said + (f"\n{ignored}" if ignored else "")
    if action == "swap":
        seat, out, title = _words(args, 3, 3, "SEAT OUT IN --guide")
        log.swap(_seat(seat), out, DeckCard(title, args.level, "standard", args.card_class or "neutral"),
                 guide=args.guide)
        return f"seat {_seat(seat)}: {out} out, {title} in"
    seat, title, level = _words(args, 3, 3, "SEAT TITLE LEVEL")
    cost = log.buy(_seat(seat), title, _number(level, "LEVEL"), exceptional=args.exceptional,
                   upgrade_from=args.upgrade, remove=args.remove, card_class=args.card_class,
                   permanent=args.permanent)
    return f"seat {_seat(seat)} buys {title} for {cost} experience"


def buy_in_open_scenario(store: Store, log: Campaign, playing: Mapping[str, str], args: argparse.Namespace) -> str:
    """AH-XP-1: a group that opened the next scenario before buying buys in that scenario's session,
    which accepts purchases until its first round begins (its setup window) and writes them into the
    campaign log when it ends. The purchase is that session's ``buy`` command, saved in its slot."""
    from tablekeeper import games

    seat, title, level = _words(args, 3, 3, "SEAT TITLE LEVEL")
    slot = playing["slot"]
    saved = store.load(slot)
    if saved is None:
        raise ScriptError(f"{store.path}: slot {slot!r} holds no session")
    game = games.load("arkham")
    try:
        session = Session(game, seats=saved.setup.seats, seed=saved.setup.seed, options=saved.setup.options,
                          journal=store.journal(slot), entries=saved.entries, snapshots=saved.snapshots,
                          from_save=f"{store.path}: slot {slot!r}")
    except (Rejected, KeyError, IndexError, ValueError) as exc:
        raise ScriptError(f"{store.path}: slot {slot!r} cannot be replayed ({exc})") from None
    if session.state.over is not None or game.flow.stop_at(session.state) is None:
        log.require_between("cards are bought")  # its setup window is closed: the log's own refusal
    inv = log.body["players"].get(str(_seat(seat)))
    at = next((int(n) for n, i in session.view()["investigators"].items() if i == inv), None)
    if inv is None or at is None:
        raise Rejected(f"seat {_seat(seat)} plays no investigator in {playing['scenario']} (slot {slot!r})")
    words = [f"seat{at}", title, str(_number(level, "LEVEL"))]
    words += [w for w, on in (("exceptional", args.exceptional), ("permanent", args.permanent)) if on]
    named = (("upgrade", args.upgrade), ("remove", args.remove))
    words += [f"{key}={value}" for key, value in named if value is not None]
    if args.card_class not in (None, "neutral"):
        words.append(f"class={args.card_class}")
    before = session.state.value(seat_track(at, "xp"))
    outcome = session.perform(Command("buy", tuple(words)))
    if not outcome.accepted:
        raise Rejected(f"{playing['scenario']} is open in slot {slot!r}: {outcome.reason}")
    session.keep_snapshot()  # resumed past stale snapshots (an update): the next resume starts from here
    cost = before - session.state.value(seat_track(at, "xp"))
    return f"seat {_seat(seat)} buys {title} for {cost} experience (in slot {slot!r}, before its first round)"


def run(args: argparse.Namespace) -> int:
    from tablekeeper.games.arkham.campaign import Campaign

    if args.action != "new" and not Path(args.save).is_file():
        raise ScriptError(f"{args.save}: no such save file")
    with Store.open(args.save) as store:
        body = store.campaign(args.name)
        if args.action == "new":
            if body is not None:
                raise ScriptError(f"{args.save}: a campaign {args.name!r} is already kept there")
            (campaign,) = _words(args, 1, 1, "CAMPAIGN")
            players: dict[int, str] = {}
            for item in args.seat:
                seat, sep, inv = item.partition("=")
                if not sep or not inv:
                    raise ScriptError(f"campaign new: --seat {item!r}: expected N=INVESTIGATOR")
                if _seat(seat) in players:
                    raise ScriptError(f"campaign new: --seat {seat} is given twice ({players[_seat(seat)]}, {inv})")
                players[_seat(seat)] = inv
            pool = [i for i in args.pool.split(",") if i] if args.pool is not None else None
            log = Campaign.new(campaign, args.difficulty, players, pool)
            store.save_campaign(args.name, "arkham", log.body)
            print(describe(args.name, log))
            return 0
        if body is None:
            raise ScriptError(f"{args.save}: no campaign {args.name!r} (play --campaign {args.name} keeps one "
                              f"when a scenario ends, or: tablekeeper campaign {args.save} {args.name} new CAMPAIGN)")
        log = Campaign.load(body, source=f"{args.save}: campaign {args.name!r}")
        if log.in_play(store.slots()) is None:
            log.body.pop("in_play", None)  # its slot was deleted: that scenario is no longer being played
        if args.action == "show":
            print(describe(args.name, log))
            return 0
        playing = log.in_play(store.slots())
        if args.action == "buy" and playing is not None:
            print(buy_in_open_scenario(store, log, playing, args))  # the session's log copy is the one kept
            return 0
        try:
            said = apply(log, args)
        except Rejected:
            if log.status == "lost":  # AH-KILLED-2: the empty pool is the campaign's result, kept
                store.save_campaign(args.name, "arkham", log.body)
            raise
        store.save_campaign(args.name, "arkham", log.body)
    print(said)
    return 0

