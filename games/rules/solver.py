"""The solver: search for a winning line of single-card moves from any position.

``solve(board, seconds=10)`` answers one of three verdicts:

``solved``
    with the moves of a winning line (engine :class:`Move` values, replayed with
    :meth:`Board.play` before they are returned);
``unsolvable``
    the search was exhaustive: every position reachable from this one was visited, under
    pruning that never loses a win (below), so no winning line exists;
``unknown``
    the time or node budget ran out first.

How it gets its speed (the techniques of Shlomi Fish's fc-solve; ``bench_solver`` measures
what each buys):

- The engine's compact position (:class:`games.rules.position.Position`): tableau piles
  as ``bytes`` of card codes, foundations as their lengths (plus Chessboard's base rank).
  Moves are played and taken back in place; :class:`Board` is used only to start from and
  to replay the answer.
- A transposition table keyed on a canonical position. Every tableau pile of a game obeys the
  same rules, so the key sorts the piles: positions that differ only by which pile holds what
  are one position. The foundations (and Archway's reserves) follow from the tableau, except
  Chessboard's base rank and, with Archway's twin cards, the foundation lengths, so only those
  join the key.
- Safe auto-play inside the search: after every move, the safe foundation moves of the
  engine's one rule (:meth:`games.rules.position.Position.safe_move`, which never cost a
  win and never fix Chessboard's base) are played at once, as part of that move's step.
  They are moves: they are in the returned line and count in its length.
- In games of one deck without reserves or free cells, the search's own safe moves go one
  step further (``Techniques.idle_targets``): a card also goes up when each card that
  could be built on it is up, or is its foundation's next card with nothing left that
  could be built on it. Such a card never needs a place in the tableau (whenever it comes
  free it may go up instead), so no card is needed to hold it. In Beleaguered Castle, a
  card goes up once no foundation is more than two below it, where the engine's rule (the
  player's auto-play) says one. The lines stay legal, with foundation moves earlier; the
  player's auto-play does not change. Proofs that a deal is lost visit fewer positions
  (Beleaguered Castle 26: 69,739 -> 59,116; Streets and Alleys 52: 1,486 -> 880). At the
  pools' 60,000 positions, deals 1-150: Streets and Alleys 58 -> 61 won, Beleaguered
  Castle 92 and Citadel 130 both; at 10 s per deal, deals 1-200 decided as before.
- Among several empty piles only one is tried (the others give the same canonical position),
  and a lone card never moves to an empty pile (that changes nothing). A card that a step
  of one move just moved between piles does not move again at once: moving it on or back
  gives a position the step's parent reaches in one move (``_just_moved``).
- A best-first scan: its heuristic counts cards still to go up, cards lying above a card
  their foundation needs sooner, cards above each foundation's next card, empty piles (a
  bonus) and the moves played so far (for short lines). It is exhaustive too: when its queue
  runs dry, every position has been visited, a proof. Optionally, after
  ``Techniques.depth_first_after`` positions, it drains its open positions depth first
  instead, sharing its table: the same positions in the end, each at less than half the cost
  (no rating, queue or snapshot), so a proof that the deal is lost comes about twice as soon;
  but the wins best-first would still find get lost, so by default it never drains.
- Several scans can share one budget, taking turns (``Techniques.scans``): depth-first scans
  in a fixed or shuffled move order (fc-solve's soft-DFS and random-DFS threads) beside the
  best-first one, each with its own table and exhaustive alone. Measured on deals 1-200 of
  Streets and Alleys at 300,000 positions each, best-first alone decides 95.5 %, with a
  random DFS taking an eighth of the budget 94.0 %, with two taking half 93.0 % (Beleaguered
  Castle: 98 % in all three), so the default is best-first alone.
- The inner loop's short ways, for games of one deck without reserves or free cells
  (Beleaguered Castle, Citadel, Streets and Alleys and most of the family): the safe-move
  rule read off its need table for the one card a move uncovered, the heuristic's per-pile
  shares kept in one table per state of the foundations, and Python's cyclic garbage
  collector paused during a search (it allocates millions of small tuples, never a
  cycle). Each keeps the engine's moves in the engine's order, so every line is
  unchanged. Together, best-first alone on Beleaguered Castle 48 at 200,000 positions:
  35,000 -> 41,900 positions a second (two runs each, back to back). The moves stay the
  engine's one generator's: a copy of it without the branches for runs, reserves and free
  cells gained 6 % more, not worth a second generator to keep in step. Games whose player
  chooses the base rank (Chessboard, Selective Castle) take the same short ways once it is
  chosen, and their key the sorted one after the base: Selective Castle deal 2 at 60,000
  positions, three runs each, alternating, median 2,405 -> 2,552 positions a CPU second
  (its runs give some 28 moves a position, where Beleaguered Castle has a handful).
- Probes (``Techniques.probes``): a best-first scan's course is chaotic. Of the nine
  Streets and Alleys deals of 1-200 the default heuristic leaves open at 350,000
  positions, 73 and 129 fall in under 10,000 to a heuristic that also weighs the cards
  under each pile's top run (weights 4, 2, 3, 0, 0, 2), though alone it decides 152 deals
  against 191. So once the scans have spent 20,000 positions without a verdict, that
  heuristic runs alone for 20,000 (its own table), then the scans go on. Measured at
  350,000 positions per deal: Streets and Alleys 1-200 191 -> 193 decided, 201-400 186 ->
  187 (257), Beleaguered Castle and Citadel 1-200 unchanged (197 and 200), lines too. At
  10 s per deal, two deals at a time: Streets and Alleys 95.0 -> 96.0 %, Beleaguered Castle
  98.0 % both. Five heuristics were tried on 1-200 and the one kept checked on 201-400; a
  40,000-position probe also won Streets and Alleys 40 but lost Beleaguered Castle 10,
  which the default wins at 316,000. Several heuristics sharing one table
  (``Techniques.queues``) decided fewer: 189-190 of Streets and Alleys 1-200. After it, a
  depth-first scan in the engine's move order runs alone for 15,000 positions (some four
  times cheaper each): it wins deals both heuristics leave open past 300,000 positions
  (Citadel 242 at 3,269, Beleaguered Castle 305 at 6,741, Streets and Alleys 40 at 13,291)
  and, bounded, costs the deals best-first decides at the budget's edge little time (a
  depth-first scan that kept its share of the budget lost two of them). Measured at 10 s
  per deal, two deals at a time, deals 1-400 of Beleaguered Castle, Citadel and Streets
  and Alleys: those three decided and none lost (1-200: Streets and Alleys 97.0 -> 97.5
  %); within the pools' 60,000 positions (deals 5000-5119), winnable deals found per CPU
  second up 3 % (Beleaguered Castle) and 7 % (Streets and Alleys).
- Once a line is found, the second look: best-first scans that weigh the moves played
  double, then triple (``Techniques.looks``), look for a shorter one within one budget
  (``Techniques.second_look``); the shortest line is kept. A hint (its player waits) and
  the pools (deal after deal) look once (``ONE_LOOK``); the analysis of a lost game, which
  needs only verdicts, never looks. The line is then shortened: wherever a position of the line
  reaches a later one directly, or in one move, the stretch in between is cut.
- Archway is decided by its own exact search (:mod:`games.rules.archway_decider`): a
  state of a few bytes, the two-copies symmetry and a proof of impossibility before any
  search decide every deal of 1-20,000, most in well under a millisecond.

``SolveResult.stats`` holds what a difficulty label is computed from, and
:func:`difficulty` computes it.

Easing options: with ``take-back`` (a foundation's top card may come back) the search also
plays those moves and does not auto-play (safe auto-play is proved only without take-back).
"""

