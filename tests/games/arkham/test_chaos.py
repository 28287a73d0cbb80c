"""The chaos bag, skill tests step by step and the exact odds (AH-CHAOS, AH-AUTO, AH-DIFF, AH-FW-4)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablekeeper.core.events import Command
from tablekeeper.core.odds import chained_draws
from tablekeeper.errors import ConfigError
from tablekeeper.games.arkham import GAME, rules
from tablekeeper.games.arkham.data import TokenKind, load_tokens
from tablekeeper.games.arkham.odds import success_chance, token_effect

from .helpers import data, do, new, rejects, start_turn, track


def bag(s: object) -> dict[str, int]:
    return dict(s.view()["sources"]["chaos"]["contents"])  # type: ignore[attr-defined]


@pytest.mark.rule("AH-CHAOS-5")
def test_ah_chaos_5_token_modifier_added_to_skill() -> None:
    s = new()
    do(s, "test seat1 combat 3 2", "commit seat1 1", "reveal chaos -2")
    assert data(s, "test")["result"]["success"] is True
    do(s, "resolve", "test seat1 combat 3 2", "commit seat1 1", "reveal chaos -3")
    assert data(s, "test")["result"] == {"modifier": -3, "modified_skill": 1, "difficulty": 2, "success": False,
                                         "autofail": False}


@pytest.mark.rule("AH-AUTO-2")
def test_ah_auto_2_autofail_token_fails_a_strong_test() -> None:
    s = new()
    do(s, "test seat1 combat 5 3", "reveal chaos autofail")
    result = data(s, "test")["result"]
    assert result["modified_skill"] == 0 and result["success"] is False
    assert rules.skill_test_result(5, 0, 0, autofail=True).success is False  # ambiguity 10


@pytest.mark.rule("AH-AUTO-3")
def test_ah_auto_3_automatic_success_sets_difficulty_to_zero() -> None:
    s = new()
    do(s, "test seat1 willpower 1 6 auto-success", "reveal chaos -4")
    result = data(s, "test")["result"]
    assert result["difficulty"] == 0 and result["success"] is True


@pytest.mark.rule("AH-DIFF-1")
def test_ah_diff_1_equal_succeeds() -> None:
    assert rules.skill_test_result(3, 0, 3).success
    assert not rules.skill_test_result(2, 0, 3).success
    s = new()
    do(s, "test seat1 agility 3 3", "reveal chaos 0")
    assert data(s, "test")["result"]["success"] is True


@pytest.mark.rule("AH-DIFF-2")
def test_ah_diff_2_card_test_written_with_its_difficulty() -> None:
    assert rules.parse_test_spec("Willpower (4)") == ("willpower", 4)
    s = new()
    do(s, 'test seat2 "Willpower (4)" 3')
    test = data(s, "test")
    assert (test["skill"], test["difficulty"], test["base"]) == ("willpower", 4, 3)
    assert "expected a test like" in rejects(new(), 'test seat1 "Luck (4)" 3')


def test_st_steps_run_in_order_and_the_token_goes_back() -> None:
    s = new()
    do(s, "test seat1 intellect 4 3")
    assert data(s, "test")["step"] == "ST.2"
    assert rejects(s, "resolve") == "cannot resolve the test at ST.2 (only at ST.6)"
    assert "finish the skill test first" in rejects(s, "next")
    do(s, "reveal chaos -1")
    assert data(s, "test")["step"] == "ST.6" and bag(s)["-1"] == 2
    assert "cannot commit cards at ST.6" in rejects(s, "commit seat1 1")
    do(s, "resolve")
    assert data(s, "test") is None and bag(s)["-1"] == 3


@pytest.mark.rule("AH-CHAOS-6")
def test_ah_chaos_6_device_draws_are_uniform_and_the_bag_refills() -> None:
    s = new(seed=7)
    do(s, "test seat1 intellect 4 3")
    chaos = s.state.sources["chaos"]
    # The device's draw for log entry k uses Random(f"{seed}:{k}"); check the game takes exactly that pick.
    index = s.log_length + 1
    events = GAME.decide(s.state, Command("draw", ("chaos",)), random.Random(f"7:{index}"))
    drawn = next(e["outcome"] for e in events if e.kind == "source.drawn")
    assert drawn == chaos.pick(random.Random(f"7:{index}"))
    counts: Counter[str] = Counter(chaos.pick(random.Random(f"7:{i}")) for i in range(16_000))
    contents = bag(s)
    assert sum(contents.values()) == 16
    for token, n in contents.items():
        assert abs(counts[token] / 16_000 - n / 16) <= 0.01, token
    do(s, "draw chaos")
    assert sum(bag(s).values()) == 15
    do(s, "resolve")
    assert sum(bag(s).values()) == 16


def test_a_reported_token_the_bag_does_not_hold_is_rejected() -> None:
    s = new()
    do(s, "test seat1 intellect 4 3", "token seal skull", "token seal skull")
    assert rejects(s, "reveal chaos skull") == "the chaos bag holds no 'skull' token"
    assert rejects(s, "reveal chaos bless") == "the chaos bag holds no 'bless' token"


def test_tokens_added_removed_sealed_and_released() -> None:
    s = new()
    do(s, "token add bless 3", "token add curse 2", "token remove -4", "token seal elder_sign")
    contents = bag(s)
    assert (contents["bless"], contents["curse"], contents.get("-4", 0), contents.get("elder_sign", 0)) == (3, 2, 0, 0)
    assert s.view()["sources"]["chaos"]["sealed"] == {"elder_sign": 1}
    do(s, "token release elder_sign")
    assert bag(s)["elder_sign"] == 1
    assert "holds 0 '-4'" in rejects(s, "token remove -4")
    assert "unknown chaos token" in rejects(s, "token add joker")


def test_bless_reveals_another_and_leaves_the_bag_after_the_test() -> None:
    s = new()
    do(s, "token add bless 2", "test seat1 willpower 2 4", "reveal chaos bless")
    assert data(s, "test")["step"] == "ST.3" and data(s, "test")["result"] is None
    do(s, "reveal chaos 0")
    assert data(s, "test")["result"]["modified_skill"] == 4
    do(s, "resolve")
    assert bag(s)["bless"] == 1 and sum(bag(s).values()) == 17


def test_odds_before_the_reveal_are_exact() -> None:
    s = new()
    do(s, "test seat1 intellect 3 3")
    # Standard bag of 16: success needs a token >= 0 or the elder sign (+1 for Roland): +1, 0, 0, elder
    # sign, and both skulls (The Gathering: -1 per Ghoul at the location, none here).
    assert data(s, "odds") == {"exact": "3/8", "percent": "37.5%"}
    do(s, "commit seat1 1")  # 4 vs 3: also -1 x3, skull x2 and cultist (both -1 here) -> 10/16
    assert data(s, "odds")["exact"] == "5/8"
    assert s.game.panels(s.state)["tokens"].big == "62.5%"


def test_odds_follow_an_edited_symbol_value() -> None:
    s = new()
    do(s, "test seat1 intellect 3 3", "token-value skull -1")
    assert data(s, "odds")["exact"] == "1/4"  # the two skulls fail now


def standard_tokens() -> dict[str, TokenKind]:
    tokens, _ = load_tokens()
    tokens.update(skull=TokenKind(-1), cultist=TokenKind(-2, again=True), tablet=TokenKind(-2),
                  elder_thing=TokenKind(-3))
    return tokens


@settings(max_examples=40, deadline=None)
@given(counts=st.dictionaries(st.sampled_from(["+1", "0", "-1", "-2", "skull", "cultist", "autofail", "elder_sign",
                                               "bless", "curse"]), st.integers(0, 3), min_size=1),
       skill=st.integers(0, 6), difficulty=st.integers(0, 6), elder=st.integers(-2, 3))
def test_exact_odds_agree_with_full_enumeration(counts: dict[str, int], skill: int, difficulty: int,
                                                elder: int) -> None:
    tokens = standard_tokens()
    expected = Fraction(0)
    if sum(counts.values()):
        for drawn, p in chained_draws(counts, lambda t: tokens[t].again).items():
            modifier, fail = token_effect(drawn, tokens, elder)
            if rules.skill_test_result(skill, modifier, difficulty, autofail=fail).success:
                expected += p
    assert success_chance(counts, tokens, skill, difficulty, elder) == expected


@pytest.mark.rule("AH-FW-4")
def test_ah_fw_4_evasion_lands_at_st7_not_at_st3() -> None:
    s = new()
    do(s, "enemy seat1 Ghoul fight=3 health=3 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 evade Ghoul", "reveal chaos 0")  # agility 2 vs 2
    assert data(s, "test")["result"]["success"] is True
    ghoul = data(s, "enemies")["Ghoul"]
    assert ghoul["engaged"] == 1 and ghoul["ready"] is True
    do(s, "resolve")
    ghoul = data(s, "enemies")["Ghoul"]
    assert ghoul["engaged"] is None and ghoul["ready"] is False


@pytest.mark.rule("AH-EVADE-2")
def test_ah_evade_2_pass_and_fail() -> None:
    s = new()
    do(s, "enemy seat1 Ghoul fight=3 health=3 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 evade Ghoul skill=3", "reveal chaos 0", "resolve")
    assert data(s, "enemies")["Ghoul"]["engaged"] is None
    s = new()
    do(s, "enemy seat1 Ghoul fight=3 health=3 evade=2 damage=1 horror=0")
    start_turn(s, 1)
    do(s, "act seat1 evade Ghoul skill=1", "reveal chaos 0", "resolve")
    assert data(s, "enemies")["Ghoul"]["engaged"] == 1 and data(s, "enemies")["Ghoul"]["ready"] is True


def test_chaos_bag_sizes_per_difficulty() -> None:
    """The Night of the Zealot bags (outside the seeds): 16, 16, 17 and 18 tokens."""
    sizes = {level: sum(bag(new(difficulty=level)).values()) for level in ("easy", "standard", "hard", "expert")}
    assert sizes == {"easy": 16, "standard": 16, "hard": 17, "expert": 18}
    assert track(new(), "agenda.threshold") == 3


FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.parametrize(("difficulty", "total", "zeros"), [("easy", 16, 3), ("hard", 17, 3), ("expert", 18, 1)])
def test_the_chaos_bag_of_a_scenario_file_in_the_arkhamcards_shape(difficulty: str, total: int, zeros: int) -> None:
    """``--option bag=FILE``: the difficulty step of a scenario file shaped like the ArkhamCards data
    repository's (fixture written in that shape) sets the bag; `auto_fail` is our `autofail`."""
    s = new(bag=str(FIXTURES / "arkhamcards-scenario.json"), difficulty=difficulty)
    contents = bag(s)
    assert sum(contents.values()) == total and contents["0"] == zeros and contents["autofail"] == 1


