"""The table of Earthborne verbs: usage, help and handler, each guarded once the day has ended."""

from __future__ import annotations

from collections.abc import Callable

from tablekeeper.core.game import Txn
from tablekeeper.games.earthborne import cards, challenge, rangers
from tablekeeper.games.earthborne.parsing import guard

Handler = Callable[[Txn, tuple[str, ...]], None]
HANDLERS: dict[str, tuple[str, str, Handler]] = {
    "card": ("card NAME [progress=N|Nr|-] [harm=..] [area=..] [seat=N] [type=..] [presence=N] [icons=..] "
             "[entry=N] [clear=TEXT] [obstacle] [persistent] [exhausted]", "put a card in play", cards.card_verb),
    "location": ("location NAME THRESHOLD [icons=..]", "place the location (progress threshold, Nr per Ranger)",
                 cards.location_verb),
    "progress": ("progress CARD|location +N|-N [by=SEAT|challenge]", "add or remove progress",
                 cards.tokens_verb("progress")),
    "harm": ("harm CARD|location +N|-N [by=SEAT|challenge]", "add or remove harm", cards.tokens_verb("harm")),
    "exhaust": ("exhaust CARD", "exhaust a card", cards.set_ready_verb(False)),
    "ready": ("ready CARD", "ready a card", cards.set_ready_verb(True)),
    "discard": ("discard CARD", "a card leaves play without clearing", cards.discard_verb),
    "rtoken": ("rtoken SEAT CARD", "move a Ranger's token onto a card", cards.rtoken_verb),
    "step": ("step LABEL", "open a rules step: clears wait until it is resolved", cards.step_verb),
    "resolve": ("resolve [LABEL]", "the open step or the shown effect is resolved", cards.resolve_verb),
    "response": ("response WINDOW LABEL [seat=N] [card=K] [type=T] [kind=K] [you] [once]",
                 "a standing effect (before/when/after a clear, place-progress, place-harm, rest)",
                 cards.response_verb),
    "unrespond": ("unrespond LABEL", "remove a standing effect", cards.unrespond_verb),
    "turn": ("turn SEAT [role]", "start a Ranger's turn (role: exhaust the role card to go again)", rangers.turn_verb),
    "rest": ("rest [SEAT]", "the Ranger rests: no more turns this round", rangers.rest_verb),
    "test": ("test SEAT ASPECT DIFFICULTY [energy=N] [commit=N] [icons=N] [effort=N] [target=CARD]",
             "start a test (commit: hand cards discarded for their icons)", challenge.test_verb),
    "play": ("play SEAT NAME [cost=ASPECT:N] [equip=N]", "play a Ranger card from hand (a turn action)",
             rangers.play_verb),
    "odds": ("odds ASPECT EFFORT DIFFICULTY", "exact chance a test succeeds now", challenge.odds_verb),
    "fatigue": ("fatigue SEAT N", "the Ranger suffers N fatigue", rangers.fatigue_verb),
    "soothe": ("soothe SEAT N", "move N fatigue cards to the hand", rangers.soothe_verb),
    "injure": ("injure SEAT", "the Ranger suffers an injury", rangers.injure_verb),
    "rdraw": ("rdraw SEAT [N]", "the Ranger draws N Ranger cards", rangers.rdraw_verb),
    "aspects": ("aspects SEAT AWA FIT SPI FOC", "set a Ranger's aspect values", rangers.aspects_verb),
    "equip": ("equip SEAT NAME VALUE", "equip gear (equip limit)", rangers.equip_verb),
}


def guarded(handler: Handler) -> Handler:
    def run(txn: Txn, args: tuple[str, ...]) -> None:
        guard(txn)
        handler(txn, args)
    return run


def verb_table() -> dict[str, tuple[str, str, Handler]]:
    return {name: (usage, text, guarded(handler)) for name, (usage, text, handler) in HANDLERS.items()}