from __future__ import annotations

import contextlib
import gc
import heapq
import random
import time
from collections import Counter
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from .archway_decider import decide as decide_archway
from .board import Board
from .cards import Card
from .errors import IllegalMove, RulesError
from .moves import Move
from .position import Position, RawMove
from .tables import Sequences
from .variants import ARCHWAY, GameRules, get_game

Verdict = Literal["solved", "unsolvable", "unknown"]
SOLVED: Final = "solved"
UNSOLVABLE: Final = "unsolvable"
UNKNOWN: Final = "unknown"

_Raw = RawMove
"""A move inside the search: source pile, target pile, card code (the engine's indexes)."""

_BYTE: Final = tuple(bytes((i,)) for i in range(256))


Probe = tuple[int, int, int, int, int, int] | str
"""A probe (``Techniques.probes``): a best-first heuristic's weights, or a scan's name."""


@dataclass(frozen=True)
class Techniques:
    """Switches for the search's techniques: all on by default; the bench turns them off one
    at a time to measure what each buys. Every combination stays sound."""

    canonical: bool = True
    """Key the transposition table on the position with its tableau piles sorted."""
    autoplay: bool = True
    """Play safe foundation moves at once inside the search."""
    one_empty: bool = True
    """Try only the first of several empty piles as a target."""
    skip_lone: bool = True
    """Never move a lone card to an empty pile."""
    scans: tuple[tuple[str, int], ...] = (("best-first", 1),)
    """The scans and their shares of the budget. They take turns, each for a slice of
    positions proportional to its share, and stop as soon as one decides: ``best-first``
    (short lines), ``dfs`` (moves in a fixed order) and ``random-dfs:SEED`` (foundation
    moves first, the others shuffled). Each keeps its own table and is exhaustive alone.
    Measured on deals 1-200 (see the module notes), best-first alone decides the most, so
    it is the default; the others stay for experiments and the bench."""
    queues: tuple[tuple[int, int, int, int, int, int], ...] = ((4, 2, 3, 1, 1, 0),)
    """The best-first heuristics, one queue each. Weights, in order: per card not yet up,
    per card lying above a card needed sooner, per empty pile (a bonus), per move already
    played (favours short lines), per card above a foundation's next card, per card under
    its pile's top run."""
    probes: tuple[tuple[Probe, int], ...] = (
        ((4, 2, 3, 0, 0, 2), 20_000),
        ("dfs", 15_000),
    )
    """Scans run alone, each with its own table and at most its number of positions, in
    turn once the scans have spent ``probe_after`` positions without a verdict; then the
    scans go on. A probe is a best-first scan under another heuristic (its weights, as in
    ``queues``) or a scan named as in ``scans``. A probe that visits everything is a proof
    too. See the module notes for what they buy."""
    probe_after: int = 20_000
    """Positions the scans spend before the probes run: most deals are decided sooner, and
    their lines stay the main heuristic's (shorter)."""
    late_scans: tuple[tuple[str, int], ...] = ()
    """Scans (named and shared as in ``scans``) that join the others once all together,
    probes included, have spent ``late_after`` positions without a verdict; none by
    default. A depth-first scan is some four times cheaper per position than best-first
    and wins a few deals best-first leaves open (Streets and Alleys 40 at 13,291
    positions), but the time it takes costs best-first deals at the budget's edge. Measured
    at 10 s per deal, two deals at a time, with ``("dfs", 1)`` joining at 40,000: deals
    1-200 Streets and Alleys 97.0 -> 97.5 % (40 won), Beleaguered Castle 98.5 and Citadel
    100 % unchanged; deals 201-400 Streets and Alleys 94.5 % both (291 won, 316's proof
    lost), Beleaguered Castle 97.5 % both (305 won, 346's proof lost). With a second,
    random depth-first scan beside it, Streets and Alleys 1-200 lost 68 and 69 for 40. The
    wins a depth-first scan finds soon come from a bounded probe instead (``probes``)."""
    late_after: int = 40_000
    """Positions spent before the late scans join: past every game's difficulty limit, so
    the positions they add never move a label."""
    lifo: bool = True
    """Among equally rated positions, expand the newest first (deeper into a plateau)."""
    shorten: bool = True
    """Cut detours out of a found line (stretches between two visits of one position)."""
    second_look: bool = True
    """Once a line is found, search again favouring short lines (within the budget) and
    keep the shorter line."""
    looks: tuple[tuple[int, int, int, int, int, int], ...] = (
        (4, 2, 3, 2, 1, 0),
        (4, 2, 3, 3, 1, 0),
    )
    """The second look's heuristics (weights as in ``queues``), run one after another
    within the look's one budget: the default one with the moves played weighing double,
    then triple. Measured on Beleaguered Castle deals 1-30 at 40,000 positions, the first
    gives lines 13 % shorter (median 90 against 104 moves), but alone it finds fewer lines
    (Streets and Alleys 1-30: 11 against 14), so it only looks again once a line is known.
    The second, after it, at 80,000 positions per deal: Citadel 1-30 median line 70.5 ->
    67 moves, Beleaguered Castle 1-20 89.5 -> 85.5 (7.7 % fewer moves in all), Streets and
    Alleys 1-20 99 both (1.3 % fewer); alone in the first's place it finds longer lines in
    the latter two (it runs out of budget sooner)."""
    depth_first_after: int | None = None
    """After this many positions, the best-first scan drains its open positions depth
    first (cheaper per position, the same positions in the end); ``None``: never, the
    default. Draining after 30,000 positions (the default until November 2026) loses the
    deals best-first wins past that point: deals 1-200 in 10 s each, one process per
    setting side by side, decided 85.0 % of Streets and Alleys, 97.0 % of Beleaguered
    Castle and 99.5 % of Citadel draining, 90.5 %, 96.5 % and 100 % never draining (37
    deals left undecided against 26)."""
    idle_targets: bool = True
    """The search's own safe moves, beyond the engine's rule (one deck, no reserves or free
    cells; see the module notes): a card also goes up when each card that could be built
    on it is up, or is its foundation's next card with nothing left to build on it."""
    archway: bool = True
    """Decide Archway with its own exact decider (:mod:`games.rules.archway_decider`)
    instead of the general scans."""


DEFAULT_TECHNIQUES: Final = Techniques()


@dataclass(frozen=True)
class ScanReport:
    """What one scan did: its name, positions visited, seconds and outcome (a verdict)."""

    name: str
    nodes: int
    seconds: float
    verdict: Verdict


