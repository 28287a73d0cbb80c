"""Where the station keeps its data (saves, demo counts) on a box whose root may be read-only."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Final

from tablekeeper.user_paths import DATA_DIR_ENV, data_dir

__all__ = ["DATA_DIR_ENV", "DEFAULT_CONFIG_PATH", "DEFAULT_SERVICE_DATA_DIR", "STORE_FILE_NAME", "data_dir",
           "store_path"]

DEFAULT_SERVICE_DATA_DIR: Final = Path("/var/lib/tablekeeper")
DEFAULT_CONFIG_PATH: Final = Path("/etc/tablekeeper/station.toml")
STORE_FILE_NAME: Final = "tablekeeper.sqlite3"


def store_path(env: Mapping[str, str] | None = None) -> Path:
    """The SQLite file inside the data directory."""
    return data_dir(env) / STORE_FILE_NAME
