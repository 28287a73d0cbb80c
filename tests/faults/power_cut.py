"""Rebuild what a disk would hold after a power cut, from an ``strace`` of the writes and syncs.

The model: data written to a file survives only once that file is fsynced (``fsync``/``fdatasync``);
a new file's name survives only once its folder is fsynced; SQLite's shared-memory index and the
save's lock file are not needed after a cut and are left out. Every syscall is a cut point.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

TRACED = ("openat", "write", "pwrite64", "ftruncate", "fsync", "fdatasync", "unlink")
_LINE = re.compile(r"^\d+\s+(?P<call>\w+)\((?P<args>.*)\)\s+=\s+(?P<ret>-?\d+)(?:<(?P<retpath>[^>]*)>)?")
_FD = re.compile(r"^(?P<fd>\d+)<(?P<path>(?:\\x[0-9a-f]{2})*)>")
_DATA = re.compile(r'"(?P<data>(?:\\x[0-9a-f]{2})*)"')
_NUMS = re.compile(r",\s*(\d+)")


def _hex(text: str) -> bytes:
    return bytes.fromhex(text.replace("\\x", ""))


@dataclass(frozen=True)
class Op:
    call: str
    path: str
    data: bytes = b""
    offset: int = 0
    length: int = 0


def record(argv: Sequence[str], trace: Path, *, cwd: Path, env: dict[str, str], stdout: Path) -> int:
    """Run ``argv`` under strace, its standard output into ``stdout``; returns its exit code."""
    with stdout.open("wb") as out:
        done = subprocess.run(["strace", "-f", "-qq", "-y", "-xx", "-s", "1000000", "-e",
                               "trace=" + ",".join(TRACED), "-o", str(trace), *argv],
                              stdout=out, stderr=subprocess.PIPE, cwd=cwd, env=env, timeout=600, check=False)
    return done.returncode


def parse(trace: Path) -> list[Op]:
    """The file operations in order; a write to descriptor 1 is an ``ack`` (one trace line each)."""
    ops: list[Op] = []
    for line in trace.read_text().splitlines():
        assert "unfinished" not in line, f"interleaved threads are not modelled: {line[:120]}"
        m = _LINE.match(line)
        if m is None or int(m["ret"]) < 0:
            continue
        call, args = m["call"], m["args"]
        if call == "openat":
            if "O_CREAT" in args and m["retpath"] is not None:
                ops.append(Op("create", _hex(m["retpath"]).decode()))
            continue
        if call == "unlink":
            data = _DATA.search(args)
            assert data is not None
            ops.append(Op("unlink", _hex(data["data"]).decode()))
            continue
        fd = _FD.match(args)
        if fd is None:
            continue
        path = _hex(fd["path"]).decode(errors="replace")
        if call == "write" and fd["fd"] == "1":
            data = _DATA.search(args)
            assert data is not None
            ops.append(Op("ack", path, _hex(data["data"])[: int(m["ret"])]))
        elif call == "pwrite64":
            data = _DATA.search(args)
            assert data is not None
            offset = int(_NUMS.findall(args[data.end():])[-1])
            ops.append(Op("write", path, _hex(data["data"])[: int(m["ret"])], offset))
        elif call == "write":
            raise AssertionError(f"a positionless write to {path} is not modelled")
        elif call == "ftruncate":
            ops.append(Op("truncate", path, length=int(_NUMS.findall(args)[-1])))
        elif call in ("fsync", "fdatasync"):
            ops.append(Op("sync", path))
    return ops


@dataclass
class Disk:
    """Files as the process sees them (``live``) and as a power cut would leave them (``durable``)."""

    keep: Callable[[str], bool]
    live: dict[str, bytearray] = field(default_factory=dict)
    synced: dict[str, bytes] = field(default_factory=dict)
    named: set[str] = field(default_factory=set)  # created and their folder synced since
    version: int = 0  # bumped whenever what would survive changes

    def apply(self, op: Op) -> None:
        if op.call == "create":
            self.live.setdefault(op.path, bytearray())
        elif op.call == "write":
            buf = self.live.setdefault(op.path, bytearray())
            if len(buf) < op.offset:
                buf.extend(b"\x00" * (op.offset - len(buf)))
            buf[op.offset:op.offset + len(op.data)] = op.data
        elif op.call == "truncate":
            buf = self.live.setdefault(op.path, bytearray())
            del buf[op.length:]
            buf.extend(b"\x00" * (op.length - len(buf)))
        elif op.call == "unlink":
            self.live.pop(op.path, None)
            self.synced.pop(op.path, None)
            self.named.discard(op.path)
            self.version += 1
        elif op.call == "sync":
            if op.path in self.live:
                self.synced[op.path] = bytes(self.live[op.path])
            else:  # a folder: the names created in it so far survive
                self.named |= {p for p in self.live if str(Path(p).parent) == op.path}
            self.version += 1

    def image(self, folder: Path) -> None:
        """Write what would survive a cut now into ``folder`` (file names kept)."""
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for path in self.named:
            if self.keep(path):
                (folder / Path(path).name).write_bytes(self.synced.get(path, b""))


@dataclass(frozen=True)
class CutReport:
    cut_points: int
    checked_images: int
    losses: int  # cut points where an acknowledged entry would be gone (or the save unusable)
    worst: tuple[int, int] | None  # (acknowledged, surviving) at the first loss


def replay(ops: Sequence[Op], keep: Callable[[str], bool], survivors: Callable[[Disk], int]) -> CutReport:
    """Cut the power after every operation; ``survivors`` counts the entries a resumed save holds."""
    disk = Disk(keep)
    acked = 0
    memo: dict[int, int] = {}
    losses = 0
    worst = None
    for op in ops:
        disk.apply(op)
        if op.call == "ack":
            acked += op.data.count(b"\n")
        if disk.version not in memo:
            memo[disk.version] = survivors(disk)
        if memo[disk.version] < acked:
            losses += 1
            worst = worst or (acked, memo[disk.version])
    return CutReport(len(ops), len(memo), losses, worst)
