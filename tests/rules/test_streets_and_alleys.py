import pytest

from games.rules import Board, IllegalMove, Move, RulesError

from .helpers import board_from, notations


@pytest.fixture
def streets() -> Board:
    """Foundations empty; tops AC, 2C, KH, 3H, 2D, KS, KD, KC."""
    return board_from(
        "streets-and-alleys",
        {
            "t1": "AC",
            "t2": "2C",
            "t3": "KH",
            "t4": "3H",
            "t5": "2D",
            "t6": "KS",
            "t7": "KD",
            "t8": "KC",
        },
        fill=("t6", "t7", "t8"),
    )


def test_deal_leaves_the_foundations_empty_and_the_aces_in_the_piles() -> None:
    board = Board("streets-and-alleys", 1)

    assert board.foundations == ((), (), (), ())
    assert board.cards_on_foundations == 0
    assert sum(card.rank == 1 for pile in board.tableau for card in pile) == 4
    assert [len(pile) for pile in board.tableau] == [7, 7, 7, 7, 6, 6, 6, 6]


def test_an_empty_foundation_takes_the_ace_of_its_suit(streets: Board) -> None:
    assert "t1-f1" in notations(streets.legal_moves())
    assert streets.play("t1-f") == Move("t1", "f1")
    assert [str(card) for card in streets.pile("f1")] == ["AC"]


def test_an_empty_foundation_takes_only_an_ace(streets: Board) -> None:
    with pytest.raises(IllegalMove, match=r"^Only an ace can start f[1-4]$"):
        streets.play("t2-f1")
    with pytest.raises(IllegalMove, match=r"^No foundation takes 2C$"):
        streets.play("t2-f")


def test_each_suit_has_its_own_foundation(streets: Board) -> None:
    with pytest.raises(IllegalMove, match=r"^Only diamonds go to f2, not AC$"):
        streets.play("t1-f2")
    assert [m.notation() for m in streets.legal_moves() if m.to_foundation] == ["t1-f1"]


def test_foundation_builds_up_by_suit_once_started(streets: Board) -> None:
    streets.play("t1-f1")
    streets.play("t2-f1")

    assert [str(card) for card in streets.pile("f1")] == ["AC", "2C"]
    with pytest.raises(IllegalMove, match=r"^Only an ace can start f[1-4]$"):
        streets.play("t5-f2")


def test_nothing_goes_on_an_ace(streets: Board) -> None:
    with pytest.raises(IllegalMove, match=r"^A 2 can only go on a 3, not on AC$"):
        streets.play("t2-t1")
    with pytest.raises(IllegalMove, match=r"^A king can only go to an empty pile"):
        streets.play("t3-t1")
    assert not [m for m in streets.legal_moves() if m.target == "t1"]


def test_an_ace_may_be_built_on_a_2_of_any_suit(streets: Board) -> None:
    streets.play("t1-t5")

    assert [str(card) for card in streets.pile("t5")[-2:]] == ["2D", "AC"]


def test_tableau_builds_down_regardless_of_suit(streets: Board) -> None:
    streets.play("t2-t4")  # 2C on 3H
    streets.play("t1-t4")  # AC on 2C

    assert [str(card) for card in streets.pile("t4")[-3:]] == ["3H", "2C", "AC"]
    with pytest.raises(IllegalMove, match=r"^A 2 can only go on a 3, not on KH$"):
        streets.play("t5-t3")


def test_streets_and_alleys_has_no_options() -> None:
    with pytest.raises(RulesError, match="has no option 'take-back'"):
        Board("streets-and-alleys", 1, options={"take-back"})