@dataclass(frozen=True)
class SolveStats:
    """What a solved deal cost the solver, for its difficulty (see :func:`difficulty`):
    the game's slug, the positions searched before the line was found (deterministic: the
    search takes no decision from the clock) and the winning line's length."""

    slug: str
    nodes: int
    length: int


@dataclass(frozen=True)
class SolveResult:
    """The solver's answer. ``moves`` is a winning line when ``verdict == "solved"``."""

    verdict: Verdict
    moves: list[Move] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    scans: tuple[ScanReport, ...] = ()
    slug: str = ""
    second_look: int = 0
    """Positions the second look for a shorter line searched after the verdict: not in
    ``nodes`` (the effort the verdict took, which difficulty labels read), but within the
    caller's ``max_nodes`` together with it."""

    @property
    def solved(self) -> bool:
        return self.verdict == SOLVED

    @property
    def stats(self) -> SolveStats | None:
        """The measures a difficulty is computed from; ``None`` unless solved."""
        if not self.solved:
            return None
        return SolveStats(self.slug, self.nodes, len(self.moves))


@dataclass(frozen=True)
class Hint:
    """The Hint button's answer: the next move of a winning line, or why there is none.

    ``remaining`` is the length of the winning line found (``move`` included).
    """

    verdict: Verdict
    move: Move | None = None
    remaining: int | None = None
    deal_lost: bool = False
    """``unsolvable`` known of the deal (its verdict, or its opening proved lost), so of
    every position it reaches."""
    withheld: bool = False
    """A winning line exists, but its move is not shown (a site's rule: a live daily's hints
    follow only the daily's own line)."""


_SLICE: Final = 128
"""Positions a scan with share 1 expands in its turn; the clock is read between turns."""

_MAX_STORED: Final = 4_000_000
"""Positions one scan may remember (a few hundred bytes each) before it gives up."""

_GAVE_UP: Final = "gave up"

ScanGenerator = Generator[None, None, "list[_Raw] | str | None"]
"""A scan: yields when its slice of positions is used up; returns a winning line, ``None``
after visiting every position (a proof that none wins), or ``_GAVE_UP`` when its table is
full."""


class _Counter:
    """Counts a scan's positions and says when its slice is used up."""

    def __init__(self) -> None:
        self.nodes = 0
        self.stop = 0

    def grant(self, nodes: int) -> None:
        self.stop = self.nodes + nodes


class _Search(Position):
    """The search's position: the engine's :class:`Position` with the scans' shortcuts
    (a fast step between tableau piles, snapshots) and the heuristic's features."""

    def __init__(self, board: Board, techniques: Techniques) -> None:
        self.__dict__.update(board.position().__dict__)
        book = self.book
        self.techniques = techniques
        self.t = book.t
        self.f0 = book.f0
        self.r0 = book.r0
        self.autoplay_on = techniques.autoplay and not self.take_back
        self.pile_caches: dict[bytes, dict[bytes, tuple[int, int, int]]] = {}
        self.pile_cache: dict[bytes, tuple[int, int, int]] = {}
        self.cached_shares = 0
        self.cache_fkey = b""
        self.cache_dist: list[int] | None = None
        # One deck, no reserves or free cells: the safe-move rule reads the need table for
        # the tableau's top cards (Position._safe_candidates); with a base to choose, once
        # it is chosen, and never to start a foundation.
        self.plain_safety = book.decks == 1 and book.r0 == book.c0 == book.size
        # The key is the sorted tableau, after the base rank where the player chooses it
        # (Position.key); two decks' foundation lengths join it (twin cards), and free
        # cells do: those take Position.key's long way.
        self.sorted_key = techniques.canonical and book.decks == 1 and book.c0 == book.size
        self.chosen_base = book.chosen_base
        self.idle_needs: dict[int, tuple[tuple[_IdleNeed, ...], ...]] = {}  # by base rank

    # -- the position -----------------------------------------------------------------

    def key(self, *, canonical: bool | None = None) -> bytes:
        return Position.key(
            self, canonical=self.techniques.canonical if canonical is None else canonical
        )

    def tableau(self) -> list[bytes]:
        return self.piles[: self.t]

    def snapshot(self) -> tuple[object, ...]:
        return (
            tuple(self.piles),
            tuple(self.fl),
            self.base,
            None if self.intab is None else bytes(self.intab),
        )

    def restore(self, snap: tuple[object, ...]) -> None:
        piles, fl, base, intab = snap
        self.piles[:] = piles  # type: ignore[call-overload]
        self.fl[:] = fl  # type: ignore[call-overload]
        self.out = sum(self.fl)
        if self.base != base:
            self.base = base  # type: ignore[assignment]
            self.seqs = self.book.sequences(self.base)
        if intab is not None:
            self.intab = list(intab)  # type: ignore[call-overload]
        self.undo_stack = []

    # -- generating and playing moves ---------------------------------------------------

    def moves(  # type: ignore[override]
        self, *, one_empty: bool | None = None, skip_lone: bool | None = None
    ) -> list[_Raw]:
        """The legal moves less the pruned ones: foundation moves first, empty piles last."""
        techniques = self.techniques
        return Position.moves(
            self,
            one_empty=techniques.one_empty if one_empty is None else one_empty,
            skip_lone=techniques.skip_lone if skip_lone is None else skip_lone,
        )

    def step(self, move: _Raw, line: list[_Raw]) -> bytes:
        """Play ``move`` and then the safe moves it allows, appending all to ``line``; return
        the new position's key. The scans' inner loop: a move between tableau piles that
        uncovers nothing for the foundations takes a short way."""
        s, d, c = move
        t = self.t
        if s < t and d < t and self.piles[s][-1] == c:
            piles = self.piles
            old_s = piles[s]
            old_d = piles[d]
            rest = old_s[:-1]
            piles[s] = rest
            piles[d] = old_d + _BYTE[c]
            self.undo_stack.append((s, d, c, old_s, old_d))
            line.append(move)
            if self.autoplay_on and rest and self._exposed_goes_up(s):
                self._autoplay_all(line)
        else:
            self.do(s, d, c)
            line.append(move)
            if self.autoplay_on:
                self._autoplay_all(line)
        if self.sorted_key:
            body = b"\0".join(sorted(self.piles[:t]))
            return _BYTE[self.base] + body if self.chosen_base else body
        return self.key()

    def _exposed_goes_up(self, s: int) -> bool:
        """Whether the card a move between tableau piles uncovered on pile ``s`` may go up
        safely: in a position without safe moves, that card is the only candidate. With one
        deck and no reserves or free cells, the safe-move rule's test is read off the tables
        directly (the search's most frequent question; ``exposed_is_safe`` has ruled out a
        card that would start a foundation whose base is chosen); otherwise
        :meth:`safe_move` asks."""
        seqs = self.seqs
        if seqs is None or not self.exposed_is_safe(s):
            return False
        if self.plain_safety:
            return self._plain_safe(self.piles[s][-1])
        return True

    def _plain_safe(self, c: int) -> bool:
        """Whether card ``c``, its foundation's next, may go up safely: the need table's
        rule (``plain_safety``), or with ``Techniques.idle_targets`` the search's own."""
        fl = self.fl
        seqs = self.seqs
        assert seqs is not None
        if not self.techniques.idle_targets:
            return all(fl[f] >= m for f, m in seqs.need[c])
        needs = self.idle_needs.get(self.base)
        if needs is None:
            needs = _idle_needs(self.book.under, seqs, self.chosen_base)
            self.idle_needs[self.base] = needs
        for f, m, alt in needs[c]:
            n = fl[f]
            if n >= m:
                continue
            if alt is not None and n == m - 1 and all(fl[g] >= k for g, k in alt):
                continue
            return False
        return True

    def _autoplay_all(self, line: list[_Raw]) -> None:
        if self.plain_safety:
            self._autoplay_plain(line)
            return
        while (move := self.safe_move()) is not None:
            self.do(*move)
            line.append(move)

    def _autoplay_plain(self, line: list[_Raw]) -> None:
        """:meth:`_autoplay_all` where the safe-move rule is the need table's (see
        ``plain_safety``): the same moves in the same order, the first safe foundation's
        card from the first pile that has it on top, found without building the rule's
        general tables."""
        seqs = self.seqs
        if seqs is None:
            return  # nothing may fix Chessboard's base but the player
        seq = seqs.seq
        fl = self.fl
        piles = self.piles
        tableau = range(self.t)
        f0 = self.f0
        start = 1 if self.chosen_base else 0  # never starts a chosen base's foundation
        while True:
            for k, n in enumerate(fl):
                if n >= 13 or n < start:
                    continue
                c = seq[k][n]
                if not self._plain_safe(c):
                    continue
                for i in tableau:
                    p = piles[i]
                    if p and p[-1] == c:
                        self.do(i, f0 + k, c)
                        line.append((i, f0 + k, c))
                        break
                else:
                    continue
                break
            else:
                return

    def autoplay(self, line: list[_Raw]) -> int:
        """Play safe moves until none is left (when the techniques allow auto-play)."""
        if not self.autoplay_on:
            return 0
        before = len(line)
        self._autoplay_all(line)
        return len(line) - before

    # -- the heuristic ------------------------------------------------------------------

    def features(self) -> tuple[int, int, int, int, int]:
        """What the heuristic weighs: cards still to go up; cards lying above a card their
        foundations need sooner (each must move before that card can go up); empty piles;
        cards above the next card of some foundation; cards under each pile's top run.

        A pile's share depends only on its cards and the foundations, and most piles are
        unchanged from one position to the next, so shares are remembered per pile, in one
        table per state of the foundations."""
        total = self.book.total
        tableau = self.piles[: self.t]
        if self.seqs is None:
            empty = sum(1 for p in tableau if not p)
            return (total - self.out, 0, empty, 0, 0)
        fkey = bytes(self.fl) + _BYTE[self.base]
        if fkey != self.cache_fkey:
            if self.cached_shares > 100_000:
                self.pile_caches.clear()
                self.cached_shares = 0
            self.pile_cache = self.pile_caches.setdefault(fkey, {})
            self.cache_fkey = fkey
            self.cache_dist = None
        cache = self.pile_cache
        blocked = empty = buried = unsorted = 0
        for p in tableau:
            if not p:
                empty += 1
                continue
            share = cache.get(p)
            if share is None:
                share = cache[p] = self._pile_features(p)
                self.cached_shares += 1
            blocked += share[0]
            buried += share[1]
            unsorted += share[2]
        return (total - self.out, blocked, empty, buried, unsorted)

    def _pile_features(self, p: bytes) -> tuple[int, int, int]:
        dist = self.cache_dist
        if dist is None:
            seqs = self.seqs
            assert seqs is not None
            fl = self.fl
            if self.book.decks == 1:
                pos = seqs.pos
                sf = seqs.suit_foundation
                dist = [pos[c] - fl[sf[c & 3]] for c in range(56)]
            else:
                dist = _twin_distances(fl)
            self.cache_dist = dist
        blocked = buried = 0
        low = 99
        height = len(p)
        for j, c in enumerate(p):
            dc = dist[c]
            if dc > low:
                blocked += 1
            else:
                low = dc
            if dc == 0:
                buried += height - 1 - j
        onto = self.book.onto
        run = height - 1
        while run > 0 and p[run - 1] in onto[p[run]]:
            run -= 1
        return (blocked, buried, run)


