"""``manage.py verify_leaderboard``: replay every entry from its deal; exit 1 on a mismatch."""

from django.core.management.base import BaseCommand

from games.daily import verify_entries
from games.models import Entry


class Command(BaseCommand):
    help = "Replay every leaderboard entry with the rules engine and count mismatches."

    def handle(self, *args: object, **options: object) -> None:
        problems = verify_entries()
        for problem in problems:
            self.stdout.write(problem)
        self.stdout.write(f"{Entry.objects.count()} entries checked, {len(problems)} mismatches")
        if problems:
            raise SystemExit(1)
