"""Counter hot-plug: pyudev's netlink monitor where udev runs, inotify on /dev where it does not, a gated
slow scan where neither works."""

from __future__ import annotations

import ctypes.util
import select
from pathlib import Path

import pytest

from tablekeeper.hw.counters import FALLBACK_SCAN_S, DevWatch, UdevHotplug, dev_mtime, usb_discovery


def test_without_udev_running_there_is_no_monitor_and_the_scan_is_slow_and_gated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert UdevHotplug.open(tmp_path / "control") is None
    monkeypatch.setattr(UdevHotplug, "open", classmethod(lambda cls: None))
    monkeypatch.setattr(DevWatch, "open", classmethod(lambda cls: None))
    discovery = usb_discovery()
    assert discovery.hotplug is None and discovery.scan_interval_s == FALLBACK_SCAN_S
    assert discovery._scan_gate is dev_mtime


def test_without_udev_inotify_on_dev_stands_in_and_no_scan_is_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(UdevHotplug, "open", classmethod(lambda cls: None))
    discovery = usb_discovery()
    assert isinstance(discovery.hotplug, DevWatch) and discovery.scan_interval_s is None
    discovery.hotplug.close()


def test_the_dev_watch_wakes_a_select_when_a_node_comes_or_goes_and_is_quiet_otherwise(tmp_path: Path) -> None:
    watch = DevWatch.open(str(tmp_path))
    assert watch is not None
    try:
        assert select.select([watch.fileno()], [], [], 0)[0] == [] and watch.changed() is False
        (tmp_path / "ttyACM0").touch()  # a counter plugged in
        assert select.select([watch.fileno()], [], [], 5.0)[0] == [watch.fileno()]
        assert watch.changed() is True and watch.changed() is False  # drained
        (tmp_path / "ttyACM0").write_text("x")  # a write to a node is not a hot-plug
        assert select.select([watch.fileno()], [], [], 0)[0] == []
        (tmp_path / "ttyACM0").unlink()  # pulled out
        assert select.select([watch.fileno()], [], [], 5.0)[0] == [watch.fileno()] and watch.changed() is True
    finally:
        watch.close()


def test_a_dev_watch_on_a_missing_directory_is_none_so_the_slow_scan_stands_in(tmp_path: Path) -> None:
    assert DevWatch.open(str(tmp_path / "missing")) is None


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
