"""PySolFC's dealing, transcribed from its ``startGame`` methods, as a second computation.

Our deals (``games.rules.deals``) read a declarative ``Deal``; this module instead replays
what PySolFC's code does, call for call, on ``pysol_cards``' shuffle: the talon is the
shuffled list and ``dealRow`` moves its *last* card to each stack in turn. Read from
shlomif/PySolFC, ``pysollib/games/beleagueredcastle.py``, ``bakersdozen.py`` and
``klondike.py`` (November 2026). The tests hold every game with a PySolFC twin to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pysol_cards.cards import createCards
from pysol_cards.random import shuffle
from pysol_cards.random_base import RandomBase

Stack = list[str]


class Table:
    """PySolFC's stacks for one deal: rows, foundations and reserves (free cells)."""

    def __init__(self, number: int, rows: int, *, decks: int = 1, reserves: int = 0) -> None:
        self.talon = [
            "A23456789TJQK"[c.rank - 1] + "CSHD"[c.suit]
            for c in shuffle(createCards(decks), number, RandomBase.DEALS_PYSOLFC)
        ]
        self.rows: list[Stack] = [[] for _ in range(rows)]
        self.foundations: list[Stack] = [[] for _ in range(4 * decks)]
        self.reserves: list[Stack] = [[] for _ in range(reserves)]

    def deal_row(self, rows: Sequence[Stack] | None = None) -> None:
        """``talon.dealRow`` / ``dealRowAvail``: one card to each stack while cards last."""
        for stack in self.rows if rows is None else rows:
            if self.talon:
                stack.append(self.talon.pop())

    def aces_to_bottom(self) -> None:
        """``_shuffleHookMoveToBottom`` on the aces: they are dealt last."""
        self.talon = sorted((c for c in self.talon if c[0] == "A"), reverse=True) + [
            c for c in self.talon if c[0] != "A"
        ]


def castles_in_spain(number: int) -> Table:
    table = Table(number, 13)
    for _ in range(3):  # face down in PySolFC; every card is face up in Castle
        table.deal_row()
    table.deal_row()
    return table


def somerset(number: int) -> Table:
    table = Table(number, 10)
    for i in range(6):
        table.deal_row(table.rows[i:])
    table.deal_row(table.rows[6:])
    table.deal_row(table.rows[7:])
    return table


def fortress(number: int) -> Table:
    """PySolFC's Fortress deal (Chessboard, Lasker, Morphy): the extra two cards go to its
    first two rows. Castle's own Fortress and Chessboard, dealt before PySolFC numbering
    was adopted, give them to the top pile of each wing instead."""
    table = Table(number, 10)
    for _ in range(3):
        table.deal_row()
    for _ in range(3):
        table.deal_row()
    return table


def ten_by_one(number: int) -> Table:
    table = fortress(number)
    table.reserves = [[]]
    return table


def bastion(number: int) -> Table:
    table = Table(number, 10, reserves=2)
    for _ in range(5):
        table.deal_row()
    table.deal_row(table.reserves)
    return table


def streets_and_alleys(number: int) -> Table:
    table = Table(number, 8)
    for _ in range(4):
        table.deal_row()
    for _ in range(3):
        table.deal_row()
    return table


def beleaguered_castle(number: int) -> Table:
    table = Table(number, 8)
    table.aces_to_bottom()
    for _ in range(6):
        table.deal_row()
    table.deal_row(table.foundations)
    return table


def citadel(number: int) -> Table:
    """Aces first to the foundations, then each card that fits its foundation goes there
    instead of onto its row (and that row's turn is used)."""
    table = Table(number, 8)
    aces = [c for c in table.talon if c[0] == "A"]
    table.talon = [c for c in table.talon if c[0] != "A"] + aces
    table.deal_row(table.foundations)
    while table.talon:
        for row in table.rows:
            if not table.talon:
                break
            card = table.talon.pop()
            for pile in table.foundations:
                if pile[-1][1] == card[1] and _rank(pile[-1]) + 1 == _rank(card):
                    pile.append(card)
                    break
            else:
                row.append(card)
    return table


def _rank(card: str) -> int:
    return "A23456789TJQK".index(card[0]) + 1


def canister(number: int) -> Table:
    table = Table(number, 8)
    for _ in range(6):
        table.deal_row()
    table.deal_row(table.rows[2:6])
    return table


DEALERS: dict[str, Callable[[int], Table]] = {
    "castles-in-spain": castles_in_spain,
    "somerset": somerset,
    "morehead": somerset,
    "morphy": fortress,
    "lasker": fortress,
    "ten-by-one": ten_by_one,
    "bastion": bastion,
    "selective-castle": streets_and_alleys,
    "stronghold": streets_and_alleys,
    "private-lane": streets_and_alleys,
    "penelopes-web": streets_and_alleys,
    "siegecraft": beleaguered_castle,
    "exiled-kings": citadel,
    "canister": canister,
    "american-canister": canister,
    "british-canister": canister,
}
"""Per slug of ours, PySolFC's dealer for its twin game."""
