"""Turns a board into what the templates draw: rows of piles, cards with accessible names,
the selected card, the legal moves and the sentences players read. The rules stay in the
engine and out of the templates; the HTML is in templates (``games/piles.html``)."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, NamedTuple

from games.rules import GAMES, Board, Card, GameRules, Move, NotationError, get_game
from games.rules.cards import RANK_NAMES, RANKS, SUIT_NAMES
from games.rules.piles import Pile, PileKind, read_selection, selection_text
from games.rules.solver import Hint
from games.rules.tables import rule_book
from games.rules.variants import Arch, Wings

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
    hint: bool = False
    """The card the hint moves."""
    picked: bool = False
    """The selected card (a ``?select=`` page)."""

    def key(self) -> tuple[Any, ...]:
        """Every field, in order: equal keys draw equal buttons (``CardView(*key)``)."""
        return tuple(self.__dict__.values())

    @property
    def rank(self) -> str:
        return rank_index(self.card.rank)

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
    """The pile kind's letter (``t``, ``f``, ``r``, ``c``): a class of its markup."""
    cards: list[CardView] = field(default_factory=list)
    target: bool = False
    """A legal destination for the selected card."""
    selected: bool = False
    hinted: bool = False
    """Where the hint's move goes."""
    side: str = ""
    """How the pile fans out on the board, a class of its markup: ``left``, ``right`` or
    ``down`` (tableau piles), ``found``, ``reserve``, ``cell`` (the other kinds: the board
    script reads a pile's kind from these)."""
    start: int = 0
    """The first card drawn: a move response leaves the cards under it as they are."""
    gone: list[int] = field(default_factory=list)
    """For a move response: the indexes of the cards it took out from under ``start``
    (cards played out of an Archway reserve, where every card is available)."""
    restyle: bool = True
    """For a move response: whether the pile's classes changed (its height did)."""
    carry: str = ""
    """For a move response: the cards it carries over from another pile's markup instead of
    drawing them, as ``SOURCE FROM AT COUNT`` (``data-carry``): ``COUNT`` cards that
    pile shows from index ``FROM`` on go at index ``AT`` of this one, only their places
    (``t3@5``) renamed (:func:`carry_run`)."""
    carried: tuple[int, int] = (0, 0)
    """Where the carried cards go and how many: ``AT`` and ``COUNT``, left out of
    :attr:`shown`."""

    def key(self) -> tuple[Any, ...]:
        """What the pile's markup reads: every field but its cards, then its height and the
        card views it draws (:attr:`shown`). Equal keys draw equal markup."""
        fields = tuple(
            tuple(value) if isinstance(value, list) else value
            for name, value in self.__dict__.items()
            if name != "cards"
        )
        return (*fields, len(self.cards), tuple(card.key() for card in self.shown))

    @property
    def top(self) -> CardView | None:
        return self.cards[-1] if self.cards else None

    @property
    def shown(self) -> list[CardView]:
        at, count = self.carried
        if count:
            return self.cards[self.start : at] + self.cards[at + count :]
        return self.cards[self.start :] if self.start else self.cards

    slot: str = ""
    """For an empty pile while a card is selected: the move that targets it."""
    lane: str = ""
    """For a legal destination of the selected card, without JavaScript: the move a tap
    anywhere on the pile plays (its lane), not only on its top card or its slot."""


@dataclass
class WingRow:
    """One row of a wings layout: a left-wing pile, the foundation between, a right-wing pile."""

    left: PileView | None
    middle: PileView | None
    right: PileView | None


@dataclass
class BoardView:
    slug: str
    layout: str
    """The screen layout's kind (``wings``, ``arch``, ``rows``), from the declaration."""
    wing_rows: list[WingRow]
    reserves: list[PileView]
    central: list[PileView]
    foundations: list[PileView]
    selected: str | None
    base_rank: str | None
    """Chessboard's chosen base rank (``not set`` before the first foundation move)."""
    legal: int
    to: dict[str, list[str | int]] = field(default_factory=dict)
    """Every legal move for the script: each selectable card (by its selection, ``t3``,
    ``t3@5``, ``r:7H``) and the piles it may go to, so the script marks a selected card's
    destinations without asking the server and without reading the move notation. ``0``
    stands for every empty tableau pile (:attr:`spaces`): a card that may go to one may
    go to each, and saying so once keeps a move's answer small."""
    spaces: list[str] = field(default_factory=list)
    """The empty tableau piles, for ``0`` in :attr:`to`."""
    piles: dict[str, PileView] = field(default_factory=dict)
    cells: list[PileView] = field(default_factory=list)


