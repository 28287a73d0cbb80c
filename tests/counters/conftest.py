"""Fixtures for the counter tests."""

from tests.counters.pty_rig import pty_rig

__all__ = ["pty_rig"]
