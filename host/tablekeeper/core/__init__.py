"""The pure rules-and-timing engine: commands -> events -> state. No hardware, no wall clock,
no global random; every chance outcome is logged so a session replays exactly."""
