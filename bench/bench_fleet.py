"""Fleet scale: 50 stations (real paho-mqtt clients in a few processes) on one local Mosquitto.

Measures, with the organiser's page server running and one page (its WebSocket) open:
- status latency, from a station changing its status to the change arriving on the page (p50, p99);
- the broker's message rate (messages received and sent per second, from its $SYS counters);
- the fleet link's CPU cost on an idle station, run under the Pi budget when asked
  (``--pi-speed`` runs the idle probe under ``shared/tools/pi-speed zero2w`` beside the checkout).

Usage: python bench/bench_fleet.py [--stations 50] [--processes 5] [--seconds 20] [--pi-speed PATH]
"""

from __future__ import annotations

import argparse
import getpass
import json
import multiprocessing
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ZERO2W_SHARE = 0.0833  # pi-speed's zero2w preset: 1/12 of one core here
sys.path.insert(0, str(ROOT / "host"))

from tablekeeper.fleet.board import Board  # noqa: E402
from tablekeeper.fleet.broker_config import write_broker_config  # noqa: E402
from tablekeeper.fleet.config import FleetConfig  # noqa: E402
from tablekeeper.fleet.link import FleetLink  # noqa: E402
from tablekeeper.fleet.messages import Status  # noqa: E402
from tablekeeper.fleet.organiser import BrokerLogin, Organiser  # noqa: E402
from tablekeeper.web.guard import Allowed  # noqa: E402
from tablekeeper.web.organiser import OrganiserPage  # noqa: E402
from tablekeeper.web.server import PageServer, bind  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def station_process(names: list[str], port: int, secrets_dir: str, seconds: float, period_s: float,
                    ready: multiprocessing.Event) -> None:  # type: ignore[valid-type]
    """Run several stations' links; each changes its status every ``period_s`` (the round number
    carries the wall-clock time of the change, in ms, so the page side can measure latency)."""
    links = []
    for name in names:
        config = FleetConfig(broker="127.0.0.1", port=port, station=name, table=name, username=name,
                             password_file=str(Path(secrets_dir) / f"{name}.password"), keepalive_s=30)
        link = FleetLink(config, on_command=lambda c: None, will=Status(station=name, mode="offline"))
        link.start()
        links.append(link)
    for link in links:
        link.wait_connected(10)
    ready.set()  # type: ignore[attr-defined]
    end = time.monotonic() + seconds
    offset = hash(names[0]) % 1000 / 1000 * period_s
    time.sleep(offset)
    while time.monotonic() < end:
        for link in links:
            link.offer(Status(station=link.config.station, mode="playing", game="arkham",
                              round=int(time.time() * 1000) % 2_000_000_000, started_at=1.0))
            time.sleep(period_s / len(links))
    for link in links:
        link.close()