_IdleNeed = tuple[int, int, tuple[tuple[int, int], ...] | None]


def _idle_needs(
    under: Sequence[frozenset[int]], seqs: Sequences, chosen_base: bool
) -> tuple[tuple[_IdleNeed, ...], ...]:
    """Per card, its needs (``Sequences.need``), each with a second way to meet it: for
    every card ``b`` that could be built on it, ``(foundation, length, alt)``: ``b`` is up
    (the foundation holds ``length`` cards), or ``b`` is that foundation's next card and
    every card that could be built on ``b`` is up (each ``(foundation, length)`` of
    ``alt``). No second way (``None``) for a card that would start a foundation whose base
    the player chose: the search never plays those up of itself."""
    pos, suit_foundation = seqs.pos, seqs.suit_foundation
    needs = []
    for c in range(len(seqs.need)):
        entries: list[_IdleNeed] = []
        for f, m in seqs.need[c]:
            b = seqs.seq[f][m - 1]
            alt = tuple(sorted((suit_foundation[u & 3], pos[u] + 1) for u in under[b]))
            entries.append((f, m, None if chosen_base and m == 1 else alt))
        needs.append(tuple(entries))
    return tuple(needs)


def _twin_distances(fl: Sequence[int]) -> list[int]:
    """Archway: per card, how many cards must go up before it, on its nearer foundation."""
    dist = [99] * 56
    for suit in range(4):
        up_from = fl[suit]  # the ascending pile holds ranks 1..up_from
        down_to = 14 - fl[4 + suit]  # the descending pile holds ranks down_to..13
        for rank in range(1, 14):
            up = rank - 1 - up_from
            down = down_to - 1 - rank
            if up < 0:
                best = down if down >= 0 else 99
            elif down < 0 or up < down:
                best = up
            else:
                best = down
            dist[rank * 4 + suit] = best
    return dist


# -- the scans --------------------------------------------------------------------------


