"""The simulator's outputs (its ``--display`` flag): ``text``, each display's content as readable text
in the terminal, and luma.emulator's devices by their own names."""

from __future__ import annotations

from typing import Final

DISPLAY_MODES: Final = ("pygame", "text", "asciiblock", "capture", "gifanim")
