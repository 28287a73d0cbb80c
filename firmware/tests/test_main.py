"""main.py after a REPL hand-back: the flag is consumed and the app is not started."""

import os

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."


def _main_source():
    for path in (_HERE + "/../main.py", "/fw/main.py"):
        try:
            with open(path) as handle:
                return handle.read()
        except OSError:
            continue
    raise AssertionError("main.py not found")


def test_repl_flag_skips_the_app_once():
    source = _main_source()
    with open("repl.flag", "w") as handle:
        handle.write("1")
    scope = {"__name__": "main"}
    try:
        exec(source, scope)
        assert "main" in scope
        try:
            os.stat("repl.flag")
        except OSError:
            return  # the flag is gone: the next boot starts the app
        raise AssertionError("repl.flag was left behind")
    finally:
        try:  # noqa: SIM105 (MicroPython has no contextlib)
            os.remove("repl.flag")
        except OSError:
            pass
