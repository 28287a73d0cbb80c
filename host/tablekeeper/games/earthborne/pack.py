"""Earthborne's pack schema: a pack may hold a challenge deck (``challenge.toml``) and a day track
(``campaign.toml``), each chosen by name, and path sets with their cards (``path_sets.toml``) and
Valley locations with paths (``valley.toml``) that join the box's. The content list is the one the
game's view shows (``data.listed``), so both say the same."""

from __future__ import annotations

from tablekeeper.core import packs as packlib
from tablekeeper.core.packs import FileSpec, Listed, Schema, Table
from tablekeeper.games.earthborne.data import (
    PACKAGE,
    _CampaignFile,
    _ChallengeFile,
    _LocationRow,
    _PathEdgeRow,
    _PathRow,
    _SetRow,
    config,
    listed,
    load,
)


def load_all(packs: tuple[packlib.Pack, ...]) -> object:
    return load({}, packs)


def listing(packs: tuple[packlib.Pack, ...]) -> dict[str, list[Listed]]:
    return listed(config(load({}, packs)))


CHALLENGE_DECK = """\
# A challenge deck, card by card from the printed challenge cards: each card's symbol (sun, mountain,
# crest), its modifier for each aspect, and reshuffle = true on the cards that reshuffle the deck.
# Play with it: tablekeeper play earthborne --pack PACK --option challenge_deck="$name"
name = "$name"
verified = false               # true once every card was checked against its face
source = ""                    # which cards the numbers come from
cards = [
  # { id = "sun1", icon = "sun", awa = 0, fit = 1, spi = -1, foc = 0 },
]
"""

DAY_TRACK = """\
# A campaign's day track, from its campaign tracker: the days, the weather card over each range of
# days, the entries printed above a day. Play with it: --option day_track="$name"
name = "$name"
verified = false
source = ""                    # the tracker
days = 30
# start = "lone_tree_station"  # where the first day begins
weather = [
  # { from = 1, to = 3, card = "A Perfect Day" },
]
entries = [
  # { day = 1, entry = "1" },
]
"""

PATH_SET = """\
# A path set and its cards (numbers only: presence, progress, harm, arrow, keywords, icons). Shuffle
# it in with: pathdeck $key LOCATION (or the location's own set).
[[sets]]
id = "$key"
name = "$name"
kind = "general"               # terrain, location, valley or general
verified = false
source = ""                    # the card numbers

# [[cards]]
# name = ""
# set = "$key"
# copies = 1
# type = "being"               # being, feature or other
# arrow = "up"                 # up (along the way) or down (within reach)
# presence = 1
# progress = "3"               # "N", "Nr" (per Ranger), "X" or "-"
# harm = "2"
"""

LOCATION = """\
# A location, from its location card, and the paths that lead there from the Valley map.
[[locations]]
id = "$key"
name = "$name"
verified = false
source = ""                    # the card
# progress = "3r"
# presence = 1
# pivotal = false

# [[paths]]
# from = "$key"
# to = "lone_tree_station"
# terrain = "woods"
"""

SCHEMA = Schema(
    game="earthborne",
    package=PACKAGE,
    files=(
        FileSpec("challenge.toml", (Table("", "challenge_decks", _ChallengeFile, whole=True),)),
        FileSpec("campaign.toml", (Table("", "day_tracks", _CampaignFile, whole=True),)),
        FileSpec("path_sets.toml", (Table("sets", "path_sets", _SetRow, id="id"),
                                    Table("cards", "", _PathRow, id="name"))),
        FileSpec("valley.toml", (Table("locations", "locations", _LocationRow, id="id"),
                                 Table("paths", "", _PathEdgeRow, name=None, id=""))),
    ),
    load=load_all,
    templates={"challenge_decks": CHALLENGE_DECK, "day_tracks": DAY_TRACK, "path_sets": PATH_SET,
               "locations": LOCATION},
    listing=listing,
)
