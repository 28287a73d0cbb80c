"""The fleet tests' MQTT broker, started on a free loopback port.

Mosquitto (Debian's package) when ``mosquitto`` is on PATH, run with the config, ACL and password
file that ``tablekeeper fleet broker-config`` writes; otherwise amqtt, a pure-Python broker, with
anonymous access (tests of logins and ACLs then skip). ``TABLEKEEPER_TEST_BROKER=amqtt`` forces
the fallback. The run's summary says which broker ran.
"""

from __future__ import annotations

import getpass
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tablekeeper.fleet.broker_config import BrokerFiles, write_broker_config

STATIONS = ("t1", "t2", "t3")
USED: set[str] = set()  # which kinds ran, for the summary line


def broker_kind() -> str:
    forced = os.environ.get("TABLEKEEPER_TEST_BROKER")
    if forced in ("mosquitto", "amqtt"):
        return forced
    return "mosquitto" if shutil.which("mosquitto") else "amqtt"


def mosquitto_version() -> str:
    result = subprocess.run(["mosquitto", "-h"], capture_output=True, text=True, timeout=5, check=False)
    first = (result.stdout or result.stderr).splitlines()[:1]
    return first[0] if first else "mosquitto"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Broker:
    """One broker process; ``stop``/``start`` restart it on the same port."""

    def __init__(self, directory: Path, stations: tuple[str, ...], *, acl: bool = True,
                 tls_names: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> None:
        self.kind = broker_kind()
        directory.mkdir(parents=True, exist_ok=True)
        self.directory = directory
        self.port = free_port()
        self.files: BrokerFiles | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self.log = directory / "broker.log"
        if self.kind == "mosquitto":
            self.files = write_broker_config(directory / "broker", stations, port=self.port, bind="127.0.0.1",
                                             user=getpass.getuser(), tls_names=tls_names)
            if not acl:  # a parametrised fault test runs once with the ACL taken out
                self.files.acl.write_text("topic readwrite #\npattern readwrite #\n", encoding="utf-8")
            if drop:  # ... or with these settings taken out of mosquitto.conf
                kept = [line for line in self.files.config.read_text().splitlines() if not line.startswith(drop)]
                self.files.config.write_text("\n".join(kept) + "\n", encoding="utf-8")
            self.command = ["mosquitto", "-c", str(self.files.config)]
        else:
            config = directory / "amqtt.yaml"
            config.write_text(
                "listeners:\n  default:\n    type: tcp\n"
                f"    bind: 127.0.0.1:{self.port}\n"
                "plugins:\n  amqtt.plugins.authentication.AnonymousAuthPlugin:\n    allow_anonymous: true\n",
                encoding="utf-8")
            self.command = [sys.executable, "-c", "from amqtt.scripts.broker_script import main; main()",
                            "-c", str(config)]
        USED.add(self.kind)

    @property
    def secure(self) -> bool:
        """True when logins and ACLs are enforced (Mosquitto with the generated files)."""
        return self.files is not None

    def password(self, account: str) -> str | None:
        if self.files is None:
            return None
        return self.files.secrets[account].read_text(encoding="utf-8").strip()

    def password_file(self, account: str) -> str | None:
        return None if self.files is None else str(self.files.secrets[account])

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10.0
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the {self.kind} broker exited: {self.log.read_text(errors='replace')[-800:]}")
            if poll(self._accepts, 0.05):
                return
        raise RuntimeError(f"the {self.kind} broker did not open port {self.port}")

    @property
    def ca_file(self) -> str | None:
        return None if self.files is None or self.files.tls is None else str(self.files.tls.ca_certificate)

    def _accepts(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None


def poll(predicate: Callable[[], object], timeout_s: float, every_s: float = 0.02) -> bool:
    """Whether ``predicate`` holds within ``timeout_s``: the one place these tests wait for another
    process or thread (a broker, paho's network thread) to catch up."""
    deadline = time.monotonic() + timeout_s
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(every_s)


def wait_until(predicate: Callable[[], object], what: str, timeout_s: float = 10.0) -> None:
    """Poll ``predicate`` (bounded); fail naming ``what`` if it never holds."""
    if not poll(predicate, timeout_s):
        raise AssertionError(f"timed out waiting for {what}")
