"""An exact decider for Archway, far faster than the general search on this game.

Archway's position is small once its structure is used: a central pile's cards never change
order, so a pile is its height (the cards left of the ones it had when the search began);
a pile emptied becomes a *space* holding at most one card (a refilled pile takes that card
only); the reserves follow from the rest; each suit's two foundations are their top ranks.
:func:`decide` searches that state depth first, remembering the positions it has proved
lost, with four devices:

- **The two-copies symmetry.** Each rank 2-Q of a suit has two identical copies; one goes up
  the ascending foundation, the other down the descending one, and either copy may serve
  either. A card a foundation wants is played at once (not branched on) when every other
  copy it may take lies in the reserves, which are always at hand (the proof is in
  :meth:`_Decider.safe_move`).
- **Decisions, not move orders.** Otherwise a foundation's next card has a copy at hand
  and another buried (or two at hand): every winning line gives the foundation one of
  them, and once that is settled, playing it at once is as good as later. So the search
  branches on that one decision (play a copy at hand, or *commit* the foundation to a
  buried copy), never on the order of independent moves.
- **A proof of impossibility** (:func:`_stuck_without_spaces`), at the start and at every
  position without a space: until a pile is emptied a card leaves its pile only to a
  foundation, when on top, once one copy of each rank between that foundation's top and
  itself went up. The least fixpoint of "may ever leave" (copies never used up, a
  committed foundation waiting for its copy) is computed; when every pile keeps a card
  that never may, no pile empties, no space ever opens, and the position is lost. It
  settles about two deals in three before any search.
- **Pruning that keeps the verdict exact:** one empty space only as a target (spaces are
  interchangeable), never the last card of a pile into a space (it changes nothing), never
  a card from space to space, and positions are keyed with the spaces' cards sorted.

Measured (November 2026, ``python -m tools.bench_solver --archway-deals 1-20000``):
every deal of 1-20,000 decided, 9 winnable (465, 783, 6903, 7065, 8876, 10242, 16097,
16788, 18559: 1 in 2,222), a median of 0.04 ms per deal (mean 15 ms, worst 6 s and 69,632
positions, deal 3724). The budget is in positions (``max_nodes``), so two servers agree on
what is decided; the engine's own exhaustive search agrees on random end games (tests).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

_ACE: Final = 1
_KING: Final = 13
_F0: Final = 4
"""Engine index of the first foundation: t1-t4 are 0-3, f1-f4 (ascending C D H S) 4-7,
f5-f8 (descending) 8-11, and the reserve of rank r is 11 + r."""
_R0: Final = 12

_Raw = tuple[int, int, int]


@dataclass(frozen=True)
class ArchwayVerdict:
    """``won`` is ``True`` (with ``line``), ``False`` (a proof) or ``None`` (budget spent)."""

    won: bool | None
    line: tuple[_Raw, ...]
    nodes: int
    proved_before_search: bool = False


class _BudgetSpent(Exception):
    pass


_NONE: Final = 255
"""No commitment; else a copy's place: ``16 * pile + index`` in its pile, or ``_SPACE``."""
_SPACE: Final = 64


