"""Dealing a game nobody can lose at once: a deal with a legal move after its opening.

New game (``games.services.game_start``) and the pools (``games.pools``) both deal from
here; it reads only the engine.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from games.rules import MAX_DEAL, Board, GameRules

REDEAL_TRIES = 200
"""Random deals tried for one with a legal move (Fortress: 12 % have none)."""


def is_playable(board: Board) -> bool:
    """A legal move is left after the opening auto-play (and the deal is not won by it)."""
    board = board.copy(stack=False)
    board.autoplay()
    return not board.is_won() and bool(board.raw_legal_moves())


def is_dead(board: Board) -> bool:
    """No legal move is left after the opening auto-play, which did not win: the deal is
    lost from its start (the engine's auto-play never costs a win)."""
    board = board.copy(stack=False)
    board.autoplay()
    return not board.is_won() and not board.raw_legal_moves()


def random_playable_deal(rules: GameRules, options: Iterable[str] = ()) -> int:
    """A random deal number whose position has a legal move after the opening auto-play."""
    options = tuple(options)
    deal = secrets.randbelow(MAX_DEAL) + 1
    for _ in range(REDEAL_TRIES):
        if is_playable(Board(rules, deal, options=options)):
            return deal
        deal = secrets.randbelow(MAX_DEAL) + 1
    return deal  # never reached in practice: at worst about one deal in eight is dead