def _best_first(search: _Search, counter: _Counter) -> ScanGenerator:
    """Best-first search with a transposition table.

    Each heuristic of ``techniques.queues`` orders its own queue of the same open positions;
    the queues take turns. One table, so no position is expanded twice, and the search is
    exhaustive once every queue is empty.

    After ``techniques.depth_first_after`` positions it drains the open positions instead,
    best first, each by a depth-first scan sharing the table (:func:`_drain`): the same
    positions in the end, at less than half the cost each (no rating, no queue, no
    snapshot), which is what an exhaustive proof needs.
    """
    root_line: list[_Raw] = []
    search.autoplay(root_line)
    if search.won():
        return root_line
    techniques = search.techniques
    queues = techniques.queues
    switch = techniques.depth_first_after
    parents = [-1]
    lines: list[tuple[_Raw, ...]] = [tuple(root_line)]
    depths = [0]
    snaps: list[tuple[object, ...] | None] = [search.snapshot()]
    seen = {search.key()}
    features = search.features()
    heaps = [[(_rate(w, features, 0), 0)] for w in queues]
    turn = 0
    sign = -1 if techniques.lifo else 1
    t = _settling(search)
    while True:
        for _ in queues:
            heap = heaps[turn]
            turn = (turn + 1) % len(queues)
            while heap:
                index = sign * heapq.heappop(heap)[1]
                snap = snaps[index]
                if snap is not None:
                    break
            else:
                continue
            break
        else:
            return None
        snaps[index] = None
        search.restore(snap)
        moved = _just_moved(lines[index], t)
        if switch is not None and counter.nodes >= switch:
            found = yield from _drain(search, counter, seen, moved)
            if found == _GAVE_UP:
                return _GAVE_UP
            if found is not None:
                return _path(parents, lines, index) + found  # type: ignore[operator]
            continue
        depth = depths[index] + 1
        for move in search.moves():
            if move[2] == moved:
                continue
            line: list[_Raw] = []
            key = search.step(move, line)
            if key not in seen:
                seen.add(key)
                child = len(parents)
                parents.append(index)
                lines.append(tuple(line))
                depths.append(depth + len(line) - 1)
                if search.won():
                    return _path(parents, lines, child)
                if child > _MAX_STORED:
                    return _GAVE_UP
                snaps.append(search.snapshot())
                features = search.features()
                for weights, heap in zip(queues, heaps, strict=True):
                    rating = _rate(weights, features, depth + len(line) - 1)
                    heapq.heappush(heap, (rating, sign * child))
            search.undo(len(line))
        counter.nodes += 1
        if counter.nodes >= counter.stop:
            yield


def _settling(search: _Search) -> int:
    """The piles :func:`_just_moved` reasons about: the tableau, or none when runs move
    together (whether a run may move depends on the free space, which its own move
    changes)."""
    return 0 if search.book.runs else search.t


def _just_moved(step: Sequence[_Raw], t: int) -> int:
    """The card a step of one move between tableau piles moved, else -1.

    That card need not move again straight away: moving it on from where it went gives a
    position the step's own parent reaches in one move (the same card from where it was;
    the parent allowed that card to move, or this step would not exist), and moving it back
    gives the parent itself. Both are generated from the parent, so skipping them loses
    nothing, and the table keeps them anyway."""
    if len(step) != 1:
        return -1
    s, d, c = step[0]
    return c if s < t and d < t else -1


def _rate(weights: tuple[int, ...], features: tuple[int, int, int, int, int], depth: int) -> int:
    """A position's rating under one heuristic: lower is expanded first."""
    remaining, blocked, empty, buried, unsorted = features
    w_remaining, w_blocked, w_empty, w_depth, w_buried, w_unsorted = weights
    return (
        w_remaining * remaining
        + w_blocked * blocked
        - w_empty * empty
        + w_depth * depth
        + w_buried * buried
        + w_unsorted * unsorted
    )


def _path(parents: list[int], lines: list[tuple[_Raw, ...]], index: int) -> list[_Raw]:
    chunks = []
    while index >= 0:
        chunks.append(lines[index])
        index = parents[index]
    return [move for chunk in reversed(chunks) for move in chunk]


def _depth_first(search: _Search, counter: _Counter, seed: int | None = None) -> ScanGenerator:
    """Depth-first search with a transposition table, moves in the order of
    :meth:`_Search.moves` or, with a ``seed``, foundation moves first and the rest shuffled."""
    line: list[_Raw] = []
    search.autoplay(line)
    if search.won():
        return line
    found = yield from _drain(search, counter, {search.key()}, -1, seed)
    if isinstance(found, list):
        return line + found
    return found


def _drain(
    search: _Search,
    counter: _Counter,
    seen: set[bytes],
    moved: int,
    seed: int | None = None,
) -> ScanGenerator:
    """Depth-first scan from the search's position (already in ``seen``), adding what it
    visits to ``seen``: a winning line from here, ``None`` once every position reachable
    from here that was not in ``seen`` is visited, or ``_GAVE_UP``. The card ``moved``
    (the one the step into this position moved, or -1) does not move (:func:`_just_moved`)."""
    shuffle = random.Random(seed).shuffle if seed is not None else None
    t = _settling(search)
    line: list[_Raw] = []

    def order(skip: int) -> list[_Raw]:
        moves = search.moves()
        if skip >= 0:
            moves = [move for move in moves if move[2] != skip]
        if shuffle is not None:
            up = sum(1 for move in moves if search.f0 <= move[1] < search.r0)
            rest = moves[up:]
            shuffle(rest)
            moves[up:] = rest
        moves.reverse()  # popped from the end
        return moves

    # Each frame: the moves still to try here, and how many moves led into the frame.
    frames: list[tuple[list[_Raw], int]] = [(order(moved), 0)]
    while frames:
        todo, entered = frames[-1]
        if not todo:
            frames.pop()
            if frames:
                search.undo(entered)
                del line[len(line) - entered :]
            continue
        before = len(line)
        key = search.step(todo.pop(), line)
        if key in seen:
            search.undo(len(line) - before)
            del line[before:]
            continue
        seen.add(key)
        if search.won():
            return line
        if len(seen) > _MAX_STORED:
            return _GAVE_UP
        frames.append((order(_just_moved(line[before:], t)), len(line) - before))
        counter.nodes += 1
        if counter.nodes >= counter.stop:
            yield
    return None


def parse_scan(name: str) -> tuple[str, int | None]:
    """A scan's name (``Techniques.scans``) as its kind and random seed: ``best-first``,
    ``dfs`` or ``random-dfs:SEED``; a :class:`ValueError` that says so for any other."""
    if name in ("best-first", "dfs"):
        return name, None
    kind, _, seed = name.partition(":")
    if kind == "random-dfs" and seed.isdigit():
        return kind, int(seed)
    raise ValueError(f"unknown scan {name!r}: use best-first, dfs or random-dfs:SEED")


def _start_scan(name: str, search: _Search, counter: _Counter) -> ScanGenerator:
    kind, seed = parse_scan(name)
    if kind == "best-first":
        return _best_first(search, counter)
    return _depth_first(search, counter, seed)


# -- the public API -----------------------------------------------------------------------