def parse_hint(board: Board, text: str | None) -> Move | None:
    """The legal move of ``board``'s position that a hint's link names (``?hint=t7-t8``,
    where a page without JavaScript goes after Hint), or None."""
    if not text or len(text) > 32:
        return None
    return next((move for move in board.legal_moves() if move.notation() == text), None)


def parse_selection(board: Board, text: str | None) -> str | None:
    """A valid selection (``t3`` with a card, ``r:7H`` present in the reserves, a free cell
    with a card, a foundation whose top card may come back, ``t3@5`` heading a run on top
    of its pile) or None."""
    if not text:
        return None
    try:
        pile, card, place = read_selection(text)
        cards = board.pile(pile)
    except NotationError:
        return None
    if card is not None:
        return selection_text(pile, card) if card in cards else None
    if place is not None:
        return text if place in board.run_places(pile) else None
    if pile.kind in (PileKind.TABLEAU, PileKind.CELL):
        return pile.name if cards else None
    if pile.kind is PileKind.FOUNDATION and any(m.source == pile.name for m in board.legal_moves()):
        return pile.name
    return None


def board_view(
    board: Board,
    selected: str | None = None,
    *,
    interactive: bool = True,
    hint: Move | None = None,
    only: Collection[str] | None = None,
) -> BoardView:
    """What the templates draw; ``interactive=False`` (replays) makes every card inert.
    ``hint`` marks its card and its destination. The piles are placed as the game's
    declaration says (``rules.screen``). With ``only`` (a move response's piles), only
    those piles' views are built, in :attr:`BoardView.piles`, and the layout is empty."""
    rules = board.rules
    legal = board.legal_moves()
    targets = {m.target for m in legal if board.selection(m) == selected} if selected else set()
    sources = {m.source for m in legal if m.source_pile.kind is PileKind.FOUNDATION}
    piles = {
        pile.name: _pile(board, pile, targets, selected, sources)
        for pile in board.book.piles
        if only is None or pile.name in only
    }
    if hint is not None and hint.target in piles:
        piles[hint.target].hinted = True
    if hint is not None and hint.source in piles:
        for card in piles[hint.source].cards:
            card.hint = card.source == board.selection(hint)
    if not interactive:
        for pile in piles.values():
            pile.slot = pile.lane = ""
            for card in pile.cards:
                card.action = ""
    # Every pile in its place; None for one not built (``only``).
    kinds: dict[PileKind, list[PileView | None]] = {kind: [] for kind in PileKind}
    for engine_pile in board.book.piles:
        kinds[engine_pile.kind].append(piles.get(engine_pile.name))
    tableau = kinds[PileKind.TABLEAU]
    foundations = kinds[PileKind.FOUNDATION]
    wing_rows: list[WingRow] = []
    screen = rules.screen
    if isinstance(screen, Wings):
        left = screen.left
        right_wing = rules.tableau - left
        for i in range(max(left, right_wing, len(foundations))):
            wing_rows.append(
                WingRow(
                    tableau[i] if i < left else None,
                    foundations[i] if i < len(foundations) else None,
                    tableau[left + i] if i < right_wing else None,
                )
            )
        for i, tableau_pile in enumerate(tableau):
            if tableau_pile is not None:
                tableau_pile.side = "left" if i < left else "right"
    else:
        for tableau_pile in tableau:
            if tableau_pile is not None:
                tableau_pile.side = "down"
    for kind, side in (
        (PileKind.RESERVE, "reserve"),
        (PileKind.CELL, "cell"),
        (PileKind.FOUNDATION, "found"),
    ):
        for pile_view in kinds[kind]:
            if pile_view is not None:
                pile_view.side = side
    # The layout, only when every pile is there (a move response draws none).
    whole = only is None
    built = {
        kind: [v for v in views if v is not None] if whole else [] for kind, views in kinds.items()
    }
    to: dict[str, list[str | int]] = {}
    for move in legal:
        to.setdefault(board.selection(move), []).append(move.target)
    spaces = board.spaces
    if spaces:
        for destinations in to.values():
            if all(space in destinations for space in spaces):
                destinations[:] = [d for d in destinations if d not in spaces] + [0]
    base = board.base_rank
    return BoardView(
        slug=rules.slug,
        layout=screen.kind,
        wing_rows=wing_rows if whole else [],
        reserves=built[PileKind.RESERVE],
        central=[] if isinstance(screen, Wings) else built[PileKind.TABLEAU],
        foundations=built[PileKind.FOUNDATION],
        selected=selected,
        base_rank=(rank_index(base) if base else "not set") if rules.base_is_chosen else None,
        legal=len(legal),
        to=to if interactive else {},
        spaces=spaces,
        piles=piles,
        cells=built[PileKind.CELL],
    )


