"""Where the station keeps its data (saves, demo counts) on a box whose root may be read-only."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

DATA_DIR_ENV: Final = "TABLEKEEPER_DATA_DIR"
DEFAULT_SERVICE_DATA_DIR: Final = Path("/var/lib/tablekeeper")
DEFAULT_CONFIG_PATH: Final = Path("/etc/tablekeeper/station.toml")
STORE_FILE_NAME: Final = "tablekeeper.sqlite3"


def data_dir(env: Mapping[str, str] | None = None) -> Path:
    """The data directory: ``$TABLEKEEPER_DATA_DIR`` (the service sets it), else the user's XDG data dir.

    Nothing is created here; callers that write make the directory themselves.
    """
    env = os.environ if env is None else env
    explicit = env.get(DATA_DIR_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = env.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg else Path(env.get("HOME", str(Path.home()))) / ".local" / "share"
    return base / "tablekeeper"


def store_path(env: Mapping[str, str] | None = None) -> Path:
    """The SQLite file inside the data directory."""
    return data_dir(env) / STORE_FILE_NAME
