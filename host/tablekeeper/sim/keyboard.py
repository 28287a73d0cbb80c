"""Keyboard keys press the simulated buttons: pygame key events in a window, raw keys in a terminal.

A window reports key-down and key-up, so holding a key holds the button (auto-repeat included).
A terminal reports only keystrokes, so each one is a quick tap; one read may hold several keystrokes
(a fast typist, a paste, a slow SSH link), so blessed splits the text into keys first, escape
sequences whole. A virtual counter's keys press its buttons through its firmware process (always a whole tap).
Esc (alone) quits, as Ctrl-C does.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablekeeper.config import ButtonConfig
from tablekeeper.sim.simulator import SimulatedParts

if TYPE_CHECKING:
    from blessed.keyboard import Keystroke

TERMINAL_TAP_S = 0.08
WINDOW_KEYS = {"return": "enter", "keypad enter": "enter"}  # pygame's key names -> the config's
# blessed's key names -> the config's; a printable keystroke is its own name (" " is "space")
TERMINAL_KEYS = {"KEY_UP": "up", "KEY_DOWN": "down", "KEY_LEFT": "left", "KEY_RIGHT": "right", "KEY_ENTER": "enter",
                 "KEY_BACKSPACE": "backspace", "KEY_TAB": "tab", "KEY_ESCAPE": "escape"}
QUIT_KEY = "escape"
HOLD_KEYS = {"?": "select"}  # a terminal cannot hold a key: "?" holds SELECT (the key to short forms)
ESCAPE_WAIT_S = 0.05  # a lone ESC followed by nothing this long is the Esc key, not a sequence's start


class KeyParser:
    """Splits terminal input into keystrokes with blessed's key tables and sequence resolver.

    The station reads the terminal on its own thread (and tests feed a pty), so blessed parses the
    text this thread read rather than reading stdin itself."""

    def __init__(self) -> None:
        from blessed import Terminal
        from blessed.keyboard import get_keyboard_codes, get_keyboard_sequences, get_leading_prefixes

        term = Terminal(kind="xterm-256color", stream=io.StringIO(), force_styling=None)  # no terminal queries
        self._codes = get_keyboard_codes()
        code = {name: number for number, name in self._codes.items()}
        mapper = dict(get_keyboard_sequences(term))
        # arrows in application cursor mode (SS3), which a terminal's keypad mode may send
        mapper.update({"\x1bOA": code["KEY_UP"], "\x1bOB": code["KEY_DOWN"], "\x1bOC": code["KEY_RIGHT"],
                       "\x1bOD": code["KEY_LEFT"]})
        self._mapper = dict(sorted(mapper.items(), key=lambda item: -len(item[0])))  # longest match first
        self._prefixes = get_leading_prefixes(self._mapper)
        self._escape = code["KEY_ESCAPE"]

    def split(self, text: str, *, final: bool = False) -> tuple[list[Keystroke], str]:
        """The keystrokes in ``text`` and any unfinished escape sequence left at its end, to be completed
        by the next read (or, with ``final``, taken as it stands: a lone ESC is the Esc key)."""
        from blessed.keyboard import resolve_sequence

        keys: list[Keystroke] = []
        while text:
            key = resolve_sequence(text, self._mapper, self._codes, self._prefixes, final=final)
            if not final and key.code == self._escape and len(key) == 1:
                return keys, text  # ESC so far, or a sequence's start: wait for the rest (as blessed's inkey)
            if not len(key):
                return keys, text
            keys.append(key)
            text = text[len(key):]
        return keys, ""


def key_name(keystroke: Keystroke) -> str:
    """The config's name for a keystroke ("up", "space", "q"); "" for one no button can take."""
    if keystroke.is_sequence:
        return TERMINAL_KEYS.get(keystroke.name or "", "")
    text = str(keystroke)
    if text == " ":
        return "space"
    if text in ("\r", "\n"):
        return "enter"
    return text if len(text) == 1 and text.isprintable() else ""


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
        self._wake_r, self._wake_w = os.pipe()  # close() wakes the reader: no timed polling while idle
        self._thread = threading.Thread(target=self._read, name="terminal-keys", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        parser = KeyParser()
        rest = ""
        while not self._closing.is_set():
            ready, _w, _x = select.select([self._fd, self._wake_r], [], [], ESCAPE_WAIT_S if rest else None)
            if self._wake_r in ready:
                return
            if not ready:
                keys, rest = parser.split(rest, final=True)  # nothing followed: a lone ESC was the Esc key
            else:
                try:
                    data = os.read(self._fd, 1024)
                except OSError:  # EIO: the terminal hung up
                    return
                if not data:
                    return  # the terminal went away
                keys, rest = parser.split(rest + decoder.decode(data))
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
                self._tap(button, TERMINAL_TAP_S)  # a real finger's tap; only the interactive simulator waits
            elif key in HOLD_KEYS and (held := self._parts.button(HOLD_KEYS[key])) is not None:
                self._tap(held, self._parts.config.timing.hold_s + TERMINAL_TAP_S)

    def _tap(self, button: ButtonConfig, seconds: float) -> None:
        self._parts.set_button(button, True)
        time.sleep(seconds)
        self._parts.set_button(button, False)

    def close(self) -> None:
        import termios

        self._closing.set()
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        self._thread.join(timeout=1.0)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(termios.error, OSError):  # a terminal that hung up has no modes to restore
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
