"""Expensive views derived from game state (exact odds, long texts), kept by the inputs they depend on.

A game's panel asks ``derived.get(key, compute, placeholder)``; it is answered from the ``DerivedViews``
its caller made active (``with views.active():``), so each station passes its own cache in and no cache
is shared by the process. With one active the same key never computes twice, so a press that leaves a
view's inputs alone (or a release) costs a dictionary look-up. While the station sends the frame that
answers a press it ``defer``s: a view not known yet shows its placeholder and is computed by ``fill``
once that frame is out, then the station draws again. With none active (``play``, tests) a view is
computed at once. Used from the station loop's one thread.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")
MISSING: Any = object()
_ACTIVE: ContextVar[DerivedViews | None] = ContextVar("tablekeeper_derived_views", default=None)


def get(key: Hashable, compute: Callable[[], T], placeholder: T = MISSING) -> T:
    """The view for ``key`` from the active ``DerivedViews``; computed now when none is active."""
    views = _ACTIVE.get()
    return compute() if views is None else views.get(key, compute, placeholder)


class Same:
    """A key part equal only to the very object it holds (kept alive by the key, so its id is not reused):
    cheap for large frozen data that a change replaces rather than edits."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value


class DerivedViews:
    """The most recent ``capacity`` views by key; ``computed`` counts real computations (tests read it)."""

    def __init__(self, capacity: int = 64) -> None:
        self.capacity = capacity
        self.computed = 0
        self._values: OrderedDict[Hashable, Any] = OrderedDict()
        self._pending: dict[Hashable, Callable[[], Any]] = {}
        self._deferring = False

    def get(self, key: Hashable, compute: Callable[[], T], placeholder: T = MISSING) -> T:
        """The view for ``key``; while deferring, ``placeholder`` (if given) instead of computing now."""
        value = self._values.get(key, MISSING)
        if value is not MISSING:
            self._values.move_to_end(key)
            return value  # type: ignore[no-any-return]
        if self._deferring and placeholder is not MISSING:
            self._pending[key] = compute
            return placeholder
        return self._store(key, compute())

    def _store(self, key: Hashable, value: T) -> T:
        self.computed += 1
        if self.capacity > 0:
            self._values[key] = value
            while len(self._values) > self.capacity:
                self._values.popitem(last=False)
        return value

    @contextmanager
    def active(self) -> Iterator[DerivedViews]:
        """``derived.get`` inside this block answers from these views."""
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Views missed inside this block wait for ``fill`` (their panels show the placeholder)."""
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False

    def fill(self) -> bool:
        """Compute the views that were deferred; True when any was, so the caller draws again."""
        pending, self._pending = self._pending, {}
        for key, compute in pending.items():
            if key not in self._values:
                self._store(key, compute())
        return bool(pending) and self.capacity > 0

    def clear(self) -> None:
        self._values.clear()
        self._pending.clear()

