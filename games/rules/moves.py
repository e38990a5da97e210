"""Moves in the notation of RULES.md: ``t3-t5``, ``t3-f2``, ``t3-f``, ``r:7H-f3``."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .cards import Card
from .errors import NotationError
from .piles import KIND_LETTERS, Pile, PileKind

_PILE = rf"[{KIND_LETTERS}]\d{{1,2}}"
_MOVE = re.compile(
    rf"^(?:(?P<source>{_PILE})|r:(?P<card>\w{{2,3}}))-(?P<target>{_PILE}|f)(?:x(?P<count>\d{{1,2}}))?$"
)


@dataclass(frozen=True, slots=True)
class Move:
    """Cards from ``source`` to ``target``; context-free, like python-chess's UCI moves.

    ``source`` and ``target`` are pile names (``t3``, ``f2``, ``r7``, ``c1``). A reserve move
    also names its ``card`` (every Archway reserve card is available). ``target == "f"``
    means "the foundation that takes it": :meth:`games.rules.Board.parse_move` resolves it.
    ``count`` is how many cards move together from the top of a tableau pile: more than
    one only in games whose runs move as one move, written ``t3-t5x3``.

    >>> Move.from_notation("T3-F2")
    Move.from_notation('t3-f2')
    >>> Move.from_notation("r:10h-f3").notation()
    'r:TH-f3'
    >>> Move.from_notation("t3-t5x3").count
    3
    """

    source: str
    target: str
    card: Card | None = None
    count: int = 1

    @classmethod
    def from_notation(cls, text: str) -> Move:
        """Read one move; raise :class:`NotationError` naming the text when it is malformed."""
        return _parse(text) if cls is Move else cls._read(text)

    @classmethod
    def _read(cls, text: str) -> Move:
        match = _MOVE.match(text.strip().lower())
        if match is None:
            raise NotationError(
                f"{text!r} is not a move: write FROM-TO with piles t1, f2, r3, c1 "
                "(for example t3-t5, t3-f2, t3-f, r:7H-f3 or t3-t5x3 for three cards)"
            )
        if match["card"] is not None:
            try:
                card = Card.from_str(match["card"])
            except NotationError as error:
                raise NotationError(f"{text!r}: {error}") from error
            if match["count"] is not None:
                raise NotationError(f"{text!r}: a reserve card moves alone")
            return cls(Pile(PileKind.RESERVE, card.rank).name, match["target"], card)
        count = int(match["count"] or 1)
        if count < 1:
            raise NotationError(f"{text!r}: move at least one card")
        return cls(match["source"], match["target"], None, count)

    @property
    def to_foundation(self) -> bool:
        return self.target == "f" or Pile.from_name(self.target).kind is PileKind.FOUNDATION

    @property
    def source_pile(self) -> Pile:
        return Pile.from_name(self.source)

    @property
    def target_pile(self) -> Pile | None:
        """The target pile; ``None`` for ``f``, "the foundation that takes it"."""
        return None if self.target == "f" else Pile.from_name(self.target)

    def notation(self) -> str:
        if self.card is not None:
            return f"r:{self.card}-{self.target}"
        if self.count > 1:
            return f"{self.source}-{self.target}x{self.count}"
        return f"{self.source}-{self.target}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"Move.from_notation({self.notation()!r})"


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    """Moves are values, and a game's few hundred notations recur in every replay of it."""
    return Move._read(text)
