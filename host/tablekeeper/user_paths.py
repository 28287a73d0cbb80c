"""The user's folders: the data directory (saves, packs) and folders a user names for output
(simulator captures, hardware photos), made when missing (the named folder only, never the folders
above it) and proved writable before any work starts, so a wrong path is one line naming the option,
never a traceback halfway through a run."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from tablekeeper.errors import PathError

DATA_DIR_ENV: Final = "TABLEKEEPER_DATA_DIR"
PACKS_DIR_NAME: Final = "packs"


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


def cache_dir(env: Mapping[str, str] | None = None) -> Path:
    """The user's XDG cache dir for the project (parsed data files): anything in it may be deleted."""
    env = os.environ if env is None else env
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg else Path(env.get("HOME") or os.path.expanduser("~")) / ".cache"  # never raises
    return base / "tablekeeper"


def packs_dir(env: Mapping[str, str] | None = None) -> Path:
    """Where a user's packs live, one folder each (``tablekeeper packs list`` reads them)."""
    return data_dir(env) / PACKS_DIR_NAME


def output_dir(path: Path, *, option: str) -> Path:
    """``path`` as a folder this process can write files into, or one ``PathError`` line."""
    try:
        path.mkdir(exist_ok=True)
    except FileNotFoundError:
        raise PathError(f"{option} {path}: no folder {path.parent} to make it in") from None
    except FileExistsError:
        raise PathError(f"{option} {path}: exists and is not a folder") from None
    except OSError as exc:
        raise PathError(f"{option} {path}: cannot create the folder: {exc.strerror or exc}") from None
    import tempfile  # shutil, random and the compressors: not before the station's first frame

    try:
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise PathError(f"{option} {path}: cannot write files there: {exc.strerror or exc}") from None
    return path
