"""Proves the node runner really runs MicroPython, not some other Python."""

import sys


def test_running_on_micropython():
    assert sys.implementation.name == "micropython"
    assert sys.implementation.version[:2] == (1, 27)
