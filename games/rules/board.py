"""The position and its move stack: legal moves, play, undo, win and stuck detection.

:class:`Board` is the checked public API over the one position type,
:class:`games.rules.position.Position`, which holds the cards, generates the moves and
knows the safe-move rule. A move inside is the triple ``(source, target, card)`` of pile
indexes and card code; the public :class:`Move` values are interned per game, so generating
legal moves allocates almost nothing. The legal moves of each position on the move stack
are remembered, so taking a move back costs no generation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from .building import a_rank, rank_word
from .cards import CARD_BY_CODE, CARD_TEXT_BY_CODE, SUIT_NAMES, Card, next_rank
from .deals import Layout, check_deal_number, deal
from .errors import IllegalMove, NotationError
from .moves import Move
from .piles import Pile, PileKind, read_selection, selection_text
from .position import Position, RawMove
from .tables import LegalMoves, RuleBook, rule_book
from .variants import TAKE_BACK, FoundationRule, GameRules, get_game

__all__ = ["Board", "RawMove"]


_memo_entries = 200_000


def set_legal_memo_entries(entries: int) -> None:
    """At most how many positions' legal moves each game remembers (then it starts again).

    Random play and the solver's playouts revisit most signatures, so the engine keeps many
    (200,000 by default); a web process, whose positions come from a handful of live games,
    needs a few thousand (``LEGAL_MEMO_ENTRIES`` in the settings), not hundreds of MB."""
    global _memo_entries
    if entries < 1:
        raise ValueError(f"the legal-move memo needs at least one entry, not {entries}")
    _memo_entries = entries


class Board:
    """A game of one deal in progress: python-chess's ``Board`` for Castle games.

    >>> board = Board("citadel", 1)
    >>> board.play("t3-t6")
    Move.from_notation('t3-t6')
    >>> board.play("t6-t2")
    Traceback (most recent call last):
    ...
    games.rules.errors.IllegalMove: An 8 can only go on a 9, not on 4H
    >>> board.ply, board.is_won()
    (1, False)
    >>> board.undo()
    Move.from_notation('t3-t6')

    :meth:`play` checks and raises :class:`IllegalMove` with a sentence a player can read;
    :meth:`push` trusts its caller (the solver, replays of stored games) and checks nothing.
    """

    def __init__(
        self,
        game: str | GameRules,
        deal_number: int,
        *,
        options: Iterable[str] = (),
        layout: Layout | None = None,
    ) -> None:
        self.rules: Final = get_game(game) if isinstance(game, str) else game
        self.deal_number: Final = check_deal_number(deal_number)
        self.options: Final = self.rules.check_options(frozenset(options))
        start = layout or deal(self.rules, deal_number)
        self._initial = start
        self.book: Final[RuleBook] = rule_book(self.rules)
        self._pos = Position.from_piles(
            self.book,
            [*start.tableau, *start.foundations, *start.reserves, *start.cells],
            take_back=TAKE_BACK in self.options,
        )
        self._legal: LegalMoves | None = None
        self._legal_stack: list[LegalMoves | None] = []
        self._moves = _interned(self.book)

    @classmethod
    def from_layout(cls, text: str) -> Board:
        """Read a position in the layout text of RULES.md (``game:``, ``deal:``, piles)."""
        from .layout import read_layout

        game, number, options, layout = read_layout(text)
        return cls(game, number, options=options, layout=layout)

    def copy(self, *, stack: bool = True) -> Board:
        """An independent board in the same position (with its move stack unless told not)."""
        board = Board.__new__(Board)
        board.__dict__.update(self.__dict__)
        board._pos = self._pos.copy()
        board._legal_stack = list(self._legal_stack)
        if not stack:
            board._initial = board.layout_value()
            board._pos.undo_stack = []
            board._legal_stack = []
        return board

    def position(self) -> Position:
        """A copy of the current position, without the moves that led to it."""
        position = self._pos.copy()
        position.undo_stack = []
        return position

    # -- the position ---------------------------------------------------------------------

    @property
    def pile_names(self) -> list[str]:
        """Every pile's name in index order: tableau, foundations, reserves, free cells."""
        return [pile.name for pile in self.book.piles]

    def _group(self, start: int, stop: int) -> tuple[tuple[Card, ...], ...]:
        return tuple(self._cards(i) for i in range(start, stop))

    def _cards(self, index: int) -> tuple[Card, ...]:
        return tuple(CARD_BY_CODE[c] for c in self._pos.cards(index))

    @property
    def tableau(self) -> tuple[tuple[Card, ...], ...]:
        return self._group(0, self.book.t)

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        return self._group(self.book.f0, self.book.r0)

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        return self._group(self.book.r0, self.book.c0)

    @property
    def cells(self) -> tuple[tuple[Card, ...], ...]:
        return self._group(self.book.c0, self.book.size)

    def pile(self, name: str | Pile) -> tuple[Card, ...]:
        """The cards of the pile ``t3``, ``f2``, ``r7`` or ``c1``, bottom card first."""
        return self._cards(self._pile_index(name if isinstance(name, str) else name.name))

    def pile_text(self, pile: Pile) -> str:
        """The cards of ``pile`` as a layout writes them: their texts, bottom card first,
        one space apart (empty for an empty pile)."""
        texts = CARD_TEXT_BY_CODE
        return " ".join([texts[c] for c in self._pos.cards(self.book.index[pile.name])])

    @property
    def spaces(self) -> list[str]:
        """The empty tableau piles' names."""
        piles = self._pos.piles
        return [pile.name for pile in self.book.piles[: self.book.t] if not piles[pile.index]]

    def top_run(self, name: str | Pile) -> int:
        """How many cards on top of a tableau pile follow the building rule: the longest
        run that could move together (1 for a lone card, 0 for an empty pile)."""
        return self._pos.run_length(self._pile_index(name if isinstance(name, str) else name.name))

    def run_places(self, name: str | Pile, cards: Sequence[Card] | None = None) -> range:
        """Where the covered cards that head a run on top of a tableau pile lie, counted
        from 1 at the bottom, as a run's selection names them (``t3@5``); empty when the
        game's runs do not move. ``cards``: the pile as it was, for a page that drew it so.

        The building rule alone decides, not whether a move takes the run now (like a top
        card, such a card is always selectable), so a card's place and status change only
        with its own pile."""
        pile = name if isinstance(name, Pile) else Pile.from_name(name)
        if not self.rules.runs or pile.kind is not PileKind.TABLEAU:
            return range(0)
        held = self.pile(pile) if cards is None else cards
        return range(len(held) - self.book.top_run(held) + 1, len(held))

    def layout_value(self) -> Layout:
        return Layout(self.tableau, self.foundations, self.reserves, self.cells)

    @property
    def initial_layout(self) -> Layout:
        """The position as dealt (after Citadel's deal-time foundation plays)."""
        return self._initial

    @property
    def ply(self) -> int:
        """How many moves have been played: the move count of RULES.md."""
        return len(self._pos.undo_stack)

    @property
    def move_stack(self) -> list[Move]:
        return self.first_moves(self.ply)

    def first_moves(self, count: int) -> list[Move]:
        """The first ``count`` moves of the move stack (a long game's whole stack costs
        more to build than a page that reads its start needs)."""
        stack = self._pos.undo_stack[:count]
        return [self._move((s, d, c), before) for s, d, c, before, _ in stack]

    @property
    def cards_on_foundations(self) -> int:
        return self._pos.out

    @property
    def base_rank(self) -> int | None:
        """The rank every foundation starts from; Chessboard's is ``None`` until chosen."""
        for spec in self.rules.foundations:
            if spec.first_rank is not None:
                return spec.first_rank
        return self._pos.base or None

    def is_won(self) -> bool:
        """Every card is on the foundations."""
        return self._pos.won()

    def position_key(self) -> bytes:
        """A hashable value equal for equal positions (piles in place, not sorted)."""
        return self._pos.plain_key()

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move in a fixed order: source by source (tableau piles, reserves,
        free cells), and from each: to foundations, onto cards, to empty piles and cells."""
        return list(self._legal_entry()[1])

    def raw_legal_moves(self) -> list[RawMove]:
        """The legal moves as ``(source, target, card)`` pile indexes and card codes."""
        return list(self._legal_entry()[0])

    def _legal_raw(self) -> list[RawMove]:
        return self._legal_entry()[0]

    def _legal_entry(self) -> LegalMoves:
        """The legal moves, raw and as moves: remembered for each position on the stack,
        and per game by position signature (what they depend on: foundations and the cards
        that may move), which random play and real games revisit most of the time."""
        legal = self._legal
        if legal is None:
            position = self._pos
            key = position.signature()
            if position.take_back:
                key += b"\2"
            cache = self.book.legal_cache
            legal = cache.get(key)
            if legal is None:
                raw = position.moves(by_source=True)
                if len(cache) >= _memo_entries:
                    cache.clear()
                moves = [self._move(m) for m in raw]
                by_id = {id(move): m for move, m in zip(moves, raw, strict=True)}
                legal = cache[key] = (raw, moves, by_id)
            self._legal = legal
        return legal

    def push(self, move: Move | RawMove) -> None:
        """Play ``move`` without checking it (documented fast path for trusted callers)."""
        raw = move if isinstance(move, tuple) else self._raw(move)
        self._legal_stack.append(self._legal)
        self._legal = None
        self._pos.do(*raw)

    def push_line(self, notations: Iterable[str]) -> None:
        """Play moves in notation without checking them: the fast path for replaying a
        stored line, whose moves were checked when they were played."""
        for text in notations:
            move = Move.from_notation(text)
            raw = self._quick_raw(move)
            self.push(raw if raw is not None else self._raw(self._resolve(move)))

    def pop(self) -> RawMove:
        """Take back the last move without building a :class:`Move`; the fast ``undo``."""
        s, d, c, _, _ = self._pos.undo_stack[-1]
        self._pos.undo()
        self._legal = self._legal_stack.pop()
        return s, d, c

    def undo(self) -> Move:
        """Take back the last move and return it; ``IllegalMove`` if nothing was played."""
        if not self._pos.undo_stack:
            raise IllegalMove("undo", "There is no move to undo")
        return self._move(self.pop())

    def play(self, move: Move | str) -> Move:
        """Play a legal move, given as a :class:`Move` or in notation, and return it.

        Raises :class:`NotationError` for malformed text and :class:`IllegalMove`, whose
        message is one sentence for the player, when the rules forbid the move.
        """
        if isinstance(move, str):
            move = Move.from_notation(move)
        entry = self._legal_entry()
        raw = entry[2].get(id(move))  # one of the moves legal_moves() gave
        if raw is None:
            legal = entry[0]
            raw = self._quick_raw(move)
            if raw is None or raw not in legal:
                move = self._resolve(move)
                raw = self._raw(move)
                if raw not in legal:
                    raise IllegalMove(move.notation(), self._refusal(*raw))
        self.push(raw)
        return move

    def _quick_raw(self, move: Move) -> RawMove | None:
        """The raw form of a move naming two piles of this game, without checks."""
        index = self.book.index
        s = index.get(move.source)
        d = index.get(move.target)
        if s is None or d is None:
            return None
        if move.card is not None:
            return (s, d, move.card) if self._is_reserve(s) else None
        if self.book.is_foundation(s):
            return None
        p = self._pos.piles[s]
        count = move.count
        return (s, d, p[-count]) if 0 < count <= len(p) else None

    def selection(self, move: Move) -> str:
        """What selecting ``move``'s card sends (:mod:`games.rules.piles`): ``t3``,
        ``r:7H``, or for a run, the place of its lowest card, ``t3@5``."""
        pile = Pile.from_name(move.source)
        if move.count == 1:
            return selection_text(pile, move.card)
        return selection_text(pile, place=len(self.pile(pile)) - move.count + 1)

    def selected_move(self, selection: str, target: str) -> Move:
        """The move of the selected card (and for a run, the cards on it) to ``target``, a
        pile's name or ``f`` for the foundation that takes it. Raises
        :class:`NotationError` for a selection that does not read or names no card.

        >>> board = Board("penelopes-web", 1)
        >>> board.play("t7-t2")
        Move.from_notation('t7-t2')
        >>> run = board.selected_move("t2@7", "t8")
        >>> run.notation(), board.selection(run), board.selected_move("t3", "f").notation()
        ('t2-t8x2', 't2@7', 't3-f')
        """
        pile, card, place = read_selection(selection)
        count = 1
        if place is not None:
            height = len(self.pile(pile))
            if place > height:
                raise NotationError(f"{selection!r}: {pile} has {height} cards")
            count = height - place + 1
        if target != "f":
            Pile.from_name(target)
        return Move(pile.name, target, card, count)

    def is_legal(self, move: Move) -> bool:
        try:
            raw = self._raw(self._resolve(move))
        except (IllegalMove, NotationError):
            return False
        return raw in self._legal_raw()

    def parse_move(self, text: str) -> Move:
        """Read a move in notation for this position, resolving ``t3-f`` to its foundation."""
        return self._resolve(Move.from_notation(text))

    def _resolve(self, move: Move) -> Move:
        if move.target != "f":
            self._pile_index(move.source)
            self._pile_index(move.target)
            return move
        source = self._pile_index(move.source)
        if move.count > 1:
            raise IllegalMove(move.notation(), "Only one card at a time goes to a foundation")
        card = move.card if move.card is not None else self._top(source, move)
        targets = self._pos.wants().get(card, [])
        if len(targets) != 1:
            where = "No foundation takes" if not targets else "More than one foundation takes"
            raise IllegalMove(move.notation(), f"{where} {card}")
        return Move(move.source, self.book.piles[targets[0]].name, move.card)

    def foundation_for(self, source: str) -> Move | None:
        """The move of ``source``'s available card to the one foundation that takes it."""
        try:
            move = self.parse_move(f"{source}-f")
        except (IllegalMove, NotationError):
            return None
        return move if self.is_legal(move) else None

    def _top(self, source: int, move: Move) -> Card:
        cards = self._pos.cards(source)
        if not cards:
            raise IllegalMove(move.notation(), f"{move.source} is empty")
        return CARD_BY_CODE[cards[-1]]

    def _pile_index(self, name: str) -> int:
        index = self.book.index.get(name)
        if index is None:
            raise NotationError(f"{self.rules.name} has no pile {name!r}")
        return index

    def _is_reserve(self, index: int) -> bool:
        return self.book.r0 <= index < self.book.c0

    def _raw(self, move: Move) -> RawMove:
        source = self._pile_index(move.source)
        target = self._pile_index(move.target)
        if move.card is not None:
            if not self._is_reserve(source):
                raise NotationError(f"{move.notation()!r}: only reserve moves name a card")
            if move.card not in self._pos.piles[source]:
                raise IllegalMove(move.notation(), f"There is no {move.card} in the reserves")
            return source, target, move.card
        if self._is_reserve(source):
            raise NotationError(
                f"{move.notation()!r}: name the reserve card, as in r:{move.source[1:]}H-f1"
            )
        if move.count > 1:
            notation = move.notation()
            if self.book.kind(source) is not PileKind.TABLEAU:
                raise IllegalMove(notation, "Only cards of a tableau pile move together")
            pile = self._pos.piles[source]
            if len(pile) < move.count:
                raise IllegalMove(
                    notation, f"{move.source} holds {len(pile)} cards, not {move.count}"
                )
            return source, target, CARD_BY_CODE[pile[-move.count]]
        return source, target, self._top(source, move)

    def move_of(self, raw: RawMove) -> Move:
        """The :class:`Move` of a raw move ``(source, target, card)`` in this position (a run
        move is named by its lowest card; its :class:`Move` counts the cards)."""
        return self._move(raw)

    def _move(self, raw: RawMove, before: bytes | None = None) -> Move:
        """The :class:`Move` of ``raw`` in this position (or, given ``before``, the source
        pile as it was when the move was played): a run move counts its cards."""
        count = 1
        source, target, card = raw
        if self.book.runs and source < self.book.t:
            pile = self._pos.piles[source] if before is None else before
            if pile and pile[-1] != card:
                count = len(pile) - pile.rfind(_BYTES[card])
        key = raw if count == 1 else (source, target, card, count)
        move = self._moves.get(key)
        if move is None:
            piles = self.book.piles
            named = CARD_BY_CODE[card] if self._is_reserve(source) else None
            move = Move(piles[source].name, piles[target].name, named, count)
            self._moves[key] = move
        return move

    # -- explaining refusals ------------------------------------------------------------

    def _refusal(self, source: int, target: int, card: int) -> str:
        """The sentence that tells a player why ``card`` may not go from source to target."""
        book = self.book
        kinds = book.piles
        target_kind = kinds[target].kind
        source_kind = kinds[source].kind
        shown = CARD_BY_CODE[card]
        if source == target:
            return "A card cannot move onto its own pile"
        pile = self._pos.piles[source]
        if source_kind is PileKind.TABLEAU and pile and pile[-1] != card:
            run = self._run_refusal(source, target, pile.rfind(_BYTES[card]))
            if run:
                return run
        if target_kind is PileKind.RESERVE:
            return "Reserve piles never receive cards"
        if source_kind is PileKind.FOUNDATION and not self._pos.take_back:
            return "A card on a foundation stays there"
        if source_kind is PileKind.FOUNDATION and self._pos.fl[source - book.f0] <= 1:
            return "The card that starts a foundation stays there"
        if target_kind is PileKind.FOUNDATION:
            return self._foundation_refusal(target, shown)
        if source_kind is PileKind.RESERVE:
            return "Reserve cards can only go to a foundation"
        onto = self._pos.cards(target)
        if target_kind is PileKind.CELL:
            if onto:
                return f"{kinds[target].name} already holds a card"
            return "Only the top card of a tableau pile goes to a free cell"
        if not onto:
            name = kinds[target].name
            if book.kings_only:
                return f"Only a king can go to an empty pile: {shown} cannot go to {name}"
            return f"{name} is empty, and {shown} cannot go there"
        return self.rules.build.refusal(shown, CARD_BY_CODE[onto[-1]])

    def _run_refusal(self, source: int, target: int, at: int) -> str:
        """Why the cards from ``at`` up on ``source`` may not move together (or ``""`` when
        only where they go is wrong)."""
        book = self.book
        name = book.piles[source].name
        count = len(self._pos.piles[source]) - at
        if not book.runs:
            return f"{self.rules.name} moves one card at a time: only the top card of {name}"
        if book.kind(target) is not PileKind.TABLEAU:
            return "Only one card at a time goes to a foundation or a free cell"
        if self._pos.run_length(source) < count:
            return f"The top {count} cards of {name} are not a run that follows the building rule"
        limit = self._pos.run_limit(target)
        if count > limit:
            cards = "1 card" if limit == 1 else f"{limit} cards"
            setters = "free cells set" if book.kings_only else "free cells and empty piles set"
            return f"{cards} can move together now ({setters} the limit), not {count}"
        return ""

    def _foundation_refusal(self, target: int, card: Card) -> str:
        book = self.book
        spec: FoundationRule = self.rules.foundations[target - book.f0]
        name = book.piles[target].name
        pile = self._pos.cards(target)
        if card.suit != spec.suit:
            return f"Only {SUIT_NAMES[spec.suit]} go to {name}, not {card}"
        if len(pile) == 13:
            return f"{name} is complete"
        if not pile:
            if spec.first_rank is not None:  # every deal's: "base rank" is a chooser's word
                return f"Only {a_rank(spec.first_rank).lower()} can start {name}"
            return f"Only a card of the base rank {_rank(self.base_rank)} can start a foundation"
        rank = next_rank(pile[-1] >> 2, spec.step, wrap=spec.wrap)
        wanted = Card(rank, spec.suit) if rank else None
        return f"{name} takes {wanted} next, not {card}"

    # -- auto-play and stuck ------------------------------------------------------------

    def safe_moves(self) -> list[Move]:
        """Foundation moves that can never cost the game (see :meth:`Position.safe_move`)."""
        return [self._move(raw) for raw in self._pos.safe_moves()]

    def autoplay(self) -> list[Move]:
        """Play safe foundation moves, one at a time, until none is left; return them."""
        played: list[Move] = []
        while moves := self._pos.safe_moves():
            played.append(self._move(moves[0]))
            self.push(moves[0])
        return played

    def is_stuck(self) -> bool:
        """Strictly stuck: not won and no legal move at all."""
        return not self.is_won() and not self._legal_raw()

    def is_cycle_stuck(self) -> bool:
        """Not won, and no legal move reaches a position not seen on this game's line.

        Moves between piles can cycle forever; this is the honest "no progress left" test.
        "Seen" means the positions from the deal through every move on the move stack.
        """
        if self.is_won():
            return False
        moves = self._legal_raw()
        book = self.book
        if self._pos.take_back:
            return self._every_move_returns(moves)
        if any(book.is_foundation(target) for _, target, _ in moves):
            return False  # more cards on the foundations than ever before: a new position
        return self._every_move_returns_since_foundation(moves)

    def _every_move_returns(self, moves: list[RawMove]) -> bool:
        """Whether each move's position is among :meth:`positions_seen` (any game)."""
        seen = set(self.positions_seen())
        position = self._pos.copy()
        for raw in moves:
            position.do(*raw)
            fresh = position.plain_key() not in seen
            position.undo()
            if fresh:
                return False
        return True

    def _every_move_returns_since_foundation(self, moves: list[RawMove]) -> bool:
        """:meth:`_every_move_returns` where foundation cards never come back and no move
        goes to a foundation: only positions since the last foundation move can recur,
        with the same foundations. A move changes two piles, so a position equals a
        move's result when it differs from the current one on at most those two piles, and
        there as the move leaves them. Walking back through the undo stack, which holds
        each move's two piles before it, tracks where the past position differs from the
        current one without building a whole key for each."""
        position = self._pos
        current = position.piles
        results: list[tuple[int, int, bytes, bytes]] = []
        for source, target, card in moves:
            position.do(source, target, card)
            results.append((source, target, current[source], current[target]))
            position.undo()
        fresh = set(range(len(results)))
        is_foundation = self.book.is_foundation
        past = list(current)
        differ: set[int] = set()
        for source, target, _, old_source, old_target in reversed(position.undo_stack):
            if is_foundation(source) or is_foundation(target):
                break  # the positions before this move had fewer foundation cards
            past[source], past[target] = old_source, old_target
            for index in (source, target):
                if past[index] == current[index]:
                    differ.discard(index)
                else:
                    differ.add(index)
            if len(differ) > 2:
                continue
            # A move changes both its piles, so matching there puts both in ``differ``:
            # with at most two piles different, the rest equal the move's result too.
            for i in list(fresh):
                s, t, after_s, after_t = results[i]
                if past[s] == after_s and past[t] == after_t:
                    fresh.discard(i)
            if not fresh:
                return True
        return not fresh

    def positions_seen(self, *, since_foundation_move: bool = False) -> Iterator[bytes]:
        """The position keys from the current position back through the deal.

        With ``since_foundation_move``, only those after the last move to a foundation: when
        foundation cards never come back, no earlier position can occur again.
        """
        stack = self._pos.undo_stack
        back = len(stack)
        if since_foundation_move:
            is_foundation = self.book.is_foundation
            last = next(
                (i for i in range(len(stack) - 1, -1, -1) if is_foundation(stack[i][1])), -1
            )
            back = len(stack) - 1 - last
        position = self._pos.copy()
        yield position.plain_key()
        for _ in range(back):
            position.undo()
            yield position.plain_key()

    def layout(self) -> str:
        """The position in the layout text of RULES.md."""
        from .layout import write_layout

        return write_layout(self)

    def __repr__(self) -> str:
        return f"<Board {self.rules.slug} deal {self.deal_number}, ply {self.ply}>"


def _rank(rank: int | None) -> str:
    return "?" if rank is None else rank_word(rank)


_BYTES = tuple(bytes((i,)) for i in range(256))

_INTERNED: dict[RuleBook, dict[tuple[int, ...], Move]] = {}


def _interned(book: RuleBook) -> dict[tuple[int, ...], Move]:
    """The :class:`Move` of each raw move, shared by every board of a game."""
    return _INTERNED.setdefault(book, {})
