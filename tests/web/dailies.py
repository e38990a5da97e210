"""The daily challenge's test data: Citadel deal 3 (its winning line is known) as the daily of
a day, and that day's clock."""

import datetime as dt
from pathlib import Path

from games.models import Daily
from games.rules.record import split_record

LINE = split_record((Path(__file__).parents[1] / "browser/lines/citadel-3.txt").read_text())[1]
SOLUTION = [
    "t1-t4",
    "t1-f1",
    "t4-f1",
    "t8-f1",
    "t8-f3",
    "t8-f3",
    "t4-f3",
    "t5-t2",
    "t7-t3",
    "t6-t3",
    "t6-f1",
    "t7-f1",
    "t8-t6",
    "t8-f2",
    "t5-t8",
    "t5-f3",
    "t5-t8",
    "t5-f4",
    "t2-f1",
    "t4-f4",
    "t4-f2",
    "t4-t8",
    "t4-f3",
    "t6-t4",
    "t6-t5",
    "t6-f4",
    "t6-f3",
    "t1-t4",
    "t7-f1",
    "t1-f1",
    "t3-f4",
    "t2-f3",
    "t3-t4",
    "t7-f3",
    "t3-f1",
    "t3-t6",
    "t3-f2",
    "t1-f2",
    "t2-f2",
    "t3-f4",
    "t3-f2",
    "t4-f2",
    "t3-f1",
    "t4-f2",
    "t4-f2",
    "t8-f4",
    "t8-f4",
    "t2-t1",
    "t2-f3",
    "t6-f2",
    "t1-f3",
    "t1-f1",
    "t8-f3",
    "t5-f4",
]
"""The solver's line for Citadel deal 3, as a daily stores it (what its hints show): not
``LINE``, which a person played, and which wins here unflagged."""
DAY = dt.date(2026, 11, 22)
NOON = dt.datetime(2026, 11, 22, 12, tzinfo=dt.UTC)
PASSWORD = "correct horse battery staple"


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def midnight() -> dt.datetime:
    """The start of today's UTC day: wins from here on are on time."""
    return utc_now().replace(hour=0, minute=0, second=0, microsecond=0)


def make_daily(date: dt.date, game: str = "citadel") -> Daily:
    """Citadel deal 3 as the daily of ``date`` (its 68-move winning line is known)."""
    return Daily.objects.create(
        slug=game, date=date, deal=3, par=len(SOLUTION), solution=" ".join(SOLUTION)
    )
