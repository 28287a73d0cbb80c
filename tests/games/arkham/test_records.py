"""Arkham's typed records are converted once per state value: two games in one process never see each
other's scenario or seats, and a caller may change the seat table it is given."""

from __future__ import annotations

from tablekeeper.games.arkham import records
from tests.games.arkham.helpers import new


def test_two_sessions_read_their_own_scenario_and_seats_turn_about() -> None:
    gathering = new(scenario_id="the_gathering", difficulty="easy")
    masks = new(scenario_id="midnight_masks", difficulty="hard")
    for _ in range(2):
        assert gathering.view()["scenario"] == "the_gathering"
        assert masks.view()["scenario"] == "midnight_masks"
        assert gathering.view()["difficulty"] == "easy" and masks.view()["difficulty"] == "hard"


def test_the_seat_table_given_out_is_the_callers_own() -> None:
    session = new()
    table = records.seats(session.state)
    investigator = table[1].investigator
    del table[1]
    assert records.seats(session.state)[1].investigator == investigator
