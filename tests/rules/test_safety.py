import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import Board

from .helpers import GAME_SLUGS, board_from, notations, played_boards

CASTLE_FILL = ("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8")


def castle(game: str, piles: dict[str, str]) -> Board:
    """A castle-family position; unnamed piles get queens and kings on top, out of the way."""
    tops = {"t2": "QC", "t3": "QD", "t4": "QH", "t5": "KC", "t6": "KD", "t7": "KH", "t8": "KS"}
    return board_from(game, tops | piles, fill=CASTLE_FILL)


# -- Beleaguered Castle, Citadel, Streets and Alleys --------------------------------------


@pytest.mark.parametrize("game", ["beleaguered-castle", "citadel"])
def test_card_goes_up_only_when_every_card_one_rank_lower_is_up(game: str) -> None:
    board = castle(
        game,
        {"f1": "AC", "f2": "AD 2D", "f3": "AH 2H", "f4": "AS", "t1": "2C", "t2": "3D", "t3": "2S"},
    )

    assert {"t1-f1", "t2-f2", "t3-f4"} <= set(notations(board.legal_moves()))
    assert notations(board.safe_moves()) == ["t1-f1", "t3-f4"]  # 3D waits for 2C and 2S


@pytest.mark.parametrize("game", ["beleaguered-castle", "citadel"])
def test_card_whose_lower_neighbours_are_all_up_is_safe(game: str) -> None:
    board = castle(
        game,
        {"f1": "AC 2C", "f2": "AD 2D", "f3": "AH 2H", "f4": "AS 2S", "t1": "4C 3C", "t2": "3D"},
    )

    assert notations(board.safe_moves()) == ["t1-f1", "t2-f2"]


def test_autoplay_chains_safe_moves_and_counts_each_one() -> None:
    board = castle(
        "beleaguered-castle",
        {"f1": "AC 2C", "f2": "AD 2D 3D", "f3": "AH 2H 3H", "f4": "AS 2S 3S", "t1": "5C 4C 3C"},
    )
    before = board.layout()

    assert notations(board.autoplay()) == ["t1-f1", "t1-f1"]  # 3C, then 4C (all 3s up)
    assert board.ply == 2
    assert str(board.pile("t1")[-1]) == "5C"  # 4D is not up: 5C must wait
    assert notations(board.move_stack) == ["t1-f1", "t1-f1"]

    board.undo()
    assert board.ply == 1
    assert str(board.pile("f1")[-1]) == "3C"
    board.undo()
    assert board.layout() == before


def test_autoplay_with_nothing_safe_plays_nothing() -> None:
    board = castle(
        "beleaguered-castle", {"f1": "AC", "f2": "AD", "f3": "AH", "f4": "AS", "t1": "5C"}
    )
    before = board.layout()
    assert board.legal_moves() != []

    assert board.autoplay() == []
    assert board.ply == 0
    assert board.layout() == before


def test_aces_are_always_safe() -> None:
    board = castle("streets-and-alleys", {"t1": "AC", "t2": "AD"})

    assert notations(board.safe_moves()) == ["t1-f1", "t2-f2"]


def test_streets_and_alleys_sends_a_2_up_only_when_every_ace_is_up() -> None:
    board = castle("streets-and-alleys", {"f1": "AC", "t1": "2C", "t2": "AD"})

    assert notations(board.safe_moves()) == ["t2-f2"]
    assert notations(board.autoplay()) == ["t2-f2"]


def test_safe_moves_never_take_back_a_foundation_card() -> None:
    board = board_from(
        "beleaguered-castle",
        {"f1": "AC 2C", "f2": "AD", "f3": "AH", "f4": "AS", "t1": "3D"},
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7"),
        options=("take-back",),
    )

    assert "f1-t1" in notations(board.legal_moves())
    assert all(not move.source.startswith("f") for move in board.safe_moves())


# -- Fortress and Chessboard ----------------------------------------------------------------


def test_fortress_sends_up_any_card_that_fits() -> None:
    board = board_from(
        "fortress",
        {
            "f1": "AC",
            "t1": "4C 3C 2C",
            "t2": "AH",
            "t3": "9D",
            "t4": "KS",
            "t5": "KD",
            "t6": "KH",
            "t7": "QS",
            "t8": "QD",
            "t9": "QH",
            "t10": "JS",
        },
        fill=("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10"),
    )

    assert notations(board.safe_moves()) == ["t1-f1", "t2-f3"]
    assert notations(board.autoplay()) == ["t1-f1", "t1-f1", "t1-f1", "t2-f3"]


