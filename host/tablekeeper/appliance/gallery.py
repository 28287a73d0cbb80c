"""The screen gallery (docs/screens.md): every kind of screen each game's example script shows on the
reference build, as the pictures its OLEDs were sent.

Each game's example script (``docs/games/GAME.script``, each line typed at the station's console) runs
on the simulated station (``tablekeeper run --script --screens-dir``), which keeps the first screen of
each kind per display; the page lists them by game. ``tablekeeper hardware photos`` remakes it with the
README picture, and the same test fails when the committed pictures are stale.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

from tablekeeper.config import REFERENCE_CONFIG
from tablekeeper.errors import HardwareError, PathError

DOCS: Final = REFERENCE_CONFIG.resolve().parents[1] / "docs"  # beside hardware/ in the repository
# How each game's example script is run (``tablekeeper play GAME ARGS --script docs/games/GAME.script``).
EXAMPLE_ARGS: Final[Mapping[str, tuple[str, ...]]] = {
    "arkham": ("--seats", "2"),
    "earthborne": ("--seats", "2", "--seed", "7"),
    "oathsworn": (),
    "spirit_island": ("--seats", "2", "--option", "spirits=river,lightning", "--option", "invaders=report",
                      "--option", "fear_cards=report"),
}
PICTURES: Final = "images/screens"  # beside the page, one folder per game


# After the script, what the buttons show: a +/- change counted, then dropped; the key to the short
# forms (SELECT held); the menu, then closed.
BUTTONS_TAIL: Final = "press up\npress back\nhold select\nwait 4\npress menu\nwait 1\npress menu\n"


def typed_script(script: Path) -> str:
    """An example script's commands as a station script: each typed at the console (comments dropped),
    then ``BUTTONS_TAIL``."""
    commands = [line.split("#", 1)[0].strip() for line in script.read_text(encoding="utf-8").splitlines()]
    return "".join(f"type {command}\n" for command in commands if command) + BUTTONS_TAIL


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def game_section(game: str, title: str, shots: Sequence[Mapping[str, str | None]]) -> str:
    """The page's part for one game: a row per screen kind, its picture, the title it had."""
    rows = [f"## {title}", "", f"From `docs/games/{game}.script` ({len(shots)} kinds of screen).", "",
            "| Display | Screen | Picture |", "|---|---|---|"]
    for shot in shots:
        said = f" - \"{cell(shot['banner'])}\"" if shot.get("banner") else ""
        picture = f"![{shot['display']}: {shot['kind']}]({PICTURES}/{game}/{picture_name(shot)})"
        rows.append(f"| {shot['display']} | {shot['kind']}: \"{cell(shot['title'])}\"{said} | {picture} |")
    return "\n".join(rows) + "\n"


def cell(text: str | None) -> str:
    """Text for a cell of a Markdown table (a '|' in it would end the cell)."""
    return str(text).replace("|", "\\|")


def picture_name(shot: Mapping[str, str | None]) -> str:
    return f"{str(shot['file'])[:2]}-{shot['display']}-{slug(str(shot['kind']))}.png"


HEADER: Final = """# Screens

Every kind of screen each game's example script shows on the reference build, drawn as its OLEDs were
sent them (the track and tokens displays, the seats), with what makes it that kind: the game's panel
alone, or with a line at its foot (a question and the answer NEXT would choose, a +/- change being
counted, the track +/- will change, a notice, a seat's turn and its buttons, whom a shared step waits
for). A sentence too long for its display scrolls along one row; the picture is its first frame.

Made by `tablekeeper hardware photos` (which also remakes the README's picture); a test fails when
they are stale.

"""


def kept_sections(page: Path, titles: Mapping[str, str]) -> dict[str, str]:
    """The games' parts of the page as it stands, so a run for some games keeps the others'."""
    if not page.is_file():
        return {}
    by_title = {f"## {title}": game for game, title in titles.items()}
    out = {}
    for part in page.read_text(encoding="utf-8").split("\n## ")[1:]:
        game = by_title.get("## " + part.split("\n", 1)[0])
        if game is not None:
            out[game] = "## " + part.rstrip("\n") + "\n"
    return out


def take_gallery(games: Sequence[str], page: Path, *, titles: Mapping[str, str],
                 run_cli: Callable[[list[str]], int]) -> list[Path]:
    """Run each game's example script, keep its screens beside ``page`` and write the page; returns the
    files written (pictures whose pixels did not change are left as they were)."""
    from tablekeeper.appliance.photos import place_picture

    if not page.parent.is_dir():
        raise PathError(f"--gallery {page}: no folder {page.parent} to write it in")
    sections = kept_sections(page, titles)
    written = []
    for game in games:
        with tempfile.TemporaryDirectory(prefix="tablekeeper-screens-") as tmp:
            script = Path(tmp) / f"{game}.script"
            script.write_text(typed_script(DOCS / "games" / f"{game}.script"), encoding="utf-8")
            shots_dir = Path(tmp) / "screens"
            code = run_cli(["run", "--game", game, *EXAMPLE_ARGS[game], "--no-counters", "--script", str(script),
                            "--display", "capture", "--capture-dir", str(Path(tmp) / "frames"),
                            "--screens-dir", str(shots_dir)])
            index = shots_dir / "screens.jsonl"
            shots = [json.loads(line) for line in index.read_text(encoding="utf-8").splitlines()] \
                if index.is_file() else []
            if code != 0 or not shots:
                raise HardwareError(f"screens of {game}: the simulator exited with {code} after {len(shots)} screens")
            folder = page.parent / PICTURES / game
            folder.mkdir(parents=True, exist_ok=True)
            kept = set()
            for shot in shots:
                target = folder / picture_name(shot)
                place_picture(shots_dir / shot["file"], target)
                written.append(target)
                kept.add(target.name)
            for old in folder.glob("*.png"):
                if old.name not in kept:  # a kind of screen the script no longer shows
                    old.unlink()
            sections[game] = game_section(game, titles.get(game, game), shots)
    ordered = [sections[game] for game in EXAMPLE_ARGS if game in sections]
    page.write_text(HEADER + "\n".join(ordered), encoding="utf-8")
    written.append(page)
    return written
