"""Turns a board into what the templates draw: rows of piles, cards with accessible names,
the selected card, the legal destinations and the sentences players read. The rules stay in
the engine and out of the templates; the one piece of HTML here is a pile (``pile_html``),
the hot path of every move response."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from html import escape
from typing import TYPE_CHECKING

from games.rules import GAMES, Board, Card, Move, NotationError, get_game
from games.rules.cards import RANKS
from games.rules.solver import Hint

if TYPE_CHECKING:
    from games.models import Game

SUIT_SYMBOLS = "♣♦♥♠"
SUIT_CLASSES = ("c", "d", "h", "s")


@dataclass
class CardView:
    card: Card
    label: str
    source: str | None = None
    """What selecting this card sends (``t3``, ``r:7H``): only available cards have one."""
    action: str = ""
    """``select`` or ``move``: which form the card's button submits (none: disabled)."""
    value: str = ""

    @property
    def rank(self) -> str:
        return "10" if self.card.rank == 10 else RANKS[self.card.rank - 1]

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS[self.card.suit]

    @property
    def css(self) -> str:
        return SUIT_CLASSES[self.card.suit]


@dataclass
class PileView:
    name: str
    label: str
    kind: str
    cards: list[CardView] = field(default_factory=list)
    target: bool = False
    """A legal destination for the selected card."""
    selected: bool = False
    hinted: bool = False
    """Where the hint's move goes."""

    @property
    def top(self) -> CardView | None:
        return self.cards[-1] if self.cards else None

    slot: str = ""
    """For an empty pile while a card is selected: the move that targets it."""


@dataclass
class RowView:
    left: PileView | None
    middle: PileView | None
    right: PileView | None


@dataclass
class BoardView:
    slug: str
    layout: str
    rows: list[RowView]
    reserves: list[PileView]
    central: list[PileView]
    foundations: list[PileView]
    selected: str | None
    base_rank: str | None
    """Chessboard's chosen base rank (``not set`` before the first foundation move)."""
    legal: int


def parse_selection(board: Board, text: str | None) -> str | None:
    """A valid selection (``t3`` with a card, or ``r:7H`` present in the reserves) or None."""
    if not text:
        return None
    try:
        move = Move.from_notation(f"{text}-f")
    except NotationError:
        return None
    if move.card is not None:
        pile = board.pile(move.source) if move.source in board.pile_names else ()
        return f"r:{move.card}" if move.card in pile else None
    if move.source.startswith("t") and move.source in board.pile_names:
        return move.source if board.pile(move.source) else None
    if move.source.startswith("f") and any(m.source == move.source for m in board.legal_moves()):
        return move.source
    return None


def board_view(
    board: Board,
    selected: str | None = None,
    *,
    interactive: bool = True,
    hinted: str | None = None,
) -> BoardView:
    """What the templates draw; ``interactive=False`` (replays) makes every card inert."""
    rules = board.rules
    legal = board.legal_moves()
    targets = {m.target for m in legal if _source(m) == selected} if selected else set()
    sources = {m.source for m in legal if m.source.startswith("f")}
    piles = {name: _pile(board, name, targets, selected, sources) for name in board.pile_names}
    if hinted in piles:
        piles[hinted].hinted = True
    if not interactive:
        for pile in piles.values():
            pile.slot = ""
            for card in pile.cards:
                card.action = ""
    tableau = [piles[f"t{i + 1}"] for i in range(rules.tableau)]
    foundations = [piles[f"f{i + 1}"] for i in range(len(rules.foundations))]
    reserves = [piles[n] for n in board.pile_names if n.startswith("r")]
    rows: list[RowView] = []
    if rules.left_wing:
        right_wing = rules.tableau - rules.left_wing
        for i in range(max(rules.left_wing, right_wing, len(foundations))):
            rows.append(
                RowView(
                    tableau[i] if i < rules.left_wing else None,
                    foundations[i] if i < len(foundations) else None,
                    tableau[rules.left_wing + i] if i < right_wing else None,
                )
            )
    base = board.base_rank
    return BoardView(
        slug=rules.slug,
        layout="arch" if rules.reserves else "wings",
        rows=rows,
        reserves=reserves,
        central=tableau if not rules.left_wing else [],
        foundations=foundations,
        selected=selected,
        base_rank=(RANKS[base - 1] if base else "not set") if rules.base_is_chosen else None,
        legal=len(legal),
    )


def _source(move: Move) -> str:
    return f"r:{move.card}" if move.card is not None else move.source


