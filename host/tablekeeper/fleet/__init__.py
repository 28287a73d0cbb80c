"""A convention's fleet: stations report to one MQTT broker (Mosquitto) and an organiser steers them.

The station side (``config``, ``link``, ``reporter``, ``commands``) loads only when the station
config has a ``[fleet]`` table; the organiser's side (``board``, ``server``, and ``commands.fleet``)
runs on a laptop.
"""
