"""Tableau building rules: which card may be laid on which, and why not.

Each rule answers ``accepts(card, onto)`` and, when it does not, ``refusal(card, onto)``: the
one sentence a player reads. The engine turns ``accepts`` into lookup tables once per game.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ACE, KING, Card, next_rank

_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


def rank_word(rank: int) -> str:
    """``9``, ``ace``, ``king``: how a rank reads inside a sentence."""
    return _WORDS.get(rank, str(rank))


def a_rank(rank: int) -> str:
    """``A 9``, ``An 8``, ``An ace``: a rank with its article, capitalised."""
    word = rank_word(rank)
    return ("An " if word[0] in "a8" else "A ") + word


class Build:
    """A tableau building rule. Subclasses define ``accepts`` and ``refusal``."""

    description = ""

    def accepts(self, card: Card, onto: Card) -> bool:
        raise NotImplementedError

    def refusal(self, card: Card, onto: Card) -> str:
        raise NotImplementedError


def _above(rank: int, wrap: bool) -> int | None:
    """The rank a card of ``rank`` is built down onto: one higher (a king onto an ace when
    ``wrap``)."""
    return next_rank(rank, 1, wrap=wrap)


@dataclass(frozen=True)
class DownAnySuit(Build):
    """Beleaguered Castle's rule: onto a card one rank higher, any suit; nothing on an ace.

    With ``wrap`` (Selective Castle) a king goes on an ace too.
    """

    wrap: bool = False

    @property
    def description(self) -> str:  # type: ignore[override]
        if self.wrap:
            return "Build down by one rank, regardless of suit; a king goes on an ace."
        return "Build down by one rank, regardless of suit."

    def accepts(self, card: Card, onto: Card) -> bool:
        return onto.rank == _above(card.rank, self.wrap)

    def refusal(self, card: Card, onto: Card) -> str:
        above = _above(card.rank, self.wrap)
        if above is None:
            return "A king can only go to an empty pile or a foundation"
        return f"{a_rank(card.rank)} can only go on {a_rank(above).lower()}, not on {onto}"


@dataclass(frozen=True)
class AlternateColourDown(Build):
    """Castles in Spain's and Somerset's rule: onto a card one rank higher of the other
    colour (red on black, black on red); nothing on an ace."""

    description = "Build down by one rank in alternating colours (red on black, black on red)."

    def accepts(self, card: Card, onto: Card) -> bool:
        return onto.rank == card.rank + 1 and onto.is_red != card.is_red

    def refusal(self, card: Card, onto: Card) -> str:
        if card.rank == KING:
            return "A king can only go to an empty pile or a foundation"
        wanted = f"a {_other(card)} {rank_word(card.rank + 1)}"
        if onto.rank == card.rank + 1:
            return f"Colours alternate: {card} can only go on {wanted}, not on {onto}"
        return f"{card} can only go on {wanted}, not on {onto}"


@dataclass(frozen=True)
class AlternateColourUpOrDown(Build):
    """Morphy's and Castles End's rule: one rank up or down in the other colour; kings and
    aces wrap when ``wrap``."""

    wrap: bool = True

    @property
    def description(self) -> str:  # type: ignore[override]
        wrap = "kings and aces wrap" if self.wrap else "no wrap between king and ace"
        return f"Build up or down by one rank in alternating colours ({wrap})."

    def accepts(self, card: Card, onto: Card) -> bool:
        return onto.is_red != card.is_red and onto.rank in self._neighbours(card.rank)

    def _neighbours(self, rank: int) -> tuple[int | None, int | None]:
        return next_rank(rank, 1, wrap=self.wrap), next_rank(rank, -1, wrap=self.wrap)

    def refusal(self, card: Card, onto: Card) -> str:
        ranks = " or ".join(rank_word(rank) for rank in self._neighbours(card.rank) if rank)
        wanted = f"a {_other(card)} {ranks}"
        if onto.is_red == card.is_red:
            return f"Colours alternate: {card} can only go on {wanted}"
        if {card.rank, onto.rank} == {ACE, KING}:
            return "Aces and kings do not wrap here: an ace and a king cannot be built together"
        return f"{card} can only go on {wanted}, one rank up or down"


@dataclass(frozen=True)
class OtherSuitDown(Build):
    """Morehead's rule: onto a card one rank higher of any suit but its own."""

    description = "Build down by one rank in any suit but the card's own."

    def accepts(self, card: Card, onto: Card) -> bool:
        return onto.rank == card.rank + 1 and onto.suit != card.suit

    def refusal(self, card: Card, onto: Card) -> str:
        if card.rank == KING:
            return "A king can only go to an empty pile or a foundation"
        if onto.rank == card.rank + 1:
            other = f"a {rank_word(onto.rank)} of another suit"
            return f"Not on its own suit: {card} can only go on {other}"
        return f"{a_rank(card.rank)} can only go on {a_rank(card.rank + 1).lower()}, not on {onto}"


def _other(card: Card) -> str:
    return "black" if card.is_red else "red"


@dataclass(frozen=True)
class SameSuitUpOrDown(Build):
    """Fortress's rule: same suit, one rank up or down; Chessboard also wraps K-A."""

    wrap: bool = False

    @property
    def description(self) -> str:  # type: ignore[override]
        wrap = "kings and aces wrap" if self.wrap else "no wrap between king and ace"
        return f"Build up or down by suit, one rank at a time ({wrap})."

    def accepts(self, card: Card, onto: Card) -> bool:
        return card.suit == onto.suit and onto.rank in self._neighbours(card.rank)

    def _neighbours(self, rank: int) -> tuple[int | None, int | None]:
        return next_rank(rank, 1, wrap=self.wrap), next_rank(rank, -1, wrap=self.wrap)

    def refusal(self, card: Card, onto: Card) -> str:
        targets = " or ".join(
            str(Card(rank, card.suit)) for rank in self._neighbours(card.rank) if rank
        )
        if card.suit != onto.suit:
            return f"Piles build by suit: {card} can only go on {targets}"
        if {card.rank, onto.rank} == {ACE, KING}:
            return "Aces and kings do not wrap here: an ace and a king cannot be built together"
        return f"{card} can only go on {targets}, one rank up or down"


@dataclass(frozen=True)
class NoBuilding(Build):
    """Archway's central piles: nothing is built on them; an empty one takes one card."""

    description = "No building: an empty central pile takes the top card of another one."

    def accepts(self, card: Card, onto: Card) -> bool:
        return False

    def refusal(self, card: Card, onto: Card) -> str:
        return "Nothing can be built on a central pile: only an empty one takes a card"
