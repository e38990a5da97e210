"""What the task worker keeps ready before anyone asks (dailies days ahead, pools of deals)
and what it tidies (its own old task results).

Each job is a ``job(now)`` function named by its dotted path in ``JOBS``. The worker
(``manage.py worker``) calls every job when it starts and then every
``settings.SCHEDULE_SECONDS``. A job only enqueues tasks or deletes what is spent (it never
runs solver work itself), is cheap, and is idempotent: running it twice, or from two
workers at once, queues nothing twice that matters.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from django.contrib.sessions.models import Session
from django.db.models import Q
from django.tasks.base import TaskResultStatus
from django.utils.module_loading import import_string
from django_tasks_db.models import DBTaskResult

logger = logging.getLogger(__name__)

JOBS: tuple[str, ...] = (
    "games.pools.top_up",
    "games.daily_tasks.schedule_dailies",
    "games.schedule.prune_task_results",
    "games.schedule.prune_sessions",
)
"""Dotted paths of the scheduled jobs, in the order they run."""

KEEP_SUCCESSFUL = timedelta(days=1)
"""How long the worker's successful task results are kept."""
KEEP_FAILED = timedelta(days=7)
"""How long its failed ones are kept (their tracebacks, to read)."""


def jobs() -> list[Callable[[datetime], object]]:
    return [import_string(path) for path in JOBS]


def tick(now: datetime) -> int:
    """Run every job once; one failing job is logged and does not stop the others.

    Returns the number of jobs that failed."""
    failed = 0
    for job in jobs():
        try:
            job(now)
        except Exception:
            failed += 1
            logger.exception("scheduled job %s failed", getattr(job, "__name__", job))
    return failed


def prune_task_results(now: datetime) -> int:
    """Scheduled job: delete the worker's finished task results once they are old, as
    django-tasks-db's ``prune_db_task_results`` command does (here on the schedule's
    clock); how many. Every task leaves its row, and a pool batch runs every few seconds
    while a pool is short (a fresh site's worker left 272 in its first 30 minutes): without
    this (or that command from cron, which ``make run`` and ``make serve`` never ran) the
    table grows for ever, and the query that counts a game's batches of the last hour
    reads all of it. Nothing reads a finished result after that hour (the pools read the
    last hour's batches and their last result; a day's preparation looks only for one
    waiting or running)."""
    old = DBTaskResult.objects.finished().filter(
        Q(status=TaskResultStatus.SUCCESSFUL, finished_at__lte=now - KEEP_SUCCESSFUL)
        | Q(status=TaskResultStatus.FAILED, finished_at__lte=now - KEEP_FAILED)
    )
    deleted, _ = old.delete()
    return deleted


def prune_sessions(now: datetime) -> int:
    """Scheduled job: delete expired sessions, as Django's ``clearsessions`` command does (here
    on the schedule's clock); how many. Sessions live in the database (``cached_db``) and
    nothing else ever deletes one that simply ran out, so without this (or that command from
    cron) the table only grows: every browser that started a game leaves one."""
    deleted, _ = Session.objects.filter(expire_date__lt=now).delete()
    return deleted
