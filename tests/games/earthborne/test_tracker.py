"""The campaign tracker's missions (name, day, three progress boxes), rewards and log notes,
through the verbs of ``tablekeeper play``: kept across days, and taken after a day's end and after
the campaign's last day, where a group writes them."""

from __future__ import annotations

from tests.games.played import ok, opened, refused

# one quiet round up to the Ranger's turns for one Ranger, whose path card has no thresholds (ER-PATH-1)
DAY = ('location "Lone Tree" 3', "pathdeck 12", 'reveal path "Spiderline Stanchion"', "next")


def test_a_mission_is_written_marked_and_crossed_off_across_days() -> None:
    play = ok(opened("earthborne", seats=2, seed=7), "mission Biscuit Delivery")
    ok(play, "mission biscuit delivery mark")
    view = play.session.view()
    assert view["missions"] == [{"name": "Biscuit Delivery", "day": 1, "marks": 1, "done": False}]
    assert "Mission Biscuit Delivery (day 1): 1/3" in play.session.game.panels(play.session.state)["track"].lines
    assert "on the tracker already" in refused(play, "mission Biscuit Delivery")
    assert "no mission 'Lost Cat'" in refused(play, "mission Lost Cat mark")
    ok(play, *DAY[:3], 'reveal path "Spiderline Stanchion"', "next", "rest 1", "set seat1.deck 0",
       "rest 2")  # the last rest: no travel to decide, and the day ends at Refresh
    assert play.session.view()["day_end_reason"] == "cannot_draw"
    ok(play, "mission Biscuit Delivery mark", "reward Quisi Biscuits", "note The group met Quisi")  # after it
    ok(play, "newday")
    view = play.session.view()
    assert view["missions"][0]["marks"] == 2 and view["rewards"] == ["Quisi Biscuits"]
    assert view["notes"] == [{"day": 1, "text": "The group met Quisi"}]
    ok(play, "mission Biscuit Delivery mark")
    assert "all 3 progress boxes" in refused(play, "mission Biscuit Delivery mark")
    ok(play, "mission Biscuit Delivery done")
    assert "done already" in refused(play, "mission Biscuit Delivery mark")
    track = play.session.game.panels(play.session.state)["track"]
    assert not [line for line in track.lines if line.startswith("Mission")]


def test_the_tracker_takes_entries_after_the_campaigns_last_day() -> None:
    play = ok(opened("earthborne", seats=1, seed=7, day="30"), *DAY, "set seat1.deck 0", "rest 1", "newday")
    assert play.session.state.over is not None
    ok(play, "reward Sunberry Bramble", "note The Valley was saved", "mission Last Light day=30")
    assert refused(play, "rest 1").startswith("the game is over")


def test_place_names_are_read_quoted_or_not() -> None:
    """One rule for names: a place's words with or without quotes, a threshold after them."""
    play = ok(opened("earthborne", seats=2, seed=7), "location Lone Tree Station")
    assert play.session.view()["location"]["name"] == "Lone Tree Station"
    ok(play, "location Hidden Glade 2r")  # not a Valley location: its threshold follows the name
    location = play.session.view()["location"]
    assert (location["name"], location["progress"]) == ("Hidden Glade", "2r")
    ok(play, "location Lone Tree Station", "pathdeck woods lone_tree_station", 'reveal path "Sitka Doe"',
       'reveal path "Sunberry Bramble"', "next", "set location.progress 6",
       "rest 1", "rest 2", "choose 1", "camp White Sky")
    assert play.session.view()["record"]["location"] == "White Sky"


def test_card_names_are_read_quoted_or_not() -> None:
    play = ok(opened("earthborne", seats=2, seed=7), "location Lone Tree Station",
              "pathdeck woods lone_tree_station", "reveal path Sitka Doe", "reveal path Overgrown Thicket 2")
    cards = play.session.view()["cards"]
    assert [c["name"] for c in cards.values()] == ["Sitka Doe", "Overgrown Thicket"]
    ok(play, "card Quiet Stone Circle obstacle progress=3", "next", "turn 1", "play 1 Walk With Me cost=spi:1")
    cards = play.session.view()["cards"]
    assert cards["card3"]["name"] == "Quiet Stone Circle" and "obstacle" in cards["card3"]["keywords"]
    assert any("Walk With Me" in line for line in play.session.view()["log"])
    ok(play, "equip 2 Trail Markers 2")
    assert play.session.view()["gear"] == {"2": {"Trail Markers": 2}}