def script_data(view: BoardView, played: Iterable[str] = ()) -> str:
    """What the board script reads after each response (``#play``'s JSON): the legal moves
    (:attr:`BoardView.to`, as ``[[sources], [targets]]`` pairs, each list of destinations
    said once with every card that has it) and the moves the last action played, one
    string of words ``source-target`` apart, out of an Archway reserve
    ``source-target-card`` and for a run ``source-target-count`` (the piles' kinds are on
    the piles; a burst of auto-play names a dozen moves, and a word costs half what a list
    would). Compact JSON, safe inside a ``<script>`` element."""
    flights: list[str] = []
    for notation in played:
        move = Move.from_notation(notation)
        flight = f"{move.source}-{move.target}"
        if move.card is not None:
            flight += f"-{move.card}"
        elif move.count > 1:
            flight += f"-{move.count}"
        flights.append(flight)
    # Cards with the same destinations share one entry: [[sources], [targets]].
    groups: dict[tuple[str | int, ...], list[str]] = {}
    for source, targets in view.to.items():
        groups.setdefault(tuple(targets), []).append(source)
    to = [[sources, list(targets)] for targets, sources in groups.items()]
    data: dict[str, object] = {"to": to, "played": " ".join(flights)}
    if view.spaces and view.to:
        data["spaces"] = view.spaces
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def script_moves(data: dict[str, Any]) -> dict[str, list[str]]:
    """Read :func:`script_data`'s legal moves back, as the board script does: each source
    with every pile it may go to (for the tests and the benchmark, which play as it does)."""
    spaces = data.get("spaces", [])
    return {
        source: [t for target in targets for t in (spaces if target == 0 else [target])]
        for sources, targets in data["to"]
        for source in sources
    }


@lru_cache(maxsize=256)
def pile_label(rules: GameRules, name: str) -> str:
    """A pile named the way the board shows it: ``left pile 2`` (second from the top of the
    left wing), ``hearts foundation``, ``sevens reserve``, ``central pile 3``, ``free cell
    1``."""
    pile = Pile.from_name(name)
    number = pile.number
    if pile.kind is PileKind.FOUNDATION:
        suit = rules.foundations[number - 1].suit
        return f"{_way(rules, number)}{SUIT_NAMES[suit]} foundation"
    if pile.kind is PileKind.RESERVE:
        rank = RANK_NAMES[number - 1].lower()
        return f"{rank}{'es' if rank.endswith('x') else 's'} reserve"
    if pile.kind is PileKind.CELL:
        return f"free cell {number}"
    screen = rules.screen
    if isinstance(screen, Arch):
        return f"central pile {number}"
    if not isinstance(screen, Wings):
        return f"pile {number}"
    if number <= screen.left:
        return f"left pile {number}"
    return f"right pile {number - screen.left}"


def _way(rules: GameRules, foundation: int) -> str:
    """``ascending `` or ``descending `` for a foundation of a game whose suits each have
    one of both (Archway), else nothing: one foundation a suit needs no more than its suit."""
    if len({spec.step for spec in rules.foundations}) == 1:
        return ""
    return "ascending " if rules.foundations[foundation - 1].step > 0 else "descending "


def where(rules: GameRules, name: str) -> str:
    """A pile's name in a sentence: ``left pile 2``, ``the hearts foundation``."""
    label = pile_label(rules, name)
    return label if label[-1].isdigit() else f"the {label}"


_PILE_NAME = re.compile(r"(?<![\w'])[tfrc][1-9][0-9]?(?![\w'])")
"""A pile's notation in one of the engine's sentences (``t3``, ``f2``, ``c1``, ``r7``); never a
name in quotes (``'t9'``: input the engine refused, which names no pile of the game)."""


