"""Spirit Island on the station: the turn as steps, the Fear Pool and deck, the Invader track,
the Blight card, per-Spirit Energy and card plays, and the endings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from msgspec.structs import replace

from tablekeeper.core import packs as packlib
from tablekeeper.core.chance import Deck, Multiset
from tablekeeper.core.events import Command, Json
from tablekeeper.core.frozen import thaw
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.numbers import is_number
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter, seat_track
from tablekeeper.core.view import Panel
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.spirit_island import blight as blightmod
from tablekeeper.games.spirit_island import (
    blight_effects,
    blight_track,
    fear,
    invader_counts,
    invader_track,
    lands,
    odds,
    panels,
    seat_menu,
    spirit_data,
    spirits,
    table_actions,
    verbs,
)
from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island.common import adversary, blight_card, deck_of, slots, table
from tablekeeper.games.spirit_island.data_files import PACKAGE
from tablekeeper.games.spirit_island.record import SpiritIslandRecord, shared
from tablekeeper.games.spirit_island.turn import FLOW


def _option_adversary(text: str, data: datamod.TableData) -> tuple[str, int] | None:
    """``adversary=england:3``: an adversary by key (or name) and level 0 to 6."""
    if not text:
        return None
    name, _, level = text.rpartition(":")
    keys = {k: k for k in data.adversaries} | {a.name.lower(): k for k, a in data.adversaries.items()}
    key = keys.get(name.strip().lower().replace("-", "_")) or keys.get(name.strip().lower())
    if not is_number(level, signed=False) or key is None or int(level) > 6:
        raise ConfigError(f"--option adversary={text!r}: expected one of "
                          f"{', '.join(sorted(data.adversaries))} at level 0 to 6, e.g. england:3")
    return key, int(level)


def _option_boards(text: str, players: int, data: datamod.TableData) -> list[str]:
    """``boards=2`` (the first boards in order) or ``boards=A,C`` (those boards)."""
    known = sorted(data.boards)
    if not text:
        text = str(players)
    if is_number(text, signed=False):
        n = int(text)
        if not 1 <= n <= len(known):
            raise ConfigError(f"--option boards={text!r}: expected 1 to {len(known)} boards, or letters "
                              f"such as A,C ({', '.join(known)})")
        return known[:n]
    letters = [b.strip().upper() for b in text.replace(",", " ").split()] if "," in text or " " in text \
        else list(text.strip().upper())
    bad = [b for b in letters if b not in data.boards]
    if not letters or bad or len(set(letters)) != len(letters):
        raise ConfigError(f"--option boards={text!r}: expected a number of boards or different board letters "
                          f"({', '.join(known)})")
    return letters


def _option_spirits(options: Mapping[str, str], players: int) -> dict[str, str]:
    """``spirits=river,lightning``: the Spirit of each seat in order, by key or name (``-`` for none)."""
    text = options.get("spirits", "")
    if not text:
        return {}
    names = [n.strip() for n in text.split(",")]
    book = spirit_data.load(options.get("spirit_data") or None, packlib.active(options, "spirit_island", PACKAGE))
    if len(names) > players:
        raise ConfigError(f"--option spirits={text!r}: {len(names)} Spirits for {players} seats")
    keys: dict[str, str] = {}
    for i, name in enumerate(names, 1):
        if name == "-":
            continue
        key = book.find(name)
        if key is None:
            raise ConfigError(f"--option spirits={text!r}: unknown Spirit {name.lower()!r} "
                              f"(known: {', '.join(sorted(book.spirits))})")
        keys[str(i)] = key
    return keys


def _adversary_view(state: GameState) -> dict[str, Json] | None:
    key, level = adversary(state)
    if not key:
        return None
    at = table(state).adversary_at(key, level)
    return {"key": key, "name": at.name, "level": level, "difficulty": at.difficulty,
            "fear_cards": list(at.fear_cards), "verified": at.verified}


class SpiritIsland(Game):
    name = "spirit_island"
    title = "Spirit Island"
    seats_min = 1
    seats_max = 4
    seats_default = 2
    flow = FLOW
    file_options = frozenset({"data", "spirit_data"})
    pack_package = PACKAGE  # its data/ folder is the pack "core"
    record_type = SpiritIslandRecord
    # spirits have no health: the HP die counts the spirit's Energy (it says "energy"), as the dial's RES
    # does; the dial's other slots are not used
    counter_tracks: ClassVar[Mapping[str, str | None]] = {"hp": "energy", "resources": "energy"}
    track_words: ClassVar[Mapping[str, str]] = {"fear.generated": "fear", "fear.pool": "fear pool",
                                                "blight.card": "blight on the card", "island.towns": "towns",
                                                "island.cities": "cities", "island.explorers": "explorers"}

    def seat_name(self, state: GameState, seat: int) -> str:
        """The Spirit by the name the table gave it at setup ("River"), else "seat N"."""
        key = shared(state).spirits.get(str(seat))
        return str(key).replace("_", " ").capitalize() if key else f"seat {seat}"

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        known = {"data", "blight", "adversary", "invaders", "events", "boards", "spirits", "spirit_data", "fear_cards",
                 "links", packlib.PACKS_OPTION}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(f"unknown option {unknown[0]!r} for spirit_island (options: {', '.join(sorted(known))})")
        data = datamod.load(options.get("data") or None, packlib.active(options, "spirit_island", PACKAGE))
        players = state.seats
        boards = _option_boards(options.get("boards", ""), players, data)
        card_name = options.get("blight", data.default_blight_card)
        card = None if card_name.lower() == "none" else data.blight_card(card_name)
        try:
            links = lands.parse_links(options.get("links", ""), boards)
        except ValueError as err:
            raise ConfigError(f"--option links={options['links']!r}: {err}") from None
        draws = options.get("invaders", "device")
        if draws not in ("device", "report"):
            raise ConfigError(f"--option invaders={draws!r}: expected device or report")
        seat_spirits = _option_spirits(options, players)
        events = options.get("events", "off")
        if events not in ("on", "off"):
            raise ConfigError(f"--option events={events!r}: expected on or off")
        naming = options.get("fear_cards", "device")
        if naming not in ("device", "report"):
            raise ConfigError(f"--option fear_cards={naming!r}: expected device or report")
        adversary = _option_adversary(options.get("adversary", ""), data)
        fear_cards = data.fear_cards_per_level
        pool_per_player = data.fear_pool_per_player
        if adversary is not None:
            at = data.adversary_at(*adversary)
            fear_cards = at.fear_cards
            pool_per_player += at.fear_pool_per_player
        fear_stages = tuple(Multiset.of({"Fear card": n}) for n in fear_cards)
        order = data.deck_order(*(adversary or ("", 0)))
        book = spirit_data.load(options.get("spirit_data") or None, packlib.active(options, "spirit_island", PACKAGE))
        tracks = {
            "fear.pool": Counter(pool_per_player * players, 1, None),  # SI-FEARPOOL-1
            "fear.generated": Counter(0, 0, None),
            "fear.earned": Counter(0, 0, None),
            "fear.cards_left": Counter(sum(fear_cards), 0, None),
            "terror": Counter(fear.terror_after(Deck("fear", fear_stages)), 1, 4),
            "blight.card": Counter(blightmod.setup_amount(card, players, data.blight_space_per_player), 0, None),
            "blight.flipped": Counter(0, 0, 1),
            "invader.stage": Counter(order[0].stage if order else 1, 1, 3),
            "invader.cards_left": Counter(sum(g.count for g in order), 0, None),
        }
        healing = data.adversary_at(*adversary).applies.get("slow_healing") if adversary is not None else None
        if healing:
            tracks[blight_track.HEALING] = Counter(0, 0, None)
        for piece in ("explorers", "towns", "cities"):
            tracks[f"island.{piece}"] = Counter(0, 0, None)  # the setup question places the printed pieces
        for seat in state.seat_numbers():
            spirit = book.spirits.get(seat_spirits.get(str(seat), ""))
            start = spirit_data.track_state(spirit, 0, 0) if spirit else None
            tracks[seat_track(seat, "energy")] = Counter(data.spirit_energy, 0, None)
            income = start.energy if start else data.spirit_energy_per_turn
            tracks[seat_track(seat, "energy_per_turn")] = Counter(income, 0, None)
            tracks[seat_track(seat, "card_plays")] = Counter(start.plays if start else data.spirit_card_plays, 0, None)
            tracks[seat_track(seat, "cards_played")] = Counter(0, 0, None)
            presence = sum(s.count * max(1, s.most_dahan) for s in spirit.start) if spirit else data.presence_per_spirit
            tracks[seat_track(seat, "presence")] = Counter(presence, 0, None)
            if spirit:
                tracks[seat_track(seat, "energy_track")] = Counter(0, 0, len(spirit.energy_track) - 1)
                tracks[seat_track(seat, "plays_track")] = Counter(0, 0, len(spirit.plays_track) - 1)
        sources = {"invaders": invader_track.build_deck(order), "fear": Deck("fear", fear_stages, reshuffle=False),
                   "fear_cards": Deck.plain("fear_cards", [c.name for c in data.fear_cards], reshuffle=False),
                   "blight_deck": Deck.plain("blight_deck", [c.name for c in data.blight_cards
                                                             if not card or c.name != card.name], reshuffle=False)}
        immigration = data.adversary_at(*adversary).high_immigration if adversary is not None else ""
        record = SpiritIslandRecord(
            data_path=options.get("data") or None, spirit_data=options.get("spirit_data") or None,
            packs=options.get(packlib.PACKS_OPTION) or None, blight_card=card.name if card else None,
            adversary=adversary, invader_draws="report" if draws == "report" else "device",
            fear_naming="report" if naming == "report" else "device", events=events == "on", boards=tuple(boards),
            links=tuple(links), spirits=seat_spirits,
            healing_limit=healing[0] * players if healing else 0, immigration_tile=1 if immigration else 0)
        return replace(state, tracks=tracks, sources=sources, record=record)

    # --- commands -------------------------------------------------------------------------------
    def verbs(self) -> Mapping[str, Verb]:
        return verbs.VERBS

    def choices(self) -> Mapping[str, ChoiceHandler]:
        return verbs.CHOICES

    # --- hooks ----------------------------------------------------------------------------------
    def check_track(self, state: GameState, track: str, value: int) -> None:
        if track == "fear.pool":
            reason = fear.pool_ok(state, value)
            if reason:
                raise Rejected(reason)
        elif track == "blight.flipped" and value < state.value(track):
            raise Rejected("the Blight card never flips back to Healthy Island")

    def on_track(self, txn: Txn, track: str, old: int, new: int) -> None:
        if track == "fear.generated" and new > old:
            fear.on_generated(txn, new)
        elif track == "blight.card" and new == 0 and old > 0:
            self._blight_card_emptied(txn)
        elif track.endswith(".energy_per_turn"):
            spirits.growth_changed_income(txn, track, old, new)
        elif track.endswith((".energy_track", ".plays_track")):
            spirits.follow_tracks(txn, int(track.removeprefix("seat").split(".")[0]))
        elif track.startswith("island.") and lands.unplaced(txn.state, track.removeprefix("island.")):
            # a hand change of the island's count: the players say in which land
            invader_counts.ask_where(txn, track.removeprefix("island."), new - old)

    def _blight_card_emptied(self, txn: Txn) -> None:
        """A hand correction that empties the card: flip it, draw a new card for a Still Healthy
        one, or lose on a Blighted Island."""
        card = blight_card(txn.state)
        if card is not None and card.still_healthy and txn.value("blight.flipped"):
            txn.put(blight_track.DRAWING, 1)
            blight_track.next_question(txn)
            return
        if card is None or txn.value("blight.flipped"):
            txn.put("defeat.pending", ["the Blighted Island ran out of Blight"])
            return
        txn.set("blight.flipped", 1)
        txn.set("blight.card", blightmod.flip_amount(card, txn.state.seats))
        side = "Still Healthy" if card.still_healthy else "Blighted Island"
        txn.notice(f"{side}: {txn.value('blight.card')} Blight")
        blight_effects.immediately(txn)

    def on_draw(self, txn: Txn, source: str, outcome: str) -> None:
        if source == "invaders":
            invader_track.on_drawn(txn, outcome)
        elif source == "fear" and not shared(txn.state).fear_earning:
            raise Rejected("Fear cards are earned by generating Fear: fear N")
        elif source == "fear_cards":
            fear.on_drawn(txn, outcome)
        elif source == "blight_deck":
            blight_track.drawn(txn, outcome)

    # --- station --------------------------------------------------------------------------------
    def panels(self, state: GameState) -> dict[str, Panel]:
        return panels.panels(self, state)

    def adjustable(self, state: GameState) -> list[str]:
        return panels.adjustable(state)

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        return panels.button(state, role, held)

    def names(self, state: GameState) -> dict[str, tuple[str, ...]]:
        """Besides seats and tracks: the lands of the boards in play, the Spirits' Power Cards and
        Innate Powers by name, and the elements."""
        seated = [spirit for seat in state.seat_numbers() if (spirit := spirits.spirit_of(state, seat)) is not None]
        cards = tuple(dict.fromkeys(str(card.name) for spirit in seated for card in spirit.cards))
        innates = tuple(dict.fromkeys(str(innate.name) for spirit in seated for innate in spirit.innates))
        return {**super().names(state), "LAND": tuple(lands.places(state)), "play:NAME": cards,
                "innate:NAME": innates, "ELEMENT": spirit_data.ELEMENTS}

    def legend(self, state: GameState, seat: int) -> str | None:
        """In the seat's own menu A does the item shown and B shows the next one."""
        return seat_menu.legend(state, seat)

    def view_extra(self, state: GameState) -> dict[str, Json]:
        return {"spirit_island": {
            "slots": {**slots(state).as_mapping(), **({"immigration": invader_track.immigration(state)}
                                                      if shared(state).immigration_tile else {})},
            "discard": list(shared(state).discard),
            "blight_card": shared(state).blight_card,
            "boards": list(shared(state).boards),
            "spirits": {f"seat{s}": sp.name for s in state.seat_numbers() if (sp := spirits.spirit_of(state, s))},
            "adversary": _adversary_view(state),
            "lands": {name: land.to_json() for name, land in shared(state).lands.items()},
            "pending_cascades": list(shared(state).blight_pending),
            "actions": table_actions.open_names(state),
            "fear_resolved": thaw(shared(state).fear_resolved),
            "next_invader_card": odds.as_percent(odds.next_card_terrains(
                deck_of(state, "invaders"), table(state).terrains)) if state.value("invader.cards_left") else {},
            "unverified": panels.unverified(state),
            "elements": {f"seat{s}": spirits.elements(state, s) for s in state.seat_numbers()},
            "played": {f"seat{s}": spirits.played_json(spirits.played(state, s)) for s in state.seat_numbers()},
        }}
