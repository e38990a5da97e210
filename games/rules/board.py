"""The position and its move stack: legal moves, play, undo, win and stuck detection.

Internally a position is one list of piles of :class:`Card` (``int``) values: tableau piles
first, then foundations, then reserves. A move is the triple ``(source, target, card)`` of
pile indexes and the card; the public :class:`Move` values are interned per board, so
generating legal moves allocates almost nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Final

from .building import rank_word
from .cards import ALL_CARDS, Card, next_rank
from .deals import Layout, check_deal_number, deal
from .errors import IllegalMove, NotationError
from .moves import Move
from .variants import TAKE_BACK, FoundationRule, GameRules, get_game

RawMove = tuple[int, int, Card]


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
        self._piles: list[list[Card]] = [
            list(pile) for pile in (*start.tableau, *start.foundations, *start.reserves)
        ]
        self._stack: list[tuple[int, int, Card, int]] = []
        self._setup_tables()

    # -- construction -------------------------------------------------------------------

    def _setup_tables(self) -> None:
        rules = self.rules
        self._t = rules.tableau
        self._f0 = rules.tableau
        self._r0 = rules.tableau + len(rules.foundations)
        self.pile_names: list[str] = (
            [f"t{i + 1}" for i in range(rules.tableau)]
            + [f"f{i + 1}" for i in range(len(rules.foundations))]
            + [f"r{i + 1}" for i in range(13 if rules.reserves else 0)]
        )
        self._index = {name: i for i, name in enumerate(self.pile_names)}
        self._onto, self._under = _building_tables(rules)
        self._take_back = TAKE_BACK in self.options
        self._moves: dict[tuple[int, int, int], Move] = {}
        self._dealt_base = [1 if spec.dealt else 0 for spec in rules.foundations]

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
        board._piles = [list(pile) for pile in self._piles]
        if stack:
            board._stack = list(self._stack)
        else:
            board._initial = board.layout_value()
            board._stack = []
        return board

    # -- the position ---------------------------------------------------------------------

    @property
    def tableau(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(p) for p in self._piles[: self._t])

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(p) for p in self._piles[self._f0 : self._r0])

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(p) for p in self._piles[self._r0 :])

    def pile(self, name: str) -> tuple[Card, ...]:
        """The cards of the pile ``t3``, ``f2`` or ``r7``, bottom card first."""
        return tuple(self._piles[self._pile_index(name)])

    def layout_value(self) -> Layout:
        return Layout(self.tableau, self.foundations, self.reserves)

    @property
    def initial_layout(self) -> Layout:
        """The position as dealt (after Citadel's deal-time foundation plays)."""
        return self._initial

    @property
    def ply(self) -> int:
        """How many moves have been played: the move count of RULES.md."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        return [self._move(entry[:3]) for entry in self._stack]

    @property
    def cards_on_foundations(self) -> int:
        return sum(len(p) for p in self._piles[self._f0 : self._r0])

    @property
    def base_rank(self) -> int | None:
        """The rank every foundation starts from; Chessboard's is ``None`` until chosen."""
        for spec, pile in zip(
            self.rules.foundations, self._piles[self._f0 : self._r0], strict=True
        ):
            if spec.first_rank is not None:
                return spec.first_rank
            if pile:
                return pile[0].rank
        return None

    def is_won(self) -> bool:
        """Every card is on the foundations."""
        return self.cards_on_foundations == self.rules.cards

    def position_key(self) -> tuple[tuple[int, ...], ...]:
        """A hashable value equal for equal positions (piles in place, not sorted)."""
        return tuple(map(tuple, self._piles))

    # -- moves ----------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move in a fixed order: tableau sources by pile, then reserves."""
        return [self._move(raw) for raw in self.raw_legal_moves()]

    def raw_legal_moves(self) -> list[RawMove]:
        """The legal moves as ``(source, target, card)`` pile indexes: the solver's diet."""
        piles = self._piles
        t = self._t
        wants = self._foundation_wants()
        onto = self._onto
        moves: list[RawMove] = []
        empties = [j for j in range(t) if not piles[j]]
        tops = [(j, piles[j][-1]) for j in range(t) if piles[j]]
        for i, card in tops:
            for f in wants.get(card, ()):
                moves.append((i, f, card))
            targets = onto[card]
            if targets:
                for j, top in tops:
                    if top in targets and j != i:
                        moves.append((i, j, card))
            for j in empties:
                moves.append((i, j, card))
        for r in range(self._r0, len(piles)):
            for card in dict.fromkeys(piles[r]):
                for f in wants.get(card, ()):
                    moves.append((r, f, card))
        if self._take_back:
            for f in range(self._f0, self._r0):
                pile = piles[f]
                if len(pile) > self._dealt_base[f - self._f0]:
                    card = pile[-1]
                    for j, top in tops:
                        if top in onto[card]:
                            moves.append((f, j, card))
                    for j in empties:
                        moves.append((f, j, card))
        return moves

    def _foundation_wants(self) -> dict[Card, list[int]]:
        """For each card some foundation takes next, the foundations (indexes) that do."""
        wants: dict[Card, list[int]] = {}
        base = self.base_rank
        f0 = self._f0
        for k, spec in enumerate(self.rules.foundations):
            pile = self._piles[f0 + k]
            if pile:
                if len(pile) == 13:
                    continue
                rank = next_rank(pile[-1].rank, spec.step, wrap=spec.wrap)
                ranks: Iterable[int] = () if rank is None else (rank,)
            elif spec.first_rank is not None:
                ranks = (spec.first_rank,)
            elif base is not None:
                ranks = (base,)
            else:
                ranks = range(1, 14)
            for rank in ranks:
                wants.setdefault(Card(rank, spec.suit), []).append(f0 + k)
        return wants

    def push(self, move: Move | RawMove) -> None:
        """Play ``move`` without checking it (documented fast path for trusted callers)."""
        source, target, card = move if isinstance(move, tuple) else self._raw(move)
        pile = self._piles[source]
        if source >= self._r0:
            at = pile.index(card)
            del pile[at]
        else:
            at = -1
            pile.pop()
        self._piles[target].append(card)
        self._stack.append((source, target, card, at))

    def pop(self) -> RawMove:
        """Take back the last move without building a :class:`Move`; the fast ``undo``."""
        source, target, card, at = self._stack.pop()
        self._piles[target].pop()
        if at < 0:
            self._piles[source].append(card)
        else:
            self._piles[source].insert(at, card)
        return source, target, card

    def undo(self) -> Move:
        """Take back the last move and return it; ``IllegalMove`` if nothing was played."""
        if not self._stack:
            raise IllegalMove("undo", "There is no move to undo")
        return self._move(self.pop())

    def play(self, move: Move | str) -> Move:
        """Play a legal move, given as a :class:`Move` or in notation, and return it.

        Raises :class:`NotationError` for malformed text and :class:`IllegalMove`, whose
        message is one sentence for the player, when the rules forbid the move.
        """
        resolved = self.parse_move(move) if isinstance(move, str) else self._resolve(move)
        raw = self._raw(resolved)
        if raw not in self.raw_legal_moves():
            raise IllegalMove(resolved.notation(), self._refusal(*raw))
        self.push(raw)
        return resolved

    def is_legal(self, move: Move) -> bool:
        try:
            raw = self._raw(self._resolve(move))
        except (IllegalMove, NotationError):
            return False
        return raw in self.raw_legal_moves()

    def parse_move(self, text: str) -> Move:
        """Read a move in notation for this position, resolving ``t3-f`` to its foundation."""
        return self._resolve(Move.from_notation(text))

    def _resolve(self, move: Move) -> Move:
        if move.target != "f":
            self._pile_index(move.source)
            self._pile_index(move.target)
            return move
        source = self._pile_index(move.source)
        card = move.card if move.card is not None else self._top(source, move)
        targets = self._foundation_wants().get(card, [])
        if len(targets) != 1:
            where = "no foundation takes" if not targets else "more than one foundation takes"
            raise IllegalMove(move.notation(), f"{move.notation()!r}: {where} {card}")
        return Move(move.source, self.pile_names[targets[0]], move.card)

    def foundation_for(self, source: str) -> Move | None:
        """The move of ``source``'s available card to the one foundation that takes it."""
        try:
            move = self.parse_move(f"{source}-f")
        except (IllegalMove, NotationError):
            return None
        return move if self.is_legal(move) else None

    def _top(self, source: int, move: Move) -> Card:
        pile = self._piles[source]
        if not pile:
            raise IllegalMove(move.notation(), f"Pile {move.source} is empty")
        return pile[-1]

    def _pile_index(self, name: str) -> int:
        index = self._index.get(name)
        if index is None:
            raise NotationError(f"{self.rules.name} has no pile {name!r}")
        return index

    def _raw(self, move: Move) -> RawMove:
        source = self._pile_index(move.source)
        target = self._pile_index(move.target)
        if move.card is not None:
            if source < self._r0:
                raise NotationError(f"{move.notation()!r}: only reserve moves name a card")
            if move.card not in self._piles[source]:
                raise IllegalMove(move.notation(), f"There is no {move.card} in the reserves")
            return source, target, move.card
        if source >= self._r0:
            raise NotationError(
                f"{move.notation()!r}: name the reserve card, as in r:{move.source[1:]}H-f1"
            )
        return source, target, self._top(source, move)

    def _move(self, raw: RawMove | tuple[int, int, Card]) -> Move:
        source, target, card = raw
        key = (source, target, card if source >= self._r0 else 0)
        move = self._moves.get(key)
        if move is None:
            reserve_card = card if source >= self._r0 else None
            move = self._moves[key] = Move(
                self.pile_names[source], self.pile_names[target], reserve_card
            )
        return move

    # -- explaining refusals ------------------------------------------------------------

    def _refusal(self, source: int, target: int, card: Card) -> str:
        """The sentence that tells a player why ``card`` may not go from source to target."""
        names = self.pile_names
        if source == target:
            return "A card cannot move onto its own pile"
        if target >= self._r0:
            return "Reserve piles never receive cards"
        if self._f0 <= source < self._r0 and not self._take_back:
            return "A card on a foundation stays there"
        if self._f0 <= source < self._r0 and len(self._piles[source]) <= 1:
            return "The card that starts a foundation stays there"
        if target >= self._f0:
            return self._foundation_refusal(target, card)
        if source >= self._r0:
            return "Reserve cards can only go to a foundation"
        onto = self._piles[target]
        if not onto:
            return f"{card} cannot go to the empty pile {names[target]}"
        return self.rules.build.refusal(card, onto[-1])

    def _foundation_refusal(self, target: int, card: Card) -> str:
        spec: FoundationRule = self.rules.foundations[target - self._f0]
        pile = self._piles[target]
        if card.suit != spec.suit:
            return f"{self.pile_names[target]} is {spec.describe()}: {card} cannot go there"
        if len(pile) == 13:
            return f"{self.pile_names[target]} is complete"
        if not pile:
            base = spec.first_rank or self.base_rank
            return f"Only a card of the base rank {_rank(base)} can start a foundation"
        rank = next_rank(pile[-1].rank, spec.step, wrap=spec.wrap)
        wanted = Card(rank, spec.suit) if rank else None
        return f"{self.pile_names[target]} takes {wanted} next, not {card}"

    # -- auto-play and stuck ------------------------------------------------------------

    def safe_moves(self) -> list[Move]:
        """Foundation moves that can never cost the game (see :mod:`games.rules.safety`)."""
        from .safety import safe_raw_moves

        return [self._move(raw) for raw in safe_raw_moves(self)]

    def autoplay(self) -> list[Move]:
        """Play safe foundation moves, one at a time, until none is left; return them."""
        from .safety import safe_raw_moves

        played: list[Move] = []
        while moves := safe_raw_moves(self):
            move = self._move(moves[0])
            self.push(moves[0])
            played.append(move)
        return played

    def is_stuck(self) -> bool:
        """Strictly stuck: not won and no legal move at all."""
        return not self.is_won() and not self.raw_legal_moves()

    def is_cycle_stuck(self) -> bool:
        """Not won, and no legal move reaches a position not seen on this game's line.

        Moves between piles can cycle forever; this is the honest "no progress left" test.
        "Seen" means the positions from the deal through every move on the move stack.
        """
        if self.is_won():
            return False
        moves = self.raw_legal_moves()
        f0, r0 = self._f0, self._r0
        monotonic = not self._take_back
        if monotonic and any(f0 <= target < r0 for _, target, _ in moves):
            return False  # more cards on the foundations than ever before: a new position
        seen = set(self.positions_seen(since_foundation_move=monotonic))
        for raw in moves:
            self.push(raw)
            fresh = self.position_key() not in seen
            self.pop()
            if fresh:
                return False
        return True

    def positions_seen(
        self, *, since_foundation_move: bool = False
    ) -> Iterator[tuple[tuple[int, ...], ...]]:
        """The position keys from the deal through the current position.

        With ``since_foundation_move``, only those after the last move to a foundation: when
        foundation cards never come back, no earlier position can occur again.
        """
        if since_foundation_move:
            f0, r0 = self._f0, self._r0
            last = max((i for i, e in enumerate(self._stack) if f0 <= e[1] < r0), default=-1)
            if last >= 0:
                yield from self._keys_back_to(last + 1)
                return
        start = self._initial
        piles = [list(p) for p in (*start.tableau, *start.foundations, *start.reserves)]
        yield tuple(map(tuple, piles))
        for source, target, card, at in self._stack:
            del piles[source][at]
            piles[target].append(card)
            yield tuple(map(tuple, piles))

    def _keys_back_to(self, ply: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        """The position keys from ``ply`` to now, walking back from the current position."""
        piles = [list(p) for p in self._piles]
        yield tuple(map(tuple, piles))
        for source, target, card, at in reversed(self._stack[ply:]):
            piles[target].pop()
            if at < 0:
                piles[source].append(card)
            else:
                piles[source].insert(at, card)
            yield tuple(map(tuple, piles))

    def layout(self) -> str:
        """The position in the layout text of RULES.md."""
        from .layout import write_layout

        return write_layout(self)

    def __repr__(self) -> str:
        return f"<Board {self.rules.slug} deal {self.deal_number}, ply {self.ply}>"


def _rank(rank: int | None) -> str:
    return "?" if rank is None else rank_word(rank)


@cache
def _building_tables(rules: GameRules) -> tuple[list[frozenset[Card]], list[frozenset[Card]]]:
    """Per card code: the cards it may be laid on, and the cards that may be laid on it."""
    onto: list[frozenset[Card]] = [frozenset()] * 56
    under: list[frozenset[Card]] = [frozenset()] * 56
    for card in ALL_CARDS:
        onto[card] = frozenset(base for base in ALL_CARDS if rules.build.accepts(card, base))
        under[card] = frozenset(top for top in ALL_CARDS if rules.build.accepts(top, card))
    return onto, under