def pile_words(rules: GameRules, text: str) -> str:
    """The engine's sentence (``f2 takes 4D next, not 5D``, ``t3 is empty``) with its piles
    named the way the board shows them: ``The diamonds foundation takes 4D next, not 5D``,
    ``Left pile 3 is empty``. Card codes stay (``for_people`` writes them as cards).

    >>> pile_words(get_game("beleaguered-castle"), "t6 is empty")
    'Right pile 2 is empty'
    >>> pile_words(get_game("citadel"), "Only hearts go to f3, not 5C")
    'Only hearts go to the hearts foundation, not 5C'

    A name the game has no pile of stays as written (it comes from the player's input):

    >>> pile_words(get_game("citadel"), "'x-r99.' is not a move; t9 and f5 neither")
    "'x-r99.' is not a move; t9 and f5 neither"
    """
    piles = rule_book(rules).index
    named = _PILE_NAME.sub(
        lambda name: where(rules, name.group()) if name.group() in piles else name.group(), text
    )
    return named[:1].upper() + named[1:]


def _pile(
    board: Board, pile: Pile, targets: set[str], selected: str | None, sources: set[str]
) -> PileView:
    name = pile.name
    kind = pile.kind
    label = pile_label(board.rules, name)
    cards = board.pile(pile)
    views: list[CardView] = []
    if kind is PileKind.FOUNDATION:
        cards = cards[-1:]
    heads = board.run_places(pile)
    for index, card in enumerate(cards):
        top = index == len(cards) - 1
        if index + 1 in heads:
            # The pile's group label names the pile: a run's card spares the words.
            # "cards" even for one: a move's answer adds cards on a run without drawing its
            # cards again, so a card's label may not hang on how many lie on it.
            run_label = f"{card.name} and the cards on it"
            views.append(CardView(card, run_label, selection_text(pile, place=index + 1)))
        elif kind is PileKind.RESERVE:
            views.append(CardView(card, f"{card.name}, {label}", selection_text(pile, card)))
        elif kind in (PileKind.TABLEAU, PileKind.CELL) and top:
            views.append(CardView(card, f"{card.name}, top of {label}", name))
        elif kind is PileKind.FOUNDATION:
            source = name if name in sources else None
            views.append(CardView(card, card.name, source))
        else:
            views.append(CardView(card, f"{card.name}, covered"))
    view = PileView(name, label, kind.value, views, target=name in targets)
    view.selected = (
        selected is not None
        and kind is not PileKind.RESERVE
        and read_selection(selected)[0] == pile
    )
    _set_actions(board, view, selected, kind)
    return view


def _set_actions(board: Board, pile: PileView, selected: str | None, kind: PileKind) -> None:
    """What each button does: select a card, or (with a card selected) move it here. The
    selected card itself sends it home where one foundation takes it, else it is put down
    (its button selects nothing): a run, which goes home one card at a time, and a card no
    foundation takes, which answered "No foundation takes 7♦" to a click on the card a
    hint had picked up (a player's pass, without JavaScript)."""
    if selected is None:
        for card in pile.cards:
            if card.source:
                card.action, card.value = "select", card.source
        return
    run = read_selection(selected).place is not None
    for index, card in enumerate(pile.cards):
        if card.source == selected:
            card.picked = True
            if run or board.foundation_for(selected) is None:
                card.action, card.value = "select", ""
                for above in pile.cards[index + 1 :]:
                    above.picked = True
            else:
                card.action = "move"
                card.value = board.selected_move(selected, "f").notation()
    if kind is PileKind.RESERVE:
        return
    move = board.selected_move(selected, pile.name).notation()
    if pile.target:
        pile.lane = move
    if pile.top is None:
        pile.slot = move
    elif not pile.top.action:
        pile.top.action = "move"
        pile.top.value = move


@dataclass
class Replay:
    """An action's moves replayed once, for everything its response says about them: the
    piles they touched (:func:`touched_piles`) and the cards they moved
    (:func:`describe_outcome`)."""

    board: Board
    """The position after the moves."""
    moves: list[Move]
    """The moves, in play order."""
    cards: list[Card]
    """The card each move moved (a run's lowest), in play order."""
    before: dict[str, list[Card]]
    """Each touched pile's cards before the moves."""
    lowest: dict[str, int]
    """Each touched pile's lowest height on the way."""

    @property
    def names(self) -> set[str]:
        """The touched piles' names: the only pile views a move response needs
        (``board_view(only=...)``)."""
        return set(self.lowest)


