"""Safe auto-play: foundation moves that can never cost the game.

A move of card ``c`` to a foundation is *safe* when every winning line from the position
before the move can be matched by one from the position after it. That holds when:

1. nothing still in play could ever need ``c`` as a tableau base: every card the game's
   building rule lets be laid on ``c`` is already on a foundation, or is ``c``'s own
   successor on that foundation (it can follow ``c`` up instead of onto it);
2. with two decks (Archway), no other copy of ``c`` waits in a tableau pile: two copies of
   a card compete for the ascending and the descending foundation, and a buried copy may
   need the one we would use; a copy in a reserve is always available, so it cannot;
3. the move does not start a foundation whose base rank the player chooses: Chessboard's
   base is fixed only by a deliberate player move.

Per game that reads: Beleaguered Castle, Citadel, Streets and Alleys send a card up once
every card one rank lower is on the foundations (aces always); Fortress sends up any card
that fits (the cards built on it are its same-suit neighbours); Chessboard does too, except
the card that would start an empty foundation; Archway sends up any card whose twin is on a
foundation or in a reserve.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .cards import Card, next_rank

if TYPE_CHECKING:
    from .board import Board, RawMove


def safe_raw_moves(board: Board) -> list[RawMove]:
    """The safe foundation moves among ``board``'s legal moves, in legal-move order."""
    rules = board.rules
    f0, r0 = board._f0, board._r0
    piles = board._piles
    on_foundations = Counter(card for pile in piles[f0:r0] for card in pile)
    in_tableau = Counter(card for pile in piles[:f0] for card in pile) if rules.decks > 1 else None
    safe = []
    for source, target, card in board.raw_legal_moves():
        if not f0 <= target < r0 or f0 <= source < r0:
            continue
        spec = rules.foundations[target - f0]
        if not piles[target] and spec.first_rank is None:
            continue
        rank = next_rank(card.rank, spec.step, wrap=spec.wrap)
        follower = Card(rank, card.suit) if rank else None
        if any(
            on_foundations[above] < rules.decks and above != follower
            for above in board._under[card]
        ):
            continue
        if in_tableau is not None and in_tableau[card] > (1 if source < f0 else 0):
            continue
        safe.append((source, target, card))
    return safe
