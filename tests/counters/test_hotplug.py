"""Counter hot-plug: pyudev's netlink monitor where udev runs, a gated slow scan where it does not."""

from __future__ import annotations

import ctypes.util
import select
from pathlib import Path

import pytest

from tablekeeper.hw.counters import FALLBACK_SCAN_S, UdevHotplug, dev_mtime, usb_discovery


def test_without_udev_running_there_is_no_monitor_and_the_scan_is_slow_and_gated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert UdevHotplug.open(tmp_path / "control") is None
    monkeypatch.setattr(UdevHotplug, "open", classmethod(lambda cls: None))
    assert usb_discovery() == {"hotplug": None, "scan_interval_s": FALLBACK_SCAN_S, "scan_gate": dev_mtime}


@pytest.mark.skipif(ctypes.util.find_library("udev") is None, reason="libudev is not installed")
def test_where_udev_runs_the_real_monitor_is_selectable_and_quiet_without_events(tmp_path: Path) -> None:
    """pyudev's Monitor on a real netlink socket (no udevd here, so no event arrives)."""
    control = tmp_path / "control"
    control.touch()
    hotplug = UdevHotplug.open(control)
    assert hotplug is not None
    assert select.select([hotplug.fileno()], [], [], 0)[0] == []
    assert hotplug.changed() is False


def test_lost_udev_events_mean_a_rescan_not_a_dead_thread() -> None:
    """pyudev's poll raises OSError when the kernel dropped events (ENOBUFS while a hub re-enumerates)."""

    class Overflowed:
        def poll(self, timeout: float) -> None:
            raise OSError(105, "No buffer space available")

    assert UdevHotplug(Overflowed()).changed() is True  # type: ignore[arg-type]
