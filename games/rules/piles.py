"""Piles as typed values: a kind and a number, written ``t3``, ``f2``, ``r7``, ``c1``.

Every reader of a pile's name goes through :meth:`Pile.from_name`, and every writer through
:attr:`Pile.name`, so no module parses a pile by its first letter. The selection notation
the page sends when a card is picked (``t3`` for a pile's top card, ``r:7H`` for a named
reserve card) has one writer, :func:`selection_text`, and one reader, :func:`read_selection`.

>>> Pile.from_name("t3")
Pile.from_name('t3')
>>> Pile.from_name("t3").kind is PileKind.TABLEAU, Pile(PileKind.CELL, 2).name
(True, 'c2')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from functools import cache

from .cards import Card
from .errors import NotationError


class PileKind(enum.Enum):
    """The kinds of pile; the value is the letter of the notation."""

    TABLEAU = "t"
    FOUNDATION = "f"
    RESERVE = "r"
    CELL = "c"

    @property
    def word(self) -> str:
        return _WORDS[self]


_WORDS = {
    PileKind.TABLEAU: "tableau pile",
    PileKind.FOUNDATION: "foundation",
    PileKind.RESERVE: "reserve",
    PileKind.CELL: "free cell",
}

KIND_LETTERS = "".join(kind.value for kind in PileKind)
"""Every kind's letter: what the move notation's pattern accepts."""

_NAME = re.compile(rf"([{KIND_LETTERS}])([1-9][0-9]?)")


@dataclass(frozen=True, slots=True)
class Pile:
    """One pile: its kind and its number (1-based, as players count)."""

    kind: PileKind
    number: int

    @classmethod
    def from_name(cls, name: str) -> Pile:
        """Read ``t3``, ``f2``, ``r7``, ``c1``; :class:`NotationError` names anything else."""
        return _from_name(name)

    @property
    def name(self) -> str:
        return f"{self.kind.value}{self.number}"

    @property
    def index(self) -> int:
        """The 0-based place of the pile among the piles of its kind."""
        return self.number - 1

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Pile.from_name({self.name!r})"


@cache
def _from_name(name: str) -> Pile:
    match = _NAME.fullmatch(name)
    if match is None:
        raise NotationError(
            f"{name!r} is not a pile: write a letter ({', '.join(KIND_LETTERS)}) and a number"
        )
    return Pile(PileKind(match[1]), int(match[2]))


def is_pile_name(name: str) -> bool:
    """Whether ``name`` reads as a pile (of any game)."""
    return _NAME.fullmatch(name) is not None


def selection_text(pile: Pile, card: Card | None = None) -> str:
    """What selecting a card sends: ``t3`` (a pile's top card), ``r:7H`` (a reserve card,
    named because every card of a reserve is available)."""
    if pile.kind is PileKind.RESERVE and card is not None:
        return f"r:{card}"
    return pile.name


def read_selection(text: str) -> tuple[Pile, Card | None]:
    """Read :func:`selection_text`'s output; :class:`NotationError` when it is not one.

    >>> read_selection("r:7H")
    (Pile.from_name('r7'), Card.from_str('7H'))
    """
    letter, colon, rest = text.partition(":")
    if not colon:
        return Pile.from_name(text), None
    if letter != PileKind.RESERVE.value:
        raise NotationError(f"{text!r} is not a selection: only reserve cards are named")
    card = Card.from_str(rest)
    return Pile(PileKind.RESERVE, card.rank), card
