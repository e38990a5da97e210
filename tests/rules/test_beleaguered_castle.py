import pytest

from games.rules import Board, IllegalMove, LayoutError, RulesError

from .helpers import board_from, notations

ACES = {"f1": "AC", "f2": "AD", "f3": "AH", "f4": "AS"}


@pytest.fixture
def castle() -> Board:
    """Tops 9S, TD, 4H, KC, 2C, 8H, QS and an empty t8."""
    return board_from(
        "beleaguered-castle",
        {
            **ACES,
            "t1": "9S",
            "t2": "TD",
            "t3": "4H",
            "t4": "KC",
            "t5": "2C",
            "t6": "8H",
            "t7": "QS",
        },
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7"),
    )


def refusal(board: Board, move: str) -> str:
    """The sentence ``play`` refuses ``move`` with; the position must not change."""
    before = board.layout()
    with pytest.raises(IllegalMove) as error:
        board.play(move)
    assert board.layout() == before, "a refused move changed the position"
    assert error.value.move == move
    return str(error.value)


def test_deal_starts_the_four_foundations_with_the_aces() -> None:
    board = Board("beleaguered-castle", 1)

    assert [[str(card) for card in pile] for pile in board.foundations] == [
        ["AC"],
        ["AD"],
        ["AH"],
        ["AS"],
    ]
    assert board.ply == 0
    assert board.cards_on_foundations == 4


def test_legal_moves_are_listed_by_source_pile_foundation_first(castle: Board) -> None:
    assert notations(castle.legal_moves()) == [
        "t1-t2",
        "t1-t8",
        "t2-t8",
        "t3-t8",
        "t4-t8",
        "t5-f1",
        "t5-t8",
        "t6-t1",
        "t6-t8",
        "t7-t4",
        "t7-t8",
    ]


def test_card_goes_on_a_card_one_rank_higher_of_any_suit(castle: Board) -> None:
    castle.play("t1-t2")  # 9S on TD
    castle.play("t6-t2")  # 8H on 9S

    assert [str(card) for card in castle.pile("t2")[-3:]] == ["TD", "9S", "8H"]
    assert castle.ply == 2


def test_card_not_one_rank_lower_is_refused_with_a_sentence(castle: Board) -> None:
    assert refusal(castle, "t1-t3") == "A 9 can only go on a 10, not on 4H"
    assert refusal(castle, "t6-t7") == "An 8 can only go on a 9, not on QS"
    assert refusal(castle, "t2-t1") == "A 10 can only go on a jack, not on 9S"
    assert refusal(castle, "t7-t2") == "A queen can only go on a king, not on TD"


def test_king_only_moves_to_empty_pile_or_foundation(castle: Board) -> None:
    assert refusal(castle, "t4-t7") == "A king can only go to an empty pile or a foundation"
    castle.play("t4-t8")

    assert [str(card) for card in castle.pile("t8")] == ["KC"]


def test_any_card_may_fill_an_empty_pile(castle: Board) -> None:
    for source in ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]:
        board = castle.copy()
        card = board.pile(source)[-1]
        board.play(f"{source}-t8")
        assert board.pile("t8") == (card,)


def test_a_card_may_not_move_onto_its_own_pile(castle: Board) -> None:
    assert refusal(castle, "t1-t1") == "A card cannot move onto its own pile"


def test_foundations_build_up_by_suit_from_the_ace(castle: Board) -> None:
    assert refusal(castle, "t5-f2") == "Only diamonds go to f2, not 2C"
    assert refusal(castle, "t3-f3") == "f3 takes 2H next, not 4H"

    castle.play("t5-f1")

    assert [str(card) for card in castle.pile("f1")] == ["AC", "2C"]


def test_card_on_a_foundation_stays_there(castle: Board) -> None:
    castle.play("t5-f1")

    assert refusal(castle, "f1-t3") == "A card on a foundation stays there"
    assert refusal(castle, "f1-t8") == "A card on a foundation stays there"
    assert not any(move.source.startswith("f") for move in castle.legal_moves())


def test_beleaguered_fortress_is_the_same_game_under_another_name() -> None:
    fortress = Board("beleaguered-fortress", 5)
    castle = Board("beleaguered-castle", 5)

    assert fortress.rules is castle.rules
    assert fortress.legal_moves() == castle.legal_moves()


# -- the take-back easing option ----------------------------------------------------------


def take_back_board(options: tuple[str, ...] = ("take-back",)) -> Board:
    return board_from(
        "beleaguered-castle",
        {"f1": "AC 2C 3C", "f2": "AD", "f3": "AH", "f4": "AS", "t1": "4D", "t2": "KS"},
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7"),
        options=options,
    )


def test_take_back_lets_a_foundation_top_return_to_the_tableau() -> None:
    board = take_back_board()

    assert "f1-t1" in notations(board.legal_moves())
    board.play("f1-t1")

    assert [str(card) for card in board.pile("f1")] == ["AC", "2C"]
    assert str(board.pile("t1")[-1]) == "3C"
    assert board.ply == 1


def test_take_back_may_fill_an_empty_pile() -> None:
    board = take_back_board()

    assert "f1-t8" in notations(board.legal_moves())
    board.play("f1-t8")

    assert [str(card) for card in board.pile("t8")] == ["3C"]


def test_take_back_never_moves_the_dealt_ace() -> None:
    board = take_back_board()
    board.play("f1-t1")  # 3C onto 4D
    board.play("f1-t8")  # 2C to the empty pile

    assert not any(move.source == "f1" for move in board.legal_moves())
    assert refusal(board, "f1-t7") == "The card that starts a foundation stays there"
    assert [str(card) for card in board.pile("f1")] == ["AC"]


