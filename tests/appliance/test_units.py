"""The generated systemd unit and udev rule."""

from __future__ import annotations

import configparser
import ipaddress
import shutil
import subprocess
from pathlib import Path

import pytest

from tablekeeper.appliance.units import ServiceSettings, render_udev_rule, render_unit
from tablekeeper.errors import ConfigError

REFERENCE = Path(__file__).resolve().parents[2] / "hardware" / "station.toml"


def _unit_sections(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return parser


def _settings_with_real_executable(tmp_path: Path, **overrides: object) -> ServiceSettings:
    """Settings whose venv holds an executable ``tablekeeper``, as systemd-analyze checks ExecStart."""
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True, exist_ok=True)
    exe = venv / "bin" / "tablekeeper"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    return ServiceSettings(user="pi", venv_dir=venv, data_dir=tmp_path / "data",
                           config_path=tmp_path / "station.toml", **overrides)  # type: ignore[arg-type]


def test_unit_is_notify_with_watchdog_restart_and_start_limits(tmp_path: Path) -> None:
    settings = _settings_with_real_executable(tmp_path, watchdog_s=45)
    text = render_unit(settings)
    unit = _unit_sections(text)
    service = unit["Service"]
    assert service["Type"] == "notify"
    assert service["WatchdogSec"] == "45"
    assert service["Restart"] == "always"
    assert service["ExecStart"] == (f"{settings.venv_dir}/bin/tablekeeper run --config {settings.config_path}"
                                    f" --save {settings.data_dir}/tablekeeper.sqlite3")
    assert f"\nEnvironment=TABLEKEEPER_DATA_DIR={settings.data_dir}\n" in text
    assert service["ReadWritePaths"] == str(settings.data_dir)
    assert service["ProtectSystem"] == "strict"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "dialout"}
    burst, interval_s = int(unit["Unit"]["StartLimitBurst"]), int(unit["Unit"]["StartLimitIntervalSec"])
    assert burst * int(service["RestartSec"]) < interval_s
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_demo_flag_reaches_exec_start(tmp_path: Path) -> None:
    unit = _unit_sections(render_unit(_settings_with_real_executable(tmp_path, demo=True)))
    assert unit["Service"]["ExecStart"].endswith(" --demo")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package 'systemd')")
@pytest.mark.parametrize("network", [False, True], ids=["no network", "fleet"])
def test_unit_passes_systemd_analyze_verify(tmp_path: Path, network: bool) -> None:
    settings = _settings_with_real_executable(tmp_path, network=network, ip_allow=("203.0.113.7",) if network else ())
    unit_path = tmp_path / "tablekeeper.service"
    unit_path.write_text(render_unit(settings))
    result = subprocess.run(["systemd-analyze", "verify", str(unit_path)], capture_output=True, text=True,
                            check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    # Unknown keys and bad values are only warnings to systemd: any output at all is a defect.
    assert [line for line in result.stderr.splitlines() if "tablekeeper.service" in line] == []


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package 'systemd')")
def test_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    """The verify test above can fail: a misspelt key is reported."""
    settings = _settings_with_real_executable(tmp_path)
    unit_path = tmp_path / "tablekeeper.service"
    unit_path.write_text(render_unit(settings).replace("WatchdogSec=", "WatchdogSecs="))
    result = subprocess.run(["systemd-analyze", "verify", str(unit_path)], capture_output=True, text=True,
                            check=False, timeout=60)
    assert "Unknown key 'WatchdogSecs'" in result.stderr


@pytest.mark.parametrize(("field", "value", "option"), [
    ("user", "Robert'); DROP", "--user"),
    ("data_dir", Path("relative/data"), "--data-dir"),
    ("venv_dir", Path("/opt/with space"), "--venv"),
    ("watchdog_s", 1, "--watchdog-s"),
])
def test_bad_settings_are_named(field: str, value: object, option: str) -> None:
    with pytest.raises(ConfigError, match=option):
        ServiceSettings(**{field: value})  # type: ignore[arg-type]


