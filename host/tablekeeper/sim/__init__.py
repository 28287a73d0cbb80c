"""Simulated parts: gpiozero's MockFactory pins, a fake clock, the composed panel picture."""
