"""Installed, not cloned: the wheel carries what `run --sim`, `hardware wiring` and `doctor --sim` need.

The wheel is the one CI built with ``python -m build`` (named by ``$TABLEKEEPER_TEST_WHEEL``, which
``.ci/run`` sets), else one built here from this checkout. It is installed into a fresh venv that
borrows only the dependencies of the test venv (a path line, not its editable finder), then run from
an empty directory, so nothing can be found by looking inside the source tree.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHEEL_ENV = "TABLEKEEPER_TEST_WHEEL"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    given = os.environ.get(WHEEL_ENV, "")
    if given:
        wheel = Path(given)
        assert wheel.is_file() and wheel.name.startswith("tablekeeper-"), f"${WHEEL_ENV}={given}: no such wheel"
    else:
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                                "-w", str(work / "dist"), str(ROOT)], capture_output=True, text=True, check=False)
        if built.returncode != 0:
            pytest.skip(f"cannot build the wheel here: {built.stderr.strip().splitlines()[-1:]}")
        wheel = next((work / "dist").glob("tablekeeper-*.whl"))
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", site, str(wheel)],
                   check=True, capture_output=True)
    return env_dir


def _run(env_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(SDL_VIDEODRIVER="dummy", HOME=str(cwd), TABLEKEEPER_DATA_DIR=str(cwd / "data"))
    return subprocess.run([str(env_dir / "bin" / "python"), "-m", "tablekeeper", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False, timeout=120)


def test_the_package_comes_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    result = subprocess.run([str(installed / "bin" / "python"), "-c",
                             "import tablekeeper, pathlib; print(pathlib.Path(tablekeeper.__file__).resolve())"],
                            cwd=tmp_path, capture_output=True, text=True, check=True)
    assert not result.stdout.strip().startswith(str(ROOT)), result.stdout


def test_run_sim_with_counters_works_installed(installed: Path, tmp_path: Path) -> None:
    script = tmp_path / "keys.txt"
    script.write_text("press next\ncounter 1 up\nwait 0.5\n")
    result = _run(installed, tmp_path, "run", "--sim", "--script", str(script), "--display", "capture",
                  "--capture-dir", str(tmp_path / "frames"))
    assert result.returncode == 0, result.stderr
    assert list((tmp_path / "frames").glob("*.png"))


def test_hardware_wiring_and_doctor_work_installed(installed: Path, tmp_path: Path) -> None:
    wiring = _run(installed, tmp_path, "hardware", "wiring")
    assert wiring.returncode == 0, wiring.stderr
    assert wiring.stdout.lstrip().startswith("<svg") or "<svg" in wiring.stdout[:400]
    doctor = _run(installed, tmp_path, "doctor", "--sim")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr


def test_the_installed_modules_come_compiled(installed: Path) -> None:
    """pip compiles the wheel's modules as it installs them: the station, whose venv it cannot write,
    never compiles its modules at start-up (compiling them all would add about a third to the time
    to its first frame at a Pi Zero's speed)."""
    site = subprocess.run([str(installed / "bin" / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    package = Path(site) / "tablekeeper"
    sources = [p for p in package.rglob("*.py") if "firmware" not in p.parts]
    missing = [str(p.relative_to(package)) for p in sources
               if not Path(importlib.util.cache_from_source(str(p))).is_file()]
    assert sources and not missing, missing[:5]


def test_the_wheel_under_test_is_the_one_named(installed: Path) -> None:
    """When CI names its built wheel, that wheel (same bytes) is what got installed."""
    given = os.environ.get(WHEEL_ENV, "")
    if not given:
        pytest.skip(f"${WHEEL_ENV} not set: the wheel was built from the checkout")
    site = subprocess.run([str(installed / "bin" / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    def files(record: str) -> set[tuple[str, str]]:  # (path, sha256) of the package's own files
        rows = (line.split(",") for line in record.splitlines())
        return {(row[0], row[1]) for row in rows if row[0].startswith("tablekeeper/") and row[1]}

    with zipfile.ZipFile(given) as wheel:
        record_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
        shipped = files(wheel.read(record_name).decode())
    installed_record = next(Path(site).glob("tablekeeper-*.dist-info")) / "RECORD"
    assert shipped and shipped <= files(installed_record.read_text())