def _rule_fields(line: str) -> dict[str, str]:
    """Split one udev rule line into ``KEY op`` -> value, checking every field is well-formed."""
    fields: dict[str, str] = {}
    for part in line.split(", "):
        for op in ("==", "+=", "="):
            key, found, value = part.partition(op)
            if found:
                assert value.startswith('"') and value.endswith('"'), part
                fields[key + op] = value[1:-1]
                break
        else:
            raise AssertionError(f"not a udev field: {part!r}")
    return fields


def test_udev_rule_names_each_counter_and_keeps_modemmanager_away() -> None:
    text = render_udev_rule([(0x2E8A, 0x0005), (0x1234, 0xABCD), (0x2E8A, 0x0005)])
    rules = [_rule_fields(line) for line in text.splitlines() if line and not line.startswith("#")]
    assert len(rules) == 4  # one usb + one tty rule per distinct ID
    tty_rules = [r for r in rules if r.get("SUBSYSTEM==") == "tty"]
    assert {(r["ATTRS{idVendor}=="], r["ATTRS{idProduct}=="]) for r in tty_rules} == {("2e8a", "0005"),
                                                                                      ("1234", "abcd")}
    for rule in tty_rules:
        assert rule["GROUP="] == "dialout"
        assert rule["MODE="] == "0660"
        assert rule["SYMLINK+="] == "tablekeeper/counter-%s{serial}"
    assert all(r["ENV{ID_MM_DEVICE_IGNORE}="] == "1" for r in rules)


def test_udev_rule_rejects_an_empty_id_list() -> None:
    with pytest.raises(ConfigError, match="counters"):
        render_udev_rule([])


@pytest.mark.parametrize("demo", [False, True])
def test_exec_start_is_a_command_line_the_cli_accepts(tmp_path: Path, demo: bool) -> None:
    from tablekeeper.cli import build_parser

    settings = _settings_with_real_executable(tmp_path, demo=demo)
    argv = settings.exec_start().split()
    assert argv[0] == str(settings.executable)
    args = build_parser().parse_args(argv[1:])
    assert (args.command, args.config, args.save, args.demo) == ("run", str(settings.config_path),
                                                                 str(settings.data_dir / "tablekeeper.sqlite3"), demo)


def _exposure(tmp_path: Path, text: str) -> float:
    unit_path = tmp_path / "tablekeeper.service"
    unit_path.write_text(text)
    result = subprocess.run(["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit_path)],
                            capture_output=True, text=True, check=False, timeout=60)
    found = [line for line in result.stdout.splitlines() if "Overall exposure level" in line]
    assert found, result.stdout + result.stderr
    return float(found[0].split(":")[1].split()[0])


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package 'systemd')")
@pytest.mark.parametrize("network", [False, True])
def test_unit_exposure_is_at_most_4(tmp_path: Path, network: bool) -> None:
    settings = _settings_with_real_executable(tmp_path, network=network)
    assert _exposure(tmp_path, render_unit(settings)) <= 4.0


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (Debian package 'systemd')")
def test_exposure_check_fails_without_the_hardening(tmp_path: Path) -> None:
    """The figure above is earned by the hardening block: without it the unit is exposed."""
    text = render_unit(_settings_with_real_executable(tmp_path))
    head, _, rest = text.partition("# Least privilege")
    stripped = head + "\n[Install]" + rest.partition("\n[Install]")[2]
    assert _exposure(tmp_path, stripped) > 4.0


