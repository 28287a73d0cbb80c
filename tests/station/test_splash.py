"""The Pi's start-up splash (``tablekeeper.station.splash``): which runs get it, that a config it cannot read
only means no splash, that its recorded bytes are what luma and ui.render send today and reach the bus
as luma's own i2c interface puts them, and that the station takes the display over without blanking it
and draws correctly on it."""

from __future__ import annotations

import argparse
import contextlib
import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from PIL import Image

from tablekeeper.commands.run import build_simulated
from tablekeeper.config import REFERENCE_CONFIG, StationConfig, load_config
from tablekeeper.hw.displays import native_pages
from tablekeeper.sim.oled import OledChip
from tablekeeper.station import splash, splash_stream


def emulated(chips: list[OledChip]) -> splash.Splash | None:
    def interface(track: splash.Track) -> OledChip:
        chips.append(OledChip(track.driver, track.width, track.height))
        return chips[-1]

    return splash.show(["run"], open_interface=interface, on_pi=lambda: True)


@pytest.mark.parametrize(("argv", "expected"), [
    (["run"], str(REFERENCE_CONFIG)),
    (["run", "--game", "oathsworn", "--config", "box.toml"], "box.toml"),
    (["-v", "--log-level", "info", "run", "--config=box.toml"], "box.toml"),
    (["run", "--sim"], None), (["run", "--display=capture"], None), (["run", "--script", "s.txt"], None),
    (["run", "--help"], None), (["play"], None), ([], None), (["--version"], None),
])
def test_only_a_run_on_the_pis_parts_gets_the_splash(argv: list[str], expected: str | None,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(splash, "INSTALLED_CONFIG", "/nonexistent/station.toml")
    assert splash.config_path(argv) == expected


@pytest.mark.parametrize("text", [
    "[[displays]\nrole = 'track'",  # not TOML
    "[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = '128x64'\nbus = 'main'\naddress = 0x3C\n",  # no bus
    "[buses.main]\nkind = 'spi'\nport = 0\n[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = '128x64'\n"
    "bus = 'main'\ndevice = 0\n",  # SPI: left to the station
    "[buses.main]\nkind = 'i2c'\nport = 1\n[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = 'big'\n"
    "bus = 'main'\naddress = 0x3C\n",
    "[buses.main]\nkind = 'i2c'\nport = 1\n[[displays]]\nrole = 'track'\ndriver = 'ssd1306'\nsize = '128x64'\n"
    "bus = 'main'\naddress = '0x3C'\n",
    "\xff\xfe",
])
def test_a_config_the_splash_cannot_use_means_no_splash_and_no_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "station.toml"
    path.write_bytes(text.encode("latin-1"))
    opened: list[splash.Track] = []
    assert splash.show(["run", "--config", str(path)], open_interface=opened.append, on_pi=lambda: True) is None
    assert opened == []
    assert splash.show(["run", "--config", str(tmp_path / "missing.toml")], on_pi=lambda: True) is None


def test_off_the_pi_there_is_no_splash() -> None:
    opened: list[splash.Track] = []
    assert splash.show(["run"], open_interface=opened.append, on_pi=lambda: False) is None and opened == []


def test_a_display_that_does_not_answer_means_no_splash() -> None:
    def broken(track: splash.Track) -> OledChip:
        chip = OledChip(track.driver, track.width, track.height)
        chip.fail_with = OSError(121, "Remote I/O error")
        return chip

    assert splash.show(["run"], open_interface=broken, on_pi=lambda: True) is None


def test_the_station_draws_its_first_frame_over_the_splash_as_on_a_fresh_display(tmp_path: Path) -> None:
    """The handed-over display knows the chip holds "starting...": the game's first frame replaces it
    whole, exactly as on a display the station opened itself."""
    config = load_config(REFERENCE_CONFIG)
    chips: list[OledChip] = []
    shown = emulated(chips)
    assert shown is not None
    sent = chips[0].byte_count

    def first_frame(handed: splash.Splash | None) -> bytes:
        args = argparse.Namespace(game="oathsworn", save=None, slot="main", seats=None, seed=1, option=[],
                                  capture_dir=tmp_path, no_counters=True, walk=False, demo=False)
        station, parts, _store = build_simulated(config, args, display_mode=None, clock=lambda: 0.0, splash=handed)
        try:
            if handed is not None:
                assert parts.chips["track"] is chips[0]
                assert not station.displays.displays["track"].failed
                assert chips[0].byte_count == sent  # neither initialised, blanked nor drawn a second time
            station.start()
            return parts.chips["track"].image().tobytes()
        finally:
            station.close()
            parts.close()

    assert first_frame(shown) == first_frame(None)


def test_a_config_that_wires_the_track_display_otherwise_releases_the_splash() -> None:
    chips: list[OledChip] = []
    shown = emulated(chips)
    assert shown is not None
    config = load_config(REFERENCE_CONFIG)
    wired = set(splash.Track.wired(config))
    assert set(shown.hand_over(config)) == wired and not chips[0].cleaned_up
    moved = msgspec.structs.replace(config, displays=tuple(
        msgspec.structs.replace(d, address=0x3D) if d.role == "track" else d for d in config.displays))
    assert isinstance(moved, StationConfig)
    handed = shown.hand_over(moved)
    assert set(handed) == wired - {"track"} and chips[0].cleaned_up and not chips[0].on  # turned off, released


def test_the_splash_opens_the_other_displays_dark_and_the_station_draws_on_them_without_luma() -> None:
    """In a start with nothing remembered the splash opens every other display as ``make_device`` would
    (luma's opening, the RAM clear and switch-on held back); the station's first frame goes out on each
    whole, through ``hw.taken_over``, and switches it on, the glass as a luma-opened display shows it."""
    from tablekeeper.hw.displays import PartialUpdate, make_device
    from tablekeeper.hw.taken_over import TakenOver

    chips: list[OledChip] = []
    shown = emulated(chips)
    assert shown is not None
    config = load_config(REFERENCE_CONFIG)
    handed = shown.hand_over(config)
    frame = splash.starting_frame((128, 64)).transpose(Image.Transpose.FLIP_LEFT_RIGHT)  # any picture
    for role, (device, pages) in handed.items():
        if role == "track":
            continue
        chip = shown.drawn[role].interface
        assert shown.drawn[role].dark and not chip.on and isinstance(device, TakenOver)
        update = PartialUpdate(device)
        update.assume_shown(pages)
        update.display(frame)
        track = shown.drawn[role].track
        lumas = OledChip(track.driver, track.width, track.height)
        PartialUpdate(make_device(track, lumas)).display(frame)
        assert chip.on and chip.image().tobytes() == lumas.image().tobytes()


def test_the_recorded_bytes_are_what_luma_and_ui_render_send_today() -> None:
    """``splash_stream`` is regenerated by ``python -m tablekeeper.station.splash``; a change to luma's init,
    to ``PartialUpdate`` or to how ``ui.render`` draws the panel shows up here."""
    assert splash.recorded_streams() == splash_stream.STREAMS


@pytest.mark.parametrize("chip", sorted(splash_stream.STREAMS))
def test_the_splash_shows_the_stations_starting_frame_on_every_chip(chip: tuple[str, int, int, int]) -> None:
    driver, width, height, rotation = chip
    glass = OledChip(driver, width, height)
    splash.draw(glass, splash_stream.STREAMS[chip])
    frame = splash.starting_frame((width, height))
    assert glass.on and glass.image().tobytes() == (frame if rotation == 0 else frame.rotate(180)).tobytes()


class FakeSMBus:
    """smbus2.SMBus as luma's i2c interface calls it, keeping each message as it goes on the wire."""

    def __init__(self, port: int) -> None:
        self.messages: list[bytes] = []
        SENT.append(self.messages)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        self.messages.append(bytes([register, *data]))

    def i2c_rdwr(self, *messages: Any) -> None:
        self.messages += [bytes(message) for message in messages]


SENT: list[list[bytes]] = []


def test_the_splash_puts_on_the_bus_what_lumas_i2c_interface_does(monkeypatch: pytest.MonkeyPatch) -> None:
    import smbus2
    from luma.core.interface.serial import i2c

    monkeypatch.setattr(smbus2, "SMBus", FakeSMBus)
    SENT.clear()
    stream = splash_stream.STREAMS["sh1106", 128, 64, 0] + ((False, bytes(range(256)) * 20),)  # > 4,096 bytes
    splash.draw(i2c(port=1, address=0x3C), stream)
    here, there = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)  # keeps each write one message
    bus = splash.I2CDevice(there.detach())  # as on /dev/i2c-N, where a write() is one I2C message
    sent: list[bytes] = []
    with here:
        for is_command, payload in stream:
            (bus.command(*payload) if is_command else bus.data(payload))
            here.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                while True:
                    sent.append(here.recv(8192))
        bus.cleanup()
    assert sent == SENT[0] and len(sent) > len(stream) and bus.fd == -1