def solve(
    board: Board,
    *,
    seconds: float = 10.0,
    max_nodes: int | None = None,
    techniques: Techniques = DEFAULT_TECHNIQUES,
) -> SolveResult:
    """Search for a winning line from ``board``'s position (the board is not changed).

    ``seconds`` and ``max_nodes`` (positions expanded, all scans together, the second look
    for a shorter line included) bound the search;
    running out of either gives ``unknown``. "unsolvable" is said only after a scan visited
    every position. A solved line is replayed with :meth:`Board.play` before it is returned.

    >>> result = solve(Board("beleaguered-castle", 2), seconds=5)
    >>> result.verdict, len(result.moves) > 48
    ('solved', True)
    """
    with _collector_paused():
        return _solve(board, seconds, max_nodes, techniques)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector. A search allocates millions of small
    tuples and lists and never a reference cycle, and the collector's passes over them
    cost about 8 % of the search's time at 200,000 positions (Beleaguered Castle 48); it
    runs again, as it was, once the search is over."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _solve(
    board: Board, seconds: float, max_nodes: int | None, techniques: Techniques
) -> SolveResult:
    started = time.monotonic()
    deadline = started + seconds
    if techniques.archway and board.rules == ARCHWAY and not board.options:
        return _solve_archway(board, deadline, max_nodes, started)
    scans = [
        (name, share, counter, _start_scan(name, _Search(board, techniques), counter))
        for name, share in techniques.scans
        for counter in [_Counter()]
    ]
    spent = [0.0] * len(scans)
    running = list(range(len(scans)))
    verdict: Verdict = UNKNOWN
    line: list[_Raw] | None = None
    decider: int | None = None  # the scan that decided (None: a probe, or none yet)
    total = 0
    probing = bool(techniques.probes)
    probes: list[ScanReport] = []
    late = list(techniques.late_scans)
    while running and verdict == UNKNOWN and time.monotonic() < deadline:
        if max_nodes is not None and total >= max_nodes:
            break
        if late and total >= techniques.late_after:
            for name, share in late:
                counter = _Counter()
                scan = _start_scan(name, _Search(board, techniques), counter)
                scans.append((name, share, counter, scan))
                spent.append(0.0)
                running.append(len(scans) - 1)
            late = []
        if probing and total >= techniques.probe_after:
            probing = False
            allowance = None if max_nodes is None else max_nodes - total
            found, probes = _probe(board, techniques, deadline, allowance)
            total += sum(report.nodes for report in probes)
            if not isinstance(found, str):  # a verdict
                line = found
                verdict = UNSOLVABLE if line is None else SOLVED
                break
            continue
        for n in list(running):
            _, share, counter, scan = scans[n]
            grant = _SLICE * share
            if max_nodes is not None:
                grant = min(grant, max_nodes - total)
            before = counter.nodes
            counter.grant(grant)
            clock = time.monotonic()
            try:
                next(scan)
            except StopIteration as stop:
                if stop.value == _GAVE_UP:
                    running.remove(n)
                else:
                    line = stop.value
                    verdict = UNSOLVABLE if line is None else SOLVED
                    decider = n
            spent[n] += time.monotonic() - clock
            total += counter.nodes - before
            if verdict != UNKNOWN or (max_nodes is not None and total >= max_nodes):
                break
            if time.monotonic() >= deadline:
                break
    if verdict == SOLVED and line is not None and decider != _best_first_scan(scans):
        allowance = None if max_nodes is None else max_nodes - total
        line = _polish(scans, line, deadline, spent, allowance)
        total = sum(counter.nodes for _, _, counter, _ in scans) + sum(p.nodes for p in probes)
    for _, _, _, scan in scans:
        scan.close()
    looked = 0
    if verdict == SOLVED and line is not None and techniques.second_look:
        allowance = max(2 * total, _SECOND_LOOK)
        if max_nodes is not None:
            allowance = min(allowance, max_nodes - total)
        second, looked = _second_look(board, techniques, allowance, deadline)
        if second is not None and len(second) < len(line):
            line = second
    moves: list[Move] = []
    if verdict == SOLVED and line is not None:
        moves = _to_moves(board, line)
        if techniques.shorten:
            shorter = _shorten(board, line, techniques, max(deadline, time.monotonic() + 0.05))
            if len(shorter) < len(line):
                # Replayed like the line itself; the found line stands if this ever failed.
                with contextlib.suppress(RulesError, AssertionError):
                    moves = _to_moves(board, shorter)
    reports = tuple(
        ScanReport(name, counter.nodes, spent[n], verdict if n == decider else UNKNOWN)
        for n, (name, _, counter, _) in enumerate(scans)
    ) + tuple(probes)
    return SolveResult(
        verdict,
        moves,
        nodes=total,
        seconds=time.monotonic() - started,
        scans=reports,
        slug=board.rules.slug,
        second_look=looked,
    )


_SECOND_LOOK: Final = 20_000
"""Positions the second look may always spend (within the caller's budget)."""


def _second_look(
    board: Board, techniques: Techniques, allowance: int, deadline: float
) -> tuple[list[_Raw] | None, int]:
    """Best-first scans that favour short lines more (``techniques.looks``, one after
    another), run after a line was found, within ``allowance`` positions in all and the
    deadline: the shortest line they found (if any) and the positions they visited."""
    best: list[_Raw] | None = None
    used = 0
    for weights in techniques.looks:
        if allowance - used <= 0 or time.monotonic() >= deadline:
            break
        outcome, nodes = _best_first_alone(board, techniques, weights, allowance - used, deadline)
        used += nodes
        if isinstance(outcome, list) and (best is None or len(outcome) < len(best)):
            best = outcome
    return best, used


def _best_first_alone(
    board: Board,
    techniques: Techniques,
    weights: tuple[int, int, int, int, int, int],
    limit: int,
    deadline: float,
) -> tuple[list[_Raw] | str | None, int]:
    """A best-first scan under the heuristic ``weights`` (and the caller's other
    techniques), with its own table, run alone within ``limit`` positions and the deadline:
    its outcome (a winning line, ``None`` once it visited everything, else ``_GAVE_UP``)
    and the positions it visited."""
    alone = replace(techniques, queues=(weights,), depth_first_after=None)
    counter = _Counter()
    return _run_alone(_best_first(_Search(board, alone), counter), counter, limit, deadline)


def _run_alone(
    scan: ScanGenerator, counter: _Counter, limit: int, deadline: float
) -> tuple[list[_Raw] | str | None, int]:
    """Run one scan (its positions counted by ``counter``) alone within ``limit``
    positions and the deadline: its outcome and the positions it visited."""
    outcome: list[_Raw] | str | None = _GAVE_UP
    try:
        while counter.nodes < limit and time.monotonic() < deadline:
            counter.grant(min(_SLICE, limit - counter.nodes))
            next(scan)
    except StopIteration as done:
        outcome = done.value
    finally:
        scan.close()
    return outcome, counter.nodes


def _solve_archway(
    board: Board, deadline: float, max_nodes: int | None, started: float
) -> SolveResult:
    """Archway through its exact decider: the same verdicts, found far sooner."""
    foundations = board.foundations
    reserve = [0] * 56
    for pile in board.reserves:
        for card in pile:
            reserve[card] += 1
    found = decide_archway(
        [list(p) for p in board.tableau],
        [foundations[suit][-1].rank for suit in range(4)],
        [foundations[4 + suit][-1].rank for suit in range(4)],
        reserve,
        max_nodes=max_nodes,
        deadline=deadline,
    )
    verdict: Verdict = UNKNOWN if found.won is None else SOLVED if found.won else UNSOLVABLE
    moves = _to_moves(board, found.line) if found.won else []
    seconds = time.monotonic() - started
    return SolveResult(
        verdict,
        moves,
        nodes=found.nodes,
        seconds=seconds,
        scans=(ScanReport("archway", found.nodes, seconds, verdict),),
        slug=board.rules.slug,
    )


