"""What the station knows of each counter board across unplugs (by its unique id): the seat it takes, its
role, the revisions and rolls it reported, the reliable sequence numbers sent to it; pairing a board to a
seat; and the game's values the boards show. The links report here (``LinkHost``); everything runs
under the manager's lock."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from tablekeeper.hw import protocol as p
from tablekeeper.hw.counter_link import CounterLink, LinkTiming
from tablekeeper.intents import CounterConnected, CounterMissing, CounterValue, Intent

log = logging.getLogger("tablekeeper.hw.counters")

SLOT_TRACKS = p.ROLE_SLOTS  # the slots go out as CounterValue.track; the station maps them to game tracks


@dataclass(frozen=True, slots=True)
class CounterMatch:
    """A counter the station expects: its USB IDs and role, and, if given, its board's serial. The first
    unseated counter that matches takes ``seat``."""

    vid: int
    pid: int
    seat: int
    role: str
    serial: str | None = None


@dataclass(frozen=True, slots=True)
class CounterRoll:
    """A dice counter on ``seat`` rolled ``faces`` (``sides``-sided dice)."""

    seat: int
    sides: int
    faces: tuple[int, ...]
    at_s: float = 0.0


@dataclass(frozen=True, slots=True)
class CounterStatus:
    """One counter as the station shows it."""

    device: str
    uid: str | None
    role: str | None
    seat: int
    state: str  # "greeting", "ready", "missing"


@dataclass(slots=True)
class _Known:
    """What the manager remembers about one board across unplugs (keyed by its unique id)."""

    boot_id: int = -1
    revs: dict[int, int] = field(default_factory=dict)
    roll_id: int = -1
    seat: int = 0
    role: str = ""
    present: bool = False
    last_seq: int = 0  # the host's last reliable seq to this board, continued by its next link


class CounterBoards:
    """The boards and their seats; ``emit`` receives ``CounterValue``/``CounterConnected``/
    ``CounterMissing`` intents, ``on_roll`` a ``CounterRoll``. ``links``: the open links, by port."""

    def __init__(self, *, links: Mapping[str, CounterLink], emit: Callable[[Intent], None],
                 configured: Sequence[CounterMatch] = (), on_roll: Callable[[CounterRoll], None] | None = None,
                 timing: LinkTiming | None = None, session_id: int = 0,
                 on_ready: Callable[[str], None] | None = None) -> None:
        self.links = links
        self.emit = emit
        self.configured = tuple(configured)
        self.on_roll = on_roll
        self.timing = timing if timing is not None else LinkTiming()
        self.session_id = session_id  # names this station process in HELLO: boards keep their replay window
        self.on_ready = on_ready  # a board identified itself on this port (its back-off starts afresh)
        self.known: dict[str, _Known] = {}
        self.pairing_seat = 0
        self.refused_changes = 0  # CHANGEs not applied: revision leaps or values past the track's bound
        self._track_values: dict[tuple[int, str], tuple[int, int]] = {}
        self._labels: dict[tuple[int, str], str] = {}  # each seat's slots named in the game's words
        self._reported: set[tuple[int, str]] = set()  # tracks a counter changed since the last publish
        self._wrong_versions: set[tuple[str, int]] = set()

    # --- what the station asks ---------------------------------------------------------------------
    def publish(self, seat: int, track: str, value: int, bound: int, now_s: float) -> bool:
        """Keep the game's value for ``seat``'s ``track`` and send it to the boards showing it; False when
        it was sent before and no board has changed it since."""
        key = (seat, track)
        if self._track_values.get(key) == (value, bound) and key not in self._reported:
            return False
        self._reported.discard(key)
        self._track_values[key] = (value, bound)
        for link in self.links.values():
            self._push_track(link, seat, track, now_s)
        return True

    def label(self, seat: int, track: str, text: str, now_s: float) -> bool:
        """Name ``seat``'s ``track`` slot on the boards showing it ("damage"); False when unchanged."""
        key = (seat, track)
        if self._labels.get(key) == text:
            return False
        self._labels[key] = text
        for link in self.links.values():
            self._push_label(link, seat, track, now_s)
        return True

    def _push_label(self, link: CounterLink, seat: int, track: str, now_s: float) -> None:
        ident = link.ident
        text = self._labels.get((seat, track))
        if ident is None or not seat or link.seat != seat or text is None or track not in SLOT_TRACKS[ident.role]:
            return
        slot = SLOT_TRACKS[ident.role].index(track)
        link.send_reliable((p.MsgType.LABEL, slot), p.MsgType.LABEL, p.label_body(slot, text), now_s)

    def start_pairing(self, seat: int, now_s: float) -> None:
        """The next unseated board whose button is pressed takes ``seat``."""
        self.pairing_seat = seat
        for link in self.links.values():
            if link.ready and link.seat == 0:
                link.send_seat(0, now_s)  # shows "press to claim"

    def status(self) -> list[CounterStatus]:
        out = []
        for device, link in sorted(self.links.items()):
            ident = link.ident
            out.append(CounterStatus(device, ident.uid_hex if ident else None, ident.role if ident else None,
                                     link.seat, "ready" if ident else "greeting"))
        for uid, known in sorted(self.known.items()):
            if not known.present and known.seat:
                out.append(CounterStatus("", uid, known.role, known.seat, "missing"))
        return out

    def dropped(self, link: CounterLink, reason: str, now_s: float) -> None:
        """``link`` was closed: its board is away (its seat's counter missing) until it comes back."""
        if link.ident is None:
            return
        known = self.known.get(link.ident.uid_hex)
        if known is not None:
            known.present = False
            known.last_seq = link.outbox_seq
            if link.seat:
                self.emit(CounterMissing(seat=link.seat, reason=reason, at_s=now_s))

    # --- what the links report ---------------------------------------------------------------------
    def wrong_version(self, device: str, version: int) -> None:
        """One line per port and version, however often the back-off retries it."""
        if (device, version) in self._wrong_versions:
            return
        self._wrong_versions.add((device, version))
        log.warning("counter %s speaks counter protocol version %d, this station version %d: "
                    "update the counter's firmware", device, version, p.PROTOCOL_VERSION)

    def identified(self, link: CounterLink, now_s: float) -> None:
        ident = link.ident
        if ident is None:
            return
        if self.on_ready is not None:
            self.on_ready(link.device)
        known = self.known.setdefault(ident.uid_hex, _Known())
        if known.boot_id != ident.boot_id:
            # A fresh boot starts its revisions and roll ids again.
            known.boot_id = ident.boot_id
            known.revs = {}
            known.roll_id = -1
        if known.last_seq:
            link.continue_seq(known.last_seq)
        known.present = True
        known.role = ident.role
        if not known.seat:
            known.seat = self._configured_seat(ident, link.device)
        link.send_seat(known.seat, now_s)
        for slot, track in enumerate(SLOT_TRACKS[ident.role]):
            self._push_label(link, known.seat, track, now_s)
            self._push_track(link, known.seat, track, now_s, slot)
        link.resend_pending(now_s)
        if known.seat:
            self.emit(CounterConnected(seat=known.seat, port=link.device, role=ident.role, at_s=now_s))

    def _configured_seat(self, ident: p.Ident, device: str) -> int:
        taken = {(k.seat, k.role) for uid, k in self.known.items() if k.present and uid != ident.uid_hex}
        for entry in self.configured:
            if entry.role != ident.role or (entry.seat, entry.role) in taken:
                continue
            if entry.serial is not None and entry.serial.upper() != ident.uid_hex:
                continue
            return entry.seat
        return 0

    def changed(self, link: CounterLink, change: p.Change, now_s: float) -> None:
        ident = link.ident
        if ident is None:
            return
        known = self.known[ident.uid_hex]
        tracks = SLOT_TRACKS[ident.role]
        if change.slot >= len(tracks):
            return
        last = known.revs.get(change.slot, 0)  # a board counts its revisions from 0 at boot
        track = tracks[change.slot]
        if change.rev == last or p.rev_is_within(last, change.rev):
            return  # a retransmission of something already applied, or overtaken by a newer change
        stored = self._track_values.get((link.seat, track)) if link.seat else None
        implausible = not p.rev_is_within(change.rev, last)
        if implausible or (stored is not None and change.value > stored[1]):
            # A revision leaping ahead or a value past the track's bound is not applied. When the game's
            # value is known the counter is resynchronised to it at that revision, so a board that
            # really counted that far (the station restarted under it) is not refused forever.
            log.warning("counter %s: CHANGE slot %d value %d rev %d (last %d) refused", link.device, change.slot,
                        change.value, change.rev, last)
            self.refused_changes += 1
            if stored is not None:
                if implausible:
                    known.revs[change.slot] = change.rev
                link.send_set(change.slot, stored[0], stored[1], known.revs.get(change.slot, 0), now_s)
            return
        known.revs[change.slot] = change.rev
        if link.seat:
            self._reported.add((link.seat, track))
            self.emit(CounterValue(seat=link.seat, track=track, value=change.value, at_s=now_s))

    def rolled(self, link: CounterLink, roll: p.Roll, now_s: float) -> None:
        ident = link.ident
        if ident is None:
            return
        known = self.known[ident.uid_hex]
        if roll.roll_id == known.roll_id:
            return
        known.roll_id = roll.roll_id
        if link.seat and self.on_roll is not None:
            self.on_roll(CounterRoll(seat=link.seat, sides=roll.sides, faces=roll.faces, at_s=now_s))

    def claimed(self, link: CounterLink, now_s: float) -> None:
        ident = link.ident
        seat = self.pairing_seat
        if ident is None or not seat or link.seat:
            return
        self.pairing_seat = 0
        for other in self.links.values():
            if other is not link and other.seat == seat and other.ident is not None and other.ident.role == ident.role:
                other.send_seat(0, now_s)
                self.known[other.ident.uid_hex].seat = 0
        self.known[ident.uid_hex].seat = seat
        link.send_seat(seat, now_s)
        for slot, track in enumerate(SLOT_TRACKS[ident.role]):
            self._push_label(link, seat, track, now_s)
            self._push_track(link, seat, track, now_s, slot)
        self.emit(CounterConnected(seat=seat, port=link.device, role=ident.role, at_s=now_s))

    def _push_track(self, link: CounterLink, seat: int, track: str, now_s: float, slot: int | None = None) -> None:
        ident = link.ident
        if ident is None or not seat or link.seat != seat:
            return
        tracks = SLOT_TRACKS[ident.role]
        if slot is None:
            if track not in tracks:
                return
            slot = tracks.index(track)
        stored = self._track_values.get((seat, track))
        if stored is None:
            return
        value, limit = stored
        rev_seen = self.known[ident.uid_hex].revs.get(slot, 0)
        link.send_set(slot, value, limit, rev_seen, now_s)
