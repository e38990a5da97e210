"""The one position type: a compact mutable position with the one move generator and the
one safe-move rule. :class:`games.rules.Board` (the checked public API), auto-play and the
solver all play on it.

A position holds, by pile index (see :mod:`games.rules.tables`): tableau, reserve and
free-cell piles as ``bytes`` of card codes, bottom card first; foundations as their lengths
(their cards follow from the game's foundation sequences and, in Chessboard, the base rank).
A move is the triple ``(source, target, card)`` of pile indexes and card code. Moves are
played and taken back in place; ``undo_stack`` remembers what each took away.

Safe auto-play: a move of card ``c`` to a foundation is *safe* when every winning line from
the position before the move can be matched by one from the position after it. That holds
when:

1. nothing still in play could ever need ``c`` as a tableau base: every card the game's
   building rule lets be laid on ``c`` is already on a foundation (all its copies), or is
   ``c``'s own successor on that foundation (it can follow ``c`` up instead of onto it);
2. with two decks (Archway), no other copy of ``c`` waits in a tableau pile or free cell:
   two copies of a card compete for the ascending and the descending foundation, and a
   buried copy may need the one we would use; a copy in a reserve is always available, so
   it cannot;
3. the move does not start a foundation whose base rank the player chooses: Chessboard's
   base is fixed only by a deliberate player move.

Per game that reads: Beleaguered Castle, Citadel, Streets and Alleys send a card up once
every card one rank lower is on the foundations (aces always); Fortress sends up any card
that fits (the cards built on it are its same-suit neighbours); Chessboard does too, except
the card that would start an empty foundation; Archway sends up any card whose twin is on a
foundation or in a reserve. A card in a free cell is available like a top card.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .tables import CODES, RuleBook, Sequences

RawMove = tuple[int, int, int]
"""A move: source pile index, target pile index, card code."""

_BYTE = tuple(bytes((i,)) for i in range(256))
_ANY = 1 << 16
"""A run limit no pile reaches: runs of any length move."""


class Position:
    """A position of one game. Build with :meth:`from_piles` or :meth:`copy`."""

    book: RuleBook
    piles: list[bytes]
    """Every pile by index; a foundation's entry is always empty (see ``fl``)."""
    fl: list[int]
    """Each foundation's length."""
    out: int
    """Cards on the foundations."""
    base: int
    """The chosen base rank (Chessboard), 0 before it is chosen or when the game has none."""
    seqs: Sequences | None
    """The foundation sequences in force (``None``: a base is still to be chosen)."""
    intab: list[int] | None
    """With several decks: per card code, copies in the tableau and free cells."""
    take_back: bool
    """A foundation's top card may come back to the tableau (an easing option)."""
    undo_stack: list[tuple[int, int, int, bytes, bytes]]

    @classmethod
    def from_piles(
        cls,
        book: RuleBook,
        piles: Sequence[Sequence[int]],
        *,
        take_back: bool = False,
    ) -> Position:
        """A position from every pile's cards by index, foundations included (they must be
        built in order: only their lengths and first cards are read)."""
        self = cls.__new__(cls)
        self.book = book
        f0, r0 = book.f0, book.r0
        self.piles = [b"" if f0 <= i < r0 else bytes(p) for i, p in enumerate(piles)]
        self.fl = [len(p) for p in piles[f0:r0]]
        self.out = sum(self.fl)
        self.base = 0
        if book.chosen_base:
            self.base = next((p[0] >> 2 for p in piles[f0:r0] if p), 0)
        self.seqs = book.sequences(self.base)
        self.intab = None
        if book.decks > 1:
            self.intab = [0] * CODES
            for i in (*range(book.t), *range(book.c0, book.size)):
                for c in self.piles[i]:
                    self.intab[c] += 1
        self.take_back = take_back
        self.undo_stack = []
        return self

    def copy(self) -> Position:
        """An independent position, its undo stack included."""
        other = Position.__new__(Position)
        other.__dict__.update(self.__dict__)
        other.piles = list(self.piles)
        other.fl = list(self.fl)
        other.intab = None if self.intab is None else list(self.intab)
        other.undo_stack = list(self.undo_stack)
        return other

    # -- reading it -----------------------------------------------------------------------

    def foundation(self, k: int) -> tuple[int, ...]:
        """The cards on foundation ``k`` (0-based), bottom first."""
        n = self.fl[k]
        if not n:
            return ()
        assert self.seqs is not None
        return self.seqs.seq[k][:n]

    def cards(self, index: int) -> tuple[int, ...]:
        """The cards of any pile, bottom first."""
        book = self.book
        if book.f0 <= index < book.r0:
            return self.foundation(index - book.f0)
        return tuple(self.piles[index])

    def won(self) -> bool:
        return self.out == self.book.total

    def key(self, *, canonical: bool = True) -> bytes:
        """A key equal for equal positions. ``canonical`` sorts the tableau piles (every
        pile obeys the same rules) and the free cells; the foundations (and reserves)
        follow from them, except a chosen base and, with several decks, the foundation
        lengths, which join the key."""
        book = self.book
        tab = self.piles[: book.t]
        body = b"\0".join(sorted(tab) if canonical else tab)
        if book.c0 < book.size:
            cells = self.piles[book.c0 :]
            body += b"\1" + b"".join(sorted(cells) if canonical else [c or b"\0" for c in cells])
        if book.chosen_base:
            return _BYTE[self.base] + body
        if book.decks > 1:
            return bytes(self.fl) + body
        return body

    def signature(self) -> bytes:
        """What the legal moves (unpruned) depend on: the foundations, the top card of each
        tableau pile (with runs, the run on top) and free cell (0 when empty) and every
        reserve card. Equal signatures
        have equal legal moves, so the board memoizes them by signature."""
        book = self.book
        piles = self.piles
        if book.runs:  # the run on top of each pile, which may move whole
            tops = b"\0".join([piles[i][-self.run_length(i) :] for i in range(book.t)])
        else:
            tops = b"".join([p[-1:] or b"\0" for p in piles[: book.t]])
        sig = bytes(self.fl) + _BYTE[self.base] + tops
        if book.r0 < book.size:
            sig += b"\1" + b"\1".join(piles[book.r0 :])
        return sig

    def plain_key(self) -> bytes:
        """Every pile in place and every foundation's length: equal only for the same cards
        on the same piles."""
        return bytes(self.fl) + b"\1".join(self.piles)

    # -- playing ----------------------------------------------------------------------------

    def do(self, s: int, d: int, c: int) -> None:
        """Play a move (unchecked)."""
        book = self.book
        piles = self.piles
        f0, r0 = book.f0, book.r0
        old_s = piles[s]
        old_d = piles[d]
        moved = _BYTE[c]
        if s < f0 or s >= book.c0:
            if old_s[-1] == c:
                piles[s] = old_s[:-1]
            else:  # a run: the card named is its lowest
                at = old_s.rfind(moved)
                piles[s] = old_s[:at]
                moved = old_s[at:]
        elif s >= r0:
            piles[s] = old_s.replace(moved, b"", 1)
        else:
            self.fl[s - f0] -= 1
            self.out -= 1
        if d < f0 or d >= r0:
            piles[d] = old_d + moved
        else:
            self.fl[d - f0] += 1
            self.out += 1
            if book.chosen_base and self.base == 0:
                self.base = c >> 2
                self.seqs = book.sequences(self.base)
        intab = self.intab
        if intab is not None:
            if (s < f0 or s >= book.c0) and f0 <= d < book.c0:
                intab[c] -= 1
            elif (d < f0 or d >= book.c0) and f0 <= s < book.c0:
                intab[c] += 1
        self.undo_stack.append((s, d, c, old_s, old_d))

    def undo(self, count: int = 1) -> None:
        """Take back the last ``count`` moves."""
        book = self.book
        piles = self.piles
        f0, r0 = book.f0, book.r0
        intab = self.intab
        for _ in range(count):
            s, d, c, old_s, old_d = self.undo_stack.pop()
            piles[s] = old_s
            piles[d] = old_d
            if f0 <= s < r0:
                self.fl[s - f0] += 1
                self.out += 1
            if f0 <= d < r0:
                self.fl[d - f0] -= 1
                self.out -= 1
                if book.chosen_base and self.out == 0:
                    self.base = 0
                    self.seqs = None
            if intab is not None:
                if (s < f0 or s >= book.c0) and f0 <= d < book.c0:
                    intab[c] += 1
                elif (d < f0 or d >= book.c0) and f0 <= s < book.c0:
                    intab[c] -= 1

    # -- the move generator -----------------------------------------------------------------

    def wants(self) -> dict[int, list[int]]:
        """For each card some foundation takes next, the foundations (pile indexes) that
        take it, in foundation order. Shared per game and foundation state: read only."""
        fkey = bytes(self.fl) + _BYTE[self.base]
        cache = self.book.wants_cache
        wants = cache.get(fkey)
        if wants is None:
            if len(cache) > 20_000:
                cache.clear()
            wants = cache[fkey] = self._compute_wants()
        return wants

    def _compute_wants(self) -> dict[int, list[int]]:
        book = self.book
        f0 = book.f0
        wants: dict[int, list[int]] = {}
        seqs = self.seqs
        if seqs is None:  # a base still to choose: any card starts its suit's foundations
            for c in range(4, CODES):
                wants[c] = [f0 + k for k in book.suit_foundations[c & 3]]
            return wants
        seq = seqs.seq
        for k, n in enumerate(self.fl):
            if n < 13:
                c = seq[k][n]
                if c in wants:
                    wants[c].append(f0 + k)
                else:
                    wants[c] = [f0 + k]
        return wants

    def moves(
        self, *, one_empty: bool = False, skip_lone: bool = False, by_source: bool = False
    ) -> list[RawMove]:
        """Every legal move. Grouped (the solver's order): to foundations, then onto other
        cards, then to empty piles and free cells, sources in pile order within each group.
        ``by_source`` (the board's order): source by source in pile order (reserves after
        the tableau, foundations last), and for each its moves in that order.

        The solver's pruning leaves out moves that only lead to a position equal to another
        move's: with ``one_empty`` only the first of several empty tableau piles (or free
        cells) is a target; with ``skip_lone`` a lone card never moves to an empty pile.
        """
        book = self.book
        piles = self.piles
        t = book.t
        c0, size = book.c0, book.size
        wants = self.wants()
        found: list[RawMove] = []
        build = found if by_source else []
        spaces = found if by_source else []
        empties = [i for i in range(t) if not piles[i]]
        cells = [i for i in range(c0, size) if not piles[i]]
        runs = book.runs
        spare = spare_empty = 0  # the most cards a run may have: onto a card, to a space
        if runs:
            if book.any_run:
                spare = spare_empty = _ANY
            elif book.kings_only:  # no card but a king passes through an empty pile
                spare = spare_empty = len(cells) + 1
            else:
                spare = (len(cells) + 1) << len(empties)
                spare_empty = spare >> 1
        if one_empty:
            empties = empties[:1]
            cells = cells[:1]
        tops: dict[int, list[int]] = {}
        slot_of = book.slot_of
        if book.builds:
            for i in range(t):
                p = piles[i]
                if p:
                    slot = slot_of[p[-1]]
                    at = tops.get(slot)
                    if at is None:
                        tops[slot] = [i]
                    else:
                        at.append(i)
        slot_wants = book.slot_wants
        kings_only = book.kings_only
        for i in book.sources:
            p = piles[i]
            if not p:
                continue
            c = p[-1]
            fs = wants.get(c)
            if fs:
                for f in fs:
                    found.append((i, f, c))
            slots = slot_wants[c]
            if slots and tops:
                mark = len(build)
                for slot in slots:
                    at = tops.get(slot)
                    if at:
                        for j in at:
                            if j != i:
                                build.append((i, j, c))
                if by_source and len(slots) > 1 and len(build) - mark > 1:
                    build[mark:] = sorted(build[mark:])
            if (
                empties
                and (not skip_lone or len(p) > 1 or i >= c0)
                and (not kings_only or c >> 2 == 13)
            ):
                for j in empties:
                    spaces.append((i, j, c))
            if cells and i < t:
                for j in cells:
                    spaces.append((i, j, c))
            if runs and i < t:
                self._runs(i, p, spare, spare_empty, tops, empties, build, spaces, skip_lone)
        for r in range(book.r0, c0):
            for c in dict.fromkeys(piles[r]):
                fs = wants.get(c)
                if fs:
                    for f in fs:
                        found.append((r, f, c))
        if self.take_back and self.seqs is not None:
            seq = self.seqs.seq
            f0 = book.f0
            for k, n in enumerate(self.fl):
                if n > book.dealt[k]:
                    c = seq[k][n - 1]
                    mark = len(build)
                    for slot in slot_wants[c]:
                        for j in tops.get(slot, ()):
                            build.append((f0 + k, j, c))
                    if by_source and len(build) - mark > 1:
                        build[mark:] = sorted(build[mark:])
                    if not kings_only or c >> 2 == 13:
                        for j in empties:
                            spaces.append((f0 + k, j, c))
        if by_source:
            return found
        return found + build + spaces

    def _runs(
        self,
        i: int,
        p: bytes,
        spare: int,
        spare_empty: int,
        tops: dict[int, list[int]],
        empties: list[int],
        build: list[RawMove],
        spaces: list[RawMove],
        skip_lone: bool,
    ) -> None:
        """The run moves from tableau pile ``i`` (holding ``p``): each run of two cards or
        more on its top that follows the building rule, named by its lowest card, onto a
        card that takes that card or into an empty pile, within the limits (``spare``
        cards onto a card, ``spare_empty`` into an empty pile)."""
        book = self.book
        under = book.under
        slot_wants = book.slot_wants
        kings_only = book.kings_only
        k = 1
        height = len(p)
        while k < height and k < spare and p[-k] in under[p[-k - 1]]:
            k += 1
            base = p[-k]
            for slot in slot_wants[base]:
                for j in tops.get(slot, ()):
                    if j != i:
                        build.append((i, j, base))
            if (
                empties
                and k <= spare_empty
                and (not kings_only or base >> 2 == 13)
                and not (skip_lone and k == height)
            ):
                for j in empties:
                    spaces.append((i, j, base))

    def run_length(self, i: int) -> int:
        """How many cards on top of tableau pile ``i`` follow the building rule."""
        return self.book.top_run(self.piles[i])

    def run_limit(self, target: int) -> int:
        """How many cards may move together onto ``target`` (an empty target pile does
        not count among the empty piles that help; with kings only, none does)."""
        book = self.book
        if book.any_run:
            return _ANY
        piles = self.piles
        cells = sum(1 for i in range(book.c0, book.size) if not piles[i])
        if book.kings_only:
            return cells + 1
        empty = sum(1 for i in range(book.t) if not piles[i] and i != target)
        return (cells + 1) << empty

    # -- the safe-move rule -----------------------------------------------------------------

    def safe_move(self) -> RawMove | None:
        """One safe foundation move, if any: a move that can never cost the game.

        A card ``c`` available (on top of a tableau pile, in a free cell or a reserve) may
        go up safely when (1) every card that could be built on ``c`` is on a foundation
        already, or is ``c``'s own follower there; (2) with two decks, no other copy of
        ``c`` waits in the tableau or a free cell (the copies compete for two foundations;
        a reserve copy is always available, so it cannot be stranded); (3) it does not
        start a foundation whose base rank the player chooses (Chessboard).
        """
        for move in self._safe_candidates():
            return move
        return None

    def safe_moves(self) -> list[RawMove]:
        """Every safe foundation move, in move-generator order (by source pile, then
        foundation)."""
        return sorted(self._safe_candidates())

    def _safe_candidates(self) -> Iterator[RawMove]:
        seqs = self.seqs
        if seqs is None:
            return  # nothing may fix Chessboard's base but the player
        book = self.book
        fl = self.fl
        seq = seqs.seq
        need = seqs.need
        intab = self.intab
        piles = self.piles
        t, r0, c0, size = book.t, book.r0, book.c0, book.size
        tops: dict[int, list[int]] = {}
        for i in (*range(t), *range(c0, size)):
            p = piles[i]
            if p:
                tops.setdefault(p[-1], []).append(i)
        f0 = book.f0
        twins = book.decks > 1
        for k, n in enumerate(fl):
            if n >= 13 or (n == 0 and book.chosen_base):
                continue
            c = seq[k][n]
            at = tops.get(c)
            reserve = -1
            if r0 < c0:
                reserve = next((r for r in range(r0, c0) if c in piles[r]), -1)
            if at is None and reserve < 0:
                continue
            if twins:
                if not self._twin_safe(c, k):
                    continue
            elif any(fl[f] < m for f, m in need[c]):
                continue
            if at is not None and (intab is None or intab[c] <= 1):
                yield (at[0], f0 + k, c)
            elif reserve >= 0 and (intab is None or intab[c] == 0):
                yield (reserve, f0 + k, c)

    def _twin_safe(self, c: int, k: int) -> bool:
        """Rule (1) with several decks: every card that could be built on ``c`` (except
        its follower on foundation ``k``) has all its copies up."""
        under = self.book.under[c]
        if not under:
            return True
        seqs = self.seqs
        assert seqs is not None
        seq_k = seqs.seq[k]
        n = self.fl[k]
        follower = seq_k[n + 1] if n + 1 < len(seq_k) else -1
        up = [0] * CODES
        for f, m in enumerate(self.fl):
            for card in seqs.seq[f][:m]:
                up[card] += 1
        decks = self.book.decks
        return all(up[b] >= decks for b in under if b != follower)

    def exposed_is_safe(self, s: int) -> bool:
        """Whether the card now on top of pile ``s`` is the next card of one of its suit's
        foundations (a candidate that :meth:`safe_move` decides): after a move between
        piles of a position without safe moves, it is the only possible new one."""
        p = self.piles[s]
        seqs = self.seqs
        if not p or seqs is None:
            return False
        c = p[-1]
        fl = self.fl
        chosen = self.book.chosen_base
        for k in self.book.suit_foundations[c & 3]:
            n = fl[k]
            if n < 13 and seqs.seq[k][n] == c and (n or not chosen):
                return True
        return False

    def autoplay(self, line: list[RawMove]) -> int:
        """Play safe moves until none is left, appending them to ``line``; how many.

        When ``line`` ends with a move between tableau piles played from a position without
        safe moves, only the card it uncovered can have become one: that is checked first.
        """
        if line:
            s, d, _ = line[-1]
            t = self.book.t
            if s < t and d < t and not self.exposed_is_safe(s):
                return 0
        played = 0
        while (move := self.safe_move()) is not None:
            self.do(*move)
            line.append(move)
            played += 1
        return played