class Flaky(OledChip):
    """A chip on a long cable: every third write is not acknowledged."""

    def _check(self) -> None:
        self.writes = getattr(self, "writes", 0) + 1
        if self.writes % 3 == 0:
            raise OSError(121, "Remote I/O error")


@pytest.mark.parametrize("attempts", [splash.BUS_ATTEMPTS, 1])
def test_a_write_the_bus_refuses_is_sent_again_with_its_address(attempts: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """With the retries patched out (one attempt) the same cable gives no splash."""
    monkeypatch.setattr(splash, "BUS_ATTEMPTS", attempts)
    chips: list[OledChip] = []

    def interface(track: splash.Track) -> OledChip:
        chips.append(Flaky(track.driver, track.width, track.height))
        return chips[-1]

    shown = splash.show(["run"], open_interface=interface, on_pi=lambda: True)
    if attempts == 1:
        assert shown is None and chips[0].cleaned_up
        return
    assert shown is not None
    assert chips[0].image().tobytes() == splash.starting_frame((128, 64)).tobytes()


def test_on_the_pi_the_station_writes_through_the_splashs_i2c_dev_descriptor(monkeypatch: pytest.MonkeyPatch) -> None:
    """The station keeps the descriptor the splash opened (no second open, no init, no blanking): its
    writes are the I2C messages luma's i2c interface would send, a command's control byte first."""
    here, there = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    bus = splash.I2CDevice(there.detach())
    monkeypatch.setattr(splash.I2CDevice, "open", classmethod(lambda cls, track: bus))
    with here:
        shown = splash.show(["run"], on_pi=lambda: True)
        assert shown is not None
        while True:  # what the splash sent: the openings and "starting..."
            here.setblocking(False)
            try:
                here.recv(8192)
            except BlockingIOError:
                break
        handed = shown.hand_over(load_config(REFERENCE_CONFIG))
        device, pages = handed["track"]
        assert device.width == 128 and pages == native_pages(device, splash.starting_frame((128, 64)))
        device.command(0xAF)
        device.data([1, 2, 3])
        assert here.recv(64) == bytes((splash.COMMAND_MODE, 0xAF))
        assert here.recv(64) == bytes((splash.DATA_MODE, 1, 2, 3))
        device.cleanup()  # the station closing: switched off, blanked, the descriptor closed
    assert bus.fd == -1


@pytest.mark.parametrize("handed_on", [True, False], ids=["as-shipped", "protection-removed"])
def test_the_config_check_takes_the_splashs_parse_of_the_same_file(monkeypatch: pytest.MonkeyPatch,
                                                                  handed_on: bool, tmp_path: Path) -> None:
    """The station config is parsed once before the first frame: the splash's parse is the check's."""
    import tomllib

    from tablekeeper import parsed_toml, schema

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no parse kept from an earlier start
    if not handed_on:
        monkeypatch.setattr(splash, "hand_on", lambda text, doc: None)
    schema._parsed.cache_clear()
    parses: list[int] = []
    real = tomllib.loads

    def counted(text: str) -> Any:
        parses.append(len(text))
        return real(text)

    monkeypatch.setattr(tomllib, "loads", counted)
    assert "track" in splash.read_displays(str(REFERENCE_CONFIG))[1]
    config = load_config(REFERENCE_CONFIG)
    schema._parsed.cache_clear()
    assert load_config(REFERENCE_CONFIG) == config  # the same checked config as from a parse of its own
    assert len(parses) == (2 if handed_on else 3)
    assert parsed_toml.take(Path(REFERENCE_CONFIG).read_text(encoding="utf-8")) is None  # taken once, not kept


@pytest.mark.parametrize("checked", [True, False], ids=["as-shipped", "protection-removed"])
def test_the_configs_parse_is_kept_for_the_next_start_only_while_its_text_is_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, checked: bool) -> None:
    from tablekeeper import parsed_toml

    kept = parsed_toml.kept_path(str(tmp_path / "station.toml"), str(tmp_path / "cache"))
    assert kept is not None
    first = parsed_toml.load_kept("[web]\nport = 8080\n", kept)
    assert first == {"web": {"port": 8080}} and Path(kept).is_file()
    if not checked:  # what the kept file would give if its text were not compared
        real = parsed_toml.marshal.loads
        monkeypatch.setattr(parsed_toml.marshal, "loads", lambda raw: (lambda f, _t, d: (f, "[web]\nport = 9090\n", d))(
            *real(raw)))
    changed = parsed_toml.load_kept("[web]\nport = 9090\n", kept)
    assert (changed == {"web": {"port": 9090}}) is checked
    for damage in (b"", b"\x00\x01", Path(kept).read_bytes()[:20]):
        Path(kept).write_bytes(damage)
        assert parsed_toml.load_kept("[web]\nport = 8080\n", kept) == {"web": {"port": 8080}}
    dated = parsed_toml.load_kept("when = 2026-11-27\n", kept)  # a date does not marshal: parsed, not kept
    assert str(dated["when"]) == "2026-11-27"
    with pytest.raises(ValueError):
        parsed_toml.load_kept("[web\n", kept)


