"""The rule axes issue 17's games are built from, each tested once on the one position type:
free cells, spaces filled by kings only, and runs that move as one move. Games are declared
here (a classic's rules with one switch changed), as a new game's declaration would."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.rules import Board, IllegalMove, Layout, Move
from games.rules.cards import CARD_BY_CODE, Card, parse_cards
from games.rules.solver import solve
from games.rules.tables import rule_book
from games.rules.variants import BELEAGUERED_CASTLE, STREETS_AND_ALLEYS, GameRules

from .helpers import exhaustive
from .test_verdicts import endgame

CELLS = replace(BELEAGUERED_CASTLE, slug="castle-with-cells", options=(), cells=2)
KINGS = replace(STREETS_AND_ALLEYS, slug="kings-only-alleys", kings_only=True)
RUNS = replace(BELEAGUERED_CASTLE, slug="castle-with-runs", options=(), runs=True, cells=1)
ANY_RUNS = replace(STREETS_AND_ALLEYS, slug="alleys-with-any-runs", runs=True, run_limit="any")
KINGS_RUNS = replace(KINGS, slug="kings-only-with-runs", runs=True, cells=1)
KINGS_ANY_RUNS = replace(KINGS, slug="kings-only-with-any-runs", runs=True, run_limit="any")


def notations(moves: list[Move]) -> list[str]:
    return [move.notation() for move in moves]


def position(rules: GameRules, tableau: list[str], cells: tuple[str, ...] = ()) -> Board:
    """A near-finished position: the named cards in play (each suit's highest ranks), every
    other card on its foundation."""
    piles = [tuple(parse_cards(text)) for text in tableau]
    piles += [()] * (rules.tableau - len(piles))
    held = [tuple(parse_cards(text)) for text in cells] + [()] * (rules.cells - len(cells))
    in_play = {card for pile in (*piles, *held) for card in pile}
    sequences = rule_book(rules).sequences(0)
    assert sequences is not None
    foundations = []
    for seq in sequences.seq:
        up = tuple(CARD_BY_CODE[c] for c in seq if CARD_BY_CODE[c] not in in_play)
        assert list(up) == [CARD_BY_CODE[c] for c in seq[: len(up)]], "in play: top ranks only"
        foundations.append(up)
    return Board(rules, 1, layout=Layout(tuple(piles), tuple(foundations), (), tuple(held)))


# -- free cells --------------------------------------------------------------------------


def test_a_top_card_goes_to_an_empty_free_cell_and_on_from_there() -> None:
    board = position(CELLS, ["QC JD", "KC", "KD", "KH QH", "KS QS JS", "TD", "JC", "QD"])

    assert {"t1-c1", "t1-c2", "t1-t8"} <= set(notations(board.legal_moves()))
    board.play("t1-c1")
    assert board.pile("c1") == (Card.from_str("JD"),)
    assert "c1-t1" in notations(board.legal_moves())  # JD back on QC
    board.play("c1-t1")
    assert board.cells == ((), ())


def test_a_free_cell_holds_one_card() -> None:
    board = position(CELLS, ["QC JD", "KC", "KD", "KH QH", "KS QS JS", "TD", "JC", "QD"])
    board.play("t1-c1")

    with pytest.raises(IllegalMove, match=r"^c1 already holds a card$"):
        board.play("t2-c1")
    with pytest.raises(
        IllegalMove, match="Only the top card of a tableau pile goes to a free cell"
    ):
        board.play("c1-c2")


def test_a_card_in_a_free_cell_goes_up_by_auto_play_like_a_top_card() -> None:
    board = position(CELLS, ["KC QC", "KD", "KH", "KS"], cells=("JC", "QD"))

    assert notations(board.safe_moves()) == ["c1-f1"]
    assert notations(board.autoplay())[:3] == ["c1-f1", "t1-f1", "c2-f2"]
    assert board.is_won()


def test_cells_are_written_and_read_in_the_layout_text() -> None:
    board = position(CELLS, ["KC QC", "KD", "KH", "KS"], cells=("JC",))

    assert "c1: JC\nc2:\n" in board.layout()


def test_the_solver_uses_free_cells_and_finds_when_they_decide_the_game() -> None:
    """Somewhere among small endgames is one that only a free cell wins: the solver finds
    the win with the cell and proves the loss without it, as an exhaustive search does."""
    for seed in range(200):
        without = endgame("beleaguered-castle", seed, left=12, piles=3)
        if exhaustive(without, limit=400_000) != "unsolvable":
            continue
        layout = without.layout_value()
        rules = replace(without.rules, cells=1)
        with_cell = Board(rules, 1, layout=replace(layout, cells=((),)))
        if exhaustive(with_cell, limit=400_000) == "solved":
            break
    else:
        pytest.fail("no endgame that a free cell decides")
    assert solve(without).verdict == "unsolvable"
    result = solve(with_cell)
    assert result.verdict == "solved"
    assert any(Move.from_notation(m.notation()).target == "c1" for m in result.moves)


# -- kings only in empty piles ------------------------------------------------------------


def test_only_a_king_fills_an_empty_pile() -> None:
    board = position(KINGS, ["KC QD", "KD", "KH", "KS QS"])

    moves = notations(board.legal_moves())
    assert "t2-t5" in moves  # a king
    empty = ("t5", "t6", "t7", "t8")
    assert not [m for m in moves if m.startswith(("t1-", "t4-")) and m.endswith(empty)]
    with pytest.raises(
        IllegalMove, match="Only a king can go to an empty pile: QD cannot go to t5"
    ):
        board.play("t1-t5")


# -- runs ----------------------------------------------------------------------------------


def test_a_run_moves_as_one_move_within_the_free_cell_and_space_limit() -> None:
    board = position(RUNS, ["KC QD JS TH", "KD", "KH JH", "KS", "QC", "QH", "QS", "JD"])

    assert "t1-t3x3" not in notations(board.legal_moves())  # QD does not go on JH
    moves = notations(board.legal_moves())
    assert "t1-t5x2" in moves  # JS TH onto QC: 2 cards, one free cell
    assert "t1-t5x3" not in moves  # QD does not go on QC
    move = board.play("t1-t5x2")
    assert move == Move("t1", "t5", None, 2)
    assert board.pile("t5") == tuple(parse_cards("QC JS TH"))
    assert notations(board.move_stack) == ["t1-t5x2"]
    assert notations([board.undo()]) == ["t1-t5x2"]
    assert board.pile("t1") == tuple(parse_cards("KC QD JS TH"))


def test_a_run_longer_than_the_limit_is_refused_with_the_limit() -> None:
    board = position(RUNS, ["KC QD JS TH", "KD", "KH", "KS", "QC", "QH", "QS", "JD"], cells=("JH",))

    with pytest.raises(IllegalMove, match=r"1 card can move together now .*not 2"):
        board.play("t1-t5x2")


def test_cards_that_are_not_a_run_do_not_move_together() -> None:
    board = position(RUNS, ["KC JS QD", "KD", "KH", "KS", "QC", "QH", "QS", "JD"])

    with pytest.raises(IllegalMove, match="The top 2 cards of t1 are not a run"):
        board.play("t1-t6x2")
    with pytest.raises(IllegalMove, match="one card at a time"):
        position(CELLS, ["KC JS QD", "KD", "KH", "KS", "QC", "QH", "QS", "JD"]).play("t1-t6x2")


def test_runs_of_any_length_move_with_no_free_cell_or_space() -> None:
    layout = ["KC QD JS TH", "KD", "KH JH", "KS", "QC", "QH", "QS", "JD JC"]

    moves = notations(position(ANY_RUNS, layout).legal_moves())
    assert {"t1-t4x3", "t1-t5x2", "t1-t8"} <= set(moves)  # QD JS TH onto KS, JS TH onto QC
    assert "t1-t4x4" not in moves  # KC does not go on KS
    board = position(ANY_RUNS, layout)
    board.play("t1-t4x3")
    assert board.pile("t4") == tuple(parse_cards("KS QD JS TH"))
    with pytest.raises(IllegalMove, match=r"1 card can move together now .*not 3"):
        position(replace(ANY_RUNS, run_limit="supermove"), layout).play("t1-t4x3")
    not_a_run = ["KC QD JS", "KD", "KH TS JH", "KS", "QC", "QH", "QS", "JD TH"]
    with pytest.raises(IllegalMove, match="The top 2 cards of t3 are not a run"):
        position(ANY_RUNS, not_a_run).play("t3-t5x2")


def test_legal_run_moves_follow_the_cards_under_the_top_card() -> None:
    """Two positions with the same top cards but different runs under them: the board's
    memo of legal moves (shared by every board of a game) keeps them apart."""
    rest = ["KD", "KH JH", "KS", "QC", "QH", "QS", "JD JC"]

    assert "t1-t4x3" in notations(position(ANY_RUNS, ["KC QD JS TH", *rest]).legal_moves())
    board = position(ANY_RUNS, ["QD KC JS TH", *rest])
    assert "t1-t4x3" not in notations(board.legal_moves())
    with pytest.raises(IllegalMove, match="The top 3 cards of t1 are not a run"):
        board.play("t1-t4x3")


def test_with_kings_only_a_whole_kings_run_fills_a_space_and_nothing_else_does() -> None:
    layout = ["KC QD JS TH", "KD QC JD", "KH QH JH", "KS QS JC"]

    moves = notations(position(KINGS_ANY_RUNS, layout).legal_moves())
    assert {"t1-t5x4", "t2-t8x3"} <= set(moves)
    assert not [m for m in moves if m.startswith("t1-t") and m.endswith(("x2", "x3"))]
    with pytest.raises(IllegalMove, match="Only a king can go to an empty pile"):
        position(KINGS_ANY_RUNS, layout).play("t1-t5x3")


def test_with_kings_only_empty_piles_do_not_raise_the_run_limit() -> None:
    """Four empty piles and one free cell: two cards, not 2 << 4 (no card but a king may
    pass through an empty pile)."""
    board = position(KINGS_RUNS, ["KC QD JS TH", "KD QC JD", "KH QH JH", "KS QS JC"])

    assert "t1-t5x4" not in notations(board.legal_moves())
    with pytest.raises(
        IllegalMove, match=r"2 cards can move together now \(free cells set the limit\), not 4"
    ):
        board.play("t1-t5x4")
    assert board.position().run_limit(4) == 2


def test_a_run_limit_needs_runs() -> None:
    with pytest.raises(ValueError, match="a run limit needs runs=True"):
        replace(STREETS_AND_ALLEYS, run_limit="any")
    with pytest.raises(ValueError, match="unknown run limit"):
        replace(STREETS_AND_ALLEYS, runs=True, run_limit="some")  # type: ignore[arg-type]


def test_run_notation_round_trips() -> None:
    assert Move.from_notation("T3-T5X3").notation() == "t3-t5x3"
    assert Move.from_notation("t3-t5x1").notation() == "t3-t5"


# -- the solver and the safe-move rule on every axis ---------------------------------------


@pytest.mark.parametrize(
    ("axis", "left"),
    [
        ({"cells": 1}, 16),
        ({"kings_only": True}, 13),
        ({"runs": True, "cells": 1}, 16),
        ({"runs": True, "run_limit": "any", "kings_only": True}, 13),
    ],
    ids=str,
)
def test_the_solver_agrees_with_an_exhaustive_search_on_every_axis(
    axis: dict[str, Any], left: int
) -> None:
    verdicts = []
    for seed in range(40):
        plain = endgame("streets-and-alleys", seed, left=left, piles=3)
        rules = replace(plain.rules, **axis)
        layout = replace(plain.layout_value(), cells=tuple(() for _ in range(rules.cells)))
        board = Board(rules, 1, layout=layout)
        truth = exhaustive(board, limit=400_000)
        if truth == "unknown":
            continue
        assert solve(board, seconds=10).verdict == truth, f"{axis} endgame {seed}"
        verdicts.append(truth)
    assert {"solved", "unsolvable"} <= set(verdicts), verdicts
