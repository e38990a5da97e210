"""Piles as typed values: a kind and a number, written ``t3``, ``f2``, ``r7``, ``c1``.

Every reader of a pile's name goes through :meth:`Pile.from_name`, and every writer through
:attr:`Pile.name`, so no module parses a pile by its first letter. The selection notation
the page sends when a card is picked (``t3`` for a pile's top card, ``t3@5`` for the fifth
card from the bottom of pile 3 with the run on it, ``r:7H`` for a named reserve card) has
one writer, :func:`selection_text`, and one reader, :func:`read_selection`.

>>> Pile.from_name("t3")
Pile.from_name('t3')
>>> Pile.from_name("t3").kind is PileKind.TABLEAU, Pile(PileKind.CELL, 2).name
(True, 'c2')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

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
    name: str = field(init=False, repr=False, compare=False)
    """``t3``: set once, since every page reads piles' names many times over."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", f"{self.kind.value}{self.number}")

    @classmethod
    def from_name(cls, name: str) -> Pile:
        """Read ``t3``, ``f2``, ``r7``, ``c1``; :class:`NotationError` names anything else."""
        return _from_name(name)

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


class Selection(NamedTuple):
    """A picked card: its pile, the card when the pile does not imply it (a reserve's), and
    for a run, the place of its lowest card in a tableau pile, counted from 1 at the bottom.
    A place, not a count from the top: it names the same card while cards come and go above
    it, so a page that redraws a pile only from where it changed never holds a stale one."""

    pile: Pile
    card: Card | None = None
    place: int | None = None


_RUN = re.compile(rf"(?P<pile>{PileKind.TABLEAU.value}[1-9][0-9]?)@(?P<place>[1-9][0-9]?)")
"""A run's selection: only a tableau pile's top cards move together."""


def selection_text(pile: Pile, card: Card | None = None, place: int | None = None) -> str:
    """What selecting a card sends: ``t3`` (a pile's top card), ``t3@5`` (the fifth card of
    pile 3 from the bottom, with the cards on it), ``r:7H`` (a reserve card, named because
    every card of a reserve is available).

    >>> selection_text(Pile.from_name("t3"), place=5)
    't3@5'
    """
    if pile.kind is PileKind.RESERVE and card is not None:
        return f"r:{card}"
    if place is not None:
        return f"{pile.name}@{place}"
    return pile.name


def read_selection(text: str) -> Selection:
    """Read :func:`selection_text`'s output; :class:`NotationError` when it is not one.

    >>> read_selection("r:7H")
    Selection(pile=Pile.from_name('r7'), card=Card.from_str('7H'), place=None)
    >>> read_selection("t3@5")
    Selection(pile=Pile.from_name('t3'), card=None, place=5)
    """
    letter, colon, rest = text.partition(":")
    if not colon:
        run = _RUN.fullmatch(text)
        if run is None:
            return Selection(Pile.from_name(text))
        return Selection(Pile.from_name(run["pile"]), None, int(run["place"]))
    if letter != PileKind.RESERVE.value:
        raise NotationError(f"{text!r} is not a selection: only reserve cards are named")
    card = Card.from_str(rest)
    return Selection(Pile(PileKind.RESERVE, card.rank), card)