def test_a_scenario_file_whose_levels_list_only_their_effects() -> None:
    s = new(bag=str(FIXTURES / "arkhamcards-side.json"), difficulty="hard")
    assert bag(s) == {"0": 1, "-1": 1, "-2": 1, "-3": 1, "skull": 2, "cultist": 1, "elder_thing": 1, "autofail": 1,
                      "elder_sign": 1}
    missing = r"arkhamcards-side\.json: no chaos bag for easy \(difficulties: hard, standard\)"
    with pytest.raises(ConfigError, match=missing):
        new(bag=str(FIXTURES / "arkhamcards-side.json"), difficulty="easy")


def test_a_scenario_file_without_a_difficulty_step_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "story.json"
    path.write_text('{"id": "x", "steps": [{"id": "intro", "type": "story", "text": "..."}]}', encoding="utf-8")
    with pytest.raises(ConfigError, match="no difficulty step with chaos tokens"):
        new(bag=str(path))
    path.write_text('{"steps": [{"id": "d", "type": "input", "input": {"type": "choose_one", "choices": '
                    '[{"id": "standard", "tokens": ["+1", "joker"]}]}}]}', encoding="utf-8")
    joker = r"story\.json: steps\[0\]\.input\.choices\[0\]\.tokens\[1\]: unknown chaos token 'joker'"
    with pytest.raises(ConfigError, match=joker):
        new(bag=str(path))


