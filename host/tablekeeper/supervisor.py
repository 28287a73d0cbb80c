"""Thread supervision: every station thread is watched, restarted with back-off when it fails, and
the systemd watchdog is fed only while all of them are alive and beating.

A ``Worker`` is a name, a target and its back-off. The target gets a ``Liveness``: it must return
soon after ``liveness.stop`` is set (``Worker.wake`` unblocks a thread waiting in the kernel) and
call ``liveness.beat()`` at least every ``wedged_after_s`` while it works; a thread about to block
for events says ``beat(waiting=True)`` and is idle, not wedged, however long nothing happens.
Nothing is polled: a worker that dies calls ``on_change`` (the station loop puts a ``Tick`` on its
queue), and the loop then calls ``check(now_s)``, which schedules the restart; ``next_deadline_s``
says when the next restart is due (``Health`` makes both a timed part of the station loop, with the
watchdog's feeding). The station loop itself runs under ``run_restarting`` on the calling thread.
All timing is read from the injected clock, so tests drive failures and back-off without sleeping.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)

Clock = Callable[[], float]


class Liveness:
    """What a supervised target is handed: the stop request and a way to say it is not wedged."""

    def __init__(self, clock: Clock, stop: threading.Event) -> None:
        self.stop = stop
        self._clock = clock
        self.last_beat_s = clock()
        self.waiting = False  # blocked in the kernel for an event: idle, not wedged

    def beat(self, *, waiting: bool = False) -> None:
        """Not wedged; ``waiting``: about to block until an event (or a deadline) comes."""
        self.last_beat_s = self._clock()
        self.waiting = waiting


@dataclass(frozen=True, slots=True)
class Worker:
    """One supervised thread. ``finish_ends_all``: its target returning (not failing) is a normal
    end of the whole station, e.g. the loop that handles ``Quit``; any other worker that returns
    before it was asked to stop is restarted like one that failed."""

    name: str
    target: Callable[[Liveness], None]
    backoff_first_s: float = 0.5
    backoff_max_s: float = 30.0
    wedged_after_s: float = 10.0
    stable_after_s: float = 60.0  # a run this long forgives earlier failures (back-off starts again)
    finish_ends_all: bool = False
    wake: Callable[[], None] | None = None  # called after the stop request: unblocks a thread waiting on events


@dataclass(frozen=True, slots=True)
class WorkerStatus:
    """One worker as ``check`` saw it last; ``state`` is "running", "wedged", "restarting" or "stopped"."""

    name: str
    state: str
    failures: int
    restarts: int
    last_error: str


@dataclass(slots=True)
class _Slot:
    worker: Worker
    thread: threading.Thread | None = None
    liveness: Liveness | None = None
    started_at_s: float = 0.0
    failures: int = 0  # in a row, for the back-off
    restarts: int = 0
    retry_at_s: float = 0.0
    last_error: str = ""
    finished: bool = False
    failed: bool = False
    scheduled: bool = False  # a restart time is set for the current failure


class Supervisor:
    """Starts, watches and restarts workers; ``healthy`` is the watchdog's condition."""

    def __init__(self, *, clock: Clock, thread_factory: Callable[..., threading.Thread] = threading.Thread,
                 on_change: Callable[[], None] | None = None) -> None:
        self._clock = clock
        self.on_change = on_change  # a worker died: the supervising loop should ``check`` now (any thread)
        self._thread_factory = thread_factory
        self._slots: dict[str, _Slot] = {}
        self._lock = threading.Lock()
        self.stop_event = threading.Event()
        self.ended = threading.Event()  # a ``finish_ends_all`` worker returned

    def add(self, worker: Worker) -> None:
        """Register ``worker`` and start it now (the supervisor may already be running)."""
        with self._lock:
            if worker.name in self._slots:
                raise ValueError(f"a worker named {worker.name!r} is already supervised")
            slot = _Slot(worker)
            self._slots[worker.name] = slot
        self._start(slot, self._clock())

    def _start(self, slot: _Slot, now_s: float) -> None:
        liveness = Liveness(self._clock, self.stop_event)
        slot.liveness = liveness
        slot.started_at_s = now_s
        slot.failed = False
        slot.finished = False
        slot.scheduled = False
        thread = self._thread_factory(target=self._run, args=(slot, liveness), name=slot.worker.name, daemon=True)
        slot.thread = thread
        thread.start()

    def _run(self, slot: _Slot, liveness: Liveness) -> None:
        worker = slot.worker
        try:
            worker.target(liveness)
        except Exception as exc:  # any failure of a thread is logged and restarted, never silent
            log.exception("thread %s failed", worker.name)
            slot.last_error = f"{type(exc).__name__}: {exc}"
            slot.failed = True
            self._changed()
            return
        slot.finished = True
        if self.stop_event.is_set():
            return
        if worker.finish_ends_all:
            self.ended.set()
            self._changed()
            return
        log.error("thread %s returned without being asked to stop", worker.name)
        slot.last_error = "returned"
        slot.failed = True
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def next_deadline_s(self) -> float | None:
        """When ``check`` next has work: a due restart, or now for a death it has not seen yet; None
        while every worker runs (a wedge needs no timer: it is judged when the watchdog is fed)."""
        if self.stop_event.is_set():
            return None
        with self._lock:
            slots = list(self._slots.values())
        due = [slot.retry_at_s if slot.scheduled else float("-inf") for slot in slots if slot.failed]
        return min(due, default=None)

    def check(self, now_s: float | None = None) -> bool:
        """Restart dead workers whose back-off has passed; True when every worker is alive and beat
        recently (the only time the watchdog may be fed)."""
        now_s = self._clock() if now_s is None else now_s
        healthy = True
        with self._lock:
            slots = list(self._slots.values())
        for slot in slots:
            healthy = self._check_slot(slot, now_s) and healthy
        return healthy

    def _check_slot(self, slot: _Slot, now_s: float) -> bool:
        if self.stop_event.is_set():
            return True
        thread = slot.thread
        alive = thread is not None and thread.is_alive()
        if alive and not slot.failed:
            if slot.liveness is not None and slot.liveness.waiting:
                return True
            beat_s = slot.liveness.last_beat_s if slot.liveness is not None else slot.started_at_s
            return now_s - beat_s <= slot.worker.wedged_after_s
        if slot.finished and slot.worker.finish_ends_all:
            return True
        if slot.failed and not slot.scheduled:  # just found dead: schedule the restart
            slot.scheduled = True
            worker = slot.worker
            if now_s - slot.started_at_s >= worker.stable_after_s:
                slot.failures = 0
            delay_s = min(worker.backoff_first_s * 2 ** slot.failures, worker.backoff_max_s)
            slot.failures += 1
            slot.retry_at_s = now_s + delay_s
            log.warning("thread %s restarts in %.1f s (%s)", worker.name, delay_s, slot.last_error)
        if slot.failed and now_s >= slot.retry_at_s and not alive:
            slot.restarts += 1
            self._start(slot, now_s)
        return False

    def status(self, now_s: float | None = None) -> list[WorkerStatus]:
        now_s = self._clock() if now_s is None else now_s
        out = []
        with self._lock:
            slots = list(self._slots.values())
        for slot in slots:
            alive = slot.thread is not None and slot.thread.is_alive() and not slot.failed
            if slot.finished and not slot.failed:
                state = "stopped"
            elif not alive:
                state = "restarting"
            elif slot.liveness is not None and not slot.liveness.waiting \
                    and now_s - slot.liveness.last_beat_s > slot.worker.wedged_after_s:
                state = "wedged"
            else:
                state = "running"
            out.append(WorkerStatus(slot.worker.name, state, slot.failures, slot.restarts, slot.last_error))
        return out

    def unhealthy(self, now_s: float | None = None) -> list[str]:
        """Names of the workers that are not running and beating (for the status line)."""
        return [s.name for s in self.status(now_s) if s.state in ("wedged", "restarting")]

    def stop(self, timeout_s: float = 2.0) -> None:
        """Ask every worker to stop and wait (a bounded time) for each."""
        self.stop_event.set()
        with self._lock:
            slots = list(self._slots.values())
        for slot in slots:
            if slot.worker.wake is not None:
                slot.worker.wake()
        for slot in slots:
            if slot.thread is not None and slot.thread is not threading.current_thread():
                slot.thread.join(timeout=timeout_s)


