"""The daily challenge's test data: Citadel deal 3 (its winning line is known) as the daily of
a day, and that day's clock."""

import datetime as dt
from pathlib import Path

from games.models import Daily
from games.rules.record import split_record

LINE = split_record((Path(__file__).parents[1] / "browser/lines/citadel-3.txt").read_text())[1]
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
        slug=game, date=date, deal=3, par=len(LINE) - 4, solution=" ".join(LINE)
    )