def test_network_is_denied_unless_the_fleet_link_is_on(tmp_path: Path) -> None:
    closed = _unit_sections(render_unit(_settings_with_real_executable(tmp_path)))["Service"]
    assert closed["IPAddressDeny"] == "any" and "IPAddressAllow" not in closed
    assert "AF_INET" not in closed["RestrictAddressFamilies"]
    opened = _unit_sections(render_unit(_settings_with_real_executable(
        tmp_path / "fleet", network=True, ip_allow=("203.0.113.7",))))["Service"]
    assert set(opened["RestrictAddressFamilies"].split()) >= {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert opened["IPAddressDeny"] == "any"  # only what IPAddressAllow names
    assert opened["IPAddressAllow"].split() == ["localhost", "link-local", "multicast", "10.0.0.0/8",
                                                "172.16.0.0/12", "192.168.0.0/16", "fc00::/7", "203.0.113.7"]


def test_a_bad_allowed_address_is_one_line() -> None:
    with pytest.raises(ConfigError, match=r"^IPAddressAllow: 'fleet.local' is not an IP address or prefix$"):
        ServiceSettings(network=True, ip_allow=("fleet.local",))


FLEET_TABLE = '\n[fleet]\nbroker = "{broker}"\nstation = "t1"\n'


def _unit_reaches(unit_text: str, address: str) -> bool:
    """Whether a service with this unit may open an IP socket to ``address`` (what the fleet link needs)."""
    service = _unit_sections(unit_text)["Service"]
    if "AF_INET" not in service["RestrictAddressFamilies"].split():
        return False
    if service.get("IPAddressDeny") != "any":
        return True
    target = ipaddress.ip_address(address)
    for allowed in service.get("IPAddressAllow", "").split():
        if allowed == "localhost" and target.is_loopback:
            return True
        if ("/" in allowed or allowed[0].isdigit()) and target in ipaddress.ip_network(allowed, strict=False):
            return True
    return False


@pytest.mark.parametrize("protection", ["on", "protection-removed"])
@pytest.mark.parametrize(("broker", "reached"), [("192.168.1.20", "192.168.1.20"), ("fleet.local", "10.0.0.5"),
                                                   ("203.0.113.7", "203.0.113.7")])
def test_a_config_with_fleet_gets_the_network_it_needs_and_no_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  broker: str, reached: str, protection: str) -> None:
    """The installer reads the station config: with ``[fleet]`` the unit may reach the broker (on the LAN,
    or at the address the config names) and nothing else on the internet; without it, no IP at all.
    With the protection removed (the installer as it was), the fleet station could reach nothing."""
    from tablekeeper.appliance import commands

    if protection == "protection-removed":
        monkeypatch.setattr(commands, "with_network", lambda service, cfg, needs_network=False: service)
    config = tmp_path / "station.toml"
    config.write_text(REFERENCE.read_text() + FLEET_TABLE.format(broker=broker))
    options = commands.install_options(ServiceSettings(), station_config_source=config, counter_id_values=[],
                                       root=tmp_path)
    unit = render_unit(options.service)
    assert _unit_reaches(unit, reached) is (protection == "on")
    assert not _unit_reaches(unit, "8.8.8.8")
    plain = commands.install_options(ServiceSettings(), station_config_source=REFERENCE, counter_id_values=[],
                                     root=tmp_path)
    assert not _unit_reaches(render_unit(plain.service), "192.168.1.20")
    asked = commands.install_options(ServiceSettings(), station_config_source=REFERENCE, counter_id_values=[],
                                     root=tmp_path, needs_network=True)  # a feature serving the LAN says so
    assert _unit_reaches(render_unit(asked.service), "192.168.1.20") is (protection == "on")


def test_repeated_failures_reboot_but_a_users_mistake_is_not_retried() -> None:
    unit = _unit_sections(render_unit(ServiceSettings()))
    assert unit["Unit"]["StartLimitAction"] == "reboot"
    assert unit["Service"]["RestartPreventExitStatus"] == "2"
    assert "StartLimitAction" not in _unit_sections(render_unit(ServiceSettings(reboot_after_failures=False)))["Unit"]


def test_the_cache_is_a_cache_directory_the_service_can_write() -> None:
    """The packs' parse cache and the remembered screens need a writable cache under ProtectHome."""
    text = render_unit(ServiceSettings())
    service = _unit_sections(text)["Service"]
    assert service["CacheDirectory"] == "tablekeeper" and service["CacheDirectoryMode"] == "0700"
    assert service["ProtectHome"] == "true" and "Environment=XDG_CACHE_HOME=%C\n" in text  # %C: /var/cache


def test_data_under_var_lib_is_a_state_directory() -> None:
    service = _unit_sections(render_unit(ServiceSettings()))["Service"]
    assert service["StateDirectory"] == "tablekeeper"
    assert service["StateDirectoryMode"] == "0700"
    assert service["UMask"] == "0077"
    assert "ReadWritePaths" not in service