def replay(board: Board, played: Iterable[str], *, back: bool) -> Replay:
    """``played`` replayed on ``board``, the position after them (before them when
    ``back``: an undo, or a hint's move not played yet)."""
    notations = list(played)
    replay = board.copy()
    if not back:
        for _ in notations:
            replay.pop()
    moves: list[Move] = []
    cards: list[Card] = []
    before: dict[str, list[Card]] = {}
    lowest: dict[str, int] = {}
    for notation in notations:  # a pile's height changes only by a move from or to it
        move = replay.parse_move(notation)
        moves.append(move)
        source = replay.pile(move.source)
        cards.append(move.card or source[-move.count])
        for name, held in ((move.source, source), (move.target, replay.pile(move.target))):
            before.setdefault(name, list(held))
            lowest[name] = min(lowest.get(name, len(held)), len(held))
        replay.push(move)
    for name in lowest:
        lowest[name] = min(lowest[name], len(replay.pile(name)))
    return Replay(replay, moves, cards, before, lowest)


def touched_piles(view: BoardView, board: Board, replayed: Replay, *, back: bool) -> list[PileView]:
    """The piles the replayed moves took cards from or put them on, for a move response.

    ``board`` is the position after the moves (before them when ``back``: an undo). A
    pile is drawn from the lowest card the moves uncovered or covered (``start``): the cards
    under it were covered before and after, so their markup did not change. A reserve that
    only lost cards (any of its cards may be played) keeps the others: the response names
    the ones that left (``gone``).
    """
    lowest = replayed.lowest
    piles = [view.piles[name] for name in sorted(lowest)]
    for pile in piles:
        shown = replayed.board.pile(pile.name) if back else replayed.before[pile.name]
        pile.restyle = _height(pile.kind, shown) != len(pile.cards)
        if pile.kind == PileKind.TABLEAU.value:
            pile.start = max(lowest[pile.name] - 1, 0)
            if board.rules.runs:  # a card that headed a run, or now does, is redrawn
                now = [card.card for card in pile.cards]
                was = board.run_places(pile.name, shown)
                changed = set(was) ^ set(board.run_places(pile.name, now))
                pile.start = min([pile.start, *(place - 1 for place in changed)])
        elif (
            pile.kind == PileKind.RESERVE.value
            and pile.cards
            and (gone := _left(shown, board.pile(pile.name)))
        ):
            pile.start, pile.gone = len(pile.cards), gone
    return piles


def carry_run(view: BoardView, board: Board, replayed: Replay, *, back: bool) -> None:
    """After :func:`touched_piles` (same arguments), for an action that moved cards: let
    the pile a run went to carry its cards over from the markup of the pile it left
    instead of drawing them again, since a long run would make the answer long (19 cards
    are some 2 KB). A card's markup names its pile only in its place (``t3@5``) and in a
    top card's label, so the cards carried are the run's covered cards that both answers
    redraw (the pile left keeps none of them, the pile taking them draws from below them).
    Each heads a run in both piles; should one not, the run is drawn as before."""
    run = replayed.moves[0] if replayed.moves else None
    if run is None or run.count < 2 or not board.rules.runs:
        return
    target = run.target_pile
    if run.source_pile.kind is not PileKind.TABLEAU or target is None:
        return
    if target.kind is not PileKind.TABLEAU:
        return
    # The run goes from ``was`` (as the page shows it) to ``now`` (as the answer makes it).
    was_name, now_name = (run.target, run.source) if back else (run.source, run.target)
    went, came = view.piles[was_name], view.piles[now_name]
    was = replayed.board.pile(was_name) if back else replayed.before[was_name]
    now = [card.card for card in came.cards]
    if back:
        first_was, first_now = len(board.pile(was_name)), len(now) - run.count
    else:
        first_was, first_now = len(was) - run.count, len(replayed.before[now_name])
    # The run's cards, by their offset in it, that both answers redraw and neither shows
    # on top.
    low = max(0, came.start - first_now, went.start - first_was)
    high = min(run.count, len(now) - 1 - first_now, len(was) - 1 - first_was)
    if high <= low:
        return
    heads_was, heads_now = board.run_places(was_name, was), board.run_places(now_name, now)
    for k in range(low, high):
        i, j = first_now + k, first_was + k
        if now[i] != was[j] or ((i + 1) in heads_now) != ((j + 1) in heads_was):
            return
    came.carried = (first_now + low, high - low)
    came.carry = f"{was_name} {first_was + low} {first_now + low} {high - low}"


def _height(kind: str, cards: Sequence[Card]) -> int:
    """How many cards a pile draws (a foundation only its top one)."""
    return min(len(cards), 1) if kind == PileKind.FOUNDATION.value else len(cards)


