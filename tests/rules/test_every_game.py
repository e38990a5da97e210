"""What every declared game must have, whichever it is: adding a game to the registry is
enough for these to hold it to the standard (its rules page and page drawing are checked in
tests/web, its golden deals in test_deals)."""

from __future__ import annotations

import pytest

from games.rules import GAMES, Board
from games.rules.solver import solve


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_solver_decides_deal_1(slug: str) -> None:
    result = solve(Board(slug, 1), seconds=120, max_nodes=400_000)
    assert result.verdict != "unknown", f"{slug} deal 1 undecided after {result.nodes} positions"