def _pile(
    board: Board, name: str, targets: set[str], selected: str | None, sources: set[str]
) -> PileView:
    kind = name[0]
    number = name[1:]
    label = {"t": f"pile {number}", "f": f"foundation {number}", "r": f"reserve {number}"}[kind]
    cards = board.pile(name)
    views: list[CardView] = []
    for index, card in enumerate(cards):
        top = index == len(cards) - 1
        if kind == "r":
            views.append(CardView(card, f"{card.name}, {label}", f"r:{card}"))
        elif kind == "t" and top:
            views.append(CardView(card, f"{card.name}, top of {label}", name))
        elif kind == "f" and top:
            source = name if name in sources else None
            views.append(CardView(card, f"{card.name}, top of {label}", source))
        elif kind == "t":
            views.append(CardView(card, f"{card.name}, covered"))
    if kind == "f":
        views = views[-1:]
    pile = PileView(name, label, kind, views, target=name in targets)
    pile.selected = selected is not None and selected.split(":")[0] == name
    _set_actions(pile, selected)
    return pile


def _set_actions(pile: PileView, selected: str | None) -> None:
    """What each button does: select a card, or (with a card selected) move it here."""
    if selected is None:
        for card in pile.cards:
            if card.source:
                card.action, card.value = "select", card.source
        return
    for card in pile.cards:
        if card.source == selected:
            card.action, card.value = "move", f"{selected}-f"
    if pile.kind == "r":
        return
    if pile.top is None:
        pile.slot = f"{selected}-{pile.name}"
    elif not pile.top.action:
        pile.top.action, pile.top.value = "move", f"{selected}-{pile.name}"


@cache
def layout_preview(slug: str) -> BoardView:
    """A game's deal 1, for the home page's picture of its layout (never changes)."""
    return board_view(Board(get_game(slug), 1))


def pile_html(pile: PileView, side: str) -> str:
    """One pile's markup. This is every move response's hot path, so it is built here in
    Python rather than by a template include per pile (about ten times faster); the markup
    is the same a template would write: every card a button with an accessible name.
    ``type="submit"`` is explicit because htmx tracks a ``form=`` button only then."""
    classes = f"pile {side} {pile.kind}{' target' if pile.target else ''}"
    classes += f"{' selected' if pile.selected else ''}{' hinted' if pile.hinted else ''}"
    classes += f" n{len(pile.cards)}"
    label = pile.label + (", legal destination" if pile.target else "")
    parts = [f'<div class="{classes}" data-pile="{pile.name}" role="group" aria-label="{label}">']
    for card in pile.cards:
        face = f"{card.rank}<i>{card.suit}</i></button>"
        if card.action:
            form = "sl" if card.action == "select" else "mv"
            parts.append(
                f'<button type="submit" form="{form}" name="{card.action}" '
                f'value="{escape(card.value)}" class="card {card.css}" aria-label="{card.label}">'
                + face
            )
        else:
            parts.append(
                f'<button class="card {card.css}" disabled aria-label="{card.label}">{face}'
            )
    if not pile.cards:
        if pile.slot:
            parts.append(
                f'<button type="submit" form="mv" name="move" value="{escape(pile.slot)}" '
                f'class="slot" aria-label="Empty {pile.label}">·</button>'
            )
        else:
            parts.append('<span class="slot" aria-hidden="true"></span>')
    parts.append("</div>")
    return "".join(parts)


def piles_html(view: BoardView) -> str:
    """Every pile, laid out as the game is traditionally shown: rows of left wing,
    foundation and right wing, or Archway's arch of reserves around its central piles and
    foundations. Built in Python with ``pile_html``, for the same reason."""
    if view.layout == "wings":
        rows = "".join(
            f'<div class="row">{_place(row.left, "left")}{_place(row.middle, "found")}'
            f"{_place(row.right, 'right')}</div>"
            for row in view.rows
        )
        return f'<div class="wings">{rows}</div>'
    reserves = "".join(pile_html(pile, "reserve") for pile in view.reserves)
    central = "".join(pile_html(pile, "down") for pile in view.central)
    foundations = "".join(pile_html(pile, "found") for pile in view.foundations)
    return (
        f'<div class="arch"><div class="reserves">{reserves}</div>'
        f'<div class="central">{central}</div><div class="foundations">{foundations}</div></div>'
    )


def _place(pile: PileView | None, side: str) -> str:
    """A pile of a wing row, or the gap where a shorter wing or the foundations end."""
    if pile is not None:
        return pile_html(pile, side)
    return f'<div class="pile {side}{" none" if side == "found" else ""}"></div>'


def thumbnail(game: object) -> BoardView:
    """A saved game's current position, for the small pictures of "My games"."""
    return board_view(Board.from_layout(game.position), interactive=False)  # type: ignore[attr-defined]


