"""``manage.py prepare_dailies --days N``: today's dailies and the next N days' (the six
classics and each day's family game, or the ``--games`` given), here and now (the task
worker does the same in the background; see games.daily_tasks).

Safe to run twice or on two servers at once: each (game, date) is one row by a unique
constraint, and every server sharing ``DAILY_SECRET`` computes the same deal. Deal numbers
are never printed: days ahead are secret.

``--measure`` stores nothing: it chooses the deals of those days and prints the CPU time
each took and the median (how the Archway budget is checked: <= 30 s median over 30 days).
"""

import datetime as dt
import statistics
import time

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.daily import DailyUnavailable, choose_deal, daily_games, daily_prepare, utc_today
from games.rules import GAMES


class Command(BaseCommand):
    help = "Prepare the daily challenges of today and the next N days (UTC)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=7, help="days after today (0-366)")
        parser.add_argument(
            "--games", nargs="+", choices=list(GAMES), help="default: each day's daily games"
        )
        parser.add_argument(
            "--measure", action="store_true", help="time the choice of each deal; store nothing"
        )

    def handle(
        self, *args: object, days: int, games: list[str] | None, measure: bool, **options: object
    ) -> None:
        if not 0 <= days <= 366:
            self.stderr.write("--days must be between 0 and 366")
            raise SystemExit(2)
        today = utc_today(timezone.now())
        missing = 0
        cpu: dict[str, list[float]] = {}
        for offset in range(days + 1):
            date = today + dt.timedelta(days=offset)
            started = time.monotonic()
            for slug in games or daily_games(date):
                cpu.setdefault(slug, [])
                began = time.process_time()
                try:
                    if measure:
                        par = len(choose_deal(slug, date)[1])
                    else:
                        par = daily_prepare(slug=slug, date=date).par
                except DailyUnavailable as error:
                    missing += 1
                    self.stdout.write(f"{date} {slug:<20} none: {error}")
                    continue
                finally:
                    cpu[slug].append(time.process_time() - began)
                self.stdout.write(f"{date} {slug:<20} par {par} ({cpu[slug][-1]:.1f} s CPU)")
            self.stdout.write(f"{date} prepared in {time.monotonic() - started:.1f} s")
        if measure:
            for slug, times in cpu.items():
                self.stdout.write(
                    f"{slug}: median {statistics.median(times):.2f} s CPU, "
                    f"max {max(times):.2f} s over {len(times)} days"
                )
        if missing:
            # A cron job or a deploy step must see it: the day pages show no such challenge.
            self.stderr.write(f"{missing} game-days have no deal proved winnable")
            raise SystemExit(1)
