import pytest

from games.rules import Board, IllegalMove, LayoutError

from .helpers import board_from


@pytest.fixture
def chessboard() -> Board:
    """Foundations empty; tops 7H, 8C, 7C, AH, KH, 7D and an empty t10."""
    return board_from(
        "chessboard",
        {
            "t1": "7H",
            "t2": "8C",
            "t3": "7C",
            "t4": "AH",
            "t5": "KH",
            "t6": "7D",
            "t7": "QS",
            "t8": "5D",
            "t9": "JC",
        },
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"),
    )


def cards(pile: tuple[object, ...]) -> list[str]:
    return [str(card) for card in pile]


def test_chessboard_is_dealt_like_fortress() -> None:
    assert Board("chessboard", 1).tableau == Board("fortress", 1).tableau


def test_base_rank_is_none_before_any_foundation_move(chessboard: Board) -> None:
    assert chessboard.base_rank is None


def test_any_card_may_start_its_suits_foundation_before_the_base_is_fixed(
    chessboard: Board,
) -> None:
    to_foundations = {m.notation() for m in chessboard.legal_moves() if m.to_foundation}

    assert to_foundations == {
        "t1-f3",
        "t2-f1",
        "t3-f1",
        "t4-f3",
        "t5-f3",
        "t6-f2",
        "t7-f4",
        "t8-f2",
        "t9-f1",
    }


def test_first_player_move_to_a_foundation_fixes_the_base_rank(chessboard: Board) -> None:
    chessboard.play("t1-f3")  # 7H

    assert chessboard.base_rank == 7
    assert chessboard.play("t3-f").notation() == "t3-f1"  # 7C
    assert chessboard.play("t6-f").notation() == "t6-f2"  # 7D


def test_empty_foundation_then_takes_only_the_base_rank_of_its_suit(chessboard: Board) -> None:
    chessboard.play("t1-f3")

    with pytest.raises(
        IllegalMove, match=r"^Only a card of the base rank 7 can start a foundation$"
    ):
        chessboard.play("t9-f1")  # JC
    with pytest.raises(IllegalMove, match=r"^Only clubs go to f1, not 5D$"):
        chessboard.play("t8-f1")


def test_undoing_the_first_foundation_move_frees_the_base(chessboard: Board) -> None:
    chessboard.play("t1-f3")
    chessboard.undo()

    assert chessboard.base_rank is None
    chessboard.play("t9-f1")  # JC
    assert chessboard.base_rank == 11


def test_base_rank_is_read_from_the_position() -> None:
    board = board_from("chessboard", {"f2": "QD KD", "t1": "9S"}, fill=("t1", "t2", "t3"))

    assert board.base_rank == 12


def test_foundations_build_up_by_suit_and_wrap_from_king_to_ace() -> None:
    board = board_from(
        "chessboard",
        {"f3": "7H 8H 9H TH JH QH KH", "t1": "AH", "t2": "3H 2H", "t3": "5H"},
        fill=("t1", "t2", "t3"),
    )

    board.play("t1-f3")
    board.play("t2-f3")
    assert cards(board.pile("f3"))[-3:] == ["KH", "AH", "2H"]
    assert Board.from_layout(board.layout()).layout() == board.layout()
    with pytest.raises(IllegalMove, match=r"^f3 takes 3H next, not 5H$"):
        board.play("t3-f3")


def test_foundation_is_complete_with_13_cards_ending_below_the_base() -> None:
    board = board_from(
        "chessboard",
        {
            "f1": "7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C 6C",
            "f2": "7D 8D 9D TD JD QD KD AD 2D 3D 4D 5D 6D",
            "f3": "7H 8H 9H TH JH QH KH AH 2H 3H 4H 5H",
            "f4": "7S 8S 9S TS JS QS KS AS 2S 3S 4S 5S 6S",
            "t4": "6H",
        },
    )

    assert [m.notation() for m in board.legal_moves() if m.to_foundation] == ["t4-f3"]
    board.play("t4-f3")
    assert len(board.pile("f3")) == 13
    assert board.is_won()


def test_tableau_builds_by_suit_up_or_down_and_wraps_both_ways(chessboard: Board) -> None:
    king_on_ace = chessboard.copy()
    king_on_ace.play("t5-t4")  # KH on AH
    assert cards(king_on_ace.pile("t4")[-2:]) == ["AH", "KH"]

    chessboard.play("t4-t5")  # AH on KH
    assert cards(chessboard.pile("t5")[-2:]) == ["KH", "AH"]


def test_tableau_still_builds_by_suit(chessboard: Board) -> None:
    with pytest.raises(IllegalMove, match=r"^Piles build by suit: 8C can only go on 9C or 7C$"):
        chessboard.play("t2-t6")
    chessboard.play("t2-t3")  # 8C on 7C
    chessboard.play("t1-t10")  # any card fills an empty pile
    assert cards(chessboard.pile("t10")) == ["7H"]


def test_layout_with_foundations_of_different_base_ranks_is_refused() -> None:
    with pytest.raises(LayoutError, match=r"^every foundation must start from the same base rank$"):
        board_from("chessboard", {"f1": "JC", "f2": "9D"}, fill=("t1", "t2"))
