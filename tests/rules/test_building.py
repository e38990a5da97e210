"""The building rules one by one: which card goes on which, and the sentence when not."""

import pytest

from games.rules.building import (
    AlternateColourDown,
    AlternateColourUpOrDown,
    Build,
    DownAnySuit,
    OtherSuitDown,
)
from games.rules.cards import ALL_CARDS, Card


def pairs(rule: Build) -> set[tuple[str, str]]:
    return {(str(c), str(o)) for c in ALL_CARDS for o in ALL_CARDS if rule.accepts(c, o)}


def refusal(rule: Build, card: str, onto: str) -> str:
    assert not rule.accepts(Card.from_str(card), Card.from_str(onto))
    return rule.refusal(Card.from_str(card), Card.from_str(onto))


@pytest.mark.parametrize(
    ("card", "onto", "accepted"),
    [("9H", "TS", True), ("9H", "TC", True), ("9S", "TD", True), ("9H", "TD", False),
     ("9H", "TH", False), ("9S", "TC", False), ("9H", "8S", False), ("KH", "AS", False),
     ("AS", "2H", True), ("QC", "KD", True)],
)  # fmt: skip
def test_alternate_colour_down_takes_the_other_colour_one_rank_higher(
    card: str, onto: str, accepted: bool
) -> None:
    assert AlternateColourDown().accepts(Card.from_str(card), Card.from_str(onto)) is accepted


def test_alternate_colour_down_gives_each_card_two_bases_and_kings_none() -> None:
    rule = AlternateColourDown()
    for card in ALL_CARDS:
        bases = [o for o in ALL_CARDS if rule.accepts(card, o)]
        assert len(bases) == (0 if card.rank == 13 else 2), card


def test_alternate_colour_down_says_why_not() -> None:
    rule = AlternateColourDown()
    assert refusal(rule, "9H", "TH") == "Colours alternate: 9H can only go on a black 10, not on TH"
    assert refusal(rule, "8C", "JD") == "8C can only go on a red 9, not on JD"
    assert refusal(rule, "KD", "AS") == "A king can only go to an empty pile or a foundation"


@pytest.mark.parametrize(
    ("card", "onto", "wrap", "accepted"),
    [("9H", "TS", True, True), ("9H", "8C", True, True), ("9H", "TH", True, False),
     ("9H", "8D", True, False), ("9H", "JS", True, False), ("AH", "KS", True, True),
     ("KS", "AD", True, True), ("AH", "KS", False, False), ("KS", "AD", False, False),
     ("AH", "2C", False, True), ("KS", "QH", False, True)],
)  # fmt: skip
def test_alternate_colour_up_or_down_takes_the_other_colour_either_way(
    card: str, onto: str, wrap: bool, accepted: bool
) -> None:
    rule = AlternateColourUpOrDown(wrap=wrap)
    assert rule.accepts(Card.from_str(card), Card.from_str(onto)) is accepted


def test_alternate_colour_up_or_down_says_why_not() -> None:
    assert (
        refusal(AlternateColourUpOrDown(), "9H", "TD")
        == "Colours alternate: 9H can only go on a black 10 or 8"
    )
    assert (
        refusal(AlternateColourUpOrDown(), "9H", "5S")
        == "9H can only go on a black 10 or 8, one rank up or down"
    )
    assert refusal(AlternateColourUpOrDown(), "KH", "TS").startswith(
        "KH can only go on a black ace or queen"
    )
    assert refusal(AlternateColourUpOrDown(wrap=False), "AH", "KS") == (
        "Aces and kings do not wrap here: an ace and a king cannot be built together"
    )


@pytest.mark.parametrize(
    ("card", "onto", "accepted"),
    [("9H", "TS", True), ("9H", "TD", True), ("9H", "TC", True), ("9H", "TH", False),
     ("9H", "8S", False), ("KH", "AS", False)],
)  # fmt: skip
def test_other_suit_down_takes_any_suit_but_its_own(card: str, onto: str, accepted: bool) -> None:
    assert OtherSuitDown().accepts(Card.from_str(card), Card.from_str(onto)) is accepted


def test_other_suit_down_says_why_not() -> None:
    assert (
        refusal(OtherSuitDown(), "9H", "TH")
        == "Not on its own suit: 9H can only go on a 10 of another suit"
    )
    assert refusal(OtherSuitDown(), "9H", "5S") == "A 9 can only go on a 10, not on 5S"


def test_down_any_suit_with_wrap_adds_exactly_king_on_ace() -> None:
    plain, wrapped = pairs(DownAnySuit()), pairs(DownAnySuit(wrap=True))

    assert wrapped - plain == {(f"K{s}", f"A{t}") for s in "CDHS" for t in "CDHS"}
    assert plain <= wrapped
    assert refusal(DownAnySuit(wrap=True), "KH", "2S") == "A king can only go on an ace, not on 2S"
    assert refusal(DownAnySuit(), "KH", "AS") == (
        "A king can only go to an empty pile or a foundation"
    )


def test_down_any_suit_without_wrap_is_the_castle_rule_unchanged() -> None:
    assert DownAnySuit() == DownAnySuit(wrap=False)
    assert pairs(DownAnySuit()) == {
        (str(c), str(o)) for c in ALL_CARDS for o in ALL_CARDS if o.rank == c.rank + 1
    }