def test_take_back_is_off_by_default() -> None:
    board = take_back_board(options=())

    assert "f1-t1" not in notations(board.legal_moves())
    assert refusal(board, "f1-t1") == "A card on a foundation stays there"


def test_take_back_moves_are_undone_like_any_other() -> None:
    board = take_back_board()
    before = board.layout()
    board.play("f1-t1")

    assert board.undo().notation() == "f1-t1"
    assert board.layout() == before


def test_take_back_is_written_in_the_layout_text() -> None:
    board = Board("beleaguered-castle", 1, options={"take-back"})

    assert "option: take-back\n" in board.layout()
    assert Board.from_layout(board.layout()).options == frozenset({"take-back"})


@pytest.mark.parametrize("game", ["beleaguered-castle", "citadel", "streets-and-alleys"])
def test_unknown_option_raises_rules_error_naming_it(game: str) -> None:
    with pytest.raises(RulesError, match="has no option 'no-such-ease'"):
        Board(game, 1, options={"no-such-ease"})


def test_unknown_option_in_a_layout_raises_layout_error() -> None:
    text = Board("beleaguered-castle", 1).layout().replace("deal: 1\n", "deal: 1\noption: x\n")

    with pytest.raises(LayoutError, match="no option 'x'"):
        Board.from_layout(text)


# -- winning and getting stuck --------------------------------------------------------------


def test_game_is_won_when_every_card_is_on_the_foundations() -> None:
    board = board_from(
        "beleaguered-castle",
        {
            "f1": "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
            "f2": "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
            "f3": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "f4": "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
            "t3": "KS",
        },
    )

    assert not board.is_won()
    assert not board.is_stuck()
    board.play("t3-f4")

    assert board.is_won()
    assert board.cards_on_foundations == 52
    assert not board.is_stuck()
    assert not board.is_cycle_stuck()
    assert board.legal_moves() == []


def test_win_is_recognised_right_after_the_deal() -> None:
    board = board_from(
        "beleaguered-castle",
        {f"f{k + 1}": " ".join(r + s for r in "A23456789TJQK") for k, s in enumerate("CDHS")},
    )

    assert board.ply == 0
    assert board.is_won()


@pytest.fixture
def stuck() -> Board:
    """No two tops one rank apart, no 2 on top, no empty pile: nothing can move."""
    return board_from(
        "beleaguered-castle",
        {
            **ACES,
            "t1": "KC",
            "t2": "JC",
            "t3": "9C",
            "t4": "7C",
            "t5": "5C",
            "t6": "3C",
            "t7": "KD",
            "t8": "JD",
        },
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"),
    )


def test_position_with_no_legal_move_is_strictly_stuck(stuck: Board) -> None:
    assert stuck.legal_moves() == []
    assert stuck.is_stuck()
    assert stuck.is_cycle_stuck()


@pytest.fixture
def shuttle() -> Board:
    """The only move is 5H from 6C onto 6S, and then back again."""
    return board_from(
        "beleaguered-castle",
        {
            **ACES,
            "t1": "6C 5H",
            "t2": "6S",
            "t3": "KC",
            "t4": "JC",
            "t5": "9C",
            "t6": "3C",
            "t7": "KD",
            "t8": "JD",
        },
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"),
    )


def test_position_whose_only_moves_return_to_seen_positions_is_cycle_stuck(
    shuttle: Board,
) -> None:
    assert notations(shuttle.legal_moves()) == ["t1-t2"]
    assert not shuttle.is_cycle_stuck()

    shuttle.play("t1-t2")

    assert notations(shuttle.legal_moves()) == ["t2-t1"]
    assert not shuttle.is_stuck()
    assert shuttle.is_cycle_stuck()


def test_undo_makes_the_shuttle_move_new_again(shuttle: Board) -> None:
    shuttle.play("t1-t2")
    shuttle.undo()

    assert not shuttle.is_cycle_stuck()


def test_positions_seen_run_from_the_deal_through_every_move(shuttle: Board) -> None:
    start = shuttle.position_key()
    shuttle.play("t1-t2")
    middle = shuttle.position_key()
    shuttle.play("t2-t1")

    assert list(shuttle.positions_seen()) == [start, middle, start]
    assert shuttle.position_key() == start


def test_a_foundation_move_always_leads_to_a_new_position() -> None:
    board = board_from(
        "beleaguered-castle",
        {**ACES, "t1": "6C 5H", "t2": "6S", "t3": "2C", "t4": "JC", "t5": "9C", "t6": "KH"}
        | {"t7": "KD", "t8": "JD"},
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"),
    )
    board.play("t1-t2")

    assert notations(board.legal_moves()) == ["t2-t1", "t3-f1"]
    assert not board.is_cycle_stuck()


def test_copy_is_independent_of_the_original(castle: Board) -> None:
    copy = castle.copy()
    copy.play("t1-t2")

    assert castle.ply == 0
    assert castle.pile("t1") != copy.pile("t1")
    assert copy.move_stack == [castle.parse_move("t1-t2")]
    assert castle.copy(stack=False).ply == 0


def test_copy_without_its_stack_starts_its_line_at_the_copied_position(castle: Board) -> None:
    castle.play("t1-t2")
    copy = castle.copy(stack=False)

    assert copy.ply == 0
    assert copy.layout() == castle.layout()
    assert list(copy.positions_seen()) == [castle.position_key()]


def test_repr_names_game_deal_and_ply() -> None:
    board = Board("citadel", 7)
    board.play(board.legal_moves()[0])

    assert repr(board) == "<Board citadel deal 7, ply 1>"
