"""What every declared game must have, whichever it is: adding a game to the registry is
enough for these to hold it to the standard (its rules page and page drawing are checked in
tests/web, its golden deals in test_deals; its golden winning line here)."""

from __future__ import annotations

import pytest

from games.rules import GAMES, Board
from games.rules.record import play_words
from games.rules.solver import solve

from .helpers import replays_to_win, won_record


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_solver_decides_deal_1(slug: str) -> None:
    result = solve(Board(slug, 1), seconds=120, max_nodes=400_000)
    assert result.verdict != "unknown", f"{slug} deal 1 undecided after {result.nodes} positions"


@pytest.mark.parametrize("slug", list(GAMES))
def test_its_golden_winning_line_wins_and_the_solver_finds_one_within_the_pools_budget(
    slug: str,
) -> None:
    record = won_record(slug)
    board = Board(slug, record.deal)
    play_words(board, [move.notation() for move in record.moves])
    assert board.is_won()
    fresh = Board(slug, record.deal)
    result = solve(fresh, max_nodes=60_000, seconds=60)
    assert result.solved
    assert replays_to_win(fresh, result.moves)
