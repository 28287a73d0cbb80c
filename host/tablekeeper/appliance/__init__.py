"""Turning a Raspberry Pi into a Tablekeeper appliance: service unit, udev rule, install plan, watchdog.

Everything here uses only the standard library (``watchdog`` sends sd_notify's datagrams itself) so the
installer's dry run works before the project's virtualenv exists.
"""
