"""Deep-freezing of JSON values so game data kept in a state cannot be mutated behind undo's back."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import msgspec


def freeze(value: Any) -> Any:
    """Lists become tuples and dicts read-only mappings, recursively."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of :func:`freeze`, for JSON output (a game's typed records included)."""
    if isinstance(value, msgspec.Struct):
        value = msgspec.to_builtins(value)  # tuples stay tuples here: the loop below makes them lists
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value
