"""The selection notation (what picking a card sends): one writer, one reader, and the
board that turns a selection and a target into a move, runs included."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import GAMES, Board, Card, Move, NotationError
from games.rules.piles import Pile, Selection, read_selection, selection_text

from .helpers import played_boards

RUN_GAMES = [slug for slug, rules in GAMES.items() if rules.runs]


@pytest.mark.parametrize(
    ("text", "selection"),
    [
        ("t3", Selection(Pile.from_name("t3"))),
        ("c1", Selection(Pile.from_name("c1"))),
        ("f2", Selection(Pile.from_name("f2"))),
        ("r:7H", Selection(Pile.from_name("r7"), Card.from_str("7H"))),
        ("t3@5", Selection(Pile.from_name("t3"), None, 5)),
        ("t10@13", Selection(Pile.from_name("t10"), None, 13)),
    ],
)
def test_a_selection_reads_back_what_was_written(text: str, selection: Selection) -> None:
    assert read_selection(text) == selection
    assert selection_text(*selection) == text


@pytest.mark.parametrize("text", ["t3@0", "t3@", "t3@x", "f1@2", "r7@2", "c1@1", "t@3", "r:ZZ"])
def test_a_bad_selection_is_a_sentence_not_a_crash(text: str) -> None:
    with pytest.raises(NotationError):
        read_selection(text)


def test_a_run_is_picked_by_the_place_of_its_lowest_card() -> None:
    board = Board("penelopes-web", 1)
    board.play("t7-t2")  # the two top cards of pile 2 now make a run
    assert board.top_run("t2") == 2
    run = board.selected_move("t2@7", "t8")
    assert run == Move.from_notation("t2-t8x2")
    assert board.selection(run) == "t2@7"
    assert board.selected_move("t2@8", "f") == Move.from_notation("t2-f")  # the top card alone
    board.play(run)
    assert board.top_run("t8") == 3


def test_the_cards_heading_a_run_are_the_covered_ones_of_its_top_run() -> None:
    board = Board("penelopes-web", 1)
    assert board.run_places("t2") == range(7, 7)  # a lone top card heads no run
    board.play("t7-t2")
    assert board.run_places("t2") == range(7, 8)
    assert board.run_places("t2", board.pile("t2")[:-1]) == range(7, 7)  # the pile as it was
    assert Board("streets-and-alleys", 1).run_places("t1") == range(0)  # runs do not move there


def test_a_place_above_the_pile_names_no_card() -> None:
    board = Board("penelopes-web", 1)
    with pytest.raises(NotationError, match="has 7 cards"):
        board.selected_move("t2@9", "t8")


@settings(max_examples=60, deadline=None)
@given(board=st.sampled_from(RUN_GAMES).flatmap(lambda slug: played_boards(slug)))
def test_every_legal_move_is_its_selection_and_its_target(board: Board) -> None:
    for move in board.legal_moves():
        assert board.selected_move(board.selection(move), move.target) == move