def _left(old: Sequence[Card], new: Sequence[Card]) -> list[int] | None:
    """The indexes in ``old`` of the cards that are not in ``new``, when ``new`` is ``old``
    less those cards (in order); otherwise ``None``."""
    gone = []
    kept = 0
    for index, card in enumerate(old):
        if kept < len(new) and new[kept] == card:
            kept += 1
        else:
            gone.append(index)
    return gone if kept == len(new) else None


@cache
def layout_preview(slug: str) -> BoardView:
    """A game's deal 1, for the home page's picture of its layout (never changes)."""
    return board_view(Board(get_game(slug), 1))


def thumbnail(position: str) -> BoardView:
    """A saved game's current position (its layout text), for the small pictures of "My
    games"."""
    return board_view(Board.from_layout(position), interactive=False)


def describe_move(board: Board, move: Move) -> str:
    """``Seven of clubs from left pile 3 to the hearts foundation``: a move in words, before
    it is played, naming piles the way the board shows them."""
    card = move.card or board.pile(move.source)[-move.count]
    rules = board.rules
    return (
        f"{moved_words(card, move)} from {where(rules, move.source)} to {where(rules, move.target)}"
    )


def moved_words(card: Card, move: Move) -> str:
    """What a move carries, in words: ``Nine of clubs``, or for a run, its lowest card
    ``and the 2 cards on it``."""
    if move.count == 1:
        return card.name
    rest = "the card" if move.count == 2 else f"the {move.count - 1} cards"
    return f"{card.name} and {rest} on it"


def describe_outcome(
    replayed: Replay,
    *,
    automatic: int,
    back: bool,
    restart: bool = False,
    to_ply: int = 0,
    restart_undone: bool = False,
) -> str:
    """What the live region says after an action: the move, then what auto-play did
    ("Seven of spades to the spades foundation. Auto-play: eight and nine of spades.").

    ``replayed``: the action's moves by :func:`replay` (for an undo, ``back``, the moves it
    took back); the last ``automatic`` of them were auto-play. A ``restart`` to a move of
    the line (``to_ply``) says which. An undo that took a restart back
    (``restart_undone``) plays the line again: said as the move it replayed, it read as a
    new move ("Eight of hearts to free cell 1." beside Undos 1; a player's pass).
    """
    if restart_undone:
        return f"Restart taken back: back at move {replayed.board.ply}."
    if restart:
        if to_ply:
            return f"Back to move {to_ply}."
        # The counter stands at the opening's auto-play again, not at 0 (a player's pass),
        # said in what a phone's two lines hold (opening_said's sentence was cut short).
        opening = replayed.board.ply
        if not opening:
            return "Back to the opening deal."
        if opening == 1:
            return "Back to the opening deal: the card auto-play sent up counts as a move."
        return f"Back to the opening deal: the {opening} cards auto-play sent up count as moves."
    moves, cards = replayed.moves, replayed.cards
    if not moves:
        return ""
    rules = replayed.board.rules
    own = len(moves) - automatic
    if back:  # the move as it was said when played, then where its cards are again
        first = moves[0]
        taken = f"{moved_words(cards[0], first)} to {where(rules, first.target)}"
        sentence = f"Taken back: {taken}; back on {where(rules, first.source)}." if own else ""
        if automatic:
            sentence += f" Auto-play taken back: {auto_words(cards[own:])}."
        return sentence.strip()
    said = [
        f"{moved_words(c, m)} to {where(rules, m.target)}"
        for c, m in zip(cards, moves, strict=True)
    ]
    sentence = "".join(f"{each}. " for each in said[:own])
    if automatic:
        sentence += f"Auto-play: {auto_words(cards[own:])}."
    return sentence.strip()


def opening_said(count: int) -> str:
    """What a game standing at its opening says of the moves on its counter, which the
    deal's safe auto-play made: "Moves 5" on a new game, with nothing played, puzzled a
    player (a player's pass). Every card moved counts, whoever moved it (RULES.md)."""
    cards = "1 card" if count == 1 else f"{count} cards"
    return f"Auto-play sent {cards} up from the deal: every card moved counts a move."


AUTO_NAMED = 8
"""Auto-played cards the live region names one by one; a longer run (an auto-finish, a
cascade of reserves) is said as a count, which a listener can take in."""


def auto_words(cards: list[Card]) -> str:
    """``eight and nine of spades``; ``12 cards to the foundations`` for a long run."""
    if len(cards) > AUTO_NAMED:
        return f"{len(cards)} cards to the foundations"
    return cards_in_words(cards)


