"""The first screen of each kind a display showed during a scripted run, kept as a PNG with a line of
``screens.jsonl`` saying what it is (``run --script --screens-dir``): the pictures of the screen
gallery (docs/screens.md), taken from the very frames the OLEDs were sent.

A screen's kind is the display it is on (the track, the tokens, a seat) and what it shows beyond the
game's panel: the banner at its foot (a question's answer, a +/- change, a notice, a seat's turn), the
menu, the key to short forms, the demo's cover.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from PIL import Image

from tablekeeper.ui.model import BannerKind, DisplayScreen, Screens

SCALE: Final = 2  # each OLED pixel drawn as a square of this many pixels
INDEX: Final = "screens.jsonl"
BANNER_WORDS: Final = {
    BannerKind.PENDING: "a +/- change being counted",
    BannerKind.ANSWER: "a question, the answer NEXT would choose",
    BannerKind.MESSAGE: "a notice",
    BannerKind.SAVE: "the save not written",
    BannerKind.COUNTER: "a counter gone",
    BannerKind.SEAT: "the seat's turn and its buttons",
    BannerKind.WAITING: "whom a shared step waits for",
    BannerKind.SELECTED: "the track +/- will change",
}


def role_class(role: str) -> str:
    return "seat" if role.startswith("seat") else role


def panel_kind(screen: DisplayScreen) -> str:
    """The shared displays' panel by its title with the numbers left out ("Round N, agenda N"); a seat's
    title is its seat's name, so seats are told apart by what is at their foot alone (and a shared
    title that opens with a seat's name, "Roland: combat", counts as one kind for every seat)."""
    if role_class(screen.role) == "seat" or screen.cover is not None:
        return ""
    return re.sub(r"^[A-Z][a-z]+: ", "NAME: ", re.sub(r"\d+", "N", screen.shown.title))  # "Roland: combat"


def kind_of(screen: DisplayScreen) -> str:
    """What a reader would call this screen, beyond the panel's own words."""
    if screen.cover is not None:
        return "the demo"
    if screen.legend_shown:
        return "the key to short forms"
    if screen.panel.focus is not None:
        return "the menu"
    if screen.banner is not None:
        return BANNER_WORDS[screen.banner.kind]
    return "the game"


class ScreenShots:
    """Keeps, in ``out_dir``, the first picture of each (display, panel, screen kind) shown."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self._seen: set[tuple[str, str, str]] = set()
        out_dir.mkdir(parents=True, exist_ok=True)
        self._index = out_dir / INDEX
        self._index.write_text("", encoding="utf-8")

    def take(self, screens: Screens | None, images: Mapping[str, Image.Image]) -> None:
        if screens is None:
            return
        for screen in screens.displays:
            key = (role_class(screen.role), panel_kind(screen), kind_of(screen))
            image = images.get(screen.role)
            if key in self._seen or image is None:
                continue
            self._seen.add(key)
            name = f"{len(self._seen):02}-{screen.role}.png"
            picture = image.convert("L").resize((image.width * SCALE, image.height * SCALE), Image.Resampling.NEAREST)
            picture.save(self.out_dir / name, format="PNG")
            row = {"file": name, "role": screen.role, "display": key[0], "kind": key[2],
                   "title": screen.shown.title, "banner": screen.cover.banner if screen.cover else screen.banner_text}
            with self._index.open("a", encoding="utf-8") as index:
                index.write(json.dumps(row) + "\n")