def test_a_start_whose_config_and_packs_are_kept_loads_no_toml_parser(tmp_path: Path) -> None:
    """The second start of the same config: the splash takes the kept parse, the config check the
    splash's, and the game's data files come from the packs' cache, so tomllib never loads."""
    probe = f"""
import json, sys
import tablekeeper.station.splash as splash
from tablekeeper.config import load_config
from tablekeeper import games
shown = splash.show(["run", "--config", {str(REFERENCE_CONFIG)!r}], open_interface=lambda track: __import__(
    "tablekeeper.sim.oled", fromlist=["OledChip"]).OledChip(track.driver, track.width, track.height),
    on_pi=lambda: True)
load_config({str(REFERENCE_CONFIG)!r})
games.load("arkham").new_state
from tablekeeper.core.session import Session
Session(games.load("arkham"), seats=2, seed=1)
print(json.dumps({{"splash": shown is not None, "tomllib": "tomllib" in sys.modules}}))
"""
    env = {"PATH": "", "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "host"),
           "XDG_CACHE_HOME": str(tmp_path)}
    runs = [json.loads(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                                      env=env).stdout.strip().splitlines()[-1]) for _ in range(2)]
    assert runs[0] == {"splash": True, "tomllib": True}  # the first start parses, and keeps the parses
    assert runs[1] == {"splash": True, "tomllib": False}

