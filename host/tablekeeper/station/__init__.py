"""The station: the loop that turns intents into game commands, its controls, menu and flow lines, the
start-up splash and the scripted run."""
