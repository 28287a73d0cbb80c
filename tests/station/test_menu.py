"""The station menu on a fake clock: sound, pairing a counter to a seat (a real CounterManager and a
virtual counter over a pty), the counter list, and an idle timeout that no run of presses can defeat."""

from __future__ import annotations

import random
import select
import time
from collections.abc import Callable, Iterator

import pytest

from tablekeeper.config import REFERENCE_CONFIG, load_config
from tablekeeper.hw.counters import CounterManager, CounterMatch, PortDiscovery
from tablekeeper.intents import CounterConnected, CounterMissing
from tablekeeper.sim.counters import VirtualCounter, VirtualCounterBank
from tablekeeper.ui.menu import MENU_IDLE_S
from tests.station.test_station import Rig


@pytest.fixture
def rig(tmp_path: object) -> Iterator[Rig]:
    rig = Rig(load_config(REFERENCE_CONFIG), tmp_path)
    yield rig
    rig.station.close()
    rig.parts.close()


def track_lines(rig: Rig) -> tuple[str, ...]:
    return rig.station.ui.menu.panel().lines if rig.station.ui.menu.is_open else ()


def test_menu_lists_its_items_and_up_down_move_the_cursor(rig: Rig) -> None:
    game_track = rig.station.images["track"].tobytes()
    rig.tap("menu")
    assert rig.station.ui.menu.is_open
    assert track_lines(rig) == ("> Sound off", "  Pair counter seat 1", "  Pair counter seat 2", "  Counters")
    assert rig.station.images["track"].tobytes() != game_track  # the menu is drawn on the track display
    rig.tap("down")
    rig.tap("down")
    assert track_lines(rig)[2] == "> Pair counter seat 2"
    rig.tap("up")
    rig.tap("up")
    rig.tap("up")  # wraps round to the last item
    assert track_lines(rig)[-1] == "> Counters"
    rig.tap("back")
    assert not rig.station.ui.menu.is_open
    assert rig.station.images["track"].tobytes() == game_track


def test_sound_item_switches_the_buzzer_both_ways(rig: Rig) -> None:
    rig.tap("menu")
    rig.tap("next")
    assert rig.station.ui.quiet and not rig.station.ui.menu.is_open
    rig.tap("menu")
    assert track_lines(rig)[0] == "> Sound on"
    rig.tap("select")  # select chooses too
    assert not rig.station.ui.quiet


def test_buttons_do_not_reach_the_game_while_the_menu_is_open(rig: Rig) -> None:
    before = rig.session.view()
    rig.tap("menu")
    for role in ("seat1.a", "seat2.b", "up", "down"):
        rig.tap(role)
    rig.pass_time(5.0)
    assert rig.session.view() == before and rig.station.stats.commands == 0


def test_menu_closes_by_itself_after_the_idle_time(rig: Rig) -> None:
    rig.tap("menu")
    rig.tap("down")
    rig.pass_time(MENU_IDLE_S - 1.0)
    assert rig.station.ui.menu.is_open  # each press keeps it open
    rig.pass_time(1.1)
    assert not rig.station.ui.menu.is_open
    rig.tap("next")
    assert rig.session.view()["active_seat"] == 2  # next plays the game again


def test_mashing_never_leaves_the_menu_stuck(rig: Rig) -> None:
    rng = random.Random(7)
    roles = [b.role for b in rig.parts.config.buttons]
    for _ in range(150):
        rig.tap(rng.choice(roles))
        if rng.random() < 0.1:
            rig.pass_time(rng.uniform(0, 2 * MENU_IDLE_S))
    rig.pass_time(MENU_IDLE_S + 0.1)
    assert not rig.station.ui.menu.is_open and rig.station.ui.menu.deadline_s() is None


