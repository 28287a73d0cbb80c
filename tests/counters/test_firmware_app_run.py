"""The firmware's asyncio entry point under CPython: tasks run, the watchdog is fed from the main
loop, and a REPL request followed by a 2 s button hold ends the run with every task cancelled."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.counters.firmware_env import load_firmware_module


def test_run_feeds_the_watchdog_and_stops_cleanly_on_repl_request() -> None:
    support: Any = load_firmware_module("support")
    machine: Any = load_firmware_module("machine")
    messages: Any = load_firmware_module("counter.messages")
    app, transport, display, pins = support.make_app("hp")
    host = support.HostSide()
    wdt = machine.WDT(timeout=5000)
    ticks = iter(range(0, 10**9, 20))

    async def scenario() -> set[asyncio.Task[Any]]:
        runner = asyncio.create_task(app.run(lambda: next(ticks), wdt))
        transport.incoming.extend(host.frame(messages.HELLO) + host.frame(messages.SEAT, b"\x02"))
        while app.seat != 2:
            await asyncio.sleep(0.001)
        transport.incoming.extend(host.frame(messages.REPL, seq=40))
        while app.presence is None:
            await asyncio.sleep(0.001)
        assert not app.repl_requested
        pins["select"].set_level(0)  # someone at the table holds a button
        await asyncio.wait_for(runner, timeout=10)
        await asyncio.sleep(0)
        return {task for task in asyncio.all_tasks() if task is not asyncio.current_task()}

    leftover = asyncio.run(scenario())
    assert leftover == set()
    assert wdt.feeds >= 1
    assert app.repl_requested
    replies = host.parse(support.take(transport))
    assert (messages.ACK, 0, bytes((40,))) in replies
    assert display.text.startswith("20 | HP /20 | ")  # the game screen again (the host went quiet meanwhile)
