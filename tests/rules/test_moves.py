import pytest

from games.rules import Board, Card, IllegalMove, Move, NotationError

from .helpers import board_from


@pytest.mark.parametrize(
    "text", ["t3-t5", "t3-f2", "t3-f", "t10-t1", "f1-t3", "r:7H-f3", "r:TH-f8", "r:AS-f4"]
)
def test_notation_round_trips(text: str) -> None:
    move = Move.from_notation(text)

    assert move.notation() == text
    assert str(move) == text
    assert Move.from_notation(move.notation()) == move


def test_notation_is_read_case_insensitively_and_written_lower_case() -> None:
    assert Move.from_notation("T3-F2").notation() == "t3-f2"
    assert Move.from_notation("  t3-t5\n") == Move("t3", "t5")


def test_ten_may_be_written_10_in_a_reserve_move() -> None:
    move = Move.from_notation("r:10h-f3")

    assert move == Move("r10", "f3", Card.from_str("TH"))
    assert move.notation() == "r:TH-f3"


def test_reserve_move_names_its_card_and_the_pile_of_its_rank() -> None:
    move = Move.from_notation("r:7H-f3")

    assert (move.source, move.target, move.card) == ("r7", "f3", Card.from_str("7H"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "t3",
        "t3-",
        "-t5",
        "t3 t5",
        "t3--t5",
        "t3-t",
        "x1-t2",
        "t123-t1",
        "t3->t5",
        "r:7H",
        "r:7H-t",
        "3-5",
        "t3-f2-t4",
        "r:-f3",
    ],
)
def test_malformed_move_raises_notation_error_naming_the_text(text: str) -> None:
    with pytest.raises(NotationError) as error:
        Move.from_notation(text)

    assert repr(text) in str(error.value)


def test_reserve_move_with_no_card_raises_notation_error() -> None:
    with pytest.raises(NotationError, match="is not a card"):
        Move.from_notation("r:ZZ-f3")


def test_move_is_a_frozen_hashable_value_whose_repr_rebuilds_it() -> None:
    move = Move.from_notation("t3-f2")

    assert eval(repr(move)) == move
    assert repr(move) == "Move.from_notation('t3-f2')"
    assert len({move, Move("t3", "f2"), Move("t3", "f1")}) == 2
    with pytest.raises(AttributeError):
        move.target = "f1"  # type: ignore[misc]


def test_to_foundation_is_true_for_foundation_targets_only() -> None:
    assert Move.from_notation("t3-f2").to_foundation
    assert Move.from_notation("t3-f").to_foundation
    assert not Move.from_notation("t3-t2").to_foundation


# -- reading moves against a position ----------------------------------------------------


@pytest.fixture
def castle() -> Board:
    """Beleaguered Castle: 2C on t1, 5H on t2 (no foundation takes it), 9S on t3."""
    return board_from(
        "beleaguered-castle",
        {
            "f1": "AC",
            "f2": "AD",
            "f3": "AH",
            "f4": "AS",
            "t1": "2C",
            "t2": "5H",
            "t3": "9S",
            "t4": "KD",
        },
        fill=("t1", "t2", "t3", "t4"),
    )


def test_short_foundation_target_resolves_to_the_one_foundation_that_takes_the_card(
    castle: Board,
) -> None:
    assert castle.parse_move("t1-f") == Move("t1", "f1")
    assert castle.play("t1-f") == Move("t1", "f1")
    assert castle.pile("f1")[-1] == Card.from_str("2C")


def test_short_foundation_target_is_refused_when_no_foundation_takes_the_card(
    castle: Board,
) -> None:
    with pytest.raises(IllegalMove, match=r"^No foundation takes 5H$"):
        castle.parse_move("t2-f")


def test_short_foundation_target_is_refused_when_two_foundations_take_the_card() -> None:
    board = board_from(
        "archway",
        {"f3": "AH", "f7": "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H", "t1": "2H"},
        fill=("t2", "t3", "t4"),
    )

    with pytest.raises(IllegalMove, match=r"^More than one foundation takes 2H$"):
        board.parse_move("t1-f")


def test_short_foundation_target_from_an_empty_pile_is_refused() -> None:
    board = board_from(
        "beleaguered-castle", {"f1": "AC", "f2": "AD", "f3": "AH", "f4": "AS"}, fill=("t1",)
    )

    with pytest.raises(IllegalMove, match=r"^t2 is empty$"):
        board.play("t2-f")
    with pytest.raises(IllegalMove, match=r"^t2 is empty$"):
        board.play("t2-t1")


@pytest.mark.parametrize("text", ["t9-t1", "t1-t9", "t0-t1", "f5-t1", "t1-f5", "r7-f1"])
def test_a_pile_the_game_does_not_have_raises_notation_error_naming_it(
    castle: Board, text: str
) -> None:
    with pytest.raises(NotationError, match="Beleaguered Castle has no pile"):
        castle.play(text)


def test_a_reserve_move_in_a_game_without_reserves_is_a_notation_error(castle: Board) -> None:
    with pytest.raises(NotationError, match="has no pile 'r7'"):
        castle.play("r:7H-f3")


def test_malformed_text_given_to_play_raises_notation_error(castle: Board) -> None:
    with pytest.raises(NotationError, match="'t1 to f1' is not a move"):
        castle.play("t1 to f1")


def test_play_accepts_a_move_value_as_well_as_text(castle: Board) -> None:
    assert castle.play(Move("t1", "f")) == Move("t1", "f1")
    assert castle.ply == 1


def test_a_listed_move_plays_as_its_notation_does_and_a_stale_one_is_refused() -> None:
    """``play`` takes a move ``legal_moves`` listed without parsing it: the same position as
    its notation gives; a move listed in an earlier position is checked like any other."""
    board, twin = Board("beleaguered-castle", 2), Board("beleaguered-castle", 2)
    while (listed := board.legal_moves()) and board.ply < 12:
        move = listed[len(listed) // 2]
        assert board.play(move) is move
        twin.play(move.notation())
        assert board.layout() == twin.layout()
    assert board.ply == 12

    start = Board("beleaguered-castle", 1)
    eight_of_clubs = next(m for m in start.legal_moves() if m.notation() == "t3-t6")
    start.play(eight_of_clubs)
    with pytest.raises(IllegalMove):
        start.play(eight_of_clubs)  # listed before it was played, not now


def test_is_legal_answers_without_raising(castle: Board) -> None:
    assert castle.is_legal(Move("t1", "f1"))
    assert castle.is_legal(Move("t1", "f"))
    assert not castle.is_legal(Move("t2", "f"))
    assert not castle.is_legal(Move("t2", "t3"))
    assert not castle.is_legal(Move("t9", "t3"))


def test_foundation_for_gives_the_move_that_sends_a_pile_top_up(castle: Board) -> None:
    assert castle.foundation_for("t1") == Move("t1", "f1")
    assert castle.foundation_for("t2") is None
    assert castle.foundation_for("t9") is None
