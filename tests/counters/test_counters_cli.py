"""``tablekeeper counters``: listing and the REPL hand-back, against virtual counters on ptys."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest

from tablekeeper.cli import main
from tablekeeper.commands.counters import list_command, repl_command
from tablekeeper.hw.counters import CounterManager, PortDiscovery
from tablekeeper.sim.counters import VirtualCounter
from tests.counters.pty_rig import PtyRig


def _manager(rig: PtyRig) -> CounterManager:
    return CounterManager(emit=lambda intent: None,
                          discovery=PortDiscovery(list_ports=rig.bank.list_ports, scan_interval_s=0.05))


def test_list_names_each_counter(pty_rig: Callable[..., PtyRig], capsys: pytest.CaptureFixture[str]) -> None:
    rig = pty_rig()
    hp = rig.add(VirtualCounter("hp", uid="E661410403330001"))
    dial = rig.add(VirtualCounter("dial", uid="E661410403330002"))
    assert list_command(argparse.Namespace(wait=10.0, config=None), _manager(rig)) == 0
    out = capsys.readouterr().out
    assert f"{hp.device}  hp    uid E661410403330001" in out
    assert f"{dial.device}  dial  uid E661410403330002" in out


def test_list_with_nothing_plugged_in(pty_rig: Callable[..., PtyRig], capsys: pytest.CaptureFixture[str]) -> None:
    rig = pty_rig()
    assert list_command(argparse.Namespace(wait=0.1, config=None), _manager(rig)) == 1
    assert "no counters found" in capsys.readouterr().out


def test_repl_hands_the_board_back(pty_rig: Callable[..., PtyRig], capsys: pytest.CaptureFixture[str]) -> None:
    rig = pty_rig()
    counter = rig.add(VirtualCounter("hp"))
    assert repl_command(argparse.Namespace(device=counter.device, wait=10.0), _manager(rig)) == 0
    assert "hold any of its buttons for 2 s" in capsys.readouterr().out
    counter.wait_for_display(lambda text: text.startswith("REPL? HOLD"))
    counter.hold("select", 2.3)
    counter.wait_for(lambda line: line == "stopped", 10.0)


def test_repl_on_a_port_without_a_counter_is_a_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["counters", "repl", "/dev/ttyNOPE9", "--wait", "0.05"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ("tablekeeper: counter /dev/ttyNOPE9: did not answer; is it plugged in and running "
                           "the app?")


def test_list_with_a_missing_config_is_a_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "station.toml"
    assert main(["counters", "list", "--config", str(missing)]) == 2
    assert capsys.readouterr().err.strip() == f"tablekeeper: {missing}: no such file"
