"""Logging set up once per process: journald priorities under systemd, plain lines on stderr otherwise.

Under systemd, stderr is connected to the journal (``$JOURNAL_STREAM`` names it); a line that starts
with an sd-daemon prefix such as ``<6>`` is stored with that syslog priority, so counter reconnects
(INFO) and display failures (WARNING) can be filtered with ``journalctl -p``.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import Final, TextIO

LEVELS: Final = ("debug", "info", "warning", "error")

# logging level -> sd-daemon priority (sd-daemon.h: SD_DEBUG 7 ... SD_CRIT 2)
_PRIORITIES: Final = ((logging.CRITICAL, 2), (logging.ERROR, 3), (logging.WARNING, 4), (logging.INFO, 6))


class JournalFormatter(logging.Formatter):
    """``<N>logger: message``, one journal entry per line of the message (tracebacks included)."""

    def format(self, record: logging.LogRecord) -> str:
        priority = next((p for level, p in _PRIORITIES if record.levelno >= level), 7)
        text = super().format(record)
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines() or [""])


def under_journal(env: Mapping[str, str] | None = None, stream: TextIO | None = None) -> bool:
    """True when stderr is the journal stream systemd gave this service (device:inode match)."""
    env = os.environ if env is None else env
    value = env.get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        info = os.fstat((stream or sys.stderr).fileno())
    except (OSError, ValueError):
        return False
    return (info.st_dev, info.st_ino) == (int(device), int(inode))


def configure(level: str = "warning", *, env: Mapping[str, str] | None = None,
              stream: TextIO | None = None) -> logging.Handler:
    """Install the one root handler (replacing an earlier one of ours) at ``level``."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    if under_journal(env, stream):
        handler.setFormatter(JournalFormatter("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("tablekeeper: %(levelname)s %(name)s: %(message)s"))
    handler.set_name("tablekeeper")
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == "tablekeeper"]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper()))
    return handler