class _Decider:
    """The search state, changed and restored in place.

    ``commit[k]`` is foundation ``k``'s commitment (0-3 ascending, 4-7 descending): when a
    foundation wants a card of which one copy is at hand and the other is still buried,
    the search either plays the copy at hand or *commits* the foundation to the buried
    copy, and then never gives it the one at hand (that line would only be a later play of
    the first branch's move, which playing sooner dominates). Without this, every
    interleaving of those moves would be a position of its own.
    """

    def __init__(
        self,
        piles: Sequence[Sequence[int]],
        ups: Sequence[int],
        downs: Sequence[int],
        reserve: Sequence[int],
        max_nodes: int | None,
        deadline: float | None = None,
    ) -> None:
        self.deadline = deadline
        self.base = [tuple(p) for p in piles]
        self.h = [len(p) for p in piles]
        self.cell = [0, 0, 0, 0]
        self.up = list(ups)
        self.dn = list(downs)
        self.res = list(reserve)
        self.places: list[list[int]] = [[] for _ in range(56)]
        for i, p in enumerate(piles):
            for j, c in enumerate(p):
                self.places[c].append(16 * i + j)
        self.commit = [_NONE] * 8
        self.line: list[_Raw] = []
        self.undo_info: list[tuple[int, int, list[int]]] = []
        self.dead: set[bytes] = set()
        self.nodes = 0
        self.max_nodes = max_nodes

    def key(self) -> bytes:
        h = self.h
        cell = self.cell
        cells = sorted([cell[i] for i in range(4) if not h[i]])
        return bytes(h) + bytes(cells) + bytes(self.up) + bytes(self.dn) + bytes(self.commit)

    def won(self) -> bool:
        return self.up == [_KING] * 4 and self.dn == [_ACE] * 4

    def do(self, move: _Raw) -> None:
        s, d, c = move
        h = self.h
        commit = self.commit
        before = commit[:]
        if s >= _R0:
            self.res[c] -= 1
            self.undo_info.append((-1, 0, before))
        elif h[s]:
            h[s] -= 1
            self.undo_info.append((1, 0, before))
            if d < _F0:
                place = 16 * s + h[s]
                for k in range(8):
                    if commit[k] == place:
                        commit[k] = _SPACE
        else:
            self.undo_info.append((0, self.cell[s], before))
            self.cell[s] = 0
        if d >= _F0:
            k = d - _F0
            commit[k] = _NONE
            if k < 4:
                self.up[c & 3] += 1
            else:
                self.dn[c & 3] -= 1
        else:
            self.cell[d] = c
        self.line.append(move)

    def undo(self, count: int) -> None:
        for _ in range(count):
            s, d, c = self.line.pop()
            kind, card, before = self.undo_info.pop()
            self.commit[:] = before
            if d >= _F0:
                if d < _F0 + 4:
                    self.up[c & 3] -= 1
                else:
                    self.dn[c & 3] += 1
            else:
                self.cell[d] = 0
            if kind < 0:
                self.res[c] += 1
            elif kind:
                self.h[s] += 1
            else:
                self.cell[s] = card

    def _choices(self, k: int, c: int) -> tuple[list[int], list[int], int]:
        """Foundation ``k`` wants card ``c``: the copies it may take that are at hand (pile
        indexes: a pile's top or a space), those still buried (places), and how many lie
        in the reserves (0 when committed)."""
        h = self.h
        commit = self.commit[k]
        spaces = [i for i in range(4) if not h[i] and self.cell[i] == c]
        if commit != _NONE:
            if commit == _SPACE:
                return spaces[:1], [], 0
            i, j = divmod(commit, 16)
            return ([i] if h[i] == j + 1 else []), ([] if h[i] == j + 1 else [commit]), 0
        other = self.commit[k ^ 4] if self.commit[k ^ 4] != _NONE else -1
        at_hand: list[int] = []
        buried: list[int] = []
        for place in self.places[c]:
            i, j = divmod(place, 16)
            if j < h[i] and place != other:
                if h[i] == j + 1:
                    at_hand.append(i)
                else:
                    buried.append(place)
        if other == _SPACE and spaces:
            spaces = spaces[1:]
        return at_hand + spaces, buried, self.res[c]

    def _wants(self) -> list[tuple[int, int]]:
        """(foundation 0-7, card) for each foundation still to fill."""
        out = []
        for suit in range(4):
            u = self.up[suit]
            if u < _KING:
                out.append((suit, (u + 1) * 4 + suit))
            dn = self.dn[suit]
            if dn > _ACE:
                out.append((4 + suit, (dn - 1) * 4 + suit))
        return out

    def safe_move(self) -> _Raw | None:
        """A foundation move that never costs a win, if any.

        Let a foundation F want card c, and let copy Y of c be at hand (in the reserves, on
        top of a pile or in a space). When every other copy of c that F may take is in the
        reserves (or there is none), take any winning line: it gives F some copy X of c at
        some time, and Y, if Y is not X, goes to the suit's other foundation G at some time.
        Play Y to F now and, in the line, X where Y went (X is in the reserves, so always at
        hand): every other move of the line stays legal (F only took its card sooner, and
        Y's pile or space is freed sooner), so the line still wins. The same holds when Y
        and the other copy both lie in spaces (the spaces just swap roles), and when F is
        committed to Y.
        """
        for k, c in self._wants():
            at_hand, buried, reserve = self._choices(k, c)
            if buried:
                continue
            if self.commit[k] != _NONE:
                if at_hand:
                    return (at_hand[0], _F0 + k, c)
                continue
            if len(at_hand) == 1 or (
                len(at_hand) == 2 and not self.h[at_hand[0]] and not self.h[at_hand[1]]
            ):
                return (at_hand[0], _F0 + k, c)
            if not at_hand and reserve:
                return (_R0 + (c >> 2) - 1, _F0 + k, c)
        return None

    def autoplay(self) -> int:
        played = 0
        while (move := self.safe_move()) is not None:
            self.do(move)
            played += 1
        return played

    def branches(self) -> list[tuple[int, int, int] | tuple[int, int]]:
        """Where no safe move is left: the foundation moves worth trying, then the
        commitments ``(foundation, place)``, then the moves of a top card to a space."""
        plays: list[tuple[int, int, int] | tuple[int, int]] = []
        commits: list[tuple[int, int, int] | tuple[int, int]] = []
        for k, c in self._wants():
            if self.commit[k] != _NONE:
                continue
            at_hand, buried, reserve = self._choices(k, c)
            if not at_hand and not reserve:
                continue
            for i in at_hand:
                plays.append((i, _F0 + k, c))
            if reserve:
                plays.append((_R0 + (c >> 2) - 1, _F0 + k, c))
            for place in buried:
                commits.append((k, place))
            # Every winning line settles this foundation's copy one way or the other, and
            # with the copy settled, playing it now is as good as later: one decision is
            # enough to branch on.
            return plays + commits
        h = self.h
        cell = self.cell
        for d in range(4):
            if not h[d] and not cell[d]:
                for i in range(4):
                    if h[i] > 1:
                        plays.append((i, d, self.base[i][h[i] - 1]))
                break
        return plays + commits

    def search(self) -> bool:
        """Whether the position (after its safe moves) can be won; the line stays played."""
        played = self.autoplay()
        if self.won():
            return True
        key = self.key()
        if key not in self.dead:
            self.dead.add(key)
            if not _stuck_without_spaces(self):
                self.nodes += 1
                if self.max_nodes is not None and self.nodes > self.max_nodes:
                    raise _BudgetSpent
                late = self.deadline is not None and not self.nodes & 255
                if late and time.monotonic() > self.deadline:  # type: ignore[operator]
                    raise _BudgetSpent
                for branch in self.branches():
                    if len(branch) == 3:
                        self.do(branch)
                        if self.search():
                            return True
                        self.undo(1)
                    else:
                        k, place = branch
                        self.commit[k] = place
                        if self.search():
                            return True
                        self.commit[k] = _NONE
        self.undo(played)
        return False


