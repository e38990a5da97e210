"""The rule book: each game's declaration compiled once into lookup tables.

:func:`rule_book` turns a :class:`GameRules` into a :class:`RuleBook` (cached per rules
object): pile index ranges and names, the building tables, the foundation sequences (per
base rank when the player chooses it, as in Chessboard) and the safe-move "need" table.
:class:`games.rules.position.Position` plays by these tables; nothing else derives them.

Pile indexes run over every pile of a game in one order: tableau piles, foundations,
reserves, free cells (``t``, ``f``, ``r``, ``c``). Card codes are :class:`Card` values
(``rank * 4 + suit``), so tables are indexed by card code, 56 entries wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from .cards import ALL_CARDS, Card, next_rank
from .moves import Move
from .piles import Pile, PileKind
from .variants import GameRules

CODES = 56
"""Table width: card codes run from 4 (ace of clubs) to 55 (king of spades)."""


@dataclass(frozen=True)
class Sequences:
    """The foundations' order for one base rank: what goes up when, and what must be up
    before a card may go up safely."""

    seq: tuple[tuple[int, ...], ...]
    """For each foundation, its 13 cards in the order they go up."""
    pos: tuple[int, ...]
    """Per card code: its place in its foundation's sequence (single deck)."""
    suit_foundation: tuple[int, ...]
    """Per suit, its foundation (single deck)."""
    need: tuple[tuple[tuple[int, int], ...], ...]
    """Per card code: ``(foundation, length)`` pairs that must all hold for the card to go
    up safely: every card that could be built on it is up already (its follower on its
    foundation excepted). Single deck only; see :meth:`RuleBook.safe_with_twins`."""


LegalMoves = tuple[list[tuple[int, int, int]], list[Move], dict[int, tuple[int, int, int]]]
"""A position's legal moves: raw (source, target, card code), as moves, and each move's raw
form by the move's ``id`` (``Board.play`` of a move the board listed needs no parsing or
search; the entry keeps its moves alive, so an ``id`` found there is that very move)."""


@dataclass(frozen=True, eq=False)
class RuleBook:
    """A game's tables. Build with :func:`rule_book`, never directly."""

    rules: GameRules
    t: int
    """Tableau piles are ``0 .. t-1``."""
    f0: int
    """Foundations are ``f0 .. r0-1``."""
    r0: int
    """Reserves are ``r0 .. c0-1``."""
    c0: int
    """Free cells are ``c0 .. size-1``."""
    size: int
    piles: tuple[Pile, ...]
    """Each index's pile."""
    sources: tuple[int, ...]
    """The piles whose top card may move anywhere: tableau piles, then free cells."""
    index: dict[str, int]
    """Each pile name's index."""
    onto: tuple[tuple[int, ...], ...]
    """Per card code: the cards it may be laid on in the tableau."""
    under: tuple[frozenset[int], ...]
    """Per card code: the cards that may be laid on it."""
    builds: bool
    """Whether any card may be laid on another (Archway: none)."""
    slot_of: tuple[int, ...]
    """Per card code: the slot it offers as a top card (its rank when building ignores
    suits, else the card itself), so one lookup finds every pile a card may go on."""
    slot_wants: tuple[tuple[int, ...], ...]
    """Per card code: the slots it may be laid on."""
    dealt: tuple[int, ...]
    """Per foundation: how many cards start it before the deal (they never leave)."""
    suit_foundations: tuple[tuple[int, ...], ...]
    """Per suit: its foundations (0-based foundation numbers)."""
    chosen_base: bool
    """The player's first foundation move fixes the base rank (Chessboard)."""
    kings_only: bool
    """Only a king may go to an empty tableau pile."""
    runs: bool
    """Runs that follow the building rule may move together (see ``GameRules.runs``)."""
    any_run: bool
    """Runs of any length may move (``GameRules.run_limit == "any"``)."""
    decks: int
    total: int
    _sequences: dict[int, Sequences | None] = field(default_factory=dict, repr=False)
    wants_cache: dict[bytes, dict[int, list[int]]] = field(default_factory=dict, repr=False)
    """What the foundations take next, per foundation state (see ``Position.wants``)."""
    legal_cache: dict[bytes, LegalMoves] = field(default_factory=dict, repr=False)
    """The board's legal moves by position signature and take-back option (see
    ``Board.legal_moves``): read only."""

    def sequences(self, base: int) -> Sequences | None:
        """The foundation sequences; with a chosen base, those of ``base`` (0: not chosen
        yet, ``None``)."""
        found = self._sequences.get(base, self)
        if found is self:
            found = self._sequences[base] = _sequences(self, base)
        return found  # type: ignore[return-value]

    def top_run(self, cards: Sequence[int]) -> int:
        """How many cards on top of ``cards`` (a tableau pile, bottom first) follow the
        building rule: 1 for a lone card, 0 for none."""
        under = self.under
        k = 1 if cards else 0
        while k < len(cards) and cards[-k] in under[cards[-k - 1]]:
            k += 1
        return k

    def kind(self, index: int) -> PileKind:
        return self.piles[index].kind

    def is_foundation(self, index: int) -> bool:
        return self.f0 <= index < self.r0