def _best_first_scan(scans: Sequence[tuple[str, int, _Counter, ScanGenerator]]) -> int:
    """The index of the best-first scan among ``scans`` (-1 if none runs)."""
    return next((n for n, scan in enumerate(scans) if scan[0] == "best-first"), -1)


def _probe(
    board: Board, techniques: Techniques, deadline: float, allowance: int | None
) -> tuple[list[_Raw] | str | None, list[ScanReport]]:
    """Run ``techniques.probes`` one after another, each a scan alone (a best-first scan
    of its own heuristic, or the scan it names) within its positions, the deadline and
    ``allowance`` (all probes together): the first verdict (a winning line, or ``None``
    when a probe visited everything) or ``_GAVE_UP``, and a report per probe run."""
    reports: list[ScanReport] = []
    used = 0
    for probe, positions in techniques.probes:
        limit = positions if allowance is None else min(positions, allowance - used)
        if limit <= 0 or time.monotonic() >= deadline:
            break
        clock = time.monotonic()
        if isinstance(probe, str):
            counter = _Counter()
            scan = _start_scan(probe, _Search(board, techniques), counter)
            outcome, nodes = _run_alone(scan, counter, limit, deadline)
            name = "probe:" + probe
        else:
            outcome, nodes = _best_first_alone(board, techniques, probe, limit, deadline)
            name = "probe:" + ",".join(map(str, probe))
        used += nodes
        verdict: Verdict = (
            UNKNOWN if outcome == _GAVE_UP else UNSOLVABLE if outcome is None else SOLVED
        )
        reports.append(ScanReport(name, nodes, time.monotonic() - clock, verdict))
        if verdict != UNKNOWN:
            return outcome, reports
    return _GAVE_UP, reports


def _polish(
    scans: list[tuple[str, int, _Counter, ScanGenerator]],
    line: list[_Raw],
    deadline: float,
    spent: list[float],
    allowance: int | None,
) -> list[_Raw]:
    """A depth-first scan won the race, usually with a long line: let the best-first scan
    go on alone (at most as many positions again as it has visited, within the budget and
    the deadline) and keep its line if shorter.

    The extra run is bounded in positions, not in time, so that a deal's count of
    positions (and the difficulty read from it) is the same on a busy machine as on an idle
    one: bounded by the time the scan had taken, a pooled Citadel deal was stored with
    45,476 positions on one run and 45,190 on the next."""
    for n, (name, _, counter, scan) in enumerate(scans):
        if name != "best-first":
            continue
        extra = counter.nodes if allowance is None else min(counter.nodes, allowance)
        limit = counter.nodes + extra
        while time.monotonic() < deadline and counter.nodes < limit:
            counter.grant(min(_SLICE, limit - counter.nodes))
            clock = time.monotonic()
            try:
                next(scan)
            except StopIteration as done:
                found = done.value
                if isinstance(found, list) and len(found) < len(line):
                    line = found
                break
            finally:
                spent[n] += time.monotonic() - clock
    return line


def _to_moves(board: Board, line: Iterable[_Raw]) -> list[Move]:
    """Engine moves for the line, replayed with the checking :meth:`Board.play`."""
    replay = board.copy()
    moves = []
    for raw in line:
        moves.append(replay.play(replay.move_of(raw)))
    if not replay.is_won():
        raise AssertionError(f"the solver's line does not win {board!r}")
    return moves


def _shorten(board: Board, line: list[_Raw], techniques: Techniques, deadline: float) -> list[_Raw]:
    """Shorten a winning line by shortcuts, pass after pass while passes help (and time lasts).

    A pass walks the line; at each position it looks for a later position of the line that
    this one reaches directly, or in one move and its auto-play, sooner than the line does,
    and jumps there. Positions are compared by key (piles sorted), so after a jump the
    line's later moves are renamed through the permutation matching the two positions' piles.
    """
    while time.monotonic() < deadline:
        shorter = _shortcut_pass(board, line, techniques, deadline)
        if len(shorter) >= len(line):
            return line
        line = shorter
    return line


def _shortcut_pass(
    board: Board, line: list[_Raw], techniques: Techniques, deadline: float
) -> list[_Raw]:
    search = _Search(board, techniques)
    book = search.book
    keys = [search.key()]
    tabs = [list(search.piles)]
    for move in line:
        search.do(*move)
        keys.append(search.key())
        tabs.append(list(search.piles))
    last = {key: i for i, key in enumerate(keys)}  # the latest visit of each position
    search = _Search(board, techniques)
    rename: dict[int, int] = {}  # the line's pile index -> the same pile's index here
    out: list[_Raw] = []
    i = 0
    while i < len(line):
        if time.monotonic() >= deadline:
            return line
        best = last[keys[i]]
        jump: list[_Raw] = []
        for move in search.moves():
            step = [move]
            search.do(*move)
            played = search.autoplay(step)
            j = last.get(search.key(), -1)
            if j - len(step) > best - len(jump):
                best, jump = j, step
            search.undo(played + 1)
        if best - len(jump) > i:
            for move in jump:
                search.do(*move)
            out += jump
            i = best
            rename = {}
            for group in (range(book.t), range(book.c0, book.size)):
                here = _permutation([tabs[i][k] for k in group], [search.piles[k] for k in group])
                rename |= {group[k]: group[j] for k, j in here.items()}
            continue
        s, d, c = line[i]
        move = (rename.get(s, s), rename.get(d, d), c)
        search.do(*move)
        out.append(move)
        i += 1
    return out


def _permutation(later: Sequence[bytes], earlier: Sequence[bytes]) -> dict[int, int]:
    """Map each pile index of ``later`` to the index of an equal pile in ``earlier``."""
    free: dict[bytes, list[int]] = {}
    for j, pile in enumerate(earlier):
        free.setdefault(pile, []).append(j)
    return {i: free[pile].pop() for i, pile in enumerate(later)}


Difficulty = Literal["easy", "medium", "hard"]


def difficulty(stats: SolveStats) -> Difficulty:
    """The label of a solved deal, from the positions the solver searched to win it.

    The rule: with the limits of the game's declaration (``GameRules.difficulty``), a deal
    is *easy* when ``stats.nodes <= easy``, *medium* when ``stats.nodes <= medium``, else
    *hard*. Search
    effort is what separates the deals: a deal whose winning line the heuristic search
    walks straight into is one a player finds too, while one that needed hundreds of
    thousands of positions hides its line behind many tempting dead ends. The thresholds
    are the tertiles of the positions searched over the first solved deals of each game,
    measured at the pools' 60,000 positions (``variants.DifficultyLimits``), so each label
    takes about a third of the winnable deals. Positions, not seconds, so every server
    labels a deal alike.

    >>> difficulty(SolveStats("beleaguered-castle", nodes=10, length=80))
    'easy'
    """
    limits = get_game(stats.slug).difficulty
    if stats.nodes <= limits.easy:
        return "easy"
    if stats.nodes <= limits.medium:
        return "medium"
    return "hard"


