"""Archway's daily: a fresh winnable deal every day from secret-seeded candidates.

About one Archway deal in 2,000 is winnable, so a day searches up to 20,000 candidates with
the solver's exact Archway verdicts (a few milliseconds each): thirty days take about three
minutes, the suite's slowest test, kept because it is what the daily promises.
"""

import datetime as dt

from games import daily as dailies
from games.rules import Board


def test_thirty_consecutive_archway_dailies_are_different_deals_each_proved_won() -> None:
    first = dt.date(2026, 12, 1)
    deals = []
    for offset in range(30):
        date = first + dt.timedelta(days=offset)
        deal, line = dailies.choose_deal("archway", date)
        board = Board("archway", deal)
        for move in line:
            board.play(move)  # the proof replays through the rules
        assert board.is_won(), (date, deal)
        assert deal in set(dailies.candidate_deals("archway", date))
        deals.append(deal)

    assert len(set(deals)) == 30
