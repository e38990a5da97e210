import pickle

import pytest

from games.rules import Card, NotationError
from games.rules.cards import ALL_CARDS, CLUBS, HEARTS, SPADES, next_rank, parse_cards


def test_every_card_round_trips_its_text() -> None:
    for card in ALL_CARDS:
        assert Card.from_str(str(card)) is card


def test_a_deck_holds_52_distinct_cards() -> None:
    assert len(ALL_CARDS) == 52
    assert len(set(ALL_CARDS)) == 52
    assert {str(card) for card in ALL_CARDS} == {r + s for r in "A23456789TJQK" for s in "CDHS"}


def test_ten_is_written_t_and_10_is_accepted_on_input() -> None:
    ten = Card.from_str("10H")

    assert ten is Card.from_str("TH")
    assert str(ten) == "TH"


@pytest.mark.parametrize("text", ["th", " TH ", "Th", "10h"])
def test_card_text_ignores_case_and_surrounding_space(text: str) -> None:
    assert Card.from_str(text) is Card.from_str("TH")


@pytest.mark.parametrize("text", ["", "1H", "0S", "11C", "TX", "ZH", "AAH", "H", "10", "T H"])
def test_malformed_card_raises_notation_error_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Card.from_str(text)

    assert repr(text) in str(error.value)


def test_card_knows_rank_suit_colour_and_name() -> None:
    queen = Card.from_str("QH")

    assert (queen.rank, queen.suit, queen.is_red, queen.name) == (
        12,
        HEARTS,
        True,
        "Queen of hearts",
    )
    assert Card.from_str("AS").name == "Ace of spades"
    assert not Card.from_str("7C").is_red
    assert Card.from_str("7D").is_red


def test_constructor_interns_cards_by_rank_and_suit() -> None:
    assert Card(10, HEARTS) is Card.from_str("TH")
    assert Card(1, CLUBS) is Card.from_str("AC")
    assert Card(13, SPADES) is Card.from_str("KS")


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (14, 0), (1, 4), (1, -1), (-3, 2)])
def test_constructor_rejects_impossible_rank_or_suit(rank: int, suit: int) -> None:
    with pytest.raises(NotationError, match="no card has rank"):
        Card(rank, suit)


def test_repr_shows_how_to_rebuild_the_card() -> None:
    card = Card.from_str("9D")

    assert repr(card) == "Card.from_str('9D')"
    assert eval(repr(card)) is card


def test_cards_pickle_back_to_the_interned_value() -> None:
    for card in ALL_CARDS:
        assert pickle.loads(pickle.dumps(card)) is card


def test_card_code_is_rank_times_four_plus_suit_and_round_trips() -> None:
    for card in ALL_CARDS:
        assert int(card) == card.rank * 4 + card.suit
        assert Card.from_code(int(card)) is card


@pytest.mark.parametrize("code", [-1, 0, 56])
def test_from_code_rejects_codes_that_name_no_card(code: int) -> None:
    with pytest.raises(NotationError):
        Card.from_code(code)


def test_cards_order_by_rank_then_suit() -> None:
    assert sorted(parse_cards("KS 2D AC 2C TH")) == parse_cards("AC 2C 2D TH KS")


def test_next_rank_wraps_king_and_ace_only_when_told() -> None:
    assert next_rank(12, 1, wrap=False) == 13
    assert next_rank(13, 1, wrap=False) is None
    assert next_rank(1, -1, wrap=False) is None
    assert next_rank(13, 1, wrap=True) == 1
    assert next_rank(1, -1, wrap=True) == 13
    assert next_rank(7, -1, wrap=True) == 6


def test_parse_cards_reads_white_space_separated_cards() -> None:
    assert parse_cards(" AC\t2C  10H\n") == [
        Card.from_str("AC"),
        Card.from_str("2C"),
        Card.from_str("TH"),
    ]
    assert parse_cards("") == []


def test_parse_cards_names_the_bad_word() -> None:
    with pytest.raises(NotationError, match="'XX'"):
        parse_cards("AC XX 2C")
