"""What the counters tell the station: a slot's new value sets the seat track the game has it follow
(``station.counter_tracks``), a roll is reported into the game's dice, and a counter arriving or going
away is said on the track display and marked on its seat's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from msgspec.structs import replace

from tablekeeper.core.chance import Dice
from tablekeeper.core.events import Command
from tablekeeper.core.tracks import seat_track
from tablekeeper.intents import CounterConnected, CounterMissing, CounterRolled, CounterValue
from tablekeeper.station import counter_tracks

if TYPE_CHECKING:
    from tablekeeper.station.loop import Station


def value(st: Station, intent: CounterValue) -> None:
    game, tracks = st.session.game, st.session.state.tracks
    track = counter_tracks.followed(game, tracks, intent.seat, intent.track)
    if track is None:  # nothing in this game to set: the presses are ignored, and that is said once
        if (intent.seat, intent.track) not in st.ui.unused_counters:
            st.ui = replace(st.ui, unused_counters=st.ui.unused_counters | {(intent.seat, intent.track)})
            st.say(counter_tracks.unused_text(game, intent.seat, intent.track))
        return
    before = tracks.get(track)
    st.perform([*st.controls.flush(), Command("set", (track, str(intent.value)), origin="counter")])
    if st.session.state.tracks.get(track) == before:
        # refused (or no change): the counter still shows what it asked for; send the game's value
        st.sink.publish(st.session.game, st.session.state, lambda seat, name: seat_track(seat, name) == track)


def connected(st: Station, intent: CounterConnected, *, paired: bool) -> None:
    st.ui = replace(st.ui, missing_counters=st.ui.missing_counters - {intent.seat})
    if paired:
        st.ui = replace(st.ui, menu=st.ui.menu.closed())
    st.say(ready_text(st, intent, "paired" if paired else "ready"))
    st.sink.publish(st.session.game, st.session.state, lambda seat, _track: seat == intent.seat)


def missing(st: Station, intent: CounterMissing) -> None:
    st.ui = replace(st.ui, missing_counters=st.ui.missing_counters | {intent.seat})
    st.say(f"seat {intent.seat} counter lost" + (f": {intent.reason}" if intent.reason else ""))


def ready_text(st: Station, intent: CounterConnected, word: str) -> str:
    """``seat 1 counter ready``, or, when the game has no track for any of its slots, that it is
    not used here (said this once; its presses are then ignored without a word)."""
    game, tracks = st.session.game, st.session.state.tracks
    unused = counter_tracks.unused_slots(game, tracks, intent.seat, intent.role)
    if not unused or len(unused) < len(counter_tracks.ROLE_SLOTS.get(intent.role, ())):
        return f"seat {intent.seat} counter {word}"
    st.ui = replace(st.ui, unused_counters=st.ui.unused_counters | {(intent.seat, slot) for slot in unused})
    return counter_tracks.unused_text(game, intent.seat, intent.role)


def rolled(st: Station, intent: CounterRolled) -> None:
    """Show a counter's roll; report it into the game when the game has dice like those."""
    faces = " ".join(str(face) for face in intent.faces)
    source = dice_source(st.session.state.sources, intent.sides, len(intent.faces))
    refused = st.stats.refusals
    if source is not None:
        st.perform([*st.controls.flush(), Command("reveal", (source, faces), origin="counter")])
    if st.stats.refusals == refused:  # a refusal stays on the display instead
        st.say(f"seat {intent.seat} rolled {faces}")


def dice_source(sources: Mapping[str, object], sides: int, count: int) -> str | None:
    """The game's dice source that ``count`` dice of ``sides`` faces (numbered 1..sides) can report into."""
    numbered = {str(face) for face in range(1, sides + 1)}
    for name in sorted(sources):
        source = sources[name]
        if isinstance(source, Dice) and source.count == count and set(source.faces) == numbered:
            return name
    return None
