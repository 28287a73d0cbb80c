"""Spirit Island's pack schema: a pack adds Spirits (``spirits.toml``), adversaries (``standard.toml``'s
``[adversaries]``) and Power Cards (``powers.toml``) of its own; what ``packs list`` shows, the whole
read ``packs check`` runs, and a template per kind to fill in from the panel or card."""

from __future__ import annotations

from tablekeeper.core import packs as packlib
from tablekeeper.core.packs import FileSpec, Schema, Table
from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island import powers, spirit_data
from tablekeeper.games.spirit_island.data_files import PACKAGE


def load_all(packs: tuple[packlib.Pack, ...]) -> object:
    return datamod.load(None, packs), spirit_data.load(None, packs), powers.load_powers(None, packs)


SPIRIT = """\
# A Spirit, from its panel and unique Power Cards (numbers and names; each Innate level's effect in
# a few words of your own). Play it: tablekeeper play spirit_island --pack PACK --option spirits=$key
[spirits.$key]
name = "$name"
cards = [
  # { name = "", cost = 0, speed = "fast", elements = ["sun", "water"] },
]
# [[spirits.$key.innates]]
# name = ""
# speed = "slow"
# levels = [{ sun = 1, water = 2 }, { sun = 2, water = 3 }]
"""

ADVERSARY = """\
# An adversary, from its panel: the Fear cards per Terror Level at each level from 0, and what its
# levels change. Play against it: --option adversary=$key:LEVEL
[adversaries.$key]
# fear_cards = [[3, 3, 3], [3, 3, 3], [3, 4, 3], [3, 4, 3], [3, 4, 4], [4, 4, 4], [4, 4, 5]]
# escalation = ""              # what its Stage II escalation does, in a few words
# loss = ""                    # an extra loss condition, asked as a question
"""

POWER = """\
# A Power Card: its cost, speed, Fear icon and the kinds of instruction printed on it.
[[cards]]
name = "$name"
# cost = 1
# speed = "fast"
# fear_icon = false
# instructions = []            # damage, destroy, push, gather, fear, defend, ...
"""

SCHEMA = Schema(
    game="spirit_island",
    package=PACKAGE,
    files=(
        FileSpec("spirits.toml", (Table("spirits", "spirits", spirit_data.Spirit),)),
        FileSpec("standard.toml", (Table("adversaries", "adversaries", datamod.Adversary, name=None),)),
        FileSpec("powers.toml", (Table("cards", "power_cards", powers.PowerCard, id="name"),)),
    ),
    load=load_all,
    templates={"spirits": SPIRIT, "adversaries": ADVERSARY, "power_cards": POWER},
)
