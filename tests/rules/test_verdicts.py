"""The solver's verdicts, cross-checked: on small endgames, with everything the solver does
to go fast (safe auto-play, pruning, canonical keys), its verdict is the one an exhaustive
search over the board's plain legal moves finds. A drift between the search's view of the
rules and the board's would show up here as a false "unsolvable" (or a false win)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.rules import GAMES, Board, Layout, get_game
from games.rules.cards import CARD_BY_CODE, Card
from games.rules.solver import solve
from games.rules.tables import rule_book

from .helpers import exhaustive

SINGLE_DECK = [slug for slug, rules in GAMES.items() if rules.decks == 1]


def endgame(game: str, seed: int, left: int, piles: int) -> Board:
    """A position of ``game``'s rules played on only ``piles`` tableau piles, with ``left``
    cards still in play dealt at random onto them (none empty, so not every such position
    can be won); the rest are on the foundations. Chessboard's base rank is chosen at
    random. Few piles keep the whole position graph small enough to search exhaustively.
    Bastion's dealt cells start empty here."""
    # Two free cells make every endgame this small winnable: those games are checked
    # without them (one cell is checked in the one-cell games).
    cells = get_game(game).cells
    rules = replace(get_game(game), tableau=piles, cells=cells if cells < 2 else 0)
    rng = random.Random(f"{game}/{seed}")
    base = rng.randint(1, 13) if rules.base_is_chosen else 0
    sequences = rule_book(rules).sequences(base)
    assert sequences is not None
    minimum = 1 if base or any(spec.dealt for spec in rules.foundations) else 0
    heights = [13] * len(rules.foundations)
    while 52 - sum(heights) < left:
        k = rng.randrange(len(heights))
        if heights[k] > minimum:
            heights[k] -= 1
    foundations = tuple(
        tuple(CARD_BY_CODE[c] for c in seq[:height])
        for seq, height in zip(sequences.seq, heights, strict=True)
    )
    rest: list[Card] = [
        CARD_BY_CODE[c]
        for seq, height in zip(sequences.seq, heights, strict=True)
        for c in seq[height:]
    ]
    rng.shuffle(rest)
    tableau: list[list[Card]] = [[] for _ in range(piles)]
    for i, card in enumerate(rest):
        tableau[i % piles].append(card)
    empty_cells = tuple(() for _ in range(rules.cells))
    layout = Layout(tuple(map(tuple, tableau)), foundations, (), empty_cells)
    return Board(rules, 1, layout=layout)


@pytest.mark.parametrize("game", SINGLE_DECK)
def test_the_solver_and_an_exhaustive_search_agree_on_small_endgames(game: str) -> None:
    verdicts = []
    for seed in range(60):
        piles = 3 + seed % 2
        # Each free cell holds a card: more cards keep some endgames unwinnable.
        left = (12 if piles == 3 else 16) + 4 * get_game(game).cells
        board = endgame(game, seed, left=left, piles=piles)
        truth = exhaustive(board, limit=400_000)
        if truth == "unknown":
            continue
        verdict = solve(board, seconds=10).verdict
        assert verdict == truth, f"{game} endgame {seed}:\n{board.layout()}"
        verdicts.append(verdict)
    # Both verdicts occur, or the comparison would prove little.
    assert {"solved", "unsolvable"} <= set(verdicts), verdicts
