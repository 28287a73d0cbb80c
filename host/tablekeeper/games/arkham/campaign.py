"""The campaign log (AH-CAMP, AH-XP, AH-TRAUMA, AH-KILLED, AH-NEXT, AH-JOIN): what each investigator
carries from one scenario to the next. Pure: the runner keeps the log in the save store
(``Game.campaign_record``, ``play --save FILE --campaign NAME``); this module does no I/O.

A scenario starts from ``Campaign.start_scenario()`` (the options of a new session: trauma as
starting damage and horror, unspent experience) and ends with ``Campaign.record(state, ...)``,
which reads the finished session's tracks.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

import msgspec

from tablekeeper.core.state import GameState
from tablekeeper.core.tracks import seat_track
from tablekeeper.errors import Rejected
from tablekeeper.games.arkham import rules
from tablekeeper.games.arkham.arkhamdb import purchasable
from tablekeeper.games.arkham.data import DIFFICULTIES, load_investigators, load_scenarios
from tablekeeper.games.arkham.decks import (
    WEAKNESS_SEP,
    DeckCard,
    access_problem,
    check_class,
    deck_problems,
    deck_xp,
)
from tablekeeper.games.arkham.record import rec
from tablekeeper.schema import decode


class _Stored(msgspec.Struct, forbid_unknown_fields=True):
    pass


class StoredCard(_Stored):
    title: str
    level: int | None = None
    kind: str = "standard"
    card_class: str = "neutral"
    exceptional: bool = False
    permanent: bool = False


class StoredPurchase(_Stored):
    title: str
    level: int
    cost: int


class StoredInvestigator(_Stored):
    xp: int
    physical_trauma: int
    mental_trauma: int
    fate: Literal["killed", "insane"] | None = None
    purchases: list[StoredPurchase] = []
    deck: list[StoredCard] | None = None


class StoredResult(_Stored):
    scenario: str
    resolution: str
    victory: list[int]
    xp: int
    records: list[str] = []


class StoredInPlay(_Stored):
    scenario: str
    slot: str


class StoredLog(_Stored):
    """The shape of a campaign log as the save store keeps it: checked once when a log is read back,
    so a damaged or foreign log is one line naming its key, not an error deep inside a rule."""

    campaign: str
    difficulty: str
    sequence: list[str]
    next: int
    status: Literal["between", "playing", "lost"]
    players: dict[str, str]
    investigators: dict[str, StoredInvestigator]
    used: list[str]
    pool: list[str]
    results: list[StoredResult]
    in_play: StoredInPlay | None = None


class Campaign:
    """One campaign log as plain JSON (``body``), changed only through these methods."""

    def __init__(self, body: Mapping[str, Any]) -> None:
        self.body: dict[str, Any] = copy.deepcopy(dict(body))

    @classmethod
    def load(cls, body: Any, *, source: str) -> Campaign:
        """A stored log, its shape checked first (``ConfigError`` naming ``source`` and the key)."""
        decode(body, StoredLog, source=source)
        return cls(body)

    # --- creating and storing ----------------------------------------------------------------
    @classmethod
    def new(cls, campaign: str, difficulty: str, players: Mapping[int, str],
            investigators: Sequence[str] | None = None) -> Campaign:
        _, campaigns = load_scenarios()
        if campaign not in campaigns:
            raise Rejected(f"unknown campaign {campaign!r} (known: {', '.join(sorted(campaigns))})")
        if difficulty not in DIFFICULTIES:
            raise Rejected(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
        pool = list(investigators) if investigators is not None else sorted(load_investigators())
        log = cls({"campaign": campaign, "difficulty": difficulty, "sequence": list(campaigns[campaign]),
                   "next": 0, "status": "between", "players": {}, "investigators": {}, "used": [],
                   "pool": pool, "results": []})
        for seat, inv in sorted(players.items()):
            log.join(seat, inv)
        return log

    # --- reading ---------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        return str(self.body["status"])

    def investigator(self, inv: str) -> dict[str, Any]:
        found: dict[str, Any] = self.body["investigators"][inv]
        return found

    def next_scenario(self) -> str | None:
        index = int(self.body["next"])
        seq = self.body["sequence"]
        return str(seq[index]) if index < len(seq) else None

    # --- the scenario cycle ---------------------------------------------------------------------
    def start_scenario(self) -> dict[str, str]:
        """Options for the next scenario's session. AH-CAMP-2: blocked until the last one is logged."""
        if self.status == "playing":
            raise Rejected("record the last scenario's results in the campaign log before starting the next")
        if self.status != "between":
            raise Rejected(f"the campaign is {self.status}")
        scenario = self.next_scenario()
        if scenario is None:
            raise Rejected("the campaign has no scenario left")
        if not self.body["players"]:
            raise Rejected("no player is in the campaign")
        options = self.session_options({})
        self.body["status"] = "playing"
        return options

    def in_play(self, slots: Collection[str] | None = None) -> Mapping[str, str] | None:
        """The scenario ``play --campaign`` began and has not logged yet: ``{"scenario", "slot"}``.
        A marker whose slot is no longer among ``slots`` (deleted) no longer counts."""
        found = self.body.get("in_play")
        if not isinstance(found, dict) or (slots is not None and found.get("slot") not in slots):
            return None
        return found

    def begin(self, scenario: str, slot: str, slots: Collection[str]) -> bool:
        """Mark ``scenario`` as being played in save slot ``slot`` (AH-JOIN-1: players and decks are then
        fixed until its result is logged). Refused while another slot plays one (AH-CAMP-2).
        Returns whether the log changed."""
        playing = self.in_play(slots)
        if playing is not None and playing["slot"] != slot:
            raise Rejected(f"{playing['scenario']} is being played in slot {playing['slot']!r}: "
                           "finish it (its resolution is logged) before starting another scenario")
        if playing is not None:
            return False
        self.body["in_play"] = {"scenario": scenario, "slot": slot}
        return True

    def logged_entries(self, scenario: str) -> list[str]:
        """The entries ``scenario``'s setup reads that the log holds: a result's ``record`` line equal to
        the entry's line, in any case and with or without its full stop."""
        def plain(line: str) -> str:
            return " ".join(line.casefold().rstrip(".").split())

        held = {plain(line) for result in self.body["results"] for line in result.get("records", ())}
        found = load_scenarios()[0].get(scenario)
        return [] if found is None else [c.log for c in found.logged if c.record and plain(c.record) in held]

    def session_options(self, explicit: Mapping[str, str]) -> dict[str, str]:
        """The next scenario's session options: its id, the difficulty, each seat's investigator with
        the trauma (AH-TRAUMA-2/4: starting damage and horror) and unspent experience it carries.
        ``explicit`` options win; a seat given a new investigator starts it fresh (AH-JOIN-3)."""
        scenario = self.next_scenario()
        if scenario is None:
            raise Rejected(f"the campaign {self.body['campaign']} has no scenario left")
        options = {"scenario_id": scenario, "difficulty": str(self.body["difficulty"]), "mode": "campaign",
                   "campaign_id": str(self.body["campaign"])}
        players = sorted(self.body["players"].items(), key=lambda kv: int(kv[0]))
        for index, (_seat, inv) in enumerate(players, 1):
            options[f"seat{index}"] = str(inv)
        logged = self.logged_entries(scenario)
        if logged:  # a setup that reads the campaign log (01120: the Ghoul Priest still alive)
            options["log"] = ",".join(logged)
        options.update(explicit)
        index = 1
        while f"seat{index}" in options:
            inv = options[f"seat{index}"]
            record = self.body["investigators"].get(inv)
            if record is not None and record.get("fate"):
                raise Rejected(f"{inv} is {record['fate']}: choose another investigator (--option seat{index}=ID)")
            for key in ("physical_trauma", "mental_trauma", "xp"):
                options.setdefault(seat_track(index, key), str(record[key] if record else 0))
            kept = self.kept_deck(inv)
            if kept is not None:  # the deck the log holds, not the generic size (AH-DB-2)
                options.setdefault(seat_track(index, "deck"), str(sum(1 for c in kept if not c.permanent)))
                options.setdefault(seat_track(index, "weaknesses"), WEAKNESS_SEP.join(
                    c.title for c in kept if c.weakness))
            index += 1
        return options

    @classmethod
    def after(cls, previous: Mapping[str, Any] | None, state: GameState) -> Campaign:
        """The log once ``state``'s finished scenario is written into ``previous`` (a new log for
        the first scenario). A seat's new investigator joins the log fresh (AH-JOIN-3, AH-KILLED-1)."""
        scenario = rec(state).scenario
        log = cls(previous) if previous else cls.new(scenario.campaign, scenario.difficulty, {})
        log.body["players"] = {}
        for seat in state.seat_numbers():
            inv = rec(state).seats[str(seat)].investigator
            if inv not in log.body["investigators"]:
                if inv not in log.body["pool"]:
                    log.body["pool"].append(inv)  # from the players' own investigators file
                log._take(inv)
            log.body["players"][str(seat)] = inv
        log.body["status"] = "playing"
        log.record(state, rec(state).xp_bonus, rec(state).go_to)
        return log

    def record(self, state: GameState, resolution_bonus: int = 0, go_to: str | None = None) -> dict[str, int]:
        """Write a finished scenario into the log: AH-XP-1/2 experience (victory display plus the
        resolution's adjustment, added to what was unspent), trauma from the session's tracks,
        AH-TRAUMA-3/4 killed or insane, AH-NEXT-1 the next scenario. Returns XP earned per investigator."""
        if self.status != "playing":
            raise Rejected("no scenario of this campaign is being played")
        if state.over is None:
            raise Rejected("the scenario has not ended yet")
        people = load_investigators()
        earned = rules.xp_earned(rec(state).victory, resolution_bonus)
        gains: dict[str, int] = {}
        for seat in state.seat_numbers():
            inv = rec(state).seats[str(seat)].investigator
            record = self.investigator(inv)
            record["physical_trauma"] = state.value(seat_track(seat, "physical_trauma"))
            record["mental_trauma"] = state.value(seat_track(seat, "mental_trauma"))
            record["xp"] = state.value(seat_track(seat, "xp")) + earned
            gains[inv] = earned
            printed = people.get(inv)
            if printed is not None:
                fate = rules.killed_or_insane(record["physical_trauma"], record["mental_trauma"], printed.health,
                                              printed.sanity)
                if fate:
                    record["fate"] = fate
        ended = str(state.over) + (f", then {rec(state).resolution_to}" if rec(state).resolution_to else "")
        self.body["results"].append({"scenario": rec(state).scenario.id, "resolution": ended,
                                     "victory": list(rec(state).victory), "xp": earned,
                                     "records": list(rec(state).records)})
        sequence = self.body["sequence"]
        if go_to is not None:
            if go_to not in sequence:
                raise Rejected(f"the campaign has no scenario {go_to!r}")
            self.body["next"] = sequence.index(go_to)
        else:
            self.body["next"] = int(self.body["next"]) + 1
        self.body["status"] = "between"
        self.body.pop("in_play", None)
        return gains

    # --- between scenarios -------------------------------------------------------------------
    def require_between(self, what: str) -> None:
        """AH-JOIN-1 / AH-XP-9: players and decks change only between scenarios."""
        playing = self.in_play()
        if playing is not None:
            raise Rejected(f"{what} only between scenarios: {playing['scenario']} is being played "
                           f"(slot {playing['slot']!r}); log its resolution first")
        if self.status != "between":
            raise Rejected(f"{what} only between scenarios (the campaign is {self.status})")

    def join(self, seat: int, inv: str) -> None:
        """AH-JOIN-3: a newcomer takes an investigator not yet used and starts fresh."""
        self.require_between("players join")
        if str(seat) in self.body["players"]:
            raise Rejected(f"seat {seat} already plays {self.body['players'][str(seat)]}")
        self._take(inv)
        self.body["players"][str(seat)] = inv

    def leave(self, seat: int) -> None:
        """AH-JOIN-2: the departing player's log entries stay for a return."""
        self.require_between("players leave")
        if str(seat) not in self.body["players"]:
            raise Rejected(f"seat {seat} is not in the campaign")
        del self.body["players"][str(seat)]

    def rejoin(self, seat: int, inv: str) -> None:
        """AH-JOIN-2: a returning player takes their kept investigator back."""
        self.require_between("players return")
        if inv not in self.body["investigators"] or inv in self.body["players"].values():
            raise Rejected(f"{inv} has no kept record to return to")
        if self.investigator(inv).get("fate"):
            raise Rejected(f"{inv} is {self.investigator(inv)['fate']}")
        self.body["players"][str(seat)] = inv

    def replace(self, seat: int, inv: str | None) -> None:
        """AH-KILLED-1: a killed or insane investigator is replaced by one never used;
        AH-KILLED-2: with none left in the pool, the campaign is lost."""
        self.require_between("investigators are replaced")
        current = self.body["players"].get(str(seat))
        if current is None or not self.investigator(current).get("fate"):
            raise Rejected(f"seat {seat}'s investigator is neither killed nor insane")
        free = [i for i in self.body["pool"] if i not in self.body["used"]]
        if not free:
            self.body["status"] = "lost"
            raise Rejected("no investigator is left in the pool: the campaign is lost")
        if inv is None:
            raise Rejected(f"choose a new investigator ({', '.join(free)})")
        self._take(inv)
        self.body["players"][str(seat)] = inv

    def _take(self, inv: str) -> None:
        if inv in self.body["investigators"]:
            fate = self.investigator(inv).get("fate")
            raise Rejected(f"{inv} is {fate}" if fate else f"{inv} has already been used in this campaign")
        if inv not in self.body["pool"]:
            raise Rejected(f"{inv} is not in the investigator pool")
        self.body["used"].append(inv)
        self.body["investigators"][inv] = {"xp": 0, "physical_trauma": 0, "mental_trauma": 0, "fate": None,
                                           "purchases": []}

    def deck(self, seat: int) -> list[DeckCard] | None:
        return self.kept_deck(self._player(seat))

    def kept_deck(self, inv: str) -> list[DeckCard] | None:
        """The deck list the log keeps for ``inv`` (None: none kept, the session uses a generic size)."""
        record = self.body["investigators"].get(inv)
        raw = None if record is None else record.get("deck")
        return None if raw is None else [DeckCard.from_json(c) for c in raw]

    def _player(self, seat: int) -> str:
        inv = self.body["players"].get(str(seat))
        if inv is None:
            raise Rejected(f"seat {seat} is not in the campaign")
        return str(inv)

    def set_deck(self, seat: int, cards: Sequence[DeckCard], starting_xp: int = 0,
                 story_allowed: Sequence[str] = (), carried_xp: int | None = None) -> int:
        """AH-DB-1..8: the deck an investigator starts the campaign with; higher-level cards are paid
        from the starting experience (AH-DB-5), or were paid already where the deck was upgraded
        (``carried_xp``: the experience it has left). AH-DB-9: later changes go through purchases
        only. Returns the experience left."""
        self.require_between("decks are built")
        inv = self._player(seat)
        record = self.investigator(inv)
        if record.get("deck") is not None and self.body["results"]:
            raise Rejected("after the first scenario a deck changes only by purchases (buy)")
        printed = load_investigators().get(inv)
        problems = deck_problems(cards, deck_size=printed.deck_size if printed else 30,
                                 access=printed.access if printed else None,
                                 starting_xp=starting_xp if carried_xp is None else None,
                                 story_allowed=story_allowed)
        if problems:
            raise Rejected(f"{inv}'s deck is not legal: " + "; ".join(problems))
        record["deck"] = [c.to_json() for c in cards]
        record["xp"] = starting_xp - deck_xp(cards) if carried_xp is None else carried_xp
        return int(record["xp"])

    def buy(self, seat: int, title: str, level: int, *, exceptional: bool = False,
            upgrade_from: int | None = None, remove: str | None = None, card_class: str | None = None,
            permanent: bool = False) -> int:
        """AH-XP-3/7/8, AH-EXCEPT-1: each copy is bought (and paid) on its own; returns the cost.
        The card is one of the card data (its title, level and class; ``card_class`` must agree).
        With a deck list kept: AH-XP-4 the card must be within the options, AH-XP-5 a nonpermanent
        card replaces a different one (AH-XP-6: never a weakness or a required card), AH-XP-7 an
        upgrade replaces its lower level."""
        self.require_between("cards are bought")
        inv = self._player(seat)
        known = purchasable(title, level, None if card_class is None else check_class(card_class))
        title, card_class = known.title, known.card_class
        cost = rules.xp_cost(level, exceptional=exceptional, upgrade_from=upgrade_from)
        record = self.investigator(inv)
        if record["xp"] < cost:
            raise Rejected(f"{inv} has {record['xp']} experience; {title} costs {cost}")
        deck = self.deck(seat)
        if deck is not None:
            card = DeckCard(title, level, "standard", card_class, exceptional, permanent)
            printed = load_investigators().get(inv)
            problem = access_problem(card, printed.access if printed else None)
            if problem:
                raise Rejected(problem)
            if upgrade_from is not None:
                out = next((c for c in deck if c.title == title and c.level == upgrade_from), None)
                if out is None:
                    raise Rejected(f"no level {upgrade_from} {title} in the deck to upgrade")
            elif permanent:
                out = None
            else:
                if remove is None:
                    raise Rejected(f"buying {title} keeps the deck size: name a card to take out (remove=)")
                out = next((c for c in deck if c.title == remove), None)
                if out is None:
                    raise Rejected(f"no {remove} in the deck")
                if out.title == title:
                    raise Rejected("the card taken out must be a different card")
            if out is not None:
                if out.required:
                    raise Rejected(f"{out.title} is a {out.kind} card: it cannot be taken out")
                deck.remove(out)
            deck.append(card)
            problems = [p for p in deck_problems(deck, deck_size=printed.deck_size if printed else 30,
                                                 starting_xp=None) if "copies" in p or "exceptional" in p]
            if problems:
                raise Rejected("; ".join(problems))
            record["deck"] = [c.to_json() for c in deck]
        record["xp"] -= cost  # AH-XP-10: what is left stays in the log
        record["purchases"].append({"title": title, "level": level, "cost": cost})
        return cost

    def swap(self, seat: int, out: str, card: DeckCard, *, guide: bool = False) -> None:
        """AH-XP-9: outside a purchase, only an explicit campaign-guide instruction changes a deck."""
        self.require_between("decks change")
        check_class(card.card_class)
        if not guide:
            raise Rejected("a deck changes between scenarios only by purchase, or when the campaign guide says so")
        deck = self.deck(seat)
        if deck is None:
            raise Rejected(f"no deck list is kept for seat {seat}")
        found = next((c for c in deck if c.title == out), None)
        if found is None:
            raise Rejected(f"no {out} in the deck")
        deck.remove(found)
        deck.append(card)
        self.investigator(self._player(seat))["deck"] = [c.to_json() for c in deck]
