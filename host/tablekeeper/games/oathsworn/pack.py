"""Oathsworn's pack schema: a pack's ``oathsworn.toml`` adds encounters, items, allies, companion
archetypes and classes of its own (the built-in file holds the MIGHT decks, difficulties and time
tracks); what ``packs list`` shows, the whole read ``packs check`` runs, a template per kind."""

from __future__ import annotations

from tablekeeper.core import packs as packlib
from tablekeeper.core.packs import FileSpec, Schema, Table
from tablekeeper.games.oathsworn.data import (
    DEFAULT_NAME,
    PACKAGE,
    _Ally,
    _Archetype,
    _Class,
    _Encounter,
    _Item,
    load_text,
)


def load_all(packs: tuple[packlib.Pack, ...]) -> object:
    return load_text(None, packs)


ENCOUNTER = """\
# An encounter, from its encounter board, special rules board and stage cards (numbers and names
# only). Fight it with: tablekeeper play oathsworn --pack PACK --option encounter=$key
[encounter.$key]
name = "$name"
verified = false               # true once every number was checked against the printed components
source = ""                    # which board and cards the numbers come from
# chapter = 2                  # leave out unless it is that chapter's own encounter (one per chapter)
# might = ["Y", "Y", "R"]      # the boss's MIGHT cards per attack: W, Y, R, B
# stage_after_breaks = [2, 4]  # breaks that turn stage 2 and stage 3
# locations = [{ id = "front", name = "Front", defense = 2 }, { id = "rear", name = "Rear", defense = 2 }]
# stage_cards = [               # stage 1, 2, 3: each card's name, hexes moved and the location it attacks from
#   [{ name = "Bite", move = 5, attack = "front" }],
#   [{ name = "Roar" }],
#   [{ name = "Lunge", move = 7, attack = "front" }],
# ]
"""

ITEM = """\
# An item card: its kind (weapon, shield, armor, gear) and printed numbers.
[item."$name"]
verified = false
source = ""                    # the card
# kind = "weapon"
# hands = 1
# might = ["W", "Y"]           # the MIGHT cards it adds: W, Y, R, B
# defense = 0
# value = 2
"""

ALLY = """\
# An ally card: combat or not, its DEFENSE and the MIGHT cards it attacks with.
[ally.$key]
name = "$name"
verified = false
source = ""                    # the card
# combat = true
# defense = 2
# might = ["Y"]
"""

ARCHETYPE = """\
# A companion archetype card: the two abilities on each side (an interrupt can be used off turn).
[archetype."$name"]
verified = false
source = ""                    # the card
# A = [{ name = "" }, { name = "", interrupt = true }]
# B = [{ name = "" }, { name = "" }]
"""

CLASS = """\
# A class: its starting items (by name, each an [item."NAME"] of the built-in data or a pack).
[class."$name"]
verified = false
source = ""                    # the class board
# items = ["Short Sword"]
"""

SCHEMA = Schema(
    game="oathsworn",
    package=PACKAGE,
    files=(FileSpec(DEFAULT_NAME, (
        Table("encounter", "encounters", _Encounter),
        Table("item", "items", _Item, name=None),
        Table("ally", "allies", _Ally),
        Table("archetype", "archetypes", _Archetype, name=None),
        Table("class", "classes", _Class, name=None),
    )),),
    load=load_all,
    templates={"encounters": ENCOUNTER, "items": ITEM, "allies": ALLY, "archetypes": ARCHETYPE, "classes": CLASS},
)
