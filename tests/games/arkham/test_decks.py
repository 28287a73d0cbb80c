"""Deck lists: building rules and changes between scenarios (AH-DB, AH-COPY, AH-EXCEPT, AH-ASSET-4,
AH-XP-4..9)."""

from __future__ import annotations

import pytest

from tablekeeper.errors import Rejected
from tablekeeper.games.arkham.campaign import Campaign
from tablekeeper.games.arkham.decks import DeckCard, deck_problems

ROLAND = {"guardian": 5, "seeker": 2, "neutral": 5}


def standard(n: int, prefix: str = "Card", card_class: str = "guardian") -> list[DeckCard]:
    """``n`` legal level-0 cards, two copies per title."""
    return [DeckCard(f"{prefix} {i // 2}", 0, card_class=card_class) for i in range(n)]


def extras() -> list[DeckCard]:
    return [DeckCard("Roland's .38 Special", None, "signature"), DeckCard("Cover Up", None, "signature"),
            DeckCard("Amnesia", None, "weakness")]


@pytest.mark.rule("AH-DB-2")
def test_ah_db_2_deck_size_counts_standard_cards_only() -> None:
    assert deck_problems(standard(30) + extras(), deck_size=30, access=ROLAND) == []
    problems = deck_problems(standard(29) + extras() + [DeckCard("Extra", None, "weakness")], deck_size=30)
    assert problems == ["29 cards count toward deck size, not 30"]


@pytest.mark.rule("AH-DB-3")
def test_ah_db_3_three_copies_is_too_many() -> None:
    cards = standard(27) + [DeckCard("Knife", 0)] * 3 + extras()
    assert deck_problems(cards, deck_size=30) == ["Knife: at most 2 copies by title (3)"]


@pytest.mark.rule("AH-COPY-1")
def test_ah_copy_1_copies_go_by_title_whatever_the_level() -> None:
    cards = [*standard(27), DeckCard("Title", 0), DeckCard("Title", 0), DeckCard("Title", 2)]
    assert "Title: at most 2 copies by title (3)" in deck_problems(cards, deck_size=30, starting_xp=None)


@pytest.mark.rule("AH-EXCEPT-2")
def test_ah_except_2_one_copy_of_an_exceptional_card() -> None:
    cards = standard(28) + [DeckCard("Rare", 0, exceptional=True)] * 2
    assert deck_problems(cards, deck_size=30) == ["Rare: exceptional, at most 1 copy (2)"]


@pytest.mark.rule("AH-ASSET-4")
def test_ah_asset_4_story_asset_needs_permission() -> None:
    cards = [*standard(30), DeckCard("Lita Chantler", None, "story")]
    assert deck_problems(cards, deck_size=30) == ["Lita Chantler: a story asset needs a scenario's permission"]
    assert deck_problems(cards, deck_size=30, story_allowed=["Lita Chantler"]) == []


@pytest.mark.rule("AH-DB-5")
def test_ah_db_5_higher_level_cards_need_starting_experience() -> None:
    cards = [*standard(29), DeckCard("Upgrade", 1)]
    assert deck_problems(cards, deck_size=30) == ["higher-level cards cost 1 experience, only 0 to start with"]
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    assert log.set_deck(1, cards, starting_xp=3) == 2


@pytest.mark.rule("AH-XP-4")
def test_ah_xp_4_purchases_respect_the_deckbuilding_options() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(30) + extras(), starting_xp=5)
    with pytest.raises(Rejected, match="mystic cards are outside this investigator's options"):
        log.buy(1, "Book of Shadows", 3, card_class="mystic", remove="Card 0")
    with pytest.raises(Rejected, match="seeker cards only up to level 2"):
        log.buy(1, "Cryptic Research", 4, remove="Card 0")


