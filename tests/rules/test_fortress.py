import pytest

from games.rules import Board, IllegalMove

from .helpers import board_from, notations


@pytest.fixture
def fortress() -> Board:
    """Tops 6H, 4H, 5H, 6S, 8H, AD, KD, AC, 2C (3C under it) and an empty t10."""
    return board_from(
        "fortress",
        {
            "t1": "6H",
            "t2": "4H",
            "t3": "5H",
            "t4": "6S",
            "t5": "8H",
            "t6": "AD",
            "t7": "KD",
            "t8": "AC",
            "t9": "3C 2C",
        },
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"),
    )


def refusal(board: Board, move: str) -> str:
    with pytest.raises(IllegalMove) as error:
        board.play(move)
    return str(error.value)


def test_deal_makes_two_piles_of_six_at_the_top_of_each_wing_and_eight_of_five() -> None:
    board = Board("fortress", 1)

    assert [len(pile) for pile in board.tableau] == [6, 5, 5, 5, 5, 6, 5, 5, 5, 5]
    assert board.foundations == ((), (), (), ())
    assert sum(card.rank == 1 for pile in board.tableau for card in pile) == 4


def test_card_builds_on_its_suit_one_rank_down(fortress: Board) -> None:
    fortress.play("t3-t1")  # 5H on 6H

    assert [str(card) for card in fortress.pile("t1")[-2:]] == ["6H", "5H"]


def test_card_builds_on_its_suit_one_rank_up(fortress: Board) -> None:
    fortress.play("t3-t2")  # 5H on 4H

    assert [str(card) for card in fortress.pile("t2")[-2:]] == ["4H", "5H"]


def test_direction_may_change_from_one_move_to_the_next(fortress: Board) -> None:
    fortress.play("t3-t1")  # 5H down onto 6H
    fortress.play("t2-t1")  # 4H down onto 5H
    fortress.play("t1-t10")  # 4H to the empty pile
    fortress.play("t1-t10")  # 5H up onto 4H

    assert [str(card) for card in fortress.pile("t10")] == ["4H", "5H"]


def test_card_of_another_suit_is_refused(fortress: Board) -> None:
    assert refusal(fortress, "t3-t4") == "Piles build by suit: 5H can only go on 6H or 4H"


def test_card_more_than_one_rank_away_is_refused(fortress: Board) -> None:
    assert refusal(fortress, "t3-t5") == "5H can only go on 6H or 4H, one rank up or down"


def test_ace_and_king_do_not_wrap(fortress: Board) -> None:
    message = "Aces and kings do not wrap here: an ace and a king cannot be built together"

    assert refusal(fortress, "t6-t7") == message
    assert refusal(fortress, "t7-t6") == message
    assert refusal(fortress, "t8-t6") == "Piles build by suit: AC can only go on 2C"


def test_any_card_fills_an_empty_pile(fortress: Board) -> None:
    to_empty = [m.source for m in fortress.legal_moves() if m.target == "t10"]

    assert to_empty == [f"t{i}" for i in range(1, 10)]
    fortress.play("t5-t10")
    assert [str(card) for card in fortress.pile("t10")] == ["8H"]


def test_only_an_ace_starts_a_foundation(fortress: Board) -> None:
    assert refusal(fortress, "t9-f1") == "Only an ace can start f1"
    assert fortress.play("t8-f").notation() == "t8-f1"
    assert fortress.play("t6-f").notation() == "t6-f2"


def test_foundation_builds_up_by_suit(fortress: Board) -> None:
    fortress.play("t8-f1")
    fortress.play("t9-f1")
    fortress.play("t9-f1")

    assert [str(card) for card in fortress.pile("f1")] == ["AC", "2C", "3C"]
    assert refusal(fortress, "t3-f1") == "Only clubs go to f1, not 5H"


def test_foundation_ends_at_the_king() -> None:
    board = board_from(
        "fortress",
        {
            "f1": "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC",
            "f2": "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "f3": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "f4": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS",
            "t2": "KC",
        },
    )

    assert notations(board.legal_moves()) == ["t2-f1", *(f"t2-t{i}" for i in [1, *range(3, 11)])]
    board.play("t2-f1")
    assert board.is_won()
    assert board.legal_moves() == []
