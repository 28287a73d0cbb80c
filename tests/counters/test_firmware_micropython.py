"""The firmware's tests under real MicroPython 1.27 (the WebAssembly port, run by node)."""

from __future__ import annotations

import subprocess

import pytest

from tests.counters.firmware_env import FIRMWARE, RUN_MPY, firmware_test_modules, node

pytestmark = pytest.mark.skipif(node() is None, reason="node is not installed: cannot run MicroPython (WebAssembly)")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    package = FIRMWARE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
    if not package.is_dir():
        pytest.fail("MicroPython (WebAssembly) is not installed: run `npm ci --prefix firmware`")
    return subprocess.run([str(node()), str(RUN_MPY), *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", firmware_test_modules())
def test_firmware_module_passes_under_micropython(module: str) -> None:
    result = _run(module)
    failures = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert result.returncode == 0 and not failures, result.stdout + result.stderr
    passed = [line for line in result.stdout.splitlines() if line.startswith("PASS")]
    assert passed, f"no test ran in {module}: {result.stdout}"


def test_the_runner_reports_a_failing_test() -> None:
    """A broken expectation must turn the run red (the runner is not a rubber stamp)."""
    result = _run("failing_example")
    assert result.returncode == 1
    assert "FAIL failing_example.test_wrong_sum" in result.stdout
    assert "firmware: 0 passed, 1 failed" in result.stdout


def test_interpreter_is_micropython() -> None:
    result = _run("micropython_identity")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS micropython_identity.test_running_on_micropython" in result.stdout