class Feeder(Protocol):
    """The watchdog as ``Health`` drives it (``appliance.watchdog.Watchdog``)."""

    def feed(self, now_s: float, *, healthy: bool = True) -> bool: ...

    def next_deadline_s(self) -> float | None: ...


class Health:
    """The supervisor and the watchdog as one timed part of the station loop: ``poll`` restarts what
    is due and feeds the watchdog only while every worker is healthy; ``next_deadline_s`` is the
    next restart or feed, so an idle loop wakes only for those (none without a watchdog)."""

    def __init__(self, supervisor: Supervisor, watchdog: Feeder | None) -> None:
        self.supervisor = supervisor
        self.watchdog = watchdog

    def poll(self, now_s: float) -> None:
        healthy = self.supervisor.check(now_s)
        if self.watchdog is not None:
            self.watchdog.feed(now_s, healthy=healthy)

    def next_deadline_s(self) -> float | None:
        due = [self.supervisor.next_deadline_s(), self.watchdog.next_deadline_s() if self.watchdog else None]
        return min((d for d in due if d is not None), default=None)


def run_restarting(name: str, target: Callable[[], None], *, clock: Clock, sleep: Callable[[float], None],
                   should_restart: Callable[[], bool], backoff_first_s: float = 0.5,
                   backoff_max_s: float = 30.0, stable_after_s: float = 60.0) -> int:
    """Run ``target`` on this thread; when it raises, log it, wait the back-off and run it again
    while ``should_restart()``. Returns how many times it was restarted. Meant for the station loop,
    which feeds the watchdog itself: while it is down or waiting, nothing feeds it, so failures that
    keep coming end in a restart by systemd."""
    failures = 0
    restarts = 0
    while True:
        started_s = clock()
        try:
            target()
            return restarts
        except Exception:  # the loop must not end on a bug in one intent; it is logged and resumed
            log.exception("thread %s failed", name)
        if not should_restart():
            return restarts
        if clock() - started_s >= stable_after_s:
            failures = 0
        delay_s = min(backoff_first_s * 2 ** failures, backoff_max_s)
        failures += 1
        restarts += 1
        log.warning("thread %s restarts in %.1f s", name, delay_s)
        sleep(delay_s)
