"""The frames of the rules-step engine's work in progress (``engine``): an open step, cards due to
clear, one card's clear, a test. Frozen: the engine replaces a frame, never changes one in place."""

from __future__ import annotations

import msgspec


class Effect(msgspec.Struct, frozen=True):
    """One effect of a clearing step: its id (what ``resolve LABEL`` names) and what is shown."""

    id: str
    text: str
    once: bool = False


class OpenStep(msgspec.Struct, frozen=True, tag="step", tag_field="kind"):
    label: str


class DueCards(msgspec.Struct, frozen=True, tag="due", tag_field="kind"):
    cards: tuple[str, ...]


class Clearing(msgspec.Struct, frozen=True, tag="clear", tag_field="kind"):
    card: str
    name: str
    kinds: tuple[str, ...]
    ranger: int | None
    by: str | None = None
    stage: str = "kind"
    items: tuple[Effect, ...] | None = None
    current: Effect | None = None
    discarded: bool = False


class OpenTest(msgspec.Struct, frozen=True, tag="test", tag_field="kind"):
    seat: int
    aspect: str
    difficulty: int
    effort: int
    target: str | None = None
    stage: str = "draw"
    current: str | None = None
    resolved: tuple[str, ...] = ()
    groups: tuple[tuple[str, ...], ...] = ()
    card: str | None = None
    icon: str = ""
    modifier: int | None = None
    total: int | None = None
    success: bool | None = None
    reshuffle: bool = False


Frame = OpenStep | DueCards | Clearing | OpenTest