ONE_LOOK: Final = replace(DEFAULT_TECHNIQUES, looks=DEFAULT_TECHNIQUES.looks[:1])
"""The second look's first heuristic only, for callers whose lines are worth less than
their time (the second heuristic often spends the look's whole budget): a hint, whose
player waits, and callers that solve deal after deal."""

_VERDICT_TECHNIQUES: Final = replace(DEFAULT_TECHNIQUES, second_look=False, shorten=False)
"""For a verdict alone: no time spent shortening a line nobody sees."""


def hint(board: Board, seconds: float = 1.0) -> Hint:
    """The next move of a winning line from ``board``'s position, found within ``seconds``.

    ``move`` is ``None`` when the verdict is ``unsolvable`` (no winning line exists) or
    ``unknown`` (none was found in time).
    """
    return hint_and_line(board, seconds)[0]


def hint_and_line(board: Board, seconds: float = 1.0) -> tuple[Hint, list[Move]]:
    """:func:`hint`, and the whole winning line it starts (empty unless one was found)."""
    result = solve(board, seconds=seconds, techniques=ONE_LOOK)
    if result.solved and result.moves:
        return Hint(SOLVED, result.moves[0], len(result.moves)), result.moves
    if result.solved:
        return Hint(SOLVED, None, 0), []
    return Hint(result.verdict), []


def hint_from_line(board: Board, line: Sequence[str], *, start: Board | None = None) -> Hint | None:
    """The next move of a known winning line, without a search: ``line`` (in notation) wins
    from ``start``'s position (by default the board's opening, ``Board.initial_layout``),
    for example a deal's proof from its deal, or the line an earlier hint found from where
    it was asked. ``None`` when the board's position is not on it.

    On it means: the position is one the line passes through, or one that foundation moves
    alone reach from such a position (the player's auto-play may send cards up sooner, or in
    another order, than the line does). The line's remaining moves are played out from the
    position, those of a card already up left out, and a card the line laid on one that is
    up now sent up instead: the answer is given only if they are legal and win, so a line
    that does not fit (another deal, a stale record) answers ``None``, never a wrong move.
    """
    replay = (
        start.copy(stack=False)
        if start is not None
        else Board(
            board.rules, board.deal_number, options=board.options, layout=board.initial_layout
        )
    )
    stops: list[tuple[Counter[int], tuple[tuple[Card, ...], ...]]] = []
    try:
        for text in line:
            stops.append((_up(replay), _in_play(replay)))
            replay.play(text)
    except RulesError:
        return None
    if not replay.is_won():
        return None
    # What each move moves (a run: its first card), and how many of its copies were up then.
    cards = [Card.from_code(replay.pop()[2]) for _ in line][::-1]
    steps = [(text, card, up[card]) for text, card, (up, _) in zip(line, cards, stops, strict=True)]
    up = _up(board)
    in_play = _in_play(board)
    for index in range(len(stops) - 1, -1, -1):
        stop_up, stop_in_play = stops[index]
        if stop_up - up or _without(stop_in_play, up - stop_up) != in_play:
            continue
        answer = _plays_out(board, steps[index:])
        if answer is not None:
            return answer
    return None


def _up(board: Board) -> Counter[int]:
    return Counter(card for pile in board.foundations for card in pile)


def _in_play(board: Board) -> tuple[tuple[Card, ...], ...]:
    return (*board.tableau, *board.reserves, *board.cells)


def _without(
    piles: tuple[tuple[Card, ...], ...], cards: Counter[int]
) -> tuple[tuple[Card, ...], ...]:
    """The piles less every card in ``cards``."""
    if not cards:
        return piles
    return tuple(tuple(card for card in pile if card not in cards) for pile in piles)


def _plays_out(board: Board, steps: Sequence[tuple[str, Card, int]]) -> Hint | None:
    """The first move of the line ``steps`` (each a move, its card and the copies of that
    card up before it) from the board, if the line is legal and wins: a move of a card
    already up here is left out; a move the rules refuse whose card may go up instead is
    played that way."""
    trial = board.copy(stack=False)
    try:
        for text, card, up_then in steps:
            if _up(trial)[card] > up_then:
                continue
            try:
                trial.play(text)
            except IllegalMove:
                home = trial.foundation_for(Move.from_notation(text).source)
                if home is None or trial.pile(home.source)[-1] != card:
                    raise
                trial.play(home)
    except RulesError:
        return None
    if not trial.is_won() or not trial.ply:
        return None
    return Hint(SOLVED, trial.first_moves(1)[0], trial.ply)


def first_losing_ply(
    game: str | GameRules,
    deal: int,
    moves: Sequence[Move | str],
    seconds: float = 10.0,
    *,
    options: Iterable[str] = (),
) -> int | None:
    """After a lost game: the ply whose move made the game unwinnable.

    Returns ``p`` (1-based) such that the position after ``p - 1`` moves could still be won
    and the one after ``p`` moves cannot; ``0`` when the deal itself cannot be won; ``None``
    when the budget could not tell, or when the final position can still be won. Positions
    along a game only ever go from winnable to unwinnable, so a binary search over the
    prefixes finds the ply; ``seconds`` is shared among its probes. A move that does not
    replay raises :class:`IllegalMove` (or :class:`NotationError`), as :meth:`Board.play`.
    """
    rules = get_game(game) if isinstance(game, str) else game
    board = Board(rules, deal, options=options)
    boards = [board.copy(stack=False)]
    for move in moves:
        board.play(move)
        boards.append(board.copy(stack=False))
    deadline = time.monotonic() + seconds
    known: dict[int, Verdict] = {}

    def probe(ply: int, probes_left: int) -> Verdict:
        if ply not in known:
            left = deadline - time.monotonic()
            if left <= 0:
                return UNKNOWN
            share = left / max(1, probes_left)
            known[ply] = solve(boards[ply], seconds=share, techniques=_VERDICT_TECHNIQUES).verdict
        return known[ply]

    last = len(boards) - 1
    probes = max(1, last.bit_length()) + 1
    if probe(last, probes) != UNSOLVABLE:
        return None
    # Invariant: ``high`` cannot be won; ``low`` can (or is -1: before the deal).
    low, high = -1, last
    while high - low > 1:
        probes = max(1, (high - low).bit_length())
        mid = (low + high) // 2
        # An undecided probe: try the other plays between low and high, nearest first.
        candidates = sorted(range(low + 1, high), key=lambda p: abs(p - mid))
        for ply in candidates:
            verdict = probe(ply, probes)
            if verdict == SOLVED:
                low = ply
                break
            if verdict == UNSOLVABLE:
                high = ply
                break
            if time.monotonic() >= deadline:
                return None
        else:
            return None
    return high