@pytest.mark.rule("AH-XP-5")
def test_ah_xp_5_a_purchase_keeps_the_deck_size() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(30) + extras(), starting_xp=3)
    with pytest.raises(Rejected, match="name a card to take out"):
        log.buy(1, "Extra Ammunition", 1)
    log.buy(1, "Extra Ammunition", 1, card_class="guardian", remove="Card 0")
    deck = log.deck(1)
    assert deck is not None
    assert sum(1 for c in deck if c.kind == "standard" and not c.permanent) == 30
    assert sum(1 for c in deck if c.title == "Card 0") == 1


@pytest.mark.rule("AH-XP-6")
def test_ah_xp_6_a_weakness_cannot_be_swapped_out() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(30) + extras(), starting_xp=3)
    with pytest.raises(Rejected, match="Amnesia is a weakness card: it cannot be taken out"):
        log.buy(1, "Extra Ammunition", 1, remove="Amnesia")
    assert log.investigator("roland")["xp"] == 3


@pytest.mark.rule("AH-XP-7")
def test_ah_xp_7_upgrade_replaces_the_lower_level() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(28) + [DeckCard("Beat Cop", 0, card_class="guardian")] * 2 + extras(), starting_xp=4)
    assert log.buy(1, "Beat Cop", 2, upgrade_from=0) == 2
    deck = log.deck(1)
    assert deck is not None and sorted(c.level for c in deck if c.title == "Beat Cop") == [0, 2]


@pytest.mark.rule("AH-XP-8")
def test_ah_xp_8_two_copies_two_payments_two_removals() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(30) + extras(), starting_xp=3)
    log.buy(1, "Extra Ammunition", 1, remove="Card 0")
    log.buy(1, "Extra Ammunition", 1, remove="Card 1")
    deck = log.deck(1)
    assert deck is not None and sum(1 for c in deck if c.title == "Extra Ammunition") == 2
    assert log.investigator("roland")["xp"] == 1


@pytest.mark.rule("AH-XP-9")
def test_ah_xp_9_no_free_swaps_unless_the_guide_says_so() -> None:
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(30) + extras())
    with pytest.raises(Rejected, match="only by purchase"):
        log.swap(1, "Card 0", DeckCard("Other", 0, card_class="guardian"))
    log.swap(1, "Card 0", DeckCard("Other", 0, card_class="guardian"), guide=True)
    deck = log.deck(1)
    assert deck is not None and any(c.title == "Other" for c in deck)


@pytest.mark.rule("AH-XP-3")
def test_a_purchase_is_a_card_of_the_card_data() -> None:
    """The title (case aside), level and class of a purchase are the card data's; a misspelt title or
    class is refused with the nearest names, and nothing is paid."""
    log = Campaign.new("night_of_the_zealot", "standard", {1: "roland"})
    log.set_deck(1, standard(30) + extras(), starting_xp=5)
    with pytest.raises(Rejected, match=r"no player card 'Extra Amunition' in the card data .*: Extra Ammunition"):
        log.buy(1, "Extra Amunition", 1, remove="Card 0")
    with pytest.raises(Rejected, match=r"unknown class 'gardian' .*nearest: guardian"):
        log.buy(1, "Extra Ammunition", 1, card_class="gardian", remove="Card 0")
    with pytest.raises(Rejected, match="Beat Cop is level 0 or 2 in the card data, not 1"):
        log.buy(1, "Beat Cop", 1, remove="Card 0")
    with pytest.raises(Rejected, match="Extra Ammunition is a guardian card, not neutral"):
        log.buy(1, "Extra Ammunition", 1, card_class="neutral", remove="Card 0")
    assert log.investigator("roland")["xp"] == 5
    assert log.buy(1, "extra ammunition", 1, remove="Card 0") == 1
    assert log.investigator("roland")["purchases"][-1]["title"] == "Extra Ammunition"
    with pytest.raises(Rejected, match=r"unknown class 'gardian'"):
        log.swap(1, "Card 1", DeckCard("Other", 0, card_class="gardian"), guide=True)
