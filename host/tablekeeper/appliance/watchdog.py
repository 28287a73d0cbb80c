"""The station loop's link to systemd: READY=1 once up, WATCHDOG=1 from loop passes while every
supervised thread is healthy (``tablekeeper.supervisor``), STOPPING=1.

Outside systemd (no ``NOTIFY_SOCKET``) every call is a no-op, so the same loop runs in the
simulator and the tests. Feeding is rate-limited with the loop's own clock: systemd asks for a
ping within ``WATCHDOG_USEC``; sending at half that interval is the usual margin, and
``next_deadline_s`` is the loop's only timer for it (none without a watchdog).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Protocol

UNHEALTHY_RETRY_S = 1.0  # while a thread is down or wedged, how often feeding is tried again


class Notifier(Protocol):
    def notify(self, state: str) -> None: ...


def _systemd_notifier() -> Notifier:
    import sdnotify  # imported here: the installer's dry run runs without the project's venv

    notifier: Notifier = sdnotify.SystemdNotifier()
    return notifier


class Watchdog:
    """Wraps ``sdnotify``; call ``ready()`` once, ``feed(now_s)`` every loop pass, ``stopping()`` on exit."""

    def __init__(self, *, env: Mapping[str, str] | None = None,
                 notifier_factory: Callable[[], Notifier] = _systemd_notifier) -> None:
        env = os.environ if env is None else env
        self.enabled = bool(env.get("NOTIFY_SOCKET"))
        self.feed_interval_s = self._feed_interval_s(env)
        self._notifier = notifier_factory() if self.enabled else None
        self._last_feed_s: float | None = None
        self._retry_at_s: float | None = None  # a feed refused while unhealthy is tried again then

    @classmethod
    def _feed_interval_s(cls, env: Mapping[str, str]) -> float | None:
        """Half the watchdog period systemd asked for, or None when this process has no watchdog."""
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if pid and pid != str(os.getpid()):
            return None  # the watchdog is meant for another process (e.g. a wrapper that exec'd us)
        try:
            period_s = int(usec) / 1_000_000
        except ValueError:
            return None
        return period_s / 2 if period_s > 0 else None

    def _send(self, state: str) -> None:
        if self._notifier is not None:
            self._notifier.notify(state)

    def ready(self, status: str = "running") -> None:
        """Tell systemd start-up finished (``Type=notify`` waits for this)."""
        self._send(f"READY=1\nSTATUS={status}")

    def status(self, text: str) -> None:
        """A one-line status shown by ``systemctl status``."""
        self._send(f"STATUS={text}")

    def feed(self, now_s: float, *, healthy: bool = True) -> bool:
        """Ping the watchdog if the last ping is half a period old and ``healthy`` (every thread alive
        and beating); returns whether one was sent. An unhealthy station is left for systemd to restart."""
        if self._notifier is None or self.feed_interval_s is None:
            return False
        if self._last_feed_s is not None and now_s - self._last_feed_s < self.feed_interval_s:
            return False
        if not healthy:
            self._retry_at_s = now_s + min(UNHEALTHY_RETRY_S, self.feed_interval_s / 4)
            return False
        self._retry_at_s = None
        self._last_feed_s = now_s
        self._send("WATCHDOG=1")
        return True

    def next_deadline_s(self) -> float | None:
        """When ``feed`` should next be called: half a period after the last ping (sooner while
        unhealthy, to catch the recovery); None when this process has no watchdog."""
        if self._notifier is None or self.feed_interval_s is None:
            return None
        if self._retry_at_s is not None:
            return self._retry_at_s
        return float("-inf") if self._last_feed_s is None else self._last_feed_s + self.feed_interval_s

    def stopping(self) -> None:
        """Tell systemd a clean stop is under way (so the stop is not mistaken for a hang)."""
        self._send("STOPPING=1")
