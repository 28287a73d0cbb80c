"""The station loop's link to systemd: READY=1 once up, WATCHDOG=1 from loop passes while every
supervised thread is healthy (``tablekeeper.supervisor``), STOPPING=1.

Outside systemd (no ``NOTIFY_SOCKET``) every call is a no-op, so the same loop runs in the
simulator and the tests. Feeding is rate-limited with the loop's own clock: systemd asks for a
ping within ``WATCHDOG_USEC``; sending at half that interval is the usual margin, and
``next_deadline_s`` is the loop's only timer for it (none without a watchdog).
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Mapping
from typing import Protocol

UNHEALTHY_RETRY_S = 1.0  # while a thread is down or wedged, how often feeding is tried again

log = logging.getLogger(__name__)


class Notifier(Protocol):
    def notify(self, state: str) -> None: ...


class SocketNotifier:
    """sd_notify(3) without libsystemd: each state is one datagram to the AF_UNIX socket that
    ``NOTIFY_SOCKET`` names (a path, or after ``@`` an abstract name). A send that fails is logged,
    not raised: systemd's watchdog, not the station, decides what a silent station means."""

    def __init__(self, address: str) -> None:
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self.failures = 0

    def notify(self, state: str) -> None:
        try:
            self._socket.sendto(state.encode(), self.address)
        except OSError as exc:
            self.failures += 1
            if self.failures == 1:
                log.warning("systemd notification %r not delivered to %r: %s", state.split("\n")[0],
                            self.address, exc)


class Watchdog:
    """systemd's notify link; call ``ready()`` once, ``feed(now_s)`` every loop pass, ``stopping()`` on exit."""

    def __init__(self, *, env: Mapping[str, str] | None = None,
                 notifier_factory: Callable[[], Notifier] | None = None) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        self.enabled = bool(address)
        self.feed_interval_s = self._feed_interval_s(env)
        self._notifier: Notifier | None = None
        if self.enabled:
            self._notifier = notifier_factory() if notifier_factory is not None else SocketNotifier(address)
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
