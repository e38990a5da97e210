"""``manage.py worker``: run background tasks, and the schedule that enqueues them ahead.

One command for the whole background side: django-tasks-db's ``db_worker`` loop in the main
thread (it owns the signals, so Ctrl+C and SIGTERM finish the running task first), and a
thread that runs ``games.schedule.tick`` at start and every ``SCHEDULE_SECONDS``.
``make run`` and ``make serve`` start one beside the web server; run one per machine (or
more: tasks are claimed under a row lock, and scheduled jobs are idempotent).
"""

from __future__ import annotations

import threading

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.tasks import default_task_backend
from django.utils import timezone

from games import schedule


class Command(BaseCommand):
    help = "Run background tasks (solver work) and the schedule that keeps work ready ahead."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--interval", type=float, default=1.0, help="seconds between polls of an empty queue"
        )
        parser.add_argument(
            "--batch",
            action="store_true",
            help="run the schedule once, then every queued task, then exit",
        )
        parser.add_argument(
            "--no-schedule", action="store_true", help="run tasks only, never the schedule"
        )
        parser.add_argument(
            "--queue-name", default="*", help="queues to run, comma-separated (default: all)"
        )

    def handle(self, *args: object, interval: float, batch: bool, **options: object) -> None:
        if interval < 0:
            self.stderr.write("--interval must not be negative")
            raise SystemExit(2)
        if unknown := unknown_queues(options["queue_name"]):
            # db_worker would wait on them for ever, or exit 0 at once in a batch.
            known = ", ".join(sorted(default_task_backend.queues))
            self.stderr.write(f"No such queue: {', '.join(unknown)} (the queues: {known}, or *)")
            raise SystemExit(2)
        failed = 0
        if batch:
            if not options["no_schedule"]:
                failed = schedule.tick(timezone.now())
        elif not options["no_schedule"]:
            threading.Thread(target=self._schedule, name="castle-schedule", daemon=True).start()
        call_command(
            "db_worker",
            queue_name=options["queue_name"],
            interval=interval,
            batch=batch,
            startup_delay=False,
            reload=False,
            verbosity=options["verbosity"],
        )
        if failed:  # a cron job running the batch must see it (the log has the tracebacks)
            self.stderr.write(f"{failed} scheduled jobs failed: see the log")
            raise SystemExit(1)

    def _schedule(self) -> None:
        stop = threading.Event()
        while True:
            schedule.tick(timezone.now())
            close_old_connections()  # this thread's own connection, between ticks
            if stop.wait(settings.SCHEDULE_SECONDS):
                return


def unknown_queues(names: object) -> list[str]:
    """The names in ``--queue-name`` (comma-separated; ``*`` is every queue) that the task
    backend has no queue of: no task is ever enqueued on one."""
    assert isinstance(names, str)
    return [
        name for name in names.split(",") if name != "*" and name not in default_task_backend.queues
    ]
