"""``manage.py worker``: run background tasks, and the schedule that enqueues them ahead.

One command for the whole background side: django-tasks-db's ``db_worker`` loop in the main
thread (it owns the signals, so Ctrl+C and SIGTERM finish the running task first), and a
thread that runs ``games.schedule.tick`` at start and every ``SCHEDULE_SECONDS``.
``make run`` and ``make serve`` start one beside the web server; run one per machine (or
more: tasks are claimed under a row lock, and scheduled jobs are idempotent).
"""

from __future__ import annotations

import threading
from datetime import datetime

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections
from django.tasks import default_task_backend
from django.tasks.base import TaskResultStatus
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks_db.models import DBTaskResult

from games import schedule

MAX_INTERVAL = 3600.0
"""Seconds between polls of an empty queue, at most: a day's task would wait that long."""


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

    def handle(
        self, *args: object, interval: float, batch: bool, queue_name: str, **options: object
    ) -> None:
        if not 0 <= interval <= MAX_INTERVAL:  # nan too: it ended in time.sleep's traceback
            self.stderr.write(f"--interval must be 0 to {MAX_INTERVAL:g} seconds")
            raise SystemExit(2)
        if unknown := unknown_queues(queue_name):
            # db_worker would wait on them for ever, or exit 0 at once in a batch.
            known = ", ".join(sorted(default_task_backend.queues))
            self.stderr.write(f"No such queue: {', '.join(unknown)} (the queues: {known}, or *)")
            raise SystemExit(2)
        failed = 0
        started = timezone.now()
        if batch:
            if not options["no_schedule"]:
                failed = schedule.tick(started)
        elif not options["no_schedule"]:
            threading.Thread(target=self._schedule, name="castle-schedule", daemon=True).start()
        worker_id = get_random_string(32)
        call_command(
            "db_worker",
            queue_name=queue_name,
            interval=interval,
            batch=batch,
            startup_delay=False,
            reload=False,
            worker_id=worker_id,
            verbosity=options["verbosity"],
        )
        # A cron job or a deploy step running the batch must see a failure (the log and the
        # task's result have the tracebacks): it exited 0 after a task failed (a review).
        tasks_failed = failed_tasks(worker_id, since=started) if batch else 0
        if failed or tasks_failed:
            counts = {"scheduled job": failed, "task": tasks_failed}
            said = " and ".join(f"{n} {what}{'s' * (n > 1)}" for what, n in counts.items() if n)
            self.stderr.write(f"{said} failed: see the log")
            raise SystemExit(1)

    def _schedule(self) -> None:
        stop = threading.Event()
        while True:
            schedule.tick(timezone.now())
            close_old_connections()  # this thread's own connection, between ticks
            if stop.wait(settings.SCHEDULE_SECONDS):
                return


def unknown_queues(names: str) -> list[str]:
    """The names in ``--queue-name`` (comma-separated; ``*`` is every queue) that the task
    backend has no queue of: no task is ever enqueued on one."""
    return [
        name for name in names.split(",") if name != "*" and name not in default_task_backend.queues
    ]


def failed_tasks(worker_id: str, *, since: datetime) -> int:
    """How many tasks this worker (``worker_id``, db_worker's) ran that failed: a worker on
    another machine claims its own."""
    failures = DBTaskResult.objects.filter(
        status=TaskResultStatus.FAILED, finished_at__gte=since
    ).values_list("worker_ids", flat=True)
    return sum(worker_id in ids for ids in failures)
