"""Pure rules about using Powers: Repeat (SI-REPEAT-2/3), Push splits (SI-PUSH-1), what a card's
text qualifies for (SI-FEAR-2, SI-ASPECT-1/2, SI-DAMAGE-3), special rules read per the errata
(SI-ERRATA-1/2), trigger conditions (SI-TRIGGER-2/3), Isolate (SI-ISOLATE-1..3) and counting
(SI-COUNTS-3/5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import combinations_with_replacement
from typing import Annotated, Literal

import msgspec

from tablekeeper.errors import Rejected
from tablekeeper.schema import decode, parse_toml, read_text

DAMAGING = frozenset({"damage", "destroy", "might_damage", "might_destroy"})


def repeat_target_allowed(*, named_land: str | None, land: str, in_range: bool, target_ok: bool) -> bool:
    """SI-REPEAT-2: a Repeat that names a land goes there whatever Range and targeting say; one that
    names no land follows the normal Range and target rules."""
    if named_land is not None:
        return land == named_land
    return in_range and target_ok


def repeat_origin(named_land: str | None, original_origin: str, new_origin: str) -> str:
    """SI-REPEAT-2: with a named land, the origin land is the original use's."""
    return original_origin if named_land is not None else new_origin


def repeat_choice(first: str, requested: str, same_choice_required: bool) -> str:
    """SI-REPEAT-3: a Repeat may choose again unless the Power says to keep the choice."""
    return first if same_choice_required else requested


def push_results(pieces: int, neighbours: Sequence[str]) -> set[tuple[str, ...]]:
    """SI-PUSH-1: pushed pieces may split up or stay together: every multiset of destinations."""
    return {tuple(c) for c in combinations_with_replacement(sorted(neighbours), pieces)}


class PowerCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    cost: Annotated[int, msgspec.Meta(ge=0)]
    speed: Literal["fast", "slow"]
    fear_icon: bool = False
    instructions: frozenset[str] = frozenset()

    @property
    def generates_fear(self) -> bool:
        """SI-FEAR-2: every Power Card showing the Fear symbol generates Fear (as of Nature Incarnate)."""
        return self.fear_icon

    @property
    def violence_qualifies(self) -> bool:
        """SI-ASPECT-1/2, SI-DAMAGE-3: the card itself carries a Damage or Destroy instruction (even
        a "might" one, even behind a threshold); modifying, saving, reacting or reminder text do not."""
        return bool(self.instructions & DAMAGING)


class _PowerBook(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: tuple[PowerCard, ...] = ()


def load_powers(path: str | None = None) -> dict[str, PowerCard]:
    """Power card facts from ``data/powers.toml`` (or a user's copy), by lower-case name."""
    source = path or "spirit_island/data/powers.toml"
    if path is None:
        text = resources.files("tablekeeper.games.spirit_island").joinpath("data/powers.toml").read_text("utf-8")
    else:
        text = read_text(path, what="Power Card data file")
    book = decode(parse_toml(text, source=source), _PowerBook, source=source)
    return {card.name.lower(): card for card in book.cards}


def violence_bonus_play(card: PowerCard) -> None:
    """Raise ``Rejected`` unless the Violence Aspect's extra play may be used for ``card``."""
    if not card.violence_qualifies:
        raise Rejected(f"{card.name} neither deals Damage nor Destroys: no Violence bonus play")


@dataclass(frozen=True, slots=True)
class BringerOutcome:
    destroyed: int
    fear: int
    push: bool


def bringer_destroy(piece: str, count: int, fear_instead: Mapping[str, int], pushes: bool) -> BringerOutcome:
    """SI-ERRATA-1: Bringer's special rule modifies its own Powers: a Destroy becomes Fear (and a
    Push only if the special rule itself says so); no destruction Fear from the pieces."""
    return BringerOutcome(0, fear_instead[piece] * count, pushes)


def france6_explorers(explore_cards_resolved: int) -> int:
    """SI-ERRATA-2: France level 6 fires after each Explore card resolved, not once per phase."""
    return explore_cards_resolved


def new_sacred_sites(before: Mapping[str, int], after: Mapping[str, int]) -> list[str]:
    """SI-TRIGGER-2 (Forbidden Ground): lands that just became Sacred Sites (from <2 to 2+)."""
    return sorted(land for land, n in after.items() if n >= 2 and before.get(land, 0) < 2)


def forbidden_ground_fires(before: Mapping[str, int], after: Mapping[str, int]) -> tuple[int, list[str]]:
    """One trigger per action, pushing Dahan out of every land that just became a Sacred Site."""
    lands = new_sacred_sites(before, after)
    return (1 if lands else 0), lands


def blazing_presence_fires(during_setup: bool, presence_added_or_moved: bool) -> bool:
    """SI-TRIGGER-2: only after Setup, and only when that Spirit adds or moves Presence."""
    return presence_added_or_moved and not during_setup


def post_setup_rule_applies(during_setup: bool) -> bool:
    """SI-TRIGGER-3: "After Setup:" means "during play"; Setup's own Blight never triggers it."""
    return not during_setup


def isolate_blocks(check: str, *, dahan_involved: bool = False, players_apply: bool = True) -> bool:
    """SI-ISOLATE-1/3: does Isolate block this? ``check`` is "explore" (always blocked),
    "invader_adjacency" (blocked if the players choose), "dahan_move" or "add" (not blocked)."""
    if check == "explore":
        return True
    if check == "invader_adjacency":
        return players_apply
    return False


def cultural_assimilation_pairs(pairs: Iterable[tuple[str, str]], isolated: set[str],
                                players_split: bool) -> list[tuple[str, str]]:
    """SI-ISOLATE-2: City/lone-Dahan pairs still eligible; where either land is Isolated the players
    may rule the pair out."""
    return [(c, d) for c, d in pairs if not (players_split and (c in isolated or d in isolated))]


def count_distinct(pieces: Iterable[tuple[str, frozenset[str]]], categories: set[str]) -> int:
    """SI-COUNTS-3: count each physical piece once, however many of the categories it belongs to."""
    return sum(1 for _, cats in pieces if cats & categories)


def destroy_choices(candidates: Sequence[str]) -> list[str] | None:
    """SI-COUNTS-5: when more than one piece could be the one destroyed the players choose (a
    prompt); the device never picks. Returns the options, or None if there is no choice."""
    distinct = list(dict.fromkeys(candidates))
    return distinct if len(distinct) > 1 else None
