"""The counter application: inputs -> role -> host link, and host requests -> role -> display.

Everything it touches is passed in. ``step(now_ms)`` does one round of work synchronously, so
tests drive it with a fake clock; ``run()`` schedules the same work as asyncio tasks.
"""

from micropython import const

from counter import FIRMWARE_VERSION
from counter import messages as m
from counter.link import HostLink, Identity
from counter.presence import GRANTED, WAITING, PresenceCheck
from counter.roles import INPUT_DOWN, INPUT_SELECT, INPUT_UP, DialRole, DiceRole, HpRole

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from counter.config import CounterConfig
    from counter.inputs import Button, Encoder
    from counter.interfaces import Display, Entropy, TicksMs, Transport, Watchdog

INPUT_POLL_MS = const(2)
LINK_POLL_MS = const(1)
DISPLAY_POLL_MS = const(20)
MAIN_LOOP_MS = const(100)

_EVENTS = {"up": INPUT_UP, "down": INPUT_DOWN, "select": INPUT_SELECT}


def button_event(name: str) -> int:
    return _EVENTS[name]


class CounterApp:
    """One counter: owns the role, the host link and the screen."""

    def __init__(self, config: "CounterConfig", *, transport: "Transport", display: "Display", buttons: "list[Button]",
                 encoder: "Encoder | None", uid: bytes, entropy: "Entropy", now_ms: int) -> None:
        self.config = config
        self.display = display
        self.buttons = buttons
        self.encoder = encoder
        boot = entropy(2)
        caps = m.CAP_REPL
        if config.display_kind != "none":
            caps |= m.CAP_DISPLAY
        if buttons:
            caps |= m.CAP_BUTTONS
        if encoder is not None:
            caps |= m.CAP_ENCODER
        if config.role == "hp":
            role_code = m.ROLE_HP
            slots = 1
        elif config.role == "dial":
            role_code = m.ROLE_DIAL
            slots = 4
        else:
            role_code = m.ROLE_DICE
            slots = 0
            caps |= m.CAP_DICE
        identity = Identity(uid[: m.MAX_UID], role_code, FIRMWARE_VERSION, caps, (boot[0] << 8) | boot[1], slots)
        self.link = HostLink(transport, identity, self, now_ms)
        self.role: HpRole | DialRole | DiceRole
        if config.role == "hp":
            self.role = HpRole(self.link, config.max_value)
        elif config.role == "dial":
            self.role = DialRole(self.link)
        else:
            self.role = DiceRole(self.link, entropy, config.dice_count, config.dice_sides)
        self.seat = 0
        self.repl_requested = False  # True once presence was shown: run() ends and the board resets
        self._repl_asked = False  # a REPL request arrived; the presence check starts at the next input pass
        self.presence: PresenceCheck | None = None
        self._now_ms = now_ms
        self._dirty = True
        self._host_shown = False

    # -- host requests (called by HostLink) ----------------------------------------------------
    def on_set(self, slot: int, value: int, limit: int, rev_seen: int, now_ms: int) -> bool:
        accepted = self.role.on_set(slot, value, limit, rev_seen)
        self._dirty = True
        return accepted

    def on_roll_request(self, count: int, sides: int, now_ms: int) -> bool:
        self._dirty = True
        return self.role.on_roll_request(count, sides, now_ms)

    def on_label(self, slot: int, text: str) -> bool:
        """The host names a slot in the game's words (Arkham's HP die counts "damage")."""
        accepted = self.role.on_label(slot, text)
        self._dirty = True
        return accepted

    def on_seat(self, seat: int, now_ms: int) -> bool:
        if seat > 8:
            return False
        self.seat = seat
        self._dirty = True
        return True

    def on_repl(self) -> None:
        """Ask for physical presence first (counter/presence.py); the REPL follows a 2 s hold."""
        if self.presence is None:
            self._repl_asked = True

    # -- player input ------------------------------------------------------------------------
    def handle_input(self, event: int, now_ms: int) -> None:
        """A press on a counter the host has not seated claims the seat being offered instead."""
        if self.seat == 0 and self.link.host_present:
            self.link.send_claim(now_ms)
        else:
            self.role.handle(event, now_ms)
        self._dirty = True

    def poll_inputs(self, now_ms: int) -> None:
        self._now_ms = now_ms
        if self._repl_asked:
            self._repl_asked = False
            self.presence = PresenceCheck(now_ms)
            self._dirty = True
        if self.presence is not None:
            self._poll_presence(self.presence, now_ms)
            return
        for button in self.buttons:
            if button.poll(now_ms):
                self.handle_input(button.event, now_ms)
        if self.encoder is not None:
            detents = self.encoder.poll()
            while detents > 0:
                self.handle_input(INPUT_UP, now_ms)
                detents -= 1
            while detents < 0:
                self.handle_input(INPUT_DOWN, now_ms)
                detents += 1

    def _poll_presence(self, presence: PresenceCheck, now_ms: int) -> None:
        """While the counter asks for presence its buttons answer the question, not the game."""
        held = False
        for button in self.buttons:
            button.poll(now_ms)
            held = held or button.is_down
        result = presence.poll(held, now_ms)
        if result == GRANTED:
            self.repl_requested = True
        if result != WAITING:
            self.presence = None
        self._dirty = True

    # -- screen ------------------------------------------------------------------------------
    def screen(self) -> tuple[str | None, tuple[str, ...]]:
        if self.presence is not None:
            return None, self.presence.screen(self._now_ms)
        big, lines = self.role.screen()
        # Tuple concatenation: MicroPython has no starred items in tuple displays.
        if not self.link.host_present:
            status = "NO HOST"
        elif self.seat == 0:
            status = "PRESS: CLAIM"
        else:
            status = "SEAT " + str(self.seat)
        return big, lines + (status,)  # noqa: RUF005

    def refresh(self) -> None:
        if self.link.host_present != self._host_shown:
            self._host_shown = self.link.host_present
            self._dirty = True
        if self._dirty:
            self._dirty = False
            big, lines = self.screen()
            self.display.show(big, lines)

    def next_wake_ms(self, now_ms: int) -> int:
        """Milliseconds until ``step`` has work a clock brings: input polling while a button settles,
        an encoder turns or the presence check runs, else the link's timers. (``run`` polls anyway;
        the simulator's virtual counter sleeps this long, or until a byte or a press arrives.)"""
        if self.presence is not None or self._repl_asked or self.encoder is not None:
            return INPUT_POLL_MS
        for button in self.buttons:
            if not button.settled():
                return INPUT_POLL_MS
        return self.link.next_wake_ms(now_ms)

    def step(self, now_ms: int) -> None:
        self.poll_inputs(now_ms)
        self.link.poll(now_ms)
        self.refresh()

    # -- asyncio -----------------------------------------------------------------------------
    async def run(self, ticks_ms: "TicksMs", wdt: "Watchdog | None" = None, link_wait: "Any" = None) -> None:
        """Run until the host asks for the REPL; task handles are kept and cancelled on exit.

        ``link_wait(seconds)`` may return early when bytes arrive (the simulator wakes on its
        pty); by default the link is polled every millisecond.
        """
        import asyncio

        wait = link_wait if link_wait is not None else asyncio.sleep

        async def inputs() -> None:
            while True:
                self.poll_inputs(ticks_ms())
                await asyncio.sleep(INPUT_POLL_MS / 1000)

        async def link() -> None:
            while True:
                self.link.poll(ticks_ms())
                await wait(LINK_POLL_MS / 1000)

        async def screen() -> None:
            while True:
                self.refresh()
                await asyncio.sleep(DISPLAY_POLL_MS / 1000)

        self.display.init_display()
        tasks = [asyncio.create_task(inputs()), asyncio.create_task(link()), asyncio.create_task(screen())]
        try:
            while not self.repl_requested:
                if wdt is not None:
                    wdt.feed()
                await asyncio.sleep(MAIN_LOOP_MS / 1000)
            # Let the acknowledgement of the REPL request leave before the caller resets, and take
            # the presence question off the display whichever task saw the hold end.
            self.link.poll(ticks_ms())
            self.refresh()
        finally:
            for task in tasks:
                task.cancel()