def cards_in_words(cards: list[Card]) -> str:
    """Cards grouped by suit, each suit said once, suits in the order they first came:
    ``six, seven and eight of spades; two of hearts``.

    >>> from games.rules.cards import parse_cards
    >>> cards_in_words(parse_cards("6S 7H 7S 8S"))
    'six, seven and eight of spades; seven of hearts'
    """
    groups: dict[int, list[str]] = {}
    for card in cards:
        groups.setdefault(card.suit, []).append(RANK_NAMES[card.rank - 1].lower())
    parts = []
    for suit, ranks in groups.items():
        said = ranks[0] if len(ranks) == 1 else f"{', '.join(ranks[:-1])} and {ranks[-1]}"
        parts.append(f"{said} of {SUIT_NAMES[suit]}")
    return "; ".join(parts)


def card_short(card: Card) -> str:
    """``7♠``, ``10♥``: a card as its index reads."""
    return rank_index(card.rank) + SUIT_SYMBOLS[card.suit]


def rank_index(rank: int) -> str:
    """``7``, ``10``, ``Q``: a rank as a card's index reads it (the notation's ten is T)."""
    return "10" if rank == 10 else RANKS[rank - 1]


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])")


def sentence(text: str) -> str:
    """``text`` as a sentence: its first letter a capital, a stop at its end (the engine's
    errors and Django's are written to be embedded: ``unknown game 'x': ...``)."""
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def seconds_text(count: int) -> str:
    """A wait as a sentence says it: in seconds up to a minute and a half, then in minutes
    (rounded up: never less than the wait), then in hours and minutes ("please wait 1591
    seconds" read as a riddle, a player's pass).

    >>> [seconds_text(n) for n in (1, 30, 90, 91, 1591)]
    ['1 second', '30 seconds', '90 seconds', '2 minutes', '27 minutes']
    >>> seconds_text(3600), seconds_text(5400)
    ('1 hour', '1 hour 30 minutes')
    """
    if count <= 90:
        return f"{count} second" if count == 1 else f"{count} seconds"
    minutes = -(-count // 60)
    hours, minutes = divmod(minutes, 60)
    words = [f"{hours} hour" + ("s" if hours > 1 else "")] if hours else []
    words += [f"{minutes} minute" + ("s" if minutes > 1 else "")] if minutes else []
    return " ".join(words)


def for_people(text: str) -> str:
    """Card codes in a sentence (the engine's ``not on 3D``) as players read them: ``3♦``.

    >>> for_people("A 9 can only go on a 10, not on 3D")
    'A 9 can only go on a 10, not on 3♦'
    """
    return CARD_CODE.sub(lambda code: card_short(Card.from_str(code.group())), text)


def move_words(board: Board, move: Move) -> str:
    """``7♠ → ♠ foundation``, ``Q♣ → descending ♣ foundation`` (Archway), ``7♠ → 8♦``,
    ``K♣ → empty right pile 4``: a move, before it
    is played, in the words of the cards, its piles named as the board shows them. A run
    reads as its lowest card and its top, joined by an en dash (5♥ to 4♥ onto 6♣)."""
    source = board.pile(move.source)
    card = move.card or source[-move.count]
    moving = card_short(card)
    if move.count > 1:
        moving += f"\N{EN DASH}{card_short(source[-1])}"
    target = Pile.from_name(move.target)
    if move.to_foundation:
        return f"{moving} → {_way(board.rules, target.number)}{SUIT_SYMBOLS[card.suit]} foundation"
    label = pile_label(board.rules, move.target)
    if target.kind is PileKind.CELL:
        return f"{moving} → {label}"
    below = board.pile(target)
    if below:
        return f"{moving} → {card_short(below[-1])}"
    return f"{moving} → empty {label}"


class ListedMove(NamedTuple):
    """A move of the replay's list: its number, notation, words as the cards read
    (``7♠ → ♠ foundation``) and as a screen reader says them (``Seven of spades from right
    pile 3 to the spades foundation``: symbols read aloud as "black spade suit")."""

    number: int
    notation: str
    words: str
    spoken: str


def move_list(board: Board, line: list[str], *, first: int = 1) -> list[ListedMove]:
    """The replay's move list: each move of ``line``, played from ``board`` (which it
    changes); the first is numbered ``first``."""
    moves = []
    for number, notation in enumerate(line, first):
        move = board.parse_move(notation)
        moves.append(
            ListedMove(number, notation, move_words(board, move), describe_move(board, move))
        )
        board.push(move)
    return moves


def replay_said(listed: Sequence[ListedMove], ply: int, total: int) -> str:
    """What the replay's live region says at position ``ply`` of ``total``: the move that
    led to it (``Move 5 of 74: Seven of spades from …``), or that it is the deal."""
    if ply == 0:
        return f"The deal, before move 1 of {total}."
    spoken = next((move.spoken for move in listed if move.number == ply), "")
    return f"Move {ply} of {total}: {spoken}." if spoken else f"Move {ply} of {total}."


def daily_ending(
    slug: str,
    *,
    moves: int,
    par: int,
    rank: int | None,
    ranked: bool,
    players: int,
    held: str = "",
    following: str | None = None,
) -> dict[str, object]:
    """What a daily win of ``slug`` in ``moves`` shows: moves against par, the player's place
    among the day's ``players`` ranked winners (``rank``, or where an unranked win would
    place), why a moderator holds it (``held``: its flag's reason) and the game whose daily
    of that day comes next for the player (``following``; none when every one is won)."""
    over = moves - par
    return {
        "over_par": over,
        "under_par": -over,
        "rank": rank,
        "ranked": ranked,
        "players": players,
        "held": held,
        "next": {"slug": following, "name": GAMES[following].name} if following else None,
    }


def hint_message(board: Board, hint: Hint) -> tuple[str, bool]:
    """The Hint button's sentence, and whether it is bad news."""
    if hint.move is not None:
        left = f"{hint.remaining} move{'' if hint.remaining == 1 else 's'} to win"
        return f"Hint: {describe_move(board, hint.move)} ({left}).", False
    if hint.withheld:
        return (
            "Off the daily's own line, Hint says nothing while the day is live: it follows "
            "only that line. After the day it answers here too.",
            False,
        )
    if hint.deal_lost:
        return "This deal cannot be won, whatever the moves: start a new game.", True
    if hint.verdict == "unsolvable":
        return "This position can no longer be won: undo or restart.", True
    if hint.verdict == "solved":
        return "The game is won.", False
    return "No winning line was found in time; try again after a move.", False


def analysis_message(
    line: Sequence[str], ply: int | None, *, before: Board | None = None, end: Board | None = None
) -> str:
    """What Analyse found for ``line`` (the notation of the game's moves): the last move that
    kept the game winnable, if the solver knows; in words (``move_words``) when ``before``,
    the board that move was played on, is given, else in notation. ``end``, the board at the
    line's end: where no card can move there, the game is lost and only the search's time
    can have run out ("it may still be winnable" stood under "No card can move")."""
    if ply is None and end is not None and not end.legal_moves():
        return "The solver ran out of time before it found the move that lost this game."
    if ply is None:
        return (
            "The solver found no move that lost this game: it may still be winnable, "
            "or the search ran out of time."
        )
    if ply == 0:
        return "This deal could not be won from the start."
    notation = line[ply - 1]
    said = notation if before is None else move_words(before, before.parse_move(notation))
    return f"The game could still be won until move {ply} ({said})."


HISTOGRAM_SPAN = 21
"""Move counts a histogram spans at least: one result, or a few close ones, drew bars as
wide as the chart ("84 … 84 moves")."""


def histogram(counts: Mapping[int, int], par: int) -> dict[str, object] | None:
    """Bars of an SVG histogram of winning move counts (server-rendered, no JS): ``counts``
    says how many won in each number of moves (a count per number, as the database adds
    them up, not a row per win)."""
    if not counts:
        return None
    low, high = min(*counts, par), max(*counts, par)
    if (short := HISTOGRAM_SPAN - (high - low + 1)) > 0:  # one result drew one full bar
        low = max(low - short // 2, 0)
        high = low + HISTOGRAM_SPAN - 1
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


def flags_key(*values: object) -> str:
    """Truth values as a key's digits, ``1`` for each true one: what the board script sends
    back of what its page shows (the controls, the stuck panel)."""
    return "".join("1" if value else "0" for value in values)


def stuck_panel_key(page: Mapping[str, Any]) -> str:
    """What a page's stuck panel says (every value its markup reads), as the board script's
    Castle-Panel header says it back; empty when there is none. An answer leaves out the
    panel the page already shows: sent again with every move while stuck, it was read out
    again with every move (the status is a live region), and it was most of a stuck
    move's rendering. Drawn from the values as they are rendered (the template's tag and
    the view's answer), so a page changed after it was built cannot carry a stale key."""
    if not page.get("stuck"):
        return ""
    said = (page["view"].legal, page["lost_from_start"], page["analyse_withheld"])
    return "stuck-" + flags_key(*said, page.get("analysed"))
