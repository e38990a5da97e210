"""Archway's exact decider: its verdicts are the engine's own exhaustive search's, it finds
the winnable deals, and it proves the rest lost quickly."""

from __future__ import annotations

import random

import pytest

from games.rules import Board
from games.rules.solver import Techniques, solve

from .helpers import exhaustive, replays_to_win

WINNABLE = [465, 783]
"""The only winnable Archway deals of 1-4,000 (an exhaustive search found these two)."""


def random_endgame(rng: random.Random) -> str:
    """An Archway position with two suits home and two part-way: their missing cards lie
    in the reserves or, at most ten of them, in the four central piles."""
    lines = ["game: archway", "deal: 1"]
    piles: list[list[str]] = [[], [], [], []]
    reserves: dict[int, list[str]] = {rank: [] for rank in range(1, 14)}
    ranks = "A23456789TJQK"
    played = rng.sample(range(4), 2)
    in_tableau = 0
    up_lines, down_lines = [], []
    for suit_index, suit in enumerate("CDHS"):
        up, down = (13, 1) if suit_index not in played else (rng.randint(6, 10), rng.randint(4, 8))
        up_lines.append(" ".join(ranks[r - 1] + suit for r in range(1, up + 1)))
        down_lines.append(" ".join(ranks[r - 1] + suit for r in range(13, down - 1, -1)))
        loose = list(range(up + 1, 14)) + list(range(1, down))
        rng.shuffle(loose)
        for rank in loose:
            card = ranks[rank - 1] + suit
            if in_tableau < 10 and rng.random() < 0.6:
                rng.choice(piles).append(card)
                in_tableau += 1
            else:
                reserves[rank].append(card)
    lines += [f"f{i}: {text}" for i, text in enumerate(up_lines + down_lines, 1)]
    lines += [f"t{i}: {' '.join(p)}" for i, p in enumerate(piles, 1)]
    lines += [f"r{rank}: {' '.join(reserves[rank])}" for rank in range(1, 14)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("deal", WINNABLE)
def test_winnable_deals_are_solved_with_a_line_that_replays(deal: int) -> None:
    board = Board("archway", deal)
    result = solve(board, max_nodes=20_000)
    assert result.verdict == "solved"
    assert replays_to_win(board, result.moves)


def test_deals_around_them_are_proved_lost() -> None:
    for deal in [*range(1, 31), 464, 466, 782, 784]:
        assert solve(Board("archway", deal), max_nodes=50_000).verdict == "unsolvable", deal


def test_verdicts_agree_with_the_engines_exhaustive_search() -> None:
    rng = random.Random(15)
    verdicts = set()
    for _ in range(60):
        board = Board.from_layout(random_endgame(rng))
        expected = exhaustive(board)
        assert solve(board).verdict == expected, board.layout()
        verdicts.add(expected)
    assert verdicts == {"solved", "unsolvable"}


def test_verdicts_agree_with_the_general_search_on_deals() -> None:
    general = Techniques(archway=False)
    decided = 0
    for deal in range(1, 13):
        board = Board("archway", deal)
        theirs = solve(board, max_nodes=3_000, techniques=general).verdict
        if theirs != "unknown":
            assert solve(board).verdict == theirs, deal
            decided += 1
    assert decided >= 6


def test_the_node_budget_is_kept() -> None:
    result = solve(Board("archway", 465), max_nodes=10)
    assert result.verdict == "unknown"
    assert result.nodes <= 11
