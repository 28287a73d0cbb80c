"""The simulator's outputs, named as luma.emulator names its devices (its ``--display`` flag)."""

from __future__ import annotations

from typing import Final

DISPLAY_MODES: Final = ("pygame", "asciiblock", "capture", "gifanim")
