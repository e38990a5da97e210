"""The layout text of RULES.md: ``game:``, ``deal:``, ``option:`` lines, then one line per
pile (foundations, tableau, reserves), bottom card first, top card last."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .cards import ALL_CARDS, Card, next_rank, parse_cards
from .deals import DEAL_DIGITS, Layout, check_deal_number, not_deal_digits
from .errors import LayoutError, RulesError
from .piles import Pile, PileKind, is_pile_name
from .variants import GameRules, game_named

if TYPE_CHECKING:
    from .board import Board


def write_layout(board: Board) -> str:
    lines = [f"game: {board.rules.slug}", f"deal: {board.deal_number}"]
    lines += [f"option: {option}" for option in sorted(board.options)]
    piles = board.book.piles
    order = [p for p in piles if p.kind is PileKind.FOUNDATION]
    order += [p for p in piles if p.kind is not PileKind.FOUNDATION]
    for pile in order:
        text = board.pile_text(pile)
        lines.append(f"{pile.name}: {text}" if text else f"{pile.name}:")
    return "\n".join(lines) + "\n"


def read_layout(text: str) -> tuple[GameRules, int, frozenset[str], Layout]:
    """Parse a layout; :class:`LayoutError` names the first line or card that is wrong."""
    fields: dict[str, list[str]] = {}
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon or not key:
            raise LayoutError(f"line {number} ({line.strip()!r}) is not 'name: value'")
        if key in fields and key != "option":
            raise LayoutError(f"line {number}: {key!r} appears twice")
        fields.setdefault(key, []).append(value.strip())
    try:
        rules = game_named(_single(fields, "game"))
        deal = check_deal_number(_integer(_single(fields, "deal")))
        options = rules.check_options(frozenset(fields.pop("option", [])))
        piles = {
            Pile.from_name(key): parse_cards(value[0])
            for key, value in fields.items()
            if is_pile_name(key)
        }
    except RulesError as error:
        raise LayoutError(str(error)) from error
    layout = Layout(
        _piles(piles, PileKind.TABLEAU, rules.tableau),
        _piles(piles, PileKind.FOUNDATION, len(rules.foundations)),
        _piles(piles, PileKind.RESERVE, rules.reserves),
        _piles(piles, PileKind.CELL, rules.cells),
    )
    if piles:
        raise LayoutError(f"{rules.name} has no pile {sorted(p.name for p in piles)[0]!r}")
    if any(len(cell) > 1 for cell in layout.cells):
        raise LayoutError("a free cell holds one card at most")
    _check_cards(rules, layout)
    _check_foundations(rules, layout)
    return rules, deal, options, layout


def _single(fields: dict[str, list[str]], key: str) -> str:
    if key not in fields:
        raise LayoutError(f"the layout has no '{key}:' line")
    return fields.pop(key)[0]


def _integer(text: str) -> int:
    if not DEAL_DIGITS.fullmatch(text):
        raise LayoutError(not_deal_digits(text))
    return int(text)


def _piles(
    piles: dict[Pile, list[Card]], kind: PileKind, count: int
) -> tuple[tuple[Card, ...], ...]:
    wanted = [Pile(kind, i) for i in range(1, count + 1)]
    missing = [pile.name for pile in wanted if pile not in piles]
    if missing:
        raise LayoutError(f"the layout has no line for pile {missing[0]}")
    return tuple(tuple(piles.pop(pile)) for pile in wanted)


def _check_cards(rules: GameRules, layout: Layout) -> None:
    counts = Counter(
        c
        for group in (layout.tableau, layout.foundations, layout.reserves, layout.cells)
        for pile in group
        for c in pile
    )
    for card in ALL_CARDS:
        if counts[card] != rules.decks:
            raise LayoutError(
                f"{card} appears {counts[card]} times; {rules.name} has {rules.decks} of each card"
            )
    for rank, pile in enumerate(layout.reserves, 1):
        if any(card.rank != rank for card in pile):
            raise LayoutError(f"reserve r{rank} holds only cards of rank {rank}")


def _check_foundations(rules: GameRules, layout: Layout) -> None:
    bases = {pile[0].rank for pile in layout.foundations if pile}
    for number, (spec, pile) in enumerate(
        zip(rules.foundations, layout.foundations, strict=True), 1
    ):
        if not pile:
            continue
        first = spec.first_rank or pile[0].rank
        expected = [Card(first, spec.suit)]
        while len(expected) < len(pile):
            rank = next_rank(expected[-1].rank, spec.step, wrap=spec.wrap)
            if rank is None:
                break
            expected.append(Card(rank, spec.suit))
        if list(pile) != expected[: len(pile)] or len(pile) > len(expected):
            raise LayoutError(f"f{number} is not built in order from {expected[0]}")
    if rules.base_is_chosen and len(bases) > 1:
        raise LayoutError("every foundation must start from the same base rank")
