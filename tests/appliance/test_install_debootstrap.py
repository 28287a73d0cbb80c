"""A real install from nothing: ``hardware/pi/install.sh`` run (not a dry run) in a fresh Debian Bookworm root.

The root is made with ``debootstrap`` (the machine's own architecture: the script's logic is what is
tested) and dressed like Raspberry Pi OS where the installer looks: a ``pi`` user, a clone of this
checkout in its home, ``/boot/firmware/config.txt`` and a ``cmdline.txt`` with the serial console on
BCM 14/15. The base root is cached as a tarball (``$TABLEKEEPER_INSTALL_CACHE`` or
``~/.cache/tablekeeper``) so only the first run pays for debootstrap. Needs root; marked ``install``,
so the default run leaves it out and ``.ci/run`` runs it when it is root.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.install

ROOT = Path(__file__).resolve().parents[2]
MIRROR = "http://deb.debian.org/debian"
BASE_PACKAGES = "systemd,udev,ca-certificates"  # what Raspberry Pi OS Lite has and the installer uses
CLONE = Path("/home/pi/tablekeeper")
PI_CMDLINE = "console=serial0,115200 console=tty1 root=PARTUUID=deadbeef-02 rootfstype=ext4 fsck.repair=yes rootwait\n"
# What the installer may create or change; the clone is left out (building the wheel writes into it).
WATCHED = ("etc/systemd/system", "etc/udev/rules.d", "etc/tablekeeper", "etc/modules-load.d", "etc/group",
           "etc/gshadow", "etc/passwd", "boot/firmware", "opt/tablekeeper", "usr/local/bin", "var/lib/tablekeeper")


def _cache_dir() -> Path:
    configured = os.environ.get("TABLEKEEPER_INSTALL_CACHE", "").strip()
    return Path(configured) if configured else Path.home() / ".cache" / "tablekeeper"


def _base_tarball(work: Path) -> Path:
    """A debootstrapped Bookworm root, made once and kept as a tarball."""
    tarball = _cache_dir() / f"bookworm-{os.uname().machine}-base.tar"
    if tarball.exists():
        return tarball
    if shutil.which("debootstrap") is None:
        pytest.fail("the install test needs debootstrap (apt-get install -y debootstrap)")
    target = work / "base"
    subprocess.run(["debootstrap", "--variant=minbase", f"--include={BASE_PACKAGES}", "bookworm", str(target),
                    MIRROR], check=True, capture_output=True)
    tarball.parent.mkdir(parents=True, exist_ok=True)
    partial = tarball.with_suffix(".partial")
    subprocess.run(["tar", "--numeric-owner", "-C", str(target), "-cf", str(partial), "."], check=True)
    partial.replace(tarball)
    shutil.rmtree(target)
    return tarball


def _checkout_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode()
    return [name for name in listed.split("\0") if name and os.path.lexists(ROOT / name)]


def _in_root(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """Run a command chrooted into ``root`` with /proc and /dev mounted in a private mount namespace."""
    script = (f'mount -t proc proc "{root}/proc" && mount --rbind /dev "{root}/dev" && '
              f'exec chroot "{root}" "$@"')
    return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh", *argv],
                          capture_output=True, text=True, check=False, timeout=1200,
                          env={"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                               "LANG": "C.UTF-8", "DEBIAN_FRONTEND": "noninteractive"})


def _trust_the_hosts_local_cas(root: Path) -> None:
    """Behind a TLS-inspecting proxy the host trusts a local CA; the test root must too to reach PyPI."""
    local = Path("/usr/local/share/ca-certificates")
    certificates = sorted(local.rglob("*.crt")) if local.is_dir() else []
    if not certificates:
        return
    for certificate in certificates:
        shutil.copyfile(certificate, root / local.relative_to("/") / certificate.name)
    updated = _in_root(root, "update-ca-certificates")
    assert updated.returncode == 0, updated.stderr


def _manifest(root: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every watched path: (mode, uid, gid, content hash or link target)."""
    found: dict[str, tuple[int, int, int, str]] = {}
    for watched in WATCHED:
        top = root / watched
        paths = [top, *sorted(top.rglob("*"))] if top.is_dir() else [top]
        for path in paths:
            if not os.path.lexists(path):
                continue
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                digest = "-> " + os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                digest = ""
            found[str(path.relative_to(root))] = (info.st_mode, info.st_uid, info.st_gid, digest)
    return found