def describe_move(board: Board, move: Move) -> str:
    """``Seven of clubs from pile 3 to pile 5``: a move in words, before it is played."""
    card = move.card or board.pile(move.source)[-1]
    where = {"t": "pile", "f": "foundation", "r": "reserve"}
    return (
        f"{card.name} from {where[move.source[0]]} {move.source[1:]} "
        f"to {where[move.target[0]]} {move.target[1:]}"
    )


def card_short(card: Card) -> str:
    """``7♠``, ``10♥``: a card as its index reads."""
    return ("10" if card.rank == 10 else RANKS[card.rank - 1]) + SUIT_SYMBOLS[card.suit]


_CARD_CODE = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])")


def for_people(text: str) -> str:
    """Card codes in a sentence (the engine's ``not on 3D``) as players read them: ``3♦``.

    >>> for_people("A 9 can only go on a 10, not on 3D")
    'A 9 can only go on a 10, not on 3♦'
    """
    return _CARD_CODE.sub(lambda code: card_short(Card.from_str(code.group())), text)


def move_words(board: Board, move: Move) -> str:
    """``7♠ → ♠ foundation``, ``7♠ → 8♦``, ``K♣ → empty pile 5``: a move, before it is
    played, in the words of the cards."""
    card = move.card or board.pile(move.source)[-1]
    if move.target.startswith("f"):
        return f"{card_short(card)} → {SUIT_SYMBOLS[card.suit]} foundation"
    below = board.pile(move.target)
    if below:
        return f"{card_short(card)} → {card_short(below[-1])}"
    return f"{card_short(card)} → empty pile {move.target[1:]}"


def move_list(board: Board, line: list[str]) -> list[tuple[int, str, str]]:
    """The replay's move list: number, notation and words of each move of ``line``, played
    from ``board`` (which it changes)."""
    moves = []
    for number, notation in enumerate(line, 1):
        move = board.parse_move(notation)
        moves.append((number, notation, move_words(board, move)))
        board.push(move)
    return moves


def daily_ending(game: Game) -> dict[str, object]:
    """What a daily win shows: moves against par, the player's rank among the day's winners
    (none for a late or eased win) and the next game's daily of the same day."""
    from games.daily import ranking  # the daily module reads the database

    daily = game.daily
    assert daily is not None
    rows = ranking(daily)
    mine = next((row for row in rows if row.entry.player_id == game.owner_id), None)
    slugs = list(GAMES)
    following = GAMES[slugs[(slugs.index(game.game) + 1) % len(slugs)]]
    over = game.ply - daily.par
    return {
        "over_par": over,
        "under_par": -over,
        "rank": mine.rank if mine else None,
        "players": len(rows),
        "next": {"slug": following.slug, "name": following.name},
    }


def hint_message(board: Board, hint: Hint) -> tuple[str, bool]:
    """The Hint button's sentence, and whether it is bad news."""
    if hint.move is not None:
        return f"Hint: {describe_move(board, hint.move)} ({hint.remaining} moves to win).", False
    if hint.verdict == "unsolvable":
        return "This position can no longer be won: undo or restart.", True
    if hint.verdict == "solved":
        return "The game is won.", False
    return "No winning line was found in time; try again after a move.", False


def analysis_message(game: object, ply: int | None) -> str:
    """What Analyse found: the last move that kept the game winnable, if the solver knows."""
    if ply is None:
        return (
            "The solver found no move that lost this game: it may still be winnable, "
            "or the search ran out of time."
        )
    if ply == 0:
        return "This deal could not be won from the start."
    notation = game.moves.get(ply=ply, undone=False).notation  # type: ignore[attr-defined]
    return f"The game could still be won until move {ply} ({notation})."


def histogram(moves: list[int], par: int) -> dict[str, object] | None:
    """Bars of an SVG histogram of winning move counts (server-rendered, no JS)."""
    if not moves:
        return None
    counts = Counter(moves)
    low, high = min(*moves, par), max(*moves, par)
    width, height, step = 320, 80, 320 / (high - low + 1)
    tallest = max(counts.values())
    bars = [
        {
            "x": round((value - low) * step, 1),
            "w": round(max(step - 1, 1), 1),
            "h": round(count / tallest * (height - 12), 1),
            "y": round(height - count / tallest * (height - 12), 1),
            "label": f"{count} won in {value} moves",
        }
        for value, count in sorted(counts.items())
    ]
    return {
        "width": width,
        "height": height,
        "bars": bars,
        "par_x": round((par - low + 0.5) * step, 1),
        "low": low,
        "high": high,
    }