class Counters:
    """A real CounterManager finding virtual counters on ptys; polled from the test (bounded real time)."""

    def __init__(self, *entries: CounterMatch) -> None:
        self.bank = VirtualCounterBank()
        self.intents: list[object] = []
        self.manager = CounterManager(emit=self.intents.append, counters=entries,
                                      discovery=PortDiscovery(list_ports=self.bank.list_ports, scan_interval_s=0.05))

    def spin_until(self, condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            assert time.monotonic() < deadline, f"timed out; intents {self.intents}"
            self.manager.poll()
            fds = self.manager.filenos()
            select.select(fds, [], [], 0.005) if fds else time.sleep(0.005)

    def close(self) -> None:
        self.manager.close()
        self.bank.close()


@pytest.fixture
def counters() -> Iterator[Counters]:
    made = Counters()
    yield made
    made.close()


def test_pairing_a_counter_to_a_seat(rig: Rig, counters: Counters) -> None:
    rig.station.sink.counters = counters.manager
    board = counters.bank.add(VirtualCounter("hp", uid="E6614104033300A7"))
    board.plug()
    counters.spin_until(lambda: board.display.endswith("PRESS: CLAIM"))  # no seat in the config: unseated
    rig.tap("menu")
    rig.tap("down")
    rig.tap("down")
    rig.tap("next")  # Pair counter seat 2
    assert counters.manager.pairing_seat == 2
    assert rig.station.ui.menu.panel().lines[0] == "Press a button on the counter for seat 2."
    board.press("up")
    counters.spin_until(lambda: any(isinstance(i, CounterConnected) for i in counters.intents))
    for intent in counters.intents:
        rig.station.put(intent)  # type: ignore[arg-type]
    rig.station.drain()
    assert not rig.station.ui.menu.is_open
    assert rig.station.ui.message is not None and rig.station.ui.message.text == "seat 2 counter paired"
    counters.spin_until(lambda: board.display == "9 | HP /9 | SEAT 2")  # the seat's HP went to the counter


def test_leaving_the_pairing_prompt_cancels_pairing(rig: Rig, counters: Counters) -> None:
    rig.station.sink.counters = counters.manager
    rig.tap("menu")
    rig.tap("down")
    rig.tap("next")
    assert counters.manager.pairing_seat == 1
    rig.pass_time(MENU_IDLE_S + 0.1)
    assert counters.manager.pairing_seat == 0 and not rig.station.ui.menu.is_open
    rig.tap("menu")
    rig.tap("down")
    rig.tap("next")
    rig.tap("back")
    assert counters.manager.pairing_seat == 0 and not rig.station.ui.menu.is_open


def test_counters_item_lists_connected_and_missing_counters(rig: Rig) -> None:
    counters = Counters(CounterMatch(vid=0x2E8A, pid=5, seat=1, role="hp"),
                        CounterMatch(vid=0x2E8A, pid=5, seat=2, role="dial"))
    try:
        rig.station.sink.counters = counters.manager
        hp = counters.bank.add(VirtualCounter("hp", uid="E6614104033300B1"))
        dial = counters.bank.add(VirtualCounter("dial", uid="E6614104033300B2"))
        hp.plug()
        dial.plug()
        counters.spin_until(lambda: sum(isinstance(i, CounterConnected) for i in counters.intents) == 2)
        dial.unplug()
        counters.spin_until(lambda: any(isinstance(i, CounterMissing) for i in counters.intents))
        rig.tap("menu")
        rig.tap("up")  # from the first item up to the last: Counters
        rig.tap("next")
        assert rig.station.ui.menu.panel().title == "Counters"
        assert rig.station.ui.menu.panel().lines == ("seat 1 hp: ready", "seat 2 dial: missing")
        rig.tap("next")
        assert not rig.station.ui.menu.is_open
    finally:
        counters.close()


def test_pairing_without_counters_says_so(rig: Rig) -> None:
    rig.tap("menu")
    rig.tap("down")
    rig.tap("next")
    assert not rig.station.ui.menu.is_open
    assert rig.station.ui.message is not None and rig.station.ui.message.text == "counters are off"
