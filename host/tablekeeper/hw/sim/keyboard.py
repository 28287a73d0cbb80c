"""Keyboard keys press the simulated buttons: pygame key events in a window, raw keys in a terminal.

A window reports key-down and key-up, so holding a key holds the button (auto-repeat included).
A terminal reports only keystrokes, so each one is a quick tap. A virtual counter's keys press its
buttons through its firmware process (always a whole tap).
"""

from __future__ import annotations

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
                 "\t": "tab", "\x1b[A": "up", "\x1b[B": "down", "\x1b[C": "right", "\x1b[D": "left"}


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

    def __init__(self, parts: SimulatedParts, *, stop: Callable[[], None]) -> None:
        import termios
        import tty

        self._parts = parts
        self._stop = stop
        self._fd = sys.stdin.fileno()
        self._saved = termios.tcgetattr(self._fd)
        tty.setcbreak(self._fd)
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._read, name="terminal-keys", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while not self._closing.is_set():
            ready, _w, _x = select.select([self._fd], [], [], 0.1)
            if not ready:
                continue
            chunk = os.read(self._fd, 8).decode("utf-8", errors="replace")
            key = TERMINAL_KEYS.get(chunk, chunk if len(chunk) == 1 else "")
            counter = self._parts.counter_for_key(key)
            if counter is not None and self._parts.counters is not None:
                self._parts.counters.press(*counter)
                continue
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
