"""A tiny test runner for MicroPython (no pytest there): runs every ``test_*`` function."""

import sys


def run_modules(names) -> int:
    passed = 0
    failed = 0
    for name in names:
        module = __import__(name)
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            func = getattr(module, attr)
            try:
                func()
            except Exception as exc:  # report every failure and keep going
                failed += 1
                print("FAIL " + name + "." + attr + ": " + type(exc).__name__ + ": " + str(exc))
                sys.print_exception(exc) if hasattr(sys, "print_exception") else None
            else:
                passed += 1
                print("PASS " + name + "." + attr)
    print("firmware: " + str(passed) + " passed, " + str(failed) + " failed")
    return failed
