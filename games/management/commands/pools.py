"""``manage.py pools``: how full each game's pool of proved winnable deals is."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db.models import Count

from games import pools
from games.models import DealVerdict
from games.rules import GAMES


class Command(BaseCommand):
    help = "Show each game's pool: fresh proved deals per difficulty, and deals ever pooled."

    def handle(self, *args: object, **options: object) -> None:
        totals = dict(
            DealVerdict.objects.filter(pooled=True)
            .values_list("slug")
            .annotate(n=Count("pk"))
            .values_list("slug", "n")
        )
        self.stdout.write(f"{'game':<20} {'easy':>5} {'medium':>6} {'hard':>5} {'pooled':>7}")
        for slug in GAMES:
            fresh = pools.fresh_counts(slug)
            self.stdout.write(
                f"{slug:<20} {fresh['easy']:>5} {fresh['medium']:>6} {fresh['hard']:>5} "
                f"{totals.get(slug, 0):>7}"
            )
