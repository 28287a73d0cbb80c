"""The README's picture of the phones' pages: the table page and a seat page in a headless Chromium at
a phone's size, beside the simulated panel of the same run.

The simulator runs as a user starts it (``tablekeeper run --sim --web 127.0.0.1:PORT``); the table
page joins with the link the run prints, a few lines are typed in its console as a group would, and
the pages are photographed once they show what the displays show. Needs Chromium on the PATH and
Playwright (a dev dependency), as the page tests do.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

from tablekeeper.errors import HardwareError, PathError

PHONE: Final = {"width": 390, "height": 844}  # CSS pixels: a common phone's screen
GAME: Final = ("--game", "earthborne", "--seats", "2", "--seed", "1")
LINES: Final = ("pathdeck mountain_pass lone_tree_station", 'reveal path "Agitated Meadowlarks"')
START_S: Final = 60.0
GAP: Final = 24  # pixels between the pictures, and around them
BACKGROUND: Final = (24, 24, 28)
HEIGHT: Final = 900  # the picture's height in pixels


def take_phone_picture(target: Path) -> Path:
    """Run the simulator with its pages, photograph them and the panel, and write ``target`` (PNG)."""
    if not target.parent.is_dir():
        raise PathError(f"--out {target}: no folder {target.parent} to write it in")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        raise HardwareError("phone picture: needs Chromium on the PATH and Playwright (pip install -e '.[dev]')")
    with tempfile.TemporaryDirectory(prefix="tablekeeper-phones-") as tmp:
        frames = Path(tmp) / "frames"
        port = _free_port()
        run = subprocess.Popen([sys.executable, "-m", "tablekeeper", "run", "--sim", *GAME, "--no-counters",
                                "--display", "capture", "--capture-dir", str(frames),
                                "--save", str(Path(tmp) / "game.sqlite"), "--web", f"127.0.0.1:{port}"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            link = _link(run)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
                try:
                    shots = _photograph(browser, link, Path(tmp))
                finally:
                    browser.close()
            panel = _last_frame(frames)
        finally:
            run.send_signal(signal.SIGTERM)
            try:
                run.wait(timeout=20)
            except subprocess.TimeoutExpired:
                run.kill()
                run.wait()
        _compose(panel, shots, target)
    return target


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _link(run: subprocess.Popen[str]) -> str:
    """The table page's link, from the line the run prints (its secret included)."""
    assert run.stderr is not None
    deadline = time.monotonic() + START_S
    said: list[str] = []
    while time.monotonic() < deadline:
        line = run.stderr.readline()
        if not line and run.poll() is not None:
            break
        said.append(line.strip())
        found = re.search(r"phones join at (\S+)", line)
        if found:
            import threading

            threading.Thread(target=run.stderr.read, daemon=True).start()  # the rest is read and dropped
            return found.group(1)
    raise HardwareError(f"phone picture: the simulator printed no link ({' / '.join(s for s in said if s)[-300:]})")


def _photograph(browser: Any, link: str, tmp: Path) -> list[Path]:
    """The table page after the lines typed in its console, and seat 1's page: one PNG each."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    try:
        table = context.new_page()
        table.goto(link)
        table.wait_for_function("() => Number(document.body.dataset.version) > 0", timeout=20_000)
        for text in LINES:
            table.locator("#line").fill(text)
            table.locator("#line").press("Enter")
            table.wait_for_function("() => document.body.dataset.pending === '0'", timeout=20_000)
        table.locator("#line").fill("reveal path ag")  # the console completing a name, as a player sees it
        table.locator(".choice").first.wait_for(timeout=20_000)
        seat = context.new_page()
        seat.goto(link.replace("/?", "/seat/1?", 1))
        seat.wait_for_function("() => Number(document.body.dataset.version) > 0", timeout=20_000)
        shots = []
        for name, page in (("table", table), ("seat", seat)):
            page.bring_to_front()
            page.wait_for_timeout(300)  # the last view drawn
            shot = tmp / f"{name}.png"
            page.screenshot(path=str(shot))
            shots.append(shot)
        return shots
    finally:
        context.close()


def _last_frame(frames: Path) -> Path:
    """The panel's newest capture once no new one has come for a second."""
    seen, quiet_since = -1, time.monotonic()
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        count = len(list(frames.glob("panel_*.png")))
        if count != seen:
            seen, quiet_since = count, time.monotonic()
        elif count and time.monotonic() - quiet_since > 1.0:
            break
        time.sleep(0.1)
    shots = sorted(frames.glob("panel_*.png"))
    if not shots:
        raise HardwareError("phone picture: the simulator drew no frame")
    return shots[-1]


def _compose(panel_path: Path, shots: list[Path], target: Path) -> None:
    """The panel, scaled to the phones' height, then each phone's screen with a dark bezel."""
    from PIL import Image, ImageDraw

    phones = [Image.open(shot).convert("RGB") for shot in shots]
    height = phones[0].height
    with Image.open(panel_path) as raw:
        panel = raw.convert("RGB")
    panel = panel.resize((round(panel.width * height / panel.height), height), Image.Resampling.LANCZOS)
    bezel = 18
    width = GAP + panel.width + sum(GAP + p.width + 2 * bezel for p in phones) + GAP
    picture = Image.new("RGB", (width, height + 2 * bezel + 2 * GAP), BACKGROUND)
    draw = ImageDraw.Draw(picture)
    picture.paste(panel, (GAP, GAP + bezel))
    x = GAP + panel.width + GAP
    for phone in phones:
        draw.rounded_rectangle((x, GAP, x + phone.width + 2 * bezel, GAP + height + 2 * bezel), radius=48,
                               fill=(0, 0, 0), outline=(90, 90, 96), width=3)
        picture.paste(phone, (x + bezel, GAP + bezel))
        x += phone.width + 2 * bezel + GAP
        phone.close()
    scale = HEIGHT / picture.height  # photographed at twice a phone's pixels, then brought down: smooth text
    picture = picture.resize((round(picture.width * scale), HEIGHT), Image.Resampling.LANCZOS)
    with contextlib.suppress(FileNotFoundError):
        target.unlink()
    picture.quantize(256, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)  # a quarter of the bytes
