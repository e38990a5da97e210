"""What the task worker keeps ready before anyone asks: dailies days ahead, pools of deals.

Each job is a ``job(now)`` function named by its dotted path in ``JOBS``. The worker
(``manage.py worker``) calls every job when it starts and then every
``settings.SCHEDULE_SECONDS``. A job only enqueues tasks (it never runs solver work itself),
is cheap, and is idempotent: running it twice, or from two workers at once, queues nothing
twice that matters.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

JOBS: tuple[str, ...] = ("games.pools.top_up", "games.daily_tasks.schedule_dailies")
"""Dotted paths of the scheduled jobs, in the order they run."""


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
