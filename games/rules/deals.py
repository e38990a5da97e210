"""Seeded deals: a game and a deal number give one layout, forever.

The deck order is PySolFC's (the ``pysol_cards`` package reproduces its numbering: deals up
to 32000 use the Microsoft-compatible generator, larger ones the Mersenne Twister). Beleaguered
Castle, Citadel and Streets and Alleys therefore deal exactly as PySolFC does; the tests hold
the three to ``pysol_cards``' own layouts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pysol_cards.cards import createCards
from pysol_cards.random import shuffle
from pysol_cards.random_base import RandomBase

from .cards import Card
from .errors import BadDealNumber
from .variants import GameRules

MAX_DEAL = 2**63 - 1
"""The largest deal number: it fits a signed 64-bit database integer."""

DEAL_DIGITS = re.compile(r"[0-9]+")
"""How a deal number is written: ASCII digits only (``str.isdigit`` also accepts "²" and
"①", which ``int`` refuses)."""


def not_deal_digits(text: str) -> str:
    """What to say of ``text`` written as a deal number that ``DEAL_DIGITS`` refuses ("-4"
    is a whole number, so "not a whole number" was wrong; a player's pass)."""
    return f"deal {text!r} is not a deal number: use 1 to {MAX_DEAL}"


@dataclass(frozen=True)
class Layout:
    """A dealt position: tableau, foundation, reserve piles and free cells, bottom card
    first."""

    tableau: tuple[tuple[Card, ...], ...]
    foundations: tuple[tuple[Card, ...], ...]
    reserves: tuple[tuple[Card, ...], ...]
    cells: tuple[tuple[Card, ...], ...] = ()


def check_deal_number(number: int) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_DEAL:
        raise BadDealNumber(f"deal number {number!r} is out of range: use 1 to {MAX_DEAL}")
    return number


def shuffled_deck(decks: int, number: int) -> list[Card]:
    """PySolFC's deck for deal ``number``, in the order the cards are dealt."""
    cards = shuffle(createCards(decks), check_deal_number(number), RandomBase.DEALS_PYSOLFC)
    # pysol_cards suits run C S H D; ours run C D H S.
    suit = (0, 3, 2, 1)
    return [Card(c.rank, suit[c.suit]) for c in reversed(cards)]


def deal(rules: GameRules, number: int) -> Layout:
    """Lay out deal ``number`` of ``rules`` as RULES.md describes."""
    deck = shuffled_deck(rules.decks, number)
    foundations: list[list[Card]] = [[] for _ in rules.foundations]
    for index, spec in enumerate(rules.foundations):
        if spec.dealt:
            first = Card(spec.first_rank or 1, spec.suit)
            deck.remove(first)
            foundations[index].append(first)
    tableau: list[list[Card]] = [[] for _ in range(rules.tableau)]
    cards = iter(deck)
    plan = rules.deal.plan(rules.tableau)
    for pile, card in zip(plan, cards, strict=False):
        if not (rules.deal.to_foundations and _goes_up(rules, foundations, card)):
            tableau[pile].append(card)
    cells: list[list[Card]] = [[] for _ in range(rules.cells)]
    for cell, card in zip(cells[: rules.deal.to_cells], cards, strict=False):
        cell.append(card)
    reserves: list[list[Card]] = [[] for _ in range(rules.reserves)]
    for card in cards:
        reserves[card.rank - 1].append(card)
    return Layout(
        tuple(map(tuple, tableau)),
        tuple(map(tuple, foundations)),
        tuple(map(tuple, reserves)),
        tuple(map(tuple, cells)),
    )


def _goes_up(rules: GameRules, foundations: list[list[Card]], card: Card) -> bool:
    """Citadel's deal: put ``card`` on its foundation if it fits there."""
    for spec, pile in zip(rules.foundations, foundations, strict=True):
        if spec.suit == card.suit and pile and pile[-1].rank + spec.step == card.rank:
            pile.append(card)
            return True
    return False