@cache
def rule_book(rules: GameRules) -> RuleBook:
    """Compile ``rules`` into its tables, once per rules object."""
    t = rules.tableau
    f0 = t
    r0 = f0 + len(rules.foundations)
    c0 = r0 + rules.reserves
    size = c0 + rules.cells
    piles = (
        tuple(Pile(PileKind.TABLEAU, i + 1) for i in range(t))
        + tuple(Pile(PileKind.FOUNDATION, i + 1) for i in range(r0 - f0))
        + tuple(Pile(PileKind.RESERVE, i + 1) for i in range(rules.reserves))
        + tuple(Pile(PileKind.CELL, i + 1) for i in range(rules.cells))
    )
    onto_sets: list[tuple[int, ...]] = [()] * CODES
    under_sets: list[frozenset[int]] = [frozenset()] * CODES
    for card in ALL_CARDS:
        onto_sets[card] = tuple(int(b) for b in ALL_CARDS if rules.build.accepts(card, b))
        under_sets[card] = frozenset(int(a) for a in ALL_CARDS if rules.build.accepts(a, card))
    onto = tuple(onto_sets)
    by_rank = all(
        set(onto[c]) == {int(b) for b in ALL_CARDS if b.rank == c.rank + 1} for c in ALL_CARDS
    )
    if by_rank:
        slot_of = tuple(c >> 2 for c in range(CODES))
        slot_wants = tuple(tuple(sorted({b >> 2 for b in onto[c]})) for c in range(CODES))
    else:
        slot_of, slot_wants = tuple(range(CODES)), onto
    return RuleBook(
        rules=rules,
        t=t,
        f0=f0,
        r0=r0,
        c0=c0,
        size=size,
        piles=piles,
        sources=(*range(t), *range(c0, size)),
        index={pile.name: i for i, pile in enumerate(piles)},
        onto=onto,
        under=tuple(under_sets),
        builds=any(onto),
        slot_of=slot_of,
        slot_wants=slot_wants,
        dealt=tuple(1 if spec.dealt else 0 for spec in rules.foundations),
        suit_foundations=tuple(
            tuple(k for k, spec in enumerate(rules.foundations) if spec.suit == suit)
            for suit in range(4)
        ),
        chosen_base=rules.base_is_chosen,
        kings_only=rules.kings_only,
        runs=rules.runs,
        any_run=rules.runs and rules.run_limit == "any",
        decks=rules.decks,
        total=rules.cards,
    )


def _sequences(book: RuleBook, base: int) -> Sequences | None:
    rules = book.rules
    if book.chosen_base and base == 0:
        return None
    seq: list[tuple[int, ...]] = []
    for spec in rules.foundations:
        rank: int | None = spec.first_rank or base
        cards: list[int] = []
        while rank is not None and len(cards) < 13:
            cards.append(int(Card(rank, spec.suit)))
            rank = next_rank(rank, spec.step, wrap=spec.wrap)
        seq.append(tuple(cards))
    pos = [0] * CODES
    suit_foundation = [0] * 4
    need: list[tuple[tuple[int, int], ...]] = [()] * CODES
    if book.decks == 1:
        for k, cards_k in enumerate(seq):
            suit_foundation[rules.foundations[k].suit] = k
            for i, c in enumerate(cards_k):
                pos[c] = i
        for c in ALL_CARDS:
            k = suit_foundation[c.suit]
            at = pos[c]
            follower = seq[k][at + 1] if at + 1 < len(seq[k]) else -1
            above = [b for b in book.under[c] if b != follower]
            need[c] = tuple((suit_foundation[b & 3], pos[b] + 1) for b in sorted(above))
    return Sequences(tuple(seq), tuple(pos), tuple(suit_foundation), tuple(need))
