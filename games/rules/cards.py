"""Cards as small immutable values.

A card is an ``int`` subclass, ``rank * 4 + suit``, so the engine can use it directly as a
table index while players and tests see ``Card.from_str("TH")`` and ``str(card) == "TH"``.
All 52 values are interned: ``Card.from_str("TH") is Card.from_str("10H")``.
"""

from __future__ import annotations

from typing import Final

from .errors import NotationError

SUITS: Final = "CDHS"
RANKS: Final = "A23456789TJQK"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = (
    "Ace",
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
)
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
ACE, KING = 1, 13


class Card(int):
    """A playing card: ``rank`` 1 (ace) to 13 (king), ``suit`` 0-3 in the order C D H S.

    >>> card = Card.from_str("TH")
    >>> card.rank, card.suit, str(card), card.name
    (10, 2, 'TH', 'Ten of hearts')
    >>> Card.from_str("10h") is card
    True
    """

    __slots__ = ()

    def __new__(cls, rank: int, suit: int) -> Card:
        if not (ACE <= rank <= KING and 0 <= suit <= 3):
            raise NotationError(f"no card has rank {rank} and suit {suit}")
        return _CARDS[rank * 4 + suit]

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Read ``TH``, ``10H``, ``th`` …; raise :class:`NotationError` on anything else."""
        card = _BY_TEXT.get(text.strip().upper())
        if card is None:
            raise NotationError(
                f"{text!r} is not a card: write a rank (A 2-9 T J Q K) then a suit (C D H S)"
            )
        return card

    @classmethod
    def from_code(cls, code: int) -> Card:
        """The card for the engine's integer code ``rank * 4 + suit``."""
        if not 4 <= code <= 55:
            raise NotationError(f"{code!r} is not a card code (4 to 55)")
        return _CARDS[code]

    @property
    def rank(self) -> int:
        return self >> 2

    @property
    def suit(self) -> int:
        return self & 3

    @property
    def is_red(self) -> bool:
        return self.suit in (DIAMONDS, HEARTS)

    @property
    def name(self) -> str:
        """``Queen of hearts``: the card's accessible name."""
        return _NAMES[self]

    def __str__(self) -> str:
        return CARD_TEXT_BY_CODE[self]

    def __repr__(self) -> str:
        return f"Card.from_str({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Card, (self.rank, self.suit))


def _make_cards() -> list[Card]:
    table: list[Card] = [int.__new__(Card, -1)] * 56
    for rank in range(ACE, KING + 1):
        for suit in range(4):
            table[rank * 4 + suit] = int.__new__(Card, rank * 4 + suit)
    return table


_CARDS: Final = _make_cards()
# Each card's text and name by its code, written once: pages and layouts read them by the
# thousand.
CARD_TEXT_BY_CODE: Final = tuple(
    "" if c < 4 else RANKS[(c >> 2) - 1] + SUITS[c & 3] for c in range(56)
)
"""Each card's text (``QH``) by its code: what layouts write, without building the card."""
_NAMES: Final = tuple(
    "" if c < 4 else f"{RANK_NAMES[(c >> 2) - 1]} of {SUIT_NAMES[c & 3]}" for c in range(56)
)
ALL_CARDS: Final = tuple(_CARDS[4:])
CARD_BY_CODE: Final[tuple[Card, ...]] = tuple(_CARDS)
"""Each card by its code (``rank * 4 + suit``, 4 to 55): the engine's fast way back from a
code to its :class:`Card`."""
_BY_TEXT: Final = {str(c): c for c in ALL_CARDS} | {
    "10" + SUITS[c.suit]: c for c in ALL_CARDS if c.rank == 10
}


def rank_name(rank: int) -> str:
    """``Nine`` for 9: used in players' messages."""
    return RANK_NAMES[rank - 1]


def rank_text(rank: int) -> str:
    """``9``, ``T``, ``A``: the rank's letter in the notation."""
    return RANKS[rank - 1]


def next_rank(rank: int, step: int, *, wrap: bool) -> int | None:
    """The rank ``step`` (+1 or -1) away, wrapping K-A when ``wrap``; ``None`` off the end."""
    nxt = rank + step
    if 1 <= nxt <= 13:
        return nxt
    return (nxt - 1) % 13 + 1 if wrap else None


def parse_cards(text: str) -> list[Card]:
    """Cards separated by white space: ``"AC 2C 10H"``."""
    return [Card.from_str(word) for word in text.split()]
