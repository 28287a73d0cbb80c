"""Spirit Island on the station: the turn as steps, the Fear Pool and deck, the Invader track,
the Blight card, per-Spirit Energy and card plays, and the endings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from tablekeeper.core.chance import Deck, Multiset
from tablekeeper.core.events import Command, Json
from tablekeeper.core.frozen import freeze
from tablekeeper.core.game import ChoiceHandler, Game, Txn, Verb
from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import Counter
from tablekeeper.core.view import Panel
from tablekeeper.errors import ConfigError, Rejected
from tablekeeper.games.spirit_island import blight as blightmod
from tablekeeper.games.spirit_island import (
    blight_effects,
    fear,
    invader_track,
    odds,
    panels,
    seat_menu,
    spirit_data,
    spirits,
    table_actions,
    verbs,
)
from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island.common import blight_card, deck_of, get, seat_track, slots, table
from tablekeeper.games.spirit_island.turn import FLOW


def _option_adversary(text: str) -> tuple[str, int] | None:
    if not text:
        return None
    name, _, level = text.partition(":")
    if not level.isdigit():
        raise ConfigError(f"--option adversary={text!r}: expected NAME:LEVEL, e.g. france:6")
    return name.lower(), int(level)


def _option_spirits(options: Mapping[str, str], players: int) -> dict[str, str]:
    """``spirits=river,lightning``: the Spirit of each seat in order (``-`` for none)."""
    text = options.get("spirits", "")
    if not text:
        return {}
    names = [n.strip().lower() for n in text.split(",")]
    book = spirit_data.load(options.get("spirit_data") or None)
    if len(names) > players:
        raise ConfigError(f"--option spirits={text!r}: {len(names)} Spirits for {players} seats")
    for name in names:
        if name != "-" and name not in book.spirits:
            raise ConfigError(f"--option spirits={text!r}: unknown Spirit {name!r} "
                              f"(known: {', '.join(sorted(book.spirits))})")
    return {str(i): n for i, n in enumerate(names, 1) if n != "-"}


class SpiritIsland(Game):
    name = "spirit_island"
    title = "Spirit Island"
    seats_min = 1
    seats_max = 4
    seats_default = 2
    flow = FLOW
    file_options = frozenset({"data", "spirit_data"})
    # spirits have no health: no HP die; the dial's RES counts Energy, its other slots are not used
    counter_tracks: ClassVar[Mapping[str, str | None]] = {"resources": "energy"}

    def setup(self, state: GameState, options: Mapping[str, str]) -> GameState:
        known = {"data", "blight", "adversary", "invaders", "events", "boards", "spirits", "spirit_data"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ConfigError(f"unknown option {unknown[0]!r} for spirit_island (options: {', '.join(sorted(known))})")
        data = datamod.load(options.get("data") or None)
        players = state.seats
        boards_text = options.get("boards", str(players))
        if not boards_text.isdigit() or not 1 <= int(boards_text) <= 6:
            raise ConfigError(f"--option boards={boards_text!r}: expected a number of island boards, 1 to 6")
        boards = int(boards_text)
        card_name = options.get("blight", data.default_blight_card)
        card = None if card_name.lower() == "none" else data.blight_card(card_name)
        draws = options.get("invaders", "device")
        if draws not in ("device", "report"):
            raise ConfigError(f"--option invaders={draws!r}: expected device or report")
        seat_spirits = _option_spirits(options, players)
        events = options.get("events", "off")
        if events not in ("on", "off"):
            raise ConfigError(f"--option events={events!r}: expected on or off")
        adversary = _option_adversary(options.get("adversary", ""))
        fear_cards = data.fear_cards_per_level
        if adversary is not None:
            panel = data.adversaries.get(adversary[0])
            if panel is None or adversary[1] > 6:
                raise ConfigError(f"--option adversary={options['adversary']!r}: expected one of "
                                  f"{', '.join(sorted(data.adversaries))} at level 0 to 6")
            if len(panel.fear_cards) > adversary[1]:
                fear_cards = panel.fear_cards[adversary[1]]
        fear_stages = tuple(Multiset.of({"Fear card": n}) for n in fear_cards)
        order = data.deck_order(*(adversary or ("", 0)))
        tracks = {
            "fear.pool": Counter(data.fear_pool_per_player * players, 1, None),  # SI-FEARPOOL-1
            "fear.generated": Counter(0, 0, None),
            "fear.earned": Counter(0, 0, None),
            "fear.cards_left": Counter(sum(fear_cards), 0, None),
            "terror": Counter(fear.terror_after(Deck("fear", fear_stages)), 1, 4),
            "blight.card": Counter(blightmod.setup_amount(card, players, data.blight_space_per_player), 0, None),
            "blight.flipped": Counter(0, 0, 1),
            "invader.stage": Counter(order[0].stage if order else 1, 1, 3),
            "invader.cards_left": Counter(sum(g.count for g in order), 0, None),
        }
        for piece in ("explorers", "towns", "cities"):
            tracks[f"island.{piece}"] = Counter(data.island_per_board[piece] * boards, 0, None)
        for seat in state.seat_numbers():
            tracks[seat_track(seat, "energy")] = Counter(data.spirit_energy, 0, None)
            tracks[seat_track(seat, "energy_per_turn")] = Counter(data.spirit_energy_per_turn, 0, None)
            tracks[seat_track(seat, "card_plays")] = Counter(data.spirit_card_plays, 0, None)
            tracks[seat_track(seat, "cards_played")] = Counter(0, 0, None)
            tracks[seat_track(seat, "presence")] = Counter(data.presence_per_spirit, 0, None)
        sources = {"invaders": invader_track.build_deck(order), "fear": Deck("fear", fear_stages, reshuffle=False)}
        info: dict[str, Json] = {"data_path": options.get("data") or None, "blight_card": card.name if card else None,
                "adversary": adversary,
                "invader_draws": draws, "events": events == "on", "boards": boards,
                "spirits": seat_spirits or None, "spirit_data": options.get("spirit_data") or None,
                "invader.slots": {"ravage": [], "build": [], "explore": []}, "invader.discard": []}
        kept = {k: freeze(v) for k, v in info.items() if v is not None}
        return replace(state, tracks=tracks, sources=sources, data=kept)

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

    def _blight_card_emptied(self, txn: Txn) -> None:
        """A hand correction that empties the card: flip it, or lose on a Blighted Island."""
        card = blight_card(txn.state)
        if card is None or txn.value("blight.flipped"):
            txn.put("defeat.pending", ["the Blighted Island ran out of Blight"])
            return
        txn.set("blight.flipped", 1)
        txn.set("blight.card", blightmod.flip_amount(card, txn.state.seats))
        txn.notice(f"Blighted Island: {txn.value('blight.card')} Blight")
        blight_effects.immediately(txn)

    def on_draw(self, txn: Txn, source: str, outcome: str) -> None:
        if source == "invaders":
            invader_track.on_drawn(txn, outcome)
        elif source == "fear" and not txn.state.get("fear.earning"):
            raise Rejected("Fear cards are earned by generating Fear: fear N")

    # --- station --------------------------------------------------------------------------------
    def panels(self, state: GameState) -> dict[str, Panel]:
        return panels.panels(self, state)

    def adjustable(self, state: GameState) -> list[str]:
        return panels.adjustable(state)

    def button(self, state: GameState, role: str, held: bool) -> Command | None:
        return panels.button(state, role, held)

    def legend(self, state: GameState, seat: int) -> str | None:
        """In the seat's own menu A does the item shown and B shows the next one."""
        return seat_menu.legend(state, seat)

    def view_extra(self, state: GameState) -> dict[str, Json]:
        return {"spirit_island": {
            "slots": slots(state).as_mapping(),
            "discard": get(state, "invader.discard", []),
            "blight_card": state.get("blight_card"),
            "lands": get(state, "lands", {}),
            "pending_cascades": get(state, "blight.pending", []),
            "actions": table_actions.open_names(state),
            "fear_resolved": get(state, "fear.resolved", []),
            "next_invader_card": odds.as_percent(odds.next_card_terrains(
                deck_of(state, "invaders"), table(state).terrains)) if state.value("invader.cards_left") else {},
            "elements": {f"seat{s}": spirits.elements(state, s) for s in state.seat_numbers()},
            "played": {f"seat{s}": spirits.played_json(spirits.played(state, s)) for s in state.seat_numbers()},
        }}
