"""Keyboard keys press the simulated buttons: pygame key events in a window, raw keys in a terminal.

A window reports key-down and key-up, so holding a key holds the button (auto-repeat included).
A terminal reports only keystrokes, so each one is a quick tap; one read may hold several keystrokes
(a fast typist, a paste, a slow SSH link), so the bytes are split into keys first, escape sequences
whole. A virtual counter's keys press its buttons through its firmware process (always a whole tap).
Esc (alone) quits, as Ctrl-C does.
"""

from __future__ import annotations

import codecs
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from tablekeeper.hw.sim.simulator import SimulatedParts

TERMINAL_TAP_S = 0.08
WINDOW_KEYS = {"return": "enter", "keypad enter": "enter"}  # pygame's key names -> the config's
TERMINAL_KEYS = {" ": "space", "\r": "enter", "\n": "enter", "\x7f": "backspace", "\x08": "backspace",
                 "\t": "tab", "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left",
                 "\x1bOA": "up", "\x1bOB": "down", "\x1bOC": "right", "\x1bOD": "left", "\x1b": "escape"}
QUIT_KEY = "escape"
ESCAPE_WAIT_S = 0.05  # a lone ESC followed by nothing this long is the Esc key, not a sequence's start


def split_keys(text: str) -> tuple[list[str], str]:
    """The keystrokes in ``text`` (ECMA-48 CSI and SS3 sequences kept whole) and any unfinished
    sequence left at its end, to be completed by the next read."""
    keys: list[str] = []
    i = 0
    while i < len(text):
        if text[i] != "\x1b":
            keys.append(text[i])
            i += 1
            continue
        if i + 1 == len(text):
            return keys, text[i:]  # ESC alone so far: a key or a sequence's start
        intro = text[i + 1]
        if intro == "[":  # CSI: parameter and intermediate bytes, then one final byte 0x40..0x7E
            j = i + 2
            while j < len(text) and not "\x40" <= text[j] <= "\x7e":
                j += 1
            if j == len(text):
                return keys, text[i:]
            keys.append(text[i:j + 1])
            i = j + 1
        elif intro == "O":  # SS3: one more byte (arrows and F1-F4 in application mode)
            if i + 2 == len(text):
                return keys, text[i:]
            keys.append(text[i:i + 3])
            i += 3
        else:  # ESC then a plain key (Alt+key, or Esc typed just before another key)
            keys.append("\x1b")
            i += 1
    return keys, ""


def key_name(keystroke: str) -> str:
    """The config's name for a keystroke ("up", "space", "q"); "" for one no button can take."""
    return TERMINAL_KEYS.get(keystroke, keystroke if len(keystroke) == 1 and keystroke.isprintable() else "")


class KeyboardInput:
    """Base: ``pump`` is called from the station loop; ``close`` restores the terminal."""

    @staticmethod
    def for_mode(mode: str, parts: SimulatedParts, *, stop: Callable[[], None]) -> KeyboardInput | None:
        if mode == "pygame":
            return PygameKeys(parts, stop=stop)
        if sys.stdin.isatty():
            return TerminalKeys(parts, stop=stop)
        return None

    def pump(self) -> None:
        """Read what arrived since the last call."""

    def close(self) -> None:
        """Give the keyboard back."""


class PygameKeys(KeyboardInput):
    def __init__(self, parts: SimulatedParts, *, stop: Callable[[], None]) -> None:
        import pygame

        self._pygame: Any = pygame
        self._parts = parts
        self._stop = stop

    def pump(self) -> None:
        pygame = self._pygame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self._stop()
            elif event.type in (pygame.KEYDOWN, pygame.KEYUP):
                if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                    self._stop()
                    continue
                name = pygame.key.name(event.key)
                name = WINDOW_KEYS.get(name, name if len(name) > 1 else name.lower())
                counter = self._parts.counter_for_key(name)
                if counter is not None and self._parts.counters is not None:
                    if event.type == pygame.KEYDOWN:  # a counter press is a whole tap, done by its firmware
                        self._parts.counters.press_later(*counter)
                    continue
                button = self._parts.button_for_key(name)
                if button is None and event.type == pygame.KEYDOWN and event.unicode:
                    button = self._parts.button_for_key(event.unicode)
                if button is not None:
                    self._parts.set_button(button, event.type == pygame.KEYDOWN)


class TerminalKeys(KeyboardInput):
    """Reads keystrokes in cbreak mode on a thread; Ctrl-C still stops the station (SIGINT)."""

    def __init__(self, parts: SimulatedParts, *, stop: Callable[[], None], fd: int | None = None) -> None:
        import termios
        import tty

        self._parts = parts
        self._stop = stop
        self._fd = sys.stdin.fileno() if fd is None else fd
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._read, name="terminal-keys", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        rest = ""
        while not self._closing.is_set():
            ready, _w, _x = select.select([self._fd], [], [], ESCAPE_WAIT_S if rest else 0.1)
            if not ready:
                if rest == "\x1b":  # nothing followed the ESC: it was the Esc key
                    self.key(key_name(rest))
                rest = ""
                continue
            data = os.read(self._fd, 1024)
            if not data:
                return  # the terminal went away
            keys, rest = split_keys(rest + decoder.decode(data))
            for keystroke in keys:
                self.key(key_name(keystroke))

    def key(self, key: str) -> None:
        """Act on one key: quit, a counter's button, or a tap of a panel button."""
        if key == QUIT_KEY and self._parts.button_for_key(key) is None:
            self._stop()
            return
        if key:
            counter = self._parts.counter_for_key(key)
            if counter is not None and self._parts.counters is not None:
                self._parts.counters.press(*counter)
                return
            button = self._parts.button_for_key(key)
            if button is not None:
                self._parts.set_button(button, True)
                time.sleep(TERMINAL_TAP_S)  # a real finger's tap; only the interactive simulator waits
                self._parts.set_button(button, False)

    def close(self) -> None:
        import termios

        self._closing.set()
        self._thread.join(timeout=1.0)
        termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
