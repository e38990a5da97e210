"""``manage.py verify_leaderboard``: replay every entry from its deal and list the entries a
moderator must look at (flagged by the speed rule, or hidden); exit 1 on a mismatch."""

from django.core.management.base import BaseCommand

from games.leaderboard import moderation_report, verify_entries
from games.models import Entry


class Command(BaseCommand):
    help = "Replay every leaderboard entry with the rules engine; report flagged/hidden entries."

    def handle(self, *args: object, **options: object) -> None:
        problems = verify_entries()
        for problem in problems:
            self.stdout.write(problem)
        review = moderation_report()
        for line in review:
            self.stdout.write(line)
        flagged = Entry.objects.filter(flagged=True).count()
        hidden = Entry.objects.filter(hidden=True).count()
        self.stdout.write(
            f"{Entry.objects.count()} entries checked, {len(problems)} mismatches, "
            f"{flagged} flagged, {hidden} hidden"
        )
        if problems:
            raise SystemExit(1)
