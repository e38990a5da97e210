"""The solver's pruning never loses a win: on end-game positions small enough for the
engine alone to search exhaustively, every scan and switch gives the engine's verdict."""

from __future__ import annotations

import random

import pytest

from games.rules import Board
from games.rules.solver import Techniques, solve

from .helpers import exhaustive, replays_to_win

RANKS = "A23456789TJQK"

PILES = {"beleaguered-castle": 8, "streets-and-alleys": 8, "fortress": 10}


def endgame(game: str, seed: int, left: int) -> Board:
    """A position with ``left`` cards still in the tableau, dealt at random among its piles
    (none empty, some with low cards under high ones), the rest on the foundations; then a
    few random moves, which often lose it."""
    rng = random.Random(seed)
    heights = [13] * 4
    for _ in range(left):
        suit = rng.choice([s for s in range(4) if heights[s] > 1])
        heights[suit] -= 1
    cards = [RANKS[r] + s for s, h in zip("CDHS", heights, strict=True) for r in range(h, 13)]
    rng.shuffle(cards)
    piles: list[list[str]] = [[card] for card in cards[: PILES[game]]]
    for card in cards[PILES[game] :]:
        piles[rng.randrange(len(piles))].append(card)
    for pile in piles[: rng.randrange(len(piles) + 1)]:
        pile.sort(key=lambda card: RANKS.index(card[0]))
    lines = [f"game: {game}", "deal: 1"]
    lines += [
        f"f{i}: {' '.join(RANKS[r] + s for r in range(h))}"
        for i, (s, h) in enumerate(zip("CDHS", heights, strict=True), 1)
    ]
    lines += [f"t{i}: {' '.join(pile)}" for i, pile in enumerate(piles, 1)]
    board = Board.from_layout("\n".join(lines) + "\n")
    for _ in range(rng.randrange(5, 40)):
        moves = board.raw_legal_moves()
        if not moves:
            break
        board.push(rng.choice(moves))
    return Board.from_layout(board.layout())


VARIANTS = {
    "default": Techniques(),
    "drain at once": Techniques(depth_first_after=0),
    "drain later": Techniques(depth_first_after=30),
    "depth-first": Techniques(scans=(("dfs", 1),)),
}

# (cards left, seed): lost Beleaguered Castle positions with dozens to thousands of
# positions to visit (found by a search over seeds).
LOST = [(32, 70), (32, 81), (36, 28), (36, 67), (40, 4), (40, 73), (40, 103), (40, 118)]


@pytest.mark.parametrize(("left", "seed"), LOST)
def test_every_variant_proves_what_the_engines_exhaustive_search_proves(
    left: int, seed: int
) -> None:
    board = endgame("beleaguered-castle", seed, left)
    assert exhaustive(board) == "unsolvable"
    for name, techniques in VARIANTS.items():
        assert solve(board, seconds=60, techniques=techniques).verdict == "unsolvable", name


@pytest.mark.parametrize("game", list(PILES))
@pytest.mark.parametrize("seed", range(4))
def test_every_variant_wins_a_won_position(game: str, seed: int) -> None:
    board = endgame(game, seed, left=26)
    for name, techniques in VARIANTS.items():
        result = solve(board, seconds=60, techniques=techniques)
        assert result.solved, name
        assert replays_to_win(board, result.moves), name


@pytest.mark.parametrize(
    ("game", "deal"), [("citadel", 56), ("streets-and-alleys", 2), ("fortress", 1)]
)
def test_every_variant_proves_the_small_lost_deals(game: str, deal: int) -> None:
    for name, techniques in VARIANTS.items():
        assert solve(Board(game, deal), seconds=60, techniques=techniques).verdict == (
            "unsolvable"
        ), name
