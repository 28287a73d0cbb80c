"""Spirit Island's pack schema: a pack adds Spirits (``spirits.toml``), adversaries
(``adversaries.toml``), island boards (``boards.toml``), Fear cards (``fear_cards.toml``), Blight cards
(``blight_cards.toml``) and Power Cards (``powers.toml``) of its own; what ``packs list`` shows, the
whole read ``packs check`` runs, and a template per kind to fill in from the panel or card."""

from __future__ import annotations

from tablekeeper.core import packs as packlib
from tablekeeper.core.packs import FileSpec, Schema, Table
from tablekeeper.games.spirit_island import data as datamod
from tablekeeper.games.spirit_island import powers, spirit_data
from tablekeeper.games.spirit_island.data_files import PACKAGE


def load_all(packs: tuple[packlib.Pack, ...]) -> object:
    return datamod.load(None, packs), spirit_data.load(None, packs), powers.load_powers(None, packs)


SPIRIT = """\
# A Spirit, from its panel and unique Power Cards (numbers and names; special rules and each Innate
# level's effect in a few words of your own). Play it:
#   tablekeeper play spirit_island --pack PACK --option spirits=$key
[spirits.$key]
name = "$name"
verified = false               # true once every number was checked against the panel and cards
source = ""                    # the panel and cards
setup = ""                     # where its Presence starts, in words
# start = [{ count = 2, terrain = "Jungle" }]
# energy_track = ["1", "2", "3"]  # the presence track's spaces, left to right
# plays_track = ["1", "2", "2"]
cards = [
  # { name = "", cost = 1, speed = "fast", elements = ["sun", "water"] },
]
# [[spirits.$key.innates]]
# name = ""
# speed = "slow"
# levels = [{ threshold = { sun = 1, water = 2 }, effect = "" }]
"""

ADVERSARY = """\
# An adversary, from its panel: each level's difficulty, Fear cards per Terror Level and what it
# changes, in a few words of your own. Play against it: --option adversary=$key:LEVEL
[adversaries.$key]
name = "$name"
verified = false
source = ""                    # the panel
levels = [
  # { level = 0, difficulty = 1, fear_cards = [3, 3, 3] },
  # { level = 1, name = "", difficulty = 2, fear_cards = [3, 3, 3], effect = "" },
]
# escalation = { name = "", effect = "" }
# loss = { name = "", effect = "" }
"""

BOARD = """\
# An island board: each land's number, terrain, whether it is Coastal, the lands next to it and the
# pieces its setup icons show. Play on it: --option boards=$key
[boards.$key]
name = "$name"
verified = false
source = ""                    # the printed board
lands = [
  # { number = 1, terrain = "Mountain", coastal = true, adjacent = [2, 4, 5, 6] },
  # ... eight lands
]
"""

FEAR_CARD = """\
# A Fear card: what it does at Terror Level I, II and III, in a few words of your own.
[[fear_cards]]
name = "$name"
verified = false
source = ""                    # the card
# effects = ["", "", ""]
"""

BLIGHT_CARD = """\
# A Blight card: the Blight per player on each side and what it does, in a few words of your own.
[[blight_cards.cards]]
name = "$name"
verified = false
source = ""                    # the card
# healthy_per_player = 2
# blighted_per_player = 5
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
        FileSpec("adversaries.toml", (Table("adversaries", "adversaries", datamod.Adversary),)),
        FileSpec("boards.toml", (Table("boards", "boards", datamod.Board),)),
        FileSpec("fear_cards.toml", (Table("fear_cards", "fear_cards", datamod.FearCard, id="name"),)),
        FileSpec("blight_cards.toml", (Table("blight_cards.cards", "blight_cards", datamod.BlightCard, id="name"),)),
        FileSpec("powers.toml", (Table("cards", "power_cards", powers.PowerCard, id="name"),)),
    ),
    load=load_all,
    templates={"spirits": SPIRIT, "adversaries": ADVERSARY, "boards": BOARD, "fear_cards": FEAR_CARD,
               "blight_cards": BLIGHT_CARD, "power_cards": POWER},
)
