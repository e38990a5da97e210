from collections import Counter

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from games.rules import MAX_DEAL, BadDealNumber, Board, deal, get_game
from games.rules.cards import ALL_CARDS

from .helpers import GAME_SLUGS, all_cards, golden_layout

GOLDEN_DEALS = [1, 2, 31999, 32000, 123456789]
HUGE_DEALS = [32001, 10**12 + 7, 2**63 - 1]
PYSOL_IDS = {
    "beleaguered-castle": "beleaguered_castle",
    "citadel": "citadel",
    "streets-and-alleys": "streets_and_alleys",
}


@pytest.mark.parametrize("number", GOLDEN_DEALS)
@pytest.mark.parametrize("game", GAME_SLUGS)
def test_deal_matches_its_pinned_layout_forever(game: str, number: int) -> None:
    assert Board(game, number).layout() == golden_layout(game, number)


@pytest.mark.parametrize("number", GOLDEN_DEALS)
def test_beleaguered_fortress_is_another_name_for_beleaguered_castle(number: int) -> None:
    assert get_game("beleaguered-fortress") is get_game("beleaguered-castle")
    assert Board("beleaguered-fortress", number).layout() == golden_layout(
        "beleaguered-castle", number
    )


def pysol_layout(game: str, number: int) -> tuple[list[list[str]], dict[str, str]]:
    """pysol_cards' own layout: its eight columns and the top rank of each foundation."""
    text = Game(PYSOL_IDS[game], number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True)
    )
    lines = text.splitlines()
    foundations: dict[str, str] = {}
    if lines[0].startswith("Foundations:"):
        for word in lines.pop(0).split()[1:]:
            suit, rank = word.split("-")
            foundations[suit] = rank
    return [line.split() for line in lines], foundations


def our_layout(game: str, number: int) -> tuple[list[list[str]], dict[str, str]]:
    board = Board(game, number)
    columns = [[str(card) for card in pile] for pile in board.tableau]
    foundations = {"CDHS"[k]: str(pile[-1])[0] for k, pile in enumerate(board.foundations) if pile}
    return columns, foundations


@pytest.mark.parametrize("game", list(PYSOL_IDS))
def test_pysolfc_games_deal_exactly_as_pysolfc_numbers_them(game: str) -> None:
    for number in [*range(1, 301), 31999, 32000, *HUGE_DEALS]:
        assert our_layout(game, number) == pysol_layout(game, number), f"deal {number}"


@pytest.mark.parametrize("number", [0, -1, 2**63, 10**30, True, False, "5", 5.0, None])
@pytest.mark.parametrize("game", GAME_SLUGS)
def test_deal_number_outside_1_to_2_63_minus_1_is_refused(game: str, number: object) -> None:
    with pytest.raises(BadDealNumber, match="deal number"):
        Board(game, number)  # type: ignore[arg-type]
    with pytest.raises(BadDealNumber):
        deal(get_game(game), number)  # type: ignore[arg-type]


def test_largest_deal_number_fits_a_signed_64_bit_integer() -> None:
    assert MAX_DEAL == 2**63 - 1
    assert Board("citadel", MAX_DEAL).deal_number == MAX_DEAL


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_same_game_and_deal_number_always_give_the_same_layout(game: str) -> None:
    for number in [7, 40000, MAX_DEAL]:
        assert deal(get_game(game), number) == deal(get_game(game), number)
        assert Board(game, number).layout() == Board(game, number).layout()


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_different_deal_numbers_give_different_layouts(game: str) -> None:
    layouts = {Board(game, number).layout().split("\n", 2)[2] for number in range(1, 51)}
    assert len(layouts) == 50


@pytest.mark.parametrize("game", GAME_SLUGS)
def test_every_deal_holds_every_card_once_per_deck(game: str) -> None:
    rules = get_game(game)
    for number in [*range(1, 41), *HUGE_DEALS]:
        assert all_cards(Board(game, number)) == Counter(
            {card: rules.decks for card in ALL_CARDS}
        ), f"deal {number}"


def sizes(board: Board) -> list[int]:
    return [len(pile) for pile in board.tableau]