@pytest.fixture(scope="module")
def installed_root(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    if os.geteuid() != 0:
        pytest.skip("the real install test needs root (debootstrap, chroot)")
    work = tmp_path_factory.mktemp("install")
    tarball = _base_tarball(work)
    root = work / "root"
    root.mkdir()
    subprocess.run(["tar", "--numeric-owner", "-C", str(root), "-xpf", str(tarball)], check=True)
    shutil.copyfile("/etc/resolv.conf", root / "etc" / "resolv.conf")
    _trust_the_hosts_local_cas(root)
    made = _in_root(root, "useradd", "--create-home", "--shell", "/bin/bash", "pi")
    assert made.returncode == 0, made.stderr
    clone = root / CLONE.relative_to("/")
    clone.mkdir()
    listing = "\n".join(_checkout_files()) + "\n"
    packed = subprocess.run(["tar", "-C", str(ROOT), "--files-from", "-", "-cf", "-"], input=listing.encode(),
                            capture_output=True, check=True).stdout
    subprocess.run(["tar", "-C", str(clone), "-xf", "-"], input=packed, check=True)
    boot = root / "boot" / "firmware"
    boot.mkdir(parents=True)
    (boot / "config.txt").write_text("[all]\narm_64bit=1\n")
    (boot / "cmdline.txt").write_text(PI_CMDLINE)
    owned = _in_root(root, "chown", "-R", "pi:pi", str(CLONE))
    assert owned.returncode == 0, owned.stderr
    outputs = []
    for _ in range(2):
        run = _in_root(root, "bash", str(CLONE / "hardware/pi/install.sh"), "--user", "pi")
        assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
        outputs.append(run.stdout)
        if len(outputs) == 1:
            first = _manifest(root)
    assert _manifest(root) == first, "the second run changed something"
    return root, outputs


def _owner(path: Path) -> tuple[int, int, int]:
    info = path.lstat()
    return info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)


def _pi_ids(root: Path) -> tuple[int, int]:
    for line in (root / "etc/passwd").read_text().splitlines():
        name, _, uid, gid, *_ = line.split(":")
        if name == "pi":
            return int(uid), int(gid)
    raise AssertionError("no pi user")