def sys_counter(port: int, observer_password: str, topic: str) -> float:
    out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-u", "observer", "-P",
                          observer_password, "-t", topic, "-C", "1", "-W", "5"], capture_output=True, text=True)
    return float(out.stdout.strip() or 0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def idle_probe(seconds: float) -> None:
    """One idle station's fleet link for ``seconds``: prints its CPU time (the process's own use)."""
    port = int(os.environ["FLEET_PORT"])
    secrets_dir = os.environ["FLEET_SECRETS"]
    config = FleetConfig(broker="127.0.0.1", port=port, station="idle", username="idle",
                         password_file=f"{secrets_dir}/idle.password", keepalive_s=30, heartbeat_s=60)
    link = FleetLink(config, on_command=lambda c: None, will=Status(station="idle", mode="offline"))
    link.start()
    link.wait_connected(10)
    link.offer(Status(station="idle", mode="attract"))
    time.sleep(2)
    before = resource.getrusage(resource.RUSAGE_SELF)
    start = time.monotonic()
    time.sleep(seconds)
    after = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.monotonic() - start
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(json.dumps({"idle_cpu_s": round(cpu, 4), "wall_s": round(wall, 1),
                      "percent_of_one_core_here": round(100 * cpu / wall, 4),
                      "percent_of_zero2w_capped_core": round(100 * cpu / wall / ZERO2W_SHARE, 4)}))
    link.close()


def reporter_poll_cost(passes: int = 3000) -> dict[str, float]:
    """The station thread's share of the fleet link: one ``FleetReporter.poll`` per loop pass, counted
    at two passes a second as the idle loop passed before it became event-driven (it now passes only
    for intents and deadlines: an upper bound), on the reference build's simulated parts."""
    import msgspec.structs

    from tablekeeper.config import REFERENCE_CONFIG, load_config
    from tablekeeper.core.session import Session
    from tablekeeper.fleet.reporter import FleetReporter
    from tablekeeper.games import load
    from tablekeeper.sim.simulator import SimulatedParts
    from tablekeeper.station.loop import Station
    from tablekeeper.station.parts import make_displays

    config = load_config(REFERENCE_CONFIG)
    fleet = FleetConfig(broker="127.0.0.1", station="probe")
    config = msgspec.structs.replace(config, fleet=fleet)
    with tempfile.TemporaryDirectory() as tmp:
        parts = SimulatedParts(config, display_mode=None, capture_dir=Path(tmp))
        displays = make_displays(config, parts.open_device, clock=time.monotonic)
        game = load("arkham")
        station = Station(session=Session(game, seats=2, seed=1), config=config, displays=displays,
                          clock=time.monotonic)
        reporter = FleetReporter(station, fleet)
        station.timed.append(reporter)
        station.decorate = reporter.decorate
        station.start()
        reporter.poll(time.monotonic())
        start = time.process_time()
        for _ in range(passes):
            reporter.poll(time.monotonic())
        per_poll = (time.process_time() - start) / passes
        station.close()
        parts.close()
    per_second = per_poll * PASSES_PER_S
    return {"poll_us_here": round(per_poll * 1e6, 1),
            "percent_of_zero2w_capped_core": round(100 * per_second / ZERO2W_SHARE, 4)}


PASSES_PER_S = 2.0  # the station loop's idle passes before it became event-driven (now none)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stations", type=int, default=50)
    parser.add_argument("--processes", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--period", type=float, default=2.0, help="each station changes its status this often")
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--pi-speed", metavar="PATH", help="run the idle probe under PATH zero2w")
    parser.add_argument("--idle-probe", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.idle_probe is not None:
        idle_probe(args.idle_probe)
        return
    if shutil.which("mosquitto") is None:
        sys.exit("bench_fleet: needs mosquitto on PATH")
    work = Path(tempfile.mkdtemp(prefix="bench-fleet-"))
    names = [f"s{i:02d}" for i in range(args.stations)]
    port = free_port()
    files = write_broker_config(work / "broker", [*names, "idle"], port=port, bind="127.0.0.1",
                                user=getpass.getuser())
    (files.acl).write_text(files.acl.read_text() + "\nuser observer\ntopic read $SYS/#\n")
    broker = subprocess.Popen(["mosquitto", "-c", str(files.config)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    organiser_password = files.secrets["organiser"].read_text().strip()
    observer_password = files.secrets["observer"].read_text().strip()
    board = Board()
    organiser = Organiser(BrokerLogin(host="127.0.0.1", port=port, username="organiser",
                                      password=organiser_password), board)
    organiser.start()
    organiser.wait_connected(10)
    server = PageServer(OrganiserPage(board, organiser).app(allowed=Allowed.for_bind("127.0.0.1")),
                        bind("127.0.0.1", 0))
    server.start()
    latencies: list[float] = []
    stop = threading.Event()

    def read_page() -> None:
        """The page's socket, read as a browser would: each board message is the whole board."""
        from websockets.sync.client import connect

        url = f"ws://127.0.0.1:{server.port}/live"
        with connect(url, origin=f"http://127.0.0.1:{server.port}", max_size=None) as socket_:  # type: ignore[arg-type]
            seen: dict[str, int] = {}
            for raw in socket_:
                if stop.is_set():
                    return
                message = json.loads(raw)
                if message.get("type") != "board":
                    continue
                now_ms = time.time() * 1000
                for tile in message["view"]["tiles"]:
                    stamp = tile.get("round")
                    if isinstance(stamp, int) and seen.get(tile["station"]) != stamp:
                        seen[tile["station"]] = stamp
                        latencies.append((now_ms % 2_000_000_000) - stamp)

    threading.Thread(target=read_page, daemon=True).start()
    ready = [multiprocessing.Event() for _ in range(args.processes)]
    groups = [names[i::args.processes] for i in range(args.processes)]
    procs = [multiprocessing.Process(target=station_process,
                                     args=(group, port, str(files.secrets["organiser"].parent), args.seconds,
                                           args.period, ev)) for group, ev in zip(groups, ready, strict=True)]
    for proc in procs:
        proc.start()
    for ev in ready:
        ev.wait(30)
    time.sleep(2)
    received0 = sys_counter(port, observer_password, "$SYS/broker/messages/received")
    sent0 = sys_counter(port, observer_password, "$SYS/broker/messages/sent")
    t0 = time.monotonic()
    latencies.clear()
    for proc in procs:
        proc.join(args.seconds + 30)
    received1 = sys_counter(port, observer_password, "$SYS/broker/messages/received")
    sent1 = sys_counter(port, observer_password, "$SYS/broker/messages/sent")
    elapsed = time.monotonic() - t0
    stop.set()
    good = [x for x in latencies if x >= 0]
    result = {
        "stations": args.stations, "processes": args.processes, "status_changes_per_station_s": 1 / args.period,
        "latency_ms_p50": round(percentile(good, 0.5), 1) if good else None,
        "latency_ms_p99": round(percentile(good, 0.99), 1) if good else None,
        "latency_samples": len(good),
        "broker_received_per_s": round((received1 - received0) / elapsed, 1),
        "broker_sent_per_s": round((sent1 - sent0) / elapsed, 1),
    }
    env = {**os.environ, "FLEET_PORT": str(port), "FLEET_SECRETS": str(files.secrets["organiser"].parent)}
    probe = [sys.executable, __file__, "--idle-probe", str(args.idle_seconds)]
    if args.pi_speed:
        probe = [args.pi_speed, "zero2w", *probe]
    out = subprocess.run(probe, capture_output=True, text=True, env=env, timeout=args.idle_seconds + 120)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    result["idle_link"] = json.loads(lines[-1]) if lines else out.stderr[-500:]
    result["idle_under"] = "pi-speed zero2w" if args.pi_speed else "this machine"
    result["station_thread_poll"] = reporter_poll_cost()
    print(json.dumps(result, indent=2))
    server.stop()
    organiser.close()
    broker.terminate()
    broker.wait(5)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
