"""One root exception for the project; each subclass also inherits the built-in it resembles,
so callers may catch either ``TablekeeperError`` or the familiar built-in."""

from __future__ import annotations


class TablekeeperError(Exception):
    """Root of every error Tablekeeper raises on purpose."""


class ConfigError(TablekeeperError, ValueError):
    """A station config or data file is malformed; the message names the file and key.

    Where the reader knows them, ``file``, ``key`` and ``line`` say the same as data, so a checker
    (``tablekeeper packs check``) can point at the line without reading the message back."""

    def __init__(self, message: str, *, file: str | None = None, key: str | None = None,
                 line: int | None = None) -> None:
        super().__init__(message)
        self.file = file
        self.key = key
        self.line = line


class PackChangedError(ConfigError):
    """A save was made with a pack (the built-in content included) whose content changed or went away
    since: the save cannot be replayed against it. ``pack`` names it; a station sets the save aside."""

    def __init__(self, message: str, *, pack: str) -> None:
        super().__init__(message)
        self.pack = pack


class ScriptError(TablekeeperError, ValueError):
    """A script line cannot be parsed; the message names the line."""


class Rejected(TablekeeperError, ValueError):
    """A game refused a command; nothing changed. ``reason`` is shown to the players."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class NotANumber(Rejected):
    """A word where a number belongs is not one (ASCII digits with an optional sign): the line is
    malformed rather than refused by the rules, so a script stops there (``play`` exits 2)."""


class StoreError(TablekeeperError, OSError):
    """A save file is corrupt, foreign or unwritable; it is never overwritten."""


class PathError(TablekeeperError, OSError):
    """A file or folder a user named cannot be used (not a folder, not writable)."""


class HardwareError(TablekeeperError, OSError):
    """A hardware part (display, pin, serial port) could not be used."""


class ProtocolError(TablekeeperError, ValueError):
    """A counter frame is malformed; it is dropped, never executed."""


class InstallError(TablekeeperError, OSError):
    """An appliance install step failed; the message names the step and the command."""

