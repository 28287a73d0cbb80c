"""Arkham's pack schema: the files a pack may hold (the built-in ``data/`` files' shapes, entries of its
own only), what ``packs list`` shows of them, the whole read that ``packs check`` runs, and a template
per kind of content to fill in from the printed card."""

from __future__ import annotations

from typing import Any

from tablekeeper.core import packs as packlib
from tablekeeper.core.packs import FileSpec, Schema, Table
from tablekeeper.games.arkham.data import (
    PACKAGE,
    Ally,
    _Bag,
    _Campaign,
    _Investigator,
    _Scenario,
    _Set,
    _Token,
    load_allies,
    load_investigators,
    load_scenarios,
    load_tokens,
)
from tablekeeper.schema import fail


def load_all(packs: tuple[packlib.Pack, ...]) -> object:
    """Everything a session reads, with what setup checks across files: a scenario's campaign has a
    chaos bag, and its reference card names tokens the bag file knows."""
    scenarios, _ = load_scenarios(None, None, packs)
    tokens, bags = load_tokens(None, packs)
    where = {sid: layer.label for layer in packlib.layers(packs, "scenarios.toml")
             for sid in layer.doc.get("scenarios", {})}
    for sid, scenario in scenarios.items():
        label = where.get(sid, "arkham/data/scenarios.toml")
        if scenario.campaign not in bags:
            raise fail(label, f"scenarios.{sid}.campaign", f"campaign {scenario.campaign!r} has no chaos bag (bags: "
                       f"{', '.join(sorted(bags))}; a pack adds one as [bags.{scenario.campaign}] in its chaos.toml)")
        for side, effects in scenario.reference.items():
            for symbol in effects:
                if symbol not in tokens:
                    raise fail(label, f"scenarios.{sid}.reference.{side}.{symbol}", "unknown token")
    return scenarios, tokens, bags, load_investigators(None, packs), load_allies(None, packs)


SCENARIO = """\
# A scenario, from its scenario reference card, agenda and act cards and location cards (their
# numbers only; say each effect in a few words of your own). Choose it with
#   tablekeeper play arkham --pack PACK --option scenario_id=$key
# The shapes are those of the built-in scenarios (docs/packs.md lists every key).
[scenarios.$key]
title = "$name"
campaign = "$key"              # whose chaos bag it draws from: a built-in campaign or a [bags.$key] of this pack
verified = false               # true once every number below was checked against the printed cards
source = ""                    # where the numbers come from (card numbers, a rulebook page)
start = []                     # the locations put into play at setup, e.g. ["Study"]
# start_at = "Study"           # where every investigator begins
encounter_sets = []            # built-in or pack encounter sets shuffled into the encounter deck

# One line per symbol token on each side of the reference card: a number is the modifier.
[scenarios.$key.reference.easy_standard]
# skull = -1
# cultist = { value = -1, on_fail = [{ do = "horror", amount = 1 }] }
[scenarios.$key.reference.hard_expert]
# skull = -2

# The agenda deck in order (doom threshold), then the act deck (clues to advance).
# [[scenarios.$key.agendas]]
# name = ""
# doom = 3
# [[scenarios.$key.acts]]
# name = ""
# clues = 2
# per_investigator = true

# [scenarios.$key.locations.Study]
# shroud = 2
# clues = 2
# per_investigator = true
"""

CHAOS_BAG = """\
# A chaos bag per difficulty, from the campaign guide's setup page: the numbered tokens at each
# difficulty, and the symbol tokens every difficulty holds. A scenario draws from it with
# campaign = "$key".
[bags.$key]
verified = false
source = ""                    # the campaign guide's page
symbols = { skull = 2, cultist = 1, tablet = 1, autofail = 1, elder_sign = 1 }
# easy = { "+1" = 2, "0" = 3, "-1" = 3, "-2" = 2 }
# standard = { "+1" = 1, "0" = 2, "-1" = 3, "-2" = 2, "-3" = 1, "-4" = 1 }
# hard = { "0" = 3, "-1" = 2, "-2" = 2, "-3" = 2, "-4" = 1, "-5" = 1 }
# expert = { "0" = 1, "-1" = 2, "-2" = 2, "-3" = 2, "-4" = 2, "-5" = 1, "-6" = 1, "-8" = 1 }
"""

ENCOUNTER_SET = """\
# An encounter set, card by card from the printed cards (numbers, traits and keywords; effects the
# station tracks in a few words of your own). A scenario shuffles it in with encounter_sets = ["$key"].
[sets.$key]
name = "$name"
source = ""                    # the card numbers

# [sets.$key.cards."Enemy Name"]
# kind = "enemy"
# count = 2                    # copies in the set
# fight = 2
# health = 2
# evade = 2
# damage = 1
# horror = 1
# traits = ["Monster"]
# keywords = []                # hunter, retaliate, alert, massive, aloof, surge, peril
# verified = false
"""

INVESTIGATOR = """\
# An investigator, from the investigator card. Seat one with --option seat1=$key.
[$key]
name = "$name"
verified = false
source = ""                    # the card number
# health = 8
# sanity = 6
# elder_sign = 1
# skills = { willpower = 3, intellect = 3, combat = 3, agility = 3 }
"""

ALLY = """\
# An ally (a player asset that takes damage or horror), from the printed card; a seat's menu offers it.
[allies."$name"]
verified = false
source = ""                    # the card number
# cost = 3
# health = 2
# sanity = 2
"""

CAMPAIGN = """\
# A campaign: its scenarios in order (each a built-in or pack scenario).
[campaigns.$key]
title = "$name"
source = ""
sequence = []                  # e.g. ["my_first_scenario", "my_second_scenario"]
"""


def _token_entry() -> Any:
    return int | _Token


def _set_checked(raw: dict[str, Any]) -> bool:
    """An encounter set counts as checked when every card in it was."""
    cards = raw.get("cards") or {}
    return bool(cards) and all(isinstance(c, dict) and c.get("verified") is True for c in cards.values())


SCHEMA = Schema(
    game="arkham",
    package=PACKAGE,
    files=(
        FileSpec("scenarios.toml", (Table("scenarios", "scenarios", _Scenario, name="title"),
                                    Table("campaigns", "campaigns", _Campaign, name="title"))),
        FileSpec("encounters.toml", (Table("sets", "encounter_sets", _Set, checked=_set_checked),)),
        FileSpec("chaos.toml", (Table("bags", "chaos_bags", _Bag, name=None),
                                Table("tokens", "", _token_entry(), name=None))),
        FileSpec("investigators.toml", (Table("", "investigators", _Investigator),)),
        FileSpec("assets.toml", (Table("allies", "allies", Ally, name=None),)),
    ),
    load=load_all,
    templates={"scenarios": SCENARIO, "chaos_bags": CHAOS_BAG, "encounter_sets": ENCOUNTER_SET,
               "investigators": INVESTIGATOR, "allies": ALLY, "campaigns": CAMPAIGN},
)
