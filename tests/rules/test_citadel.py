import pytest

from games.rules import Board, IllegalMove, Move, RulesError

from .helpers import board_from, golden_layout, notations


@pytest.fixture
def deal_1() -> Board:
    return Board("citadel", 1)


def cards(pile: tuple[object, ...]) -> list[str]:
    return [str(card) for card in pile]


def test_cards_that_fit_go_up_while_the_deal_is_made(deal_1: Board) -> None:
    assert [cards(pile) for pile in deal_1.foundations] == [
        ["AC", "2C"],
        ["AD", "2D", "3D"],
        ["AH", "2H"],
        ["AS", "2S", "3S", "4S"],
    ]


def test_a_card_sent_up_uses_its_piles_turn(deal_1: Board) -> None:
    """Castle deal 1 lays 2D first on t2: in Citadel it goes up and t2 starts with KC."""
    castle = Board("beleaguered-castle", 1)

    assert cards(castle.pile("t2")) == ["2D", "KC", "9D", "4H", "2C", "3D"]
    assert cards(deal_1.pile("t2")) == ["KC", "9D", "4H"]
    assert cards(deal_1.pile("t3")) == cards(castle.pile("t3"))


def test_deal_time_plays_are_not_moves(deal_1: Board) -> None:
    assert deal_1.ply == 0
    assert deal_1.move_stack == []
    assert deal_1.cards_on_foundations == 11
    with pytest.raises(IllegalMove, match="There is no move to undo"):
        deal_1.undo()


def test_deal_time_plays_belong_to_the_initial_layout(deal_1: Board) -> None:
    assert deal_1.initial_layout.foundations == deal_1.foundations
    assert Board.from_layout(golden_layout("citadel", 1)).position_key() == deal_1.position_key()


def test_undoing_every_move_returns_to_the_dealt_foundations(deal_1: Board) -> None:
    foundations = deal_1.foundations
    for move in ["t7-t6", "t7-t1", "t7-f3"]:  # 8D on 9C, 5C on 6C, 3H up
        deal_1.play(move)
    assert deal_1.cards_on_foundations == 12
    while deal_1.ply:
        deal_1.undo()

    assert deal_1.foundations == foundations
    with pytest.raises(IllegalMove):
        deal_1.undo()


def test_piles_end_the_deal_with_zero_to_six_cards() -> None:
    for number in range(1, 301):
        assert all(0 <= len(pile) <= 6 for pile in Board("citadel", number).tableau)
    assert Board("citadel", 12322).pile("t7") == ()


def test_play_after_the_deal_is_beleaguered_castle(deal_1: Board) -> None:
    """Build down regardless of suit, one card at a time, kings only to empty piles."""
    deal_1.play("t3-t6")  # 8C on 9C

    with pytest.raises(IllegalMove, match="An 8 can only go on a 9, not on 4H"):
        deal_1.play("t6-t2")
    assert deal_1.ply == 1
    assert cards(deal_1.pile("t6")[-2:]) == ["9C", "8C"]


def test_an_empty_pile_from_the_deal_takes_any_card() -> None:
    board = Board("citadel", 12322)

    assert {move.notation() for move in board.legal_moves() if move.target == "t7"} == {
        f"t{i}-t7" for i in (1, 2, 3, 4, 5, 6, 8)
    }
    board.play("t3-t7")
    assert cards(board.pile("t7")) == ["7H"]


def test_card_fitting_its_foundation_goes_up_in_play() -> None:
    board = board_from(
        "citadel",
        {"f1": "AC 2C", "f2": "AD", "f3": "AH", "f4": "AS", "t1": "3C", "t2": "2H"},
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"),
    )

    assert board.play("t1-f") == Move("t1", "f1")
    assert board.play("t2-f") == Move("t2", "f3")
    assert notations(board.move_stack) == ["t1-f1", "t2-f3"]


def test_citadel_has_no_options() -> None:
    with pytest.raises(RulesError, match="Citadel has no option"):
        Board("citadel", 1, options={"take-back"})
