"""Tablekeeper: the bookkeeping appliance that sits beside a cardboard co-op game."""

__version__ = "0.1.0"