def decide(
    piles: Sequence[Sequence[int]],
    ups: Sequence[int],
    downs: Sequence[int],
    reserve: Sequence[int],
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
) -> ArchwayVerdict:
    """Decide an Archway position: central ``piles`` (card codes, bottom first), the top
    rank of each suit's ascending and descending foundation (suits C D H S), and the
    reserves' count of each card code. ``max_nodes`` bounds the positions searched and
    ``deadline`` (a :func:`time.monotonic` value) the time; past either, ``won is None``.
    """
    decider = _Decider(piles, ups, downs, reserve, max_nodes, deadline)
    if _stuck_without_spaces(decider):
        return ArchwayVerdict(False, (), 0, proved_before_search=True)
    # One stack frame per decision or move to a space: at most a few hundred.
    try:
        won = decider.search()
    except _BudgetSpent:
        return ArchwayVerdict(None, (), decider.nodes)
    return ArchwayVerdict(won, tuple(decider.line) if won else (), decider.nodes)


def _stuck_without_spaces(d: _Decider) -> bool:
    """Whether no pile can ever be emptied while no space exists (so none ever will).

    A relaxation of the game: a card lying in the reserves, or one that has left its pile,
    stays *available* to every foundation forever (no copy is ever used up), except that a
    foundation committed to a copy takes no card of that rank before that copy left its
    pile. A foundation then reaches as far as its run of available cards goes, and a pile's
    top card leaves once a foundation of its suit reaches the card's neighbour. Peeling
    piles this way until nothing more leaves gives every card that could ever leave its
    pile before some pile is emptied (by induction on the real game's moves, each of which
    the relaxation allows); if every pile keeps a card, no pile ever empties.
    """
    h = d.h
    if not (h[0] and h[1] and h[2] and h[3]):
        return False
    base = d.base
    up = d.up
    dn = d.dn
    commit = d.commit
    avail = [n > 0 for n in d.res]
    free = list(h)
    # Per foundation: the rank it cannot take while its committed copy is in its pile.
    wall = [0] * 8
    for k in range(8):
        place = commit[k]
        if place not in (_NONE, _SPACE):
            wall[k] = base[place >> 4][place & 15] >> 2
    reach = [0] * 8

    def extend(suit: int) -> None:
        r = up[suit]
        w = wall[suit]
        while r < _KING and avail[(r + 1) * 4 + suit] and r + 1 != w:
            r += 1
        reach[suit] = r
        r = dn[suit]
        w = wall[suit + 4]
        while r > _ACE and avail[(r - 1) * 4 + suit] and r - 1 != w:
            r -= 1
        reach[suit + 4] = r

    for suit in range(4):
        extend(suit)
    progress = True
    while progress:
        progress = False
        for i in range(4):
            n = free[i]
            pile = base[i]
            while n:
                c = pile[n - 1]
                rank = c >> 2
                suit = c & 3
                if not (
                    up[suit] < rank <= reach[suit] + 1 or reach[suit + 4] - 1 <= rank < dn[suit]
                ):
                    break
                n -= 1
                place = 16 * i + n
                for k in (suit, suit + 4):
                    if commit[k] == place:
                        wall[k] = 0
                avail[c] = True
                extend(suit)
                progress = True
            if not n:
                return False
            free[i] = n
    return True
