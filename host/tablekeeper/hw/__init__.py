"""Adapters between the station and its hardware: buttons and outputs (gpiozero), displays
(luma.oled), counters (pyserial). Every back-end is passed in; nothing is opened at import time."""
