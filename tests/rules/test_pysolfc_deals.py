"""Every game PySolFC also has deals as PySolFC numbers it: deal N here is its deal N.

``pysolfc_deals`` replays PySolFC's own dealing code; the existing three PySolFC games check
the replay itself against ``pysol_cards``' layouts.
"""

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game
from pysol_cards.random_base import RandomBase

from games.rules import GAMES, Board

from .pysolfc_deals import DEALERS, Table, beleaguered_castle, citadel, streets_and_alleys

NUMBERS = [*range(1, 61), 31999, 32000, 32001, 10**12 + 7, 2**63 - 1]
TWINS = [slug for slug in DEALERS if slug in GAMES]


def rows(board: Board) -> list[list[str]]:
    return [[str(card) for card in pile] for pile in board.tableau]


def cells(board: Board) -> list[list[str]]:
    return [[str(card) for card in pile] for pile in getattr(board, "cells", ())]


def on_foundations(table: Table | Board) -> list[str]:
    return sorted(str(card) for pile in table.foundations for card in pile)


@pytest.mark.parametrize(
    ("slug", "dealer"),
    [
        ("beleaguered-castle", beleaguered_castle),
        ("citadel", citadel),
        ("streets-and-alleys", streets_and_alleys),
    ],
)
def test_the_replay_of_pysolfc_deals_its_three_castle_games_as_pysol_cards_does(
    slug: str, dealer: object
) -> None:
    for number in NUMBERS:
        table = dealer(number)  # type: ignore[operator]
        assert rows(Board(slug, number)) == table.rows, f"deal {number}"
        assert on_foundations(Board(slug, number)) == on_foundations(table)


def test_the_replay_of_bastion_deals_as_pysol_cards_seahaven_does() -> None:
    """Seahaven Towers is dealt like Bastion: ten rows of five, two cards to cells."""
    from .pysolfc_deals import bastion

    for number in NUMBERS:
        text = Game("seahaven", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
            CardRenderer(True)
        )
        first, *lines = text.splitlines()
        assert first.startswith("Freecells:")
        freecells = first.split()[1:]
        columns = [line.split() for line in lines]
        table = bastion(number)
        assert columns == table.rows, f"deal {number}"
        dealt_to_cells = sorted(card for cell in table.reserves for card in cell)
        assert sorted(c for c in freecells if c != "-") == dealt_to_cells


@pytest.mark.parametrize("slug", TWINS)
def test_game_deals_as_pysolfc_numbers_its_twin(slug: str) -> None:
    for number in NUMBERS:
        table = DEALERS[slug](number)
        board = Board(slug, number)
        assert rows(board) == table.rows, f"deal {number}"
        assert on_foundations(board) == on_foundations(table), f"deal {number}"
        if table.reserves:
            assert cells(board) == table.reserves, f"deal {number}"
