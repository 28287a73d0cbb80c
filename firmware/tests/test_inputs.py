"""Debounced buttons and the quadrature encoder, driven by fake pins and a fake clock."""

import machine
from counter.inputs import Button, Encoder


def test_bouncing_contact_gives_one_press():
    pin = machine.Pin(10, machine.Pin.IN, machine.Pin.PULL_UP)
    button = Button(pin, 1, 0)
    presses = 0
    now = 0
    for level in (0, 1, 0, 1, 0):
        pin.set_level(level)
        presses += button.poll(now)
        now += 3
    for _ in range(10):
        presses += button.poll(now)
        now += 5
    assert presses == 1
    pin.set_level(1)
    for _ in range(10):
        presses += button.poll(now)
        now += 5
    assert presses == 1


def test_short_glitch_is_ignored():
    pin = machine.Pin(10, machine.Pin.IN, machine.Pin.PULL_UP)
    button = Button(pin, 1, 0)
    pin.set_level(0)
    assert not button.poll(0)
    assert not button.poll(10)
    pin.set_level(1)
    assert not button.poll(12)
    assert not button.poll(100)


def test_button_survives_tick_wraparound():
    pin = machine.Pin(10, machine.Pin.IN, machine.Pin.PULL_UP)
    start = (1 << 30) - 5
    button = Button(pin, 1, start)
    pin.set_level(0)
    assert not button.poll(start)
    assert button.poll(20)


def _turn(pin_a, pin_b, encoder, sequence):
    total = 0
    for a, b in sequence:
        pin_a.set_level(a)
        pin_b.set_level(b)
        total += encoder.poll()
    return total


def test_encoder_counts_detents_both_ways():
    pin_a = machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP)
    pin_b = machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP)
    pin_a.set_level(0)
    pin_b.set_level(0)
    encoder = Encoder(pin_a, pin_b)
    clockwise = ((1, 0), (1, 1), (0, 1), (0, 0))
    assert _turn(pin_a, pin_b, encoder, clockwise * 3) == 3
    counter = ((0, 1), (1, 1), (1, 0), (0, 0))
    assert _turn(pin_a, pin_b, encoder, counter * 2) == -2


def test_encoder_jitter_on_one_edge_does_not_count():
    pin_a = machine.Pin(14, machine.Pin.IN, machine.Pin.PULL_UP)
    pin_b = machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP)
    pin_a.set_level(0)
    pin_b.set_level(0)
    encoder = Encoder(pin_a, pin_b)
    jitter = ((1, 0), (0, 0)) * 10
    assert _turn(pin_a, pin_b, encoder, jitter) == 0