@pytest.mark.parametrize("number", [*range(1, 31), *HUGE_DEALS])
def test_beleaguered_castle_deals_eight_piles_of_six_beside_the_aces(number: int) -> None:
    board = Board("beleaguered-castle", number)

    assert sizes(board) == [6] * 8
    assert [list(map(str, pile)) for pile in board.foundations] == [["AC"], ["AD"], ["AH"], ["AS"]]


@pytest.mark.parametrize("number", [*range(1, 31), *HUGE_DEALS])
def test_streets_and_alleys_deals_seven_on_the_left_wing_six_on_the_right(number: int) -> None:
    board = Board("streets-and-alleys", number)

    assert sizes(board) == [7, 7, 7, 7, 6, 6, 6, 6]
    assert board.foundations == ((), (), (), ())


def test_streets_and_alleys_keeps_the_aces_in_the_deal() -> None:
    board = Board("streets-and-alleys", 1)

    aces = [str(card) for pile in board.tableau for card in pile if card.rank == 1]
    assert sorted(aces) == ["AC", "AD", "AH", "AS"]


@pytest.mark.parametrize("game", ["fortress", "chessboard"])
@pytest.mark.parametrize("number", [*range(1, 31), *HUGE_DEALS])
def test_fortress_deals_two_piles_of_six_at_the_wing_tops_and_eight_of_five(
    game: str, number: int
) -> None:
    board = Board(game, number)

    assert sizes(board) == [6, 5, 5, 5, 5, 6, 5, 5, 5, 5]
    assert board.foundations == ((), (), (), ())


@pytest.mark.parametrize("number", [1, 2, 31999, 32000, *HUGE_DEALS])
def test_chessboard_is_dealt_exactly_like_fortress(number: int) -> None:
    assert Board("chessboard", number).tableau == Board("fortress", number).tableau


@pytest.mark.parametrize("number", [*range(1, 31), *HUGE_DEALS])
def test_archway_deals_four_central_piles_of_twelve_and_an_arch_by_rank(number: int) -> None:
    board = Board("archway", number)

    assert sizes(board) == [12] * 4
    assert [list(map(str, pile)) for pile in board.foundations] == [
        ["AC"],
        ["AD"],
        ["AH"],
        ["AS"],
        ["KC"],
        ["KD"],
        ["KH"],
        ["KS"],
    ]
    assert len(board.reserves) == 13
    assert sum(len(pile) for pile in board.reserves) == 48
    for rank, pile in enumerate(board.reserves, 1):
        assert all(card.rank == rank for card in pile), f"r{rank}"


def test_archway_reserve_pile_may_be_empty() -> None:
    assert Board("archway", 1).pile("r8") == ()


# -- Citadel's deal ---------------------------------------------------------------------


@pytest.mark.parametrize("number", [*range(1, 201), *HUGE_DEALS])
def test_citadel_deals_the_castle_deal_minus_the_cards_sent_up(number: int) -> None:
    """Each card that fits goes up instead of onto its pile, whose turn is used up: so
    every Citadel pile is its Beleaguered Castle pile with the cards that went up left out."""
    castle = Board("beleaguered-castle", number)
    citadel = Board("citadel", number)
    went_up = {card for pile in citadel.foundations for card in pile[1:]}

    for ours, theirs in zip(citadel.tableau, castle.tableau, strict=True):
        assert list(ours) == [card for card in theirs if card not in went_up]
        assert 0 <= len(ours) <= 6
    for suit, pile in enumerate(citadel.foundations):
        assert [card.rank for card in pile] == list(range(1, len(pile) + 1))
        assert all(card.suit == suit for card in pile)


def test_citadel_pile_may_end_the_deal_empty() -> None:
    board = Board("citadel", 12322)

    assert board.pile("t7") == ()
    assert [len(pile) for pile in board.tableau] == [6, 4, 4, 6, 6, 4, 0, 6]


def test_citadel_tests_only_the_card_being_dealt() -> None:
    """Deal 32000: 4C lies in t4 before 3C goes up, and stays there."""
    board = Board("citadel", 32000)

    assert [str(card) for card in board.pile("f1")] == ["AC", "2C", "3C"]
    assert "4C" in [str(card) for card in board.pile("t4")]
