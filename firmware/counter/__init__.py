"""Tablekeeper counter firmware: an RP2040 board that shows and changes one player's values."""

FIRMWARE_VERSION = (1, 1, 0)