def test_unit_udev_rule_and_config_are_root_owned_and_readable(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    for path in ("etc/systemd/system/tablekeeper.service", "etc/udev/rules.d/60-tablekeeper-counters.rules",
                 "etc/tablekeeper/station.toml", "etc/modules-load.d/tablekeeper.conf"):
        assert _owner(root / path) == (0, 0, 0o644), path
    assert (root / "etc/systemd/system/multi-user.target.wants/tablekeeper.service").is_symlink()
    assert (root / "etc/tablekeeper/station.toml").read_bytes() == (ROOT / "hardware/station.toml").read_bytes()


def test_the_venv_is_roots_and_the_station_user_cannot_change_it(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    venv = root / "opt/tablekeeper/venv"
    assert (venv / "bin/tablekeeper").exists()
    assert os.readlink(root / "usr/local/bin/tablekeeper") == "/opt/tablekeeper/venv/bin/tablekeeper"
    writable = [str(path) for path in [venv, *venv.rglob("*")] if not path.is_symlink()
                and (path.lstat().st_uid != 0 or path.lstat().st_mode & 0o022)]
    assert writable == []
    drawn = _in_root(root, "runuser", "-u", "pi", "--", "tablekeeper", "hardware", "wiring")
    assert drawn.returncode == 0 and drawn.stdout.startswith("<svg"), drawn.stderr
    planted = _in_root(root, "runuser", "-u", "pi", "--", "touch", "/opt/tablekeeper/venv/bin/planted")
    assert planted.returncode != 0 and "Permission denied" in planted.stderr


def test_the_data_directory_is_systemds_state_directory(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    unit = (root / "etc/systemd/system/tablekeeper.service").read_text()
    assert "StateDirectory=tablekeeper" in unit and "StateDirectoryMode=0700" in unit
    assert "User=pi" in unit
    assert not (root / "var/lib/tablekeeper").exists(), "systemd makes it at the first start, owned by pi"


def test_the_station_user_is_in_the_hardware_groups(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    groups = {line.split(":")[0]: line.split(":")[3].split(",")
              for line in (root / "etc/group").read_text().splitlines()}
    for group in ("gpio", "i2c", "dialout"):
        assert "pi" in groups[group], group


def test_systemd_analyze_verify_passes_on_the_unit(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    verified = _in_root(root, "systemd-analyze", "verify", "/etc/systemd/system/tablekeeper.service")
    assert verified.returncode == 0, verified.stderr
    assert "tablekeeper" not in verified.stderr, verified.stderr


def test_live_reloads_are_skipped_outside_a_booted_systemd(installed_root: tuple[Path, list[str]]) -> None:
    _, outputs = installed_root
    assert "not booted with systemd" in outputs[0]


def test_tab_completion_is_installed_for_bash_and_zsh(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    bash = root / "usr/share/bash-completion/completions/tablekeeper"
    zsh = root / "usr/share/zsh/vendor-completions/_tablekeeper"
    assert _owner(bash) == (0, 0, 0o644) and _owner(zsh) == (0, 0, 0o644)
    assert zsh.read_text().startswith("#compdef tablekeeper")
    probe = (f"source /{bash.relative_to(root)}; COMP_WORDS=(tablekeeper pl); COMP_CWORD=1; "
             "_shtab_tablekeeper; echo \"${COMPREPLY[@]}\"")
    completed = _in_root(root, "runuser", "-u", "pi", "--", "bash", "-c", probe)
    assert completed.returncode == 0 and completed.stdout.split() == ["play"], completed.stderr


def test_the_serial_console_leaves_bcm_14_and_15(installed_root: tuple[Path, list[str]]) -> None:
    root, _ = installed_root
    boot = root / "boot/firmware"
    cmdline = (boot / "cmdline.txt").read_text()
    assert "console=serial0" not in cmdline and "console=tty1" in cmdline and cmdline.count("\n") == 1
    assert (boot / "cmdline.txt.tablekeeper-backup").read_text() == PI_CMDLINE
    assert "enable_uart=0" in (boot / "config.txt").read_text().splitlines()


# --- the installed unit under a real systemd ------------------------------------------------------------
# Last in this file: it changes the installed root (Mosquitto inside, a [fleet] table, the installer run
# again). The root boots under systemd-nspawn (systemd as PID 1, its own network namespace with only
# loopback); the station finds no GPIO there and runs on simulated parts, under the installed unit as
# it stands: its sandbox, its address families, its notify handshake and watchdog.

FLEET_TABLE = """
[fleet]
broker = "127.0.0.1"
station = "t1"
table = "Table 1"
username = "t1"
password_file = "/etc/tablekeeper/fleet.password"
keepalive_s = 10
"""
BROKER_UNIT = """[Unit]
Description=The fleet's Mosquitto, with the files tablekeeper fleet broker-config wrote
After=network.target

[Service]
ExecStart=/usr/sbin/mosquitto -c /etc/tablekeeper/fleet-broker/mosquitto.conf
Restart=on-failure

[Install]
WantedBy=multi-user.target
"""
OLD_NETWORK_LINES = "RestrictAddressFamilies=AF_UNIX AF_NETLINK\nIPAddressDeny=any\n"


class Container:
    """A booted root: ``run`` executes a command inside it (all of its namespaces, through nsenter)."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(["systemd-nspawn", "-D", str(root), "--boot", "--register=no", "--keep-unit",
                                         "--private-network", "--console=passive", "-q"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.init = self._find_init()

    def _find_init(self) -> int:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"systemd-nspawn exited: {self.process.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            children = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(self.process.pid)],
                                      capture_output=True, text=True, check=False).stdout.split()
            if len(children) >= 2 and children[1] == "systemd":
                return int(children[0])
            time.sleep(0.2)
        raise RuntimeError("the container's systemd did not start")

    def run(self, *argv: str, timeout_s: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["nsenter", "-t", str(self.init), "-a", "env", "-i",
                               "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", *argv],
                              capture_output=True, text=True, check=False, timeout=timeout_s)

    def prop(self, unit: str, name: str) -> str:
        return self.run("systemctl", "show", "-P", name, unit).stdout.strip()

    def stop(self) -> None:
        self.run("systemctl", "poweroff", "--no-block")
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def _until(predicate: Callable[[], bool], timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.5)
    return predicate()


def _prepare_fleet(root: Path) -> str:
    """Mosquitto with broker-config's files inside the root, a [fleet] table in the station config and the
    installer run again (as the docs tell an organiser); returns the observer's password."""
    for argv in (("apt-get", "update"), ("apt-get", "install", "-y", "--no-install-recommends", "mosquitto",
                                         "mosquitto-clients"), ("systemctl", "mask", "mosquitto.service")):
        done = _in_root(root, *argv)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    made = _in_root(root, "tablekeeper", "fleet", "broker-config", "t1", "--out", "/etc/tablekeeper/fleet-broker",
                    "--bind", "127.0.0.1")
    assert made.returncode == 0, made.stderr
    secrets = root / "etc/tablekeeper/fleet-broker/secrets"
    shutil.copyfile(secrets / "t1.password", root / "etc/tablekeeper/fleet.password")
    (root / "etc/systemd/system/fleet-broker.service").write_text(BROKER_UNIT)
    for argv in (("chown", "pi:pi", "/etc/tablekeeper/fleet.password"),
                 ("chmod", "600", "/etc/tablekeeper/fleet.password"), ("systemctl", "enable", "fleet-broker")):
        done = _in_root(root, *argv)
        assert done.returncode == 0, done.stderr
    config = root / "etc/tablekeeper/station.toml"
    config.write_text(config.read_text() + FLEET_TABLE)
    again = _in_root(root, "/opt/tablekeeper/venv/bin/python", "-m", "tablekeeper.appliance", "install", "--user", "pi",
                     "--venv", "/opt/tablekeeper/venv", "--station-config-source", str(CLONE / "hardware/station.toml"))
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    return (secrets / "observer.password").read_text().strip()


def test_the_installed_unit_with_fleet_stays_up_and_reports_under_systemd(
        installed_root: tuple[Path, list[str]]) -> None:
    """The unit the installer writes for a ``[fleet]`` config, under systemd as PID 1: the station starts,
    stays up (no restart in 30 s) and its status reaches the broker. Then the unit's network lines as
    the installer once wrote them (no IP): under the same systemd the station cannot stay up."""
    root, _ = installed_root
    if shutil.which("systemd-nspawn") is None or shutil.which("nsenter") is None:
        pytest.skip("booting the root needs systemd-nspawn (Debian package systemd-container) and nsenter")
    observer = _prepare_fleet(root)
    unit_path = root / "etc/systemd/system/tablekeeper.service"
    unit = unit_path.read_text()
    assert "AF_INET" in unit and "IPAddressAllow=localhost" in unit
    container = Container(root)
    try:
        booted = _until(lambda: container.run("systemctl", "is-system-running").stdout.strip()
                        in ("running", "degraded"), 120)
        assert booted, container.run("systemctl", "--failed").stdout
        assert _until(lambda: container.prop("tablekeeper.service", "ActiveState") == "active", 60), \
            container.run("journalctl", "-u", "tablekeeper", "-n", "40", "--no-pager").stdout
        time.sleep(30)
        journal = container.run("journalctl", "-u", "tablekeeper", "-n", "40", "--no-pager").stdout
        assert container.prop("tablekeeper.service", "ActiveState") == "active", journal
        assert container.prop("tablekeeper.service", "NRestarts") == "0", journal
        status = container.run("mosquitto_sub", "-h", "127.0.0.1", "-u", "observer", "-P", observer,
                               "-t", "tablekeeper/t1/status", "-C", "1", "-W", "15")
        assert status.returncode == 0, status.stderr + journal
        report = json.loads(status.stdout)
        assert report["station"] == "t1" and report["mode"] != "offline" and report["uptime_s"] >= 0
        # protection removed: the network lines the installer wrote before it read [fleet]
        network = unit[unit.index("RestrictAddressFamilies="):unit.index("\n\n[Install]")]
        unit_path.write_text(unit.replace(network, OLD_NETWORK_LINES.rstrip("\n")))
        container.run("systemctl", "daemon-reload")
        container.run("systemctl", "restart", "--no-block", "tablekeeper")
        failing = _until(lambda: container.prop("tablekeeper.service", "NRestarts") not in ("", "0")
                         or container.prop("tablekeeper.service", "ActiveState") == "failed", 60)
        journal = container.run("journalctl", "-u", "tablekeeper", "-n", "60", "--no-pager").stdout
        assert failing, journal
        assert "Address family not supported" in journal or "Errno 97" in journal, journal
    finally:
        container.stop()
        unit_path.write_text(unit)
