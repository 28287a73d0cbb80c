"""Convention demo mode: the pure state machine (``mode``) and the station that puts it in front of
the game (``station``)."""