@pytest.mark.rule("AH-CHAOS-4")
def test_rolands_and_agnes_elder_signs_are_read_on_the_board() -> None:
    """Roland Banks: +1 per clue at his location (the Study holds 2); Agnes Baker: +1 per horror on
    her. A difficulty only the Elder Sign reaches shows it in the exact odds (16 tokens)."""
    from tests.games.played import ok as okp
    from tests.games.played import opened

    roland = opened("arkham", seats=1)
    okp(roland, "test seat1 intellect 3 5")
    assert roland.session.view()["odds"]["exact"] == "1/16"  # 3 + 2 clues in the Study
    okp(roland, "reveal chaos elder_sign", "resolve", "set seat1.clues 2", "spend-clues seat1:2")
    okp(roland, "test seat1 intellect 3 4")  # the Hallway has no clues: the Elder Sign is +0
    assert roland.session.view()["odds"]["exact"] == "1/16"  # only the +1 token reaches 4
    agnes = opened("arkham", seats=1, seat1="agnes")
    okp(agnes, "test seat1 willpower 5 7")
    assert agnes.session.view()["odds"]["exact"] == "0/1"  # no horror: no token gives +2
    agnes2 = okp(opened("arkham", seats=1, seat1="agnes"), "hit seat1 0 2", "test seat1 willpower 5 7")
    assert agnes2.session.view()["odds"]["exact"] == "1/16"  # 2 horror: the Elder Sign is +2