def test_chessboard_autoplay_never_fixes_the_base() -> None:
    board = board_from("chessboard", {"t1": "7C", "t2": "7D"}, fill=("t1", "t2", "t3"))

    assert "t1-f1" in notations(board.legal_moves())
    assert board.safe_moves() == []
    assert board.autoplay() == []
    assert board.base_rank is None


def test_chessboard_autoplay_builds_on_started_foundations_but_starts_none() -> None:
    board = board_from(
        "chessboard",
        {"f3": "7H", "t1": "9H 8H", "t2": "7C", "t3": "TH"},
        fill=("t1", "t2", "t3"),
    )

    assert "t2-f1" in notations(board.legal_moves())
    assert notations(board.autoplay()) == ["t1-f3", "t1-f3", "t3-f3"]
    assert board.pile("f1") == ()
    assert board.base_rank == 7


# -- Archway: the twin of a card ------------------------------------------------------------


def archway(piles: dict[str, str]) -> Board:
    base = {
        "f1": "AC 2C 3C 4C 5C 6C",
        "f2": "AD",
        "f3": "AH",
        "f4": "AS",
        "f5": "KC",
        "f6": "KD",
        "f7": "KH",
        "f8": "KS",
    }
    return board_from("archway", base | piles, fill=("t2", "t3"))


def test_archway_card_whose_twin_waits_in_a_central_pile_is_not_safe() -> None:
    board = archway({"t1": "7C", "t2": "7C 9H"})

    assert "t1-f1" in notations(board.legal_moves())
    assert board.safe_moves() == []


def test_archway_reserve_card_whose_twin_waits_in_a_central_pile_is_not_safe() -> None:
    board = archway({"r7": "7C", "t2": "7C 9H"})

    assert "r:7C-f1" in notations(board.legal_moves())
    assert board.safe_moves() == []


def test_archway_card_whose_twin_is_in_a_reserve_is_safe() -> None:
    """The central 7C may go up; the reserve 7C may not, its twin being in a central pile."""
    board = archway({"t1": "7C", "r7": "7C"})

    assert notations(board.safe_moves()) == ["t1-f1"]


def test_archway_cards_with_both_copies_in_the_reserves_are_safe() -> None:
    board = archway({"r7": "7C 7C"})

    assert notations(board.safe_moves()) == ["r:7C-f1"]
    assert notations(board.autoplay()) == ["r:7C-f1"]


def test_archway_card_whose_twin_is_on_a_foundation_is_safe() -> None:
    board = archway({"f5": "KC QC JC TC 9C 8C 7C", "t1": "7C"})

    assert notations(board.safe_moves()) == ["t1-f1"]


# -- properties -----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_chessboard_autoplay_never_fixes_the_base_after_random_play(data: st.DataObject) -> None:
    board = Board("chessboard", data.draw(st.integers(min_value=1, max_value=2**63 - 1)))
    for _ in range(data.draw(st.integers(min_value=0, max_value=30))):
        moves = [m for m in board.legal_moves() if not m.to_foundation]
        if not moves:
            break
        board.play(data.draw(st.sampled_from(moves)))

    assert board.autoplay() == []
    assert board.base_rank is None


@settings(max_examples=40, deadline=None)
@given(played_boards("chessboard", max_moves=60))
def test_chessboard_autoplay_never_starts_an_empty_foundation(board: Board) -> None:
    started = sum(1 for pile in board.foundations if pile)
    base = board.base_rank

    board.autoplay()

    assert sum(1 for pile in board.foundations if pile) == started
    assert board.base_rank == base


@settings(max_examples=60, deadline=None)
@given(played_boards("citadel", max_moves=60))
def test_citadel_safe_moves_are_legal_foundation_moves(board: Board) -> None:
    legal = board.legal_moves()

    assert all(move in legal and move.to_foundation for move in board.safe_moves())


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(GAME_SLUGS).flatmap(lambda game: played_boards(game, max_moves=40)))
def test_autoplay_plays_only_safe_moves_and_counts_every_one(board: Board) -> None:
    ply = board.ply
    expected = []
    replay = board.copy()
    while safe := replay.safe_moves():
        expected.append(safe[0])
        replay.play(safe[0])

    played = board.autoplay()

    assert played == expected
    assert board.ply == ply + len(played)
    assert board.layout() == replay.layout()
