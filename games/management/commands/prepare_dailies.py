"""``manage.py prepare_dailies --days N``: today's dailies and the next N days', for every game,
here and now (the task worker does the same in the background; see games.daily_tasks).

Safe to run twice or on two servers at once: each (game, date) is one row by a unique
constraint, and every server sharing ``DAILY_SECRET`` computes the same deal.
"""

import datetime as dt
import time

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.daily import DailyUnavailable, daily_prepare, utc_today
from games.rules import GAMES


class Command(BaseCommand):
    help = "Prepare the daily challenges of today and the next N days (UTC)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=7, help="days after today (0-366)")
        parser.add_argument("--games", nargs="*", choices=list(GAMES), default=list(GAMES))

    def handle(self, *args: object, days: int, games: list[str], **options: object) -> None:
        if not 0 <= days <= 366:
            self.stderr.write("--days must be between 0 and 366")
            raise SystemExit(2)
        today = utc_today(timezone.now())
        missing = 0
        for offset in range(days + 1):
            date = today + dt.timedelta(days=offset)
            started = time.monotonic()
            for slug in games:
                try:
                    daily = daily_prepare(game=slug, date=date)
                except DailyUnavailable as error:
                    missing += 1
                    self.stdout.write(f"{date} {slug:<20} none: {error}")
                else:
                    self.stdout.write(f"{date} {slug:<20} par {daily.par}")
            self.stdout.write(f"{date} prepared in {time.monotonic() - started:.1f} s")
        if missing:
            self.stdout.write(f"{missing} game-days have no deal proved winnable")
