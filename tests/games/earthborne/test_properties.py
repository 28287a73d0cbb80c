"""Whatever tokens come and go, once nothing is pending no card in play meets a threshold
(ER-CLEAR-1, -4, -8: every due card clears; the re-check keeps only cards below their thresholds)
and the location never clears (ER-LOC-1)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.core.events import Command
from tests.games.earthborne.helpers import PATH_CARDS, session

SETUP = ("location Ridge 3 icons=crest", "card A progress=2 harm=2 clear=x icons=sun",
         "card B progress=3 icons=sun,mountain", "card C progress=- harm=- icons=sun area=reach seat=1",
         "response after Echo", "response when Mend card=card1", PATH_CARDS, "next", "turn 1")

actions = st.one_of(
    st.tuples(st.sampled_from(["progress", "harm"]), st.sampled_from(["card1", "card2", "card3", "location"]),
              st.integers(-2, 3)).map(lambda t: Command(t[0], (t[1], f"{t[2]:+d}"))),
    st.just(Command("step", ("effects",))),
    st.just(Command("resolve")),
    st.integers(1, 3).map(lambda n: Command("choose", (str(n),))),
    st.just(Command("undo")),
    st.sampled_from(["awa", "fit"]).map(lambda a: Command("test", ("1", a, "1", "target=card2"))),
    st.just(Command("draw", ("challenge",))),
    st.just(Command("exhaust", ("card2",))),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(actions, max_size=25))
def test_idle_means_no_card_at_its_threshold(commands: list[Command]) -> None:
    s = session(*SETUP)
    for command in commands:
        s.perform(command)
        state = s.state
        assert "location" not in [c["card"] for c in s.view()["clears"]]
        view = s.view()
        if state.prompt is None and not view["work"]:
            t = view["tracks"]
            due = [f"{k}.{kind}" for k in view["cards"] for kind in ("progress", "harm")
                   if t[f"{k}.{kind}_threshold"] is not None and t[f"{k}.{kind}"] >= t[f"{k}.{kind}_threshold"]]
            assert due == []
        assert s.replay() == s.state  # the log is the truth
